// SPDX-License-Identifier: MIT
// The asynchronous shape of the chunk loop, driven by a fake queue that completes requests out of order.
#include "core/engine/chunk_loop.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace iolab;

namespace {

struct Request
{
    std::uint64_t offset = 0;
    std::uint64_t bytes = 0;
};

// Holds submitted requests until reaped; each reap completes a varying number of them (at least the minimum)
// in a scrambled order, as a device with a deep queue does.
class FakeQueue
{
public:
    bool submit(std::uint64_t offset, std::uint64_t bytes)
    {
        ++submits;
        if (failedSeen)
            ++submitsAfterFailure;
        if (stopSeen != nullptr && stopSeen->load())
            ++submitsAfterStop;
        if (refuseSubmitAt == offset)
            return false;
        m_inFlight.push_back({offset, bytes});
        maxInFlight = std::max(maxInFlight, m_inFlight.size());
        return true;
    }

    Reaped reap(std::uint64_t minRequests)
    {
        ++reaps;
        Reaped reaped;
        if (stuck)
            return reaped;
        EXPECT_GE(minRequests, 1u);
        EXPECT_FALSE(m_inFlight.empty()) << "reap called with nothing in flight";
        m_seed = m_seed * 6364136223846793005ULL + 1442695040888963407ULL;
        const std::uint64_t extra = (m_seed >> 33) % (m_inFlight.size() + 1);
        const std::uint64_t count = std::min<std::uint64_t>(m_inFlight.size(), std::max(minRequests, extra));
        for (std::uint64_t i = 0; i < count; ++i) {
            m_seed = m_seed * 6364136223846793005ULL + 1442695040888963407ULL;
            const std::size_t pick = (m_seed >> 33) % m_inFlight.size();
            const Request request = m_inFlight[pick];
            m_inFlight.erase(m_inFlight.begin() + static_cast<std::ptrdiff_t>(pick));
            ++reaped.requests;
            if (failAt == request.offset) {
                reaped.failed = true;
                failedSeen = true;
                continue;
            }
            reaped.bytes += request.bytes;
            completed.push_back(request);
        }
        if (onReap)
            onReap(*this);
        return reaped;
    }

    bool sync()
    {
        EXPECT_TRUE(m_inFlight.empty()) << "a sync must wait for the writes in flight";
        syncedAfter.push_back(completed.size());
        return true;
    }

    std::size_t inFlight() const { return m_inFlight.size(); }

    std::optional<std::uint64_t> failAt;         // this request completes with an error
    std::optional<std::uint64_t> refuseSubmitAt; // this request cannot be queued
    bool stuck = false;                          // reap completes nothing
    const std::atomic<bool>* stopSeen = nullptr;
    std::function<void(FakeQueue&)> onReap;

    std::vector<Request> completed;
    std::vector<std::size_t> syncedAfter;
    std::size_t maxInFlight = 0;
    std::uint64_t submits = 0;
    std::uint64_t submitsAfterFailure = 0;
    std::uint64_t submitsAfterStop = 0;
    std::uint64_t reaps = 0;
    bool failedSeen = false;

private:
    std::vector<Request> m_inFlight;
    std::uint64_t m_seed = 12345;
};

// True when the completed requests cover [0, total) exactly once, chunk by chunk.
bool coversExactly(std::vector<Request> done, std::uint64_t total)
{
    std::sort(done.begin(), done.end(),
              [](const Request& a, const Request& b) { return a.offset < b.offset; });
    std::uint64_t next = 0;
    for (const Request& r : done) {
        if (r.offset != next)
            return false;
        next += r.bytes;
    }
    return next == total;
}

std::uint64_t bytesOf(const std::vector<Request>& done)
{
    std::uint64_t sum = 0;
    for (const Request& r : done)
        sum += r.bytes;
    return sum;
}

class QueuedLoop : public ::testing::TestWithParam<std::uint32_t>
{};

} // namespace

