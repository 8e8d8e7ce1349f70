// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/call_timing.h"
#include "core/engine/strategy.h"

#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace iolab {

// A chunk size known when the loop is compiled. A loop instantiated with it compiles the way a user's own
// loop with a literal size does: a C library call whose size is a constant can be expanded inline (glibc's
// <stdio.h> turns fwrite_unlocked of at most 8 bytes into putc_unlocked calls).
template <std::uint64_t N> using FixedChunk = std::integral_constant<std::uint64_t, N>;

inline constexpr std::uint64_t kLargestFixedChunk = 8;

// Calls body(FixedChunk<N>{}) when chunkBytes is N, 1 <= N <= kLargestFixedChunk, and body(chunkBytes)
// otherwise: the choice is made once, outside the loop.
template <class Body> auto withFixedChunk(std::uint64_t chunkBytes, Body&& body)
{
    switch (chunkBytes) {
    case 1:
        return body(FixedChunk<1>{});
    case 2:
        return body(FixedChunk<2>{});
    case 3:
        return body(FixedChunk<3>{});
    case 4:
        return body(FixedChunk<4>{});
    case 5:
        return body(FixedChunk<5>{});
    case 6:
        return body(FixedChunk<6>{});
    case 7:
        return body(FixedChunk<7>{});
    case 8:
        return body(FixedChunk<8>{});
    default:
        return body(chunkBytes);
    }
}

// The shared shape of every write loop. `write(offset, length)` and `sync()` return false on failure (the
// strategy keeps the error). Inside a batch there is nothing but the strategy's call: progress (with the
// kill -9 probe's acknowledgement point, Progress::addAndHoldAtPoint), the stop flag and one clock read
// happen once per batch. A batch starts at one write, doubles while batches take under 2 ms (up to 64 KiB of
// writes) and shrinks once one takes over 20 ms, so that a stop lands within ~20 ms (or one write, where a
// write takes longer) even when every write waits for the device. `chunk` is a byte count or a FixedChunk;
// each full chunk's write gets it as it came, the short tail a plain count. `timer` is
// NoCallTimer or CallTimer (core/engine/call_timing.h): with a CallTimer every call and every sync is timed
// into the thread's histograms, with NoCallTimer the loop is compiled without a clock read per call.
template <class Timer, std::convertible_to<std::uint64_t> Chunk, class WriteFn, class SyncFn>
LoopEnd runChunks(std::uint64_t totalBytes, Chunk chunk, std::uint32_t syncEveryWrites, Progress& progress,
                  const Timer& timer, WriteFn&& write, SyncFn&& sync)
{
    using Clock = TimingClock;
    constexpr std::uint64_t kGrainBytes = std::uint64_t{64} * 1024;
    constexpr auto kSlowBatch = std::chrono::milliseconds(20);
    constexpr auto kFastBatch = std::chrono::milliseconds(2);
    const auto chunkBytes = static_cast<std::uint64_t>(chunk);

    const std::uint64_t fullWrites = totalBytes / chunkBytes;
    const std::uint64_t tailBytes = totalBytes % chunkBytes;
    const std::uint64_t maxBatch =
        progress.everyCall ? 1 : std::max<std::uint64_t>(1, kGrainBytes / chunkBytes);
    // Not yet timed: a first batch of 64 KiB of slow writes would hold a stop for seconds.
    std::uint64_t batch = 1;
    std::uint64_t untilSync = syncEveryWrites;
    std::uint64_t offset = 0;
    std::uint64_t done = 0;

    while (done < fullWrites) {
        std::uint64_t count = std::min(batch, fullWrites - done);
        if (syncEveryWrites != 0)
            count = std::min(count, untilSync);
        const auto started = Clock::now();
        [[maybe_unused]] auto callStarted = started;
        const std::uint64_t batchStart = offset;
        // Unrolled so that the engine's own loop work (counter, bound, branch) is amortised over four calls.
#pragma GCC unroll 4
        for (std::uint64_t i = 0; i < count; ++i) {
            if (!write(offset, chunk)) [[unlikely]] {
                progress.add(offset - batchStart);
                return LoopEnd::Failed;
            }
            if constexpr (Timer::kOn) {
                const auto now = Clock::now();
                timer.calls->record(elapsedNs(callStarted, now));
                callStarted = now;
            }
            offset += chunkBytes;
        }
        done += count;
        if (syncEveryWrites != 0) {
            untilSync -= count;
            if (untilSync == 0) {
                if (!timedSync(timer, sync))
                    return LoopEnd::Failed;
                // Everything this loop has written is durable now: once per sync, never per write.
                progress.markDurable(progress.bytes.load(std::memory_order_relaxed) + (offset - batchStart),
                                     Clock::now());
                untilSync = syncEveryWrites;
            }
        }
        progress.addAndHoldAtPoint(offset - batchStart);
        if (progress.stopRequested())
            return progress.stoppedEnd();
        const auto took = Clock::now() - started;
        if (took > kSlowBatch && batch > 1)
            batch = std::max<std::uint64_t>(1, batch / 4);
        else if (took < kFastBatch && batch < maxBatch)
            batch = std::min(maxBatch, batch * 2);
    }
    if (tailBytes != 0) {
        [[maybe_unused]] const auto callStarted = Clock::now();
        if (!write(offset, tailBytes))
            return LoopEnd::Failed;
        if constexpr (Timer::kOn)
            timer.calls->record(elapsedNs(callStarted, Clock::now()));
        progress.addAndHoldAtPoint(tailBytes);
    }
    return LoopEnd::Completed;
}