TEST_P(QueuedLoop, WritesEveryByteOnceAndKeepsTheQueueFull)
{
    const std::uint32_t depth = GetParam();
    constexpr std::uint64_t kChunk = 4096;
    constexpr std::uint64_t kTotal = 1000 * kChunk + 123;
    Progress progress;
    FakeQueue queue;
    const auto end = runQueuedChunks(kTotal, kChunk, depth, 0, progress, queue);
    EXPECT_EQ(end, LoopEnd::Completed);
    EXPECT_TRUE(coversExactly(queue.completed, kTotal));
    EXPECT_EQ(queue.completed.size(), 1001u);
    EXPECT_EQ(queue.maxInFlight, depth) << "the queue is filled up to its depth, never past it";
    EXPECT_EQ(queue.inFlight(), 0u);
    EXPECT_EQ(progress.bytes.load(), kTotal);
    EXPECT_TRUE(queue.syncedAfter.empty());
}

TEST_P(QueuedLoop, AFailureMidFlightStopsSubmittingAndReapsEverythingInFlight)
{
    const std::uint32_t depth = GetParam();
    constexpr std::uint64_t kChunk = 512;
    Progress progress;
    FakeQueue queue;
    queue.failAt = 300 * kChunk;
    const auto end = runQueuedChunks(std::uint64_t{1} << 20, kChunk, depth, 0, progress, queue);
    EXPECT_EQ(end, LoopEnd::Failed);
    EXPECT_EQ(queue.inFlight(), 0u) << "every request in flight is reaped before the loop returns";
    EXPECT_EQ(queue.submitsAfterFailure, 0u);
    EXPECT_LE(queue.submits, 301u + depth);
    EXPECT_EQ(progress.bytes.load(), bytesOf(queue.completed)) << "only the successful writes count";
    EXPECT_LT(progress.bytes.load(), std::uint64_t{1} << 20);
}

TEST_P(QueuedLoop, ACancelWithRequestsInFlightReapsThemAndStops)
{
    const std::uint32_t depth = GetParam();
    std::atomic<bool> stop{false};
    Progress progress;
    progress.stop = &stop;
    FakeQueue queue;
    queue.stopSeen = &stop;
    std::size_t inFlightAtStop = 0;
    queue.onReap = [&](FakeQueue& q) {
        if (!stop.load() && q.completed.size() >= 200) {
            inFlightAtStop = q.inFlight();
            stop.store(true);
        }
    };
    const auto end = runQueuedChunks(std::uint64_t{1} << 30, 4096, depth, 0, progress, queue);
    EXPECT_EQ(end, LoopEnd::Cancelled);
    if (depth > 1) {
        EXPECT_GT(inFlightAtStop, 0u) << "the stop came with requests in flight";
    }
    EXPECT_EQ(queue.inFlight(), 0u);
    EXPECT_EQ(queue.submitsAfterStop, 0u);
    EXPECT_LE(queue.completed.size(), 200u + depth);
    EXPECT_EQ(progress.bytes.load(), bytesOf(queue.completed));
}

TEST_P(QueuedLoop, ATimeLimitEndsLikeTheSizeDoesAndTheUserStopStillCancels)
{
    const std::uint32_t depth = GetParam();
    for (const bool userStopToo : {false, true}) {
        std::atomic<bool> stop{false};
        std::atomic<bool> timeUp{false};
        Progress progress;
        progress.stop = &stop;
        progress.timeUp = &timeUp;
        FakeQueue queue;
        queue.stopSeen = &timeUp;
        queue.onReap = [&](FakeQueue& q) {
            if (!timeUp.load() && q.completed.size() >= 100) {
                timeUp.store(true);
                stop.store(userStopToo);
            }
        };
        const auto end = runQueuedChunks(std::uint64_t{1} << 30, 4096, depth, 0, progress, queue);
        EXPECT_EQ(end, userStopToo ? LoopEnd::Cancelled : LoopEnd::Completed)
            << "the time limit ends the loop as its size would; the user's stop wins over it";
        EXPECT_EQ(queue.inFlight(), 0u);
        EXPECT_EQ(queue.submitsAfterStop, 0u) << "nothing is submitted once the time is up";
        EXPECT_EQ(progress.bytes.load(), bytesOf(queue.completed));
        EXPECT_TRUE(coversExactly(queue.completed, progress.bytes.load())) << "a prefix, without holes";
    }
}

TEST_P(QueuedLoop, SyncsEveryNWritesWithNothingInFlight)
{
    Progress progress;
    FakeQueue queue;
    const auto end = runQueuedChunks(100 * 10 + 5, 10, GetParam(), 30, progress, queue);
    EXPECT_EQ(end, LoopEnd::Completed);
    EXPECT_EQ(queue.syncedAfter, (std::vector<std::size_t>{30, 60, 90}))
        << "as runChunks: the tail is not counted";
    EXPECT_TRUE(coversExactly(queue.completed, 1005));
    EXPECT_LE(queue.maxInFlight, GetParam());
}

namespace {

// A queue that takes syncs in line, as io_uring does with IOSQE_IO_DRAIN: a sync completes only once every
// request submitted before it has, and no request submitted after it completes before it.
class FakeSyncQueue
{
public:
    bool submit(std::uint64_t offset, std::uint64_t bytes)
    {
        EXPECT_LT(m_entries.size(), depth) << "more in flight than the queue depth, syncs included";
        if (std::any_of(m_entries.begin(), m_entries.end(), [](const Entry& e) { return e.sync; }))
            ++writesBehindASync;
        if (bytes == chunk)
            ++m_fullSubmitted;
        m_entries.push_back({false, offset, bytes, 0});
        return true;
    }

    bool submitSync()
    {
        EXPECT_LT(m_entries.size(), depth) << "a sync takes a place in the queue";
        if (refuseSync)
            return false;
        syncs.push_back({m_fullSubmitted, writesInFlight()});
        m_entries.push_back({true, 0, 0, syncs.size() - 1});
        return true;
    }

    // Completes a scrambled subset of what may complete: any request with no sync ahead of it still in the
    // queue, or the oldest sync once nothing is ahead of it.
    Reaped reap(std::uint64_t minRequests)
    {
        Reaped reaped;
        EXPECT_FALSE(m_entries.empty()) << "reap called with nothing in flight";
        while (reaped.requests + reaped.syncs < minRequests || (m_seed >> 40) % 3 != 0) {
            m_seed = m_seed * 6364136223846793005ULL + 1442695040888963407ULL;
            if (m_entries.empty())
                break;
            if (m_entries.front().sync) {
                const Entry e = m_entries.front();
                m_entries.erase(m_entries.begin());
                syncCompletedAfter.push_back(completed.size());
                ++reaped.syncs;
                if (failSync == e.syncIndex)
                    reaped.failed = true;
                continue;
            }
            // The requests before the first sync may complete in any order.
            std::size_t open = 0;
            while (open < m_entries.size() && !m_entries[open].sync)
                ++open;
            const std::size_t pick = (m_seed >> 33) % open;
            const Entry e = m_entries[pick];
            m_entries.erase(m_entries.begin() + static_cast<std::ptrdiff_t>(pick));
            completed.push_back({e.offset, e.bytes});
            reaped.bytes += e.bytes;
            ++reaped.requests;
        }
        return reaped;
    }

    std::size_t writesInFlight() const
    {
        return static_cast<std::size_t>(
            std::count_if(m_entries.begin(), m_entries.end(), [](const Entry& e) { return !e.sync; }));
    }
    std::size_t inFlight() const { return m_entries.size(); }

    struct SyncSeen
    {
        std::uint64_t fullWritesBefore;
        std::size_t writesInFlight;
    };

    std::uint64_t chunk = 0;
    std::size_t depth = 0;
    bool refuseSync = false;
    std::optional<std::size_t> failSync;
    std::vector<SyncSeen> syncs;
    std::vector<std::size_t> syncCompletedAfter;
    std::uint64_t writesBehindASync = 0; // submitted while a sync was in the queue
    std::vector<Request> completed;

private:
    struct Entry
    {
        bool sync;
        std::uint64_t offset;
        std::uint64_t bytes;
        std::size_t syncIndex;
    };
    std::vector<Entry> m_entries;
    std::uint64_t m_fullSubmitted = 0;
    std::uint64_t m_seed = 777;
};

} // namespace

TEST_P(QueuedLoop, AQueueThatTakesSyncsGetsOneInLineAfterEveryNWritesWithoutDraining)
{
    const std::uint32_t depth = GetParam();
    Progress progress;
    FakeSyncQueue queue;
    queue.chunk = 10;
    queue.depth = depth;
    const auto end = runQueuedChunks(100 * 10 + 5, 10, depth, 30, progress, queue);
    EXPECT_EQ(end, LoopEnd::Completed);
    ASSERT_EQ(queue.syncs.size(), 3u) << "after 30, 60 and 90 full writes; the tail is not counted";
    for (std::size_t i = 0; i < queue.syncs.size(); ++i) {
        EXPECT_EQ(queue.syncs[i].fullWritesBefore, 30u * (i + 1));
        EXPECT_GE(queue.syncCompletedAfter[i], 30u * (i + 1));
    }
    if (depth > 30) {
        EXPECT_GT(queue.syncs[0].writesInFlight, 0u) << "the loop queued the sync without draining the queue";
        EXPECT_GT(queue.writesBehindASync, 0u) << "writes went on behind the sync";
    }
    EXPECT_EQ(queue.inFlight(), 0u) << "every sync is reaped before the loop returns";
    EXPECT_TRUE(coversExactly(queue.completed, 1005));
    EXPECT_EQ(progress.bytes.load(), 1005u);
}