// runChunks without timing: the loop as it was before latency recording existed.
template <std::convertible_to<std::uint64_t> Chunk, class WriteFn, class SyncFn>
LoopEnd runChunks(std::uint64_t totalBytes, Chunk chunk, std::uint32_t syncEveryWrites, Progress& progress,
                  WriteFn&& write, SyncFn&& sync)
{
    return runChunks(totalBytes, chunk, syncEveryWrites, progress, NoCallTimer{},
                     std::forward<WriteFn>(write), std::forward<SyncFn>(sync));
}

// What one reap of an asynchronous queue returns: how many write or read requests completed (successful or
// not), how many queued syncs completed, the bytes the successful requests moved, and whether any request or
// sync failed (the queue keeps the error).
struct Reaped
{
    std::uint64_t requests = 0;
    std::uint64_t syncs = 0;
    std::uint64_t bytes = 0;
    bool failed = false;
    // Queued syncs: of `bytes`, those of the requests that completed before the last sync in this reap did
    // (a queued sync drains, so it covers exactly what completed before it).
    std::uint64_t syncedBytes = 0;
};

// A queue that can put a sync in line behind the writes before it (io_uring: IORING_OP_FSYNC with
// IOSQE_IO_DRAIN, which starts only once everything submitted before it has completed, and holds back what
// comes after it until it has). submitSync() queues one; its completion comes back in Reaped::syncs.
template <class Q>
concept QueuesSyncs = requires(Q& queue)
{
    {
        queue.submitSync()
        } -> std::convertible_to<bool>;
};

// A queue whose sync is a blocking call made with nothing in flight (Windows: FlushFileBuffers).
template <class Q>
concept SyncsWhenDrained = requires(Q& queue)
{
    {
        queue.sync()
        } -> std::convertible_to<bool>;
};

// An asynchronous strategy's queue (io_uring, overlapped I/O). submit() queues one request and returns false
// when it cannot (the request is then not in flight, the queue keeps the error). reap(minRequests) hands
// the queued requests to the OS if it has not yet, waits until at least minRequests of those in flight
// (requests or queued syncs) have completed and returns every completion it has; a short transfer is the
// queue's to resubmit, so a request counts once, when all of it is done. A queue either queues syncs
// (QueuesSyncs) or syncs when drained (SyncsWhenDrained). A reap that returns nothing although something is
// in flight means the queue can complete no more: the loop then ends Failed and the queue's owner must cancel
// and wait for them before releasing their buffers.
template <class Q, class Chunk>
concept RequestQueue = requires(Q& queue, std::uint64_t offset, Chunk chunk, std::uint64_t count)
{
    {
        queue.submit(offset, chunk)
        } -> std::convertible_to<bool>;
    {
        queue.submit(offset, count)
        } -> std::convertible_to<bool>;
    {
        queue.reap(count)
        } -> std::same_as<Reaped>;
}
&&(QueuesSyncs<Q> || SyncsWhenDrained<Q>);