TEST_P(QueuedLoop, ASyncDueAfterTheLastWriteIsStillQueuedAndReaped)
{
    // 90 writes, every 30: the third sync falls due with the last write, when the queue may be full.
    Progress progress;
    FakeSyncQueue queue;
    queue.chunk = 10;
    queue.depth = GetParam();
    EXPECT_EQ(runQueuedChunks(900, 10, GetParam(), 30, progress, queue), LoopEnd::Completed);
    ASSERT_EQ(queue.syncs.size(), 3u);
    EXPECT_EQ(queue.syncs.back().fullWritesBefore, 90u);
    EXPECT_EQ(queue.syncCompletedAfter.size(), 3u);
    EXPECT_EQ(queue.inFlight(), 0u);
}

TEST_P(QueuedLoop, AFailedQueuedSyncFailsTheLoopAndEverythingIsReaped)
{
    Progress progress;
    FakeSyncQueue queue;
    queue.chunk = 10;
    queue.depth = GetParam();
    queue.failSync = 1;
    EXPECT_EQ(runQueuedChunks(1000 * 10, 10, GetParam(), 30, progress, queue), LoopEnd::Failed);
    EXPECT_EQ(queue.inFlight(), 0u);
    EXPECT_GE(queue.syncs.size(), 2u);
    EXPECT_LE(queue.completed.size(), 60u + GetParam())
        << "nothing more is submitted after the failed sync is seen";
}

TEST_P(QueuedLoop, ASyncThatCannotBeQueuedFailsTheLoopAfterTheOthersAreReaped)
{
    Progress progress;
    FakeSyncQueue queue;
    queue.chunk = 10;
    queue.depth = GetParam();
    queue.refuseSync = true;
    EXPECT_EQ(runQueuedChunks(100 * 10, 10, GetParam(), 30, progress, queue), LoopEnd::Failed);
    EXPECT_EQ(queue.inFlight(), 0u);
    EXPECT_EQ(queue.completed.size(), 30u);
}

INSTANTIATE_TEST_SUITE_P(Depths, QueuedLoop, ::testing::Values(1u, 8u, 128u),
                         [](const auto& row) { return "Depth" + std::to_string(row.param); });

TEST(QueuedLoopFailures, ARequestThatCannotBeQueuedFailsAfterTheOthersAreReaped)
{
    Progress progress;
    FakeQueue queue;
    queue.refuseSubmitAt = 50 * 4096;
    const auto end = runQueuedChunks(std::uint64_t{1} << 24, 4096, 32, 0, progress, queue);
    EXPECT_EQ(end, LoopEnd::Failed);
    EXPECT_EQ(queue.inFlight(), 0u);
    EXPECT_EQ(queue.completed.size(), 50u);
    EXPECT_TRUE(coversExactly(queue.completed, 50 * 4096));
    EXPECT_EQ(progress.bytes.load(), 50u * 4096u);
}

TEST(QueuedLoopFailures, AQueueThatCompletesNothingEndsTheLoopInsteadOfSpinning)
{
    Progress progress;
    FakeQueue queue;
    queue.stuck = true;
    const auto end = runQueuedChunks(std::uint64_t{1} << 20, 4096, 8, 0, progress, queue);
    EXPECT_EQ(end, LoopEnd::Failed);
    EXPECT_EQ(queue.reaps, 1u);
    EXPECT_EQ(progress.bytes.load(), 0u);
}

TEST(QueuedLoopFailures, NothingToWriteSubmitsNothing)
{
    Progress progress;
    FakeQueue queue;
    EXPECT_EQ(runQueuedChunks(0, 4096, 8, 0, progress, queue), LoopEnd::Completed);
    EXPECT_EQ(queue.submits, 0u);
    EXPECT_EQ(queue.reaps, 0u);
}