// The asynchronous shape of runChunks: keeps up to queueDepth requests in flight (submit until the queue is
// full, then reap at least one completion). Progress is added and the stop flag polled once per reap, that
// is per batch of completions. On a failure or a stop nothing more is submitted and everything in flight is
// reaped before the loop returns, so the caller may release the buffers at once.
// With syncEveryWrites, a sync follows every that many full writes, as in runChunks (the tail write is not
// counted). A queue that QueuesSyncs gets it in line, taking a place in the queue like a request, and the
// loop goes on submitting behind it; otherwise the loop stops submitting, lets the queue drain and calls
// sync().
template <std::convertible_to<std::uint64_t> Chunk, RequestQueue<Chunk> Queue>
LoopEnd runQueuedChunks(std::uint64_t totalBytes, Chunk chunk, std::uint32_t queueDepth,
                        std::uint32_t syncEveryWrites, Progress& progress, Queue& queue)
{
    constexpr bool kQueuedSyncs = QueuesSyncs<Queue>;
    const auto chunkBytes = static_cast<std::uint64_t>(chunk);
    const std::uint64_t depth = std::max<std::uint32_t>(1, queueDepth);
    const std::uint64_t fullWrites = totalBytes / chunkBytes;
    const std::uint64_t tailBytes = totalBytes % chunkBytes;
    const std::uint64_t requests = fullWrites + (tailBytes != 0 ? 1 : 0);

    std::uint64_t submitted = 0;
    std::uint64_t inFlight = 0; // requests and queued syncs
    std::uint64_t untilSync = syncEveryWrites;
    LoopEnd end = LoopEnd::Completed;
    const auto syncDue = [&] {
        return syncEveryWrites != 0 && untilSync == 0;
    };

    // Waits for at least one completion and accounts for what came back; false when nothing could be reaped.
    const auto reapSome = [&]() {
        const Reaped reaped = queue.reap(1);
        const std::uint64_t done = reaped.requests + reaped.syncs;
        inFlight -= std::min(inFlight, done);
        if constexpr (kQueuedSyncs) {
            if (reaped.syncs != 0 && !reaped.failed)
                progress.markDurable(progress.bytes.load(std::memory_order_relaxed) + reaped.syncedBytes,
                                     TimingClock::now());
        }
        progress.addAndHoldAtPoint(reaped.bytes);
        if (reaped.failed)
            end = LoopEnd::Failed;
        return done != 0;
    };

    while (end == LoopEnd::Completed &&
           (submitted < requests || inFlight != 0 || (kQueuedSyncs && syncDue()))) {
        while (inFlight < depth) {
            if (syncDue()) {
                if constexpr (kQueuedSyncs) {
                    if (!queue.submitSync()) [[unlikely]] {
                        end = LoopEnd::Failed;
                        break;
                    }
                    ++inFlight;
                    untilSync = syncEveryWrites;
                    continue;
                } else {
                    break; // synced below, once the queue has drained
                }
            }
            if (submitted == requests)
                break;
            const std::uint64_t offset = submitted * chunkBytes;
            const bool full = submitted < fullWrites;
            if (!(full ? queue.submit(offset, chunk) : queue.submit(offset, tailBytes))) [[unlikely]] {
                end = LoopEnd::Failed;
                break;
            }
            ++submitted;
            ++inFlight;
            if (syncEveryWrites != 0 && full)
                --untilSync;
        }
        if (inFlight != 0 && !reapSome()) [[unlikely]]
            return LoopEnd::Failed; // the queue says it can complete nothing more
        if (end != LoopEnd::Completed)
            break;
        if (progress.stopRequested()) {
            end = progress.stoppedEnd();
            break;
        }
        if constexpr (!kQueuedSyncs) {
            if (syncDue() && inFlight == 0) {
                if (!queue.sync())
                    return LoopEnd::Failed;
                progress.markDurable(progress.bytes.load(std::memory_order_relaxed), TimingClock::now());
                untilSync = syncEveryWrites;
            }
        }
    }
    while (inFlight != 0) {
        if (!reapSome()) [[unlikely]]
            return LoopEnd::Failed;
    }
    return end;
}

} // namespace iolab
