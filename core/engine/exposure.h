// SPDX-License-Identifier: MIT
// Power-loss exposure (issue 17), computed rather than simulated: per write case, the bytes acknowledged (the
// API call returned) but not yet made durable by a completed sync (an fsync or fdatasync that returned, an
// O_SYNC/O_DSYNC/RWF_DSYNC write that returned, a FlushFileBuffers, a WRITE_THROUGH write), at their peak,
// and the longest time such bytes waited. It is what a power cut would lose, assuming the device honours
// flushes; a process crash loses less: the page cache survives kill -9.
//
// How it is had, per thread, from the loop's structure and the moments its syncs completed, without a sample:
//  - every write returns durable (O_SYNC/O_DSYNC, pwritev2 RWF_DSYNC, an io_uring write linked to its sync,
//    group-commit's committed writes): nothing acknowledged waits; the thread publishes nothing. 0 B, 0 s.
//  - a sync every N writes (N = 1 too: the write has returned, its sync has not): at most N chunks wait
//  (exactly N once the thread has written N; the batch in
//    flight is bounded by the same sync). The loop stores the durable position and reads the clock once per
//    completed sync (Progress::markDurable).
//  - a sync only at the job's end (fsync-end, fdatasync-end): all the thread's bytes, until its job returns.
//  - no sync, or a "sync" that is none (sync_file_range): all the bytes of every thread, until the run's own
//    fsync after the timed part has returned. Every thread's bytes wait at that moment together: exact.
//  - a buffer of the strategy's own in front of durable writes (stdio with O_SYNC, mmap-batch-direct's
//    batch with O_DSYNC): at most the buffer, for a time IOLab does not see (unknown, not guessed).
// The bytes of several threads are their peaks summed: exact for one thread, else an upper bound (AtMost),
// since the threads' peaks need not coincide. The seconds are the longest time between two moments a
// thread's data was durable (its start, each completed sync, its end) while bytes were waiting: the oldest
// waiting byte was acknowledged when the first write after the earlier moment returned, so the figure
// exceeds the true wait by at most that one write's own time.
// The sampler's at-risk line (Sample::atRiskBytes) is the published counters' view at 10 Hz: it sees what
// the progress counter has counted, which lags the calls by at most one batch (counted after a loop's sync:
// with a sync every N writes the line shows less than the result). It is for watching, not for the result.
#pragma once

#include "core/engine/call_timing.h"
#include "core/model/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

struct Progress;
struct StrategyInfo;

// When a case's acknowledged bytes become durable.
enum class DurablePoint
{
    NotApplicable, // not a write to a file (reads, pipes, the null device)
    EachWrite,     // each write returns durable: nothing waits
    HeldBack,      // each write to the file returns durable, but a buffer of the strategy holds some back
    LoopSyncs,     // a sync every N writes in the loop, and one after it
    JobEnd,        // the job's sync after its loop
    RunEnd         // only the run's own fsync after the timed part
};

struct ExposurePlan
{
    DurablePoint point = DurablePoint::NotApplicable;
    std::uint64_t syncEveryBytes = 0;           // LoopSyncs: N chunks
    std::optional<std::uint64_t> heldBackBytes; // HeldBack: the buffer, per thread (nullopt: not known)
    // Preallocate rewrite: each thread's file is its one chunk, written again and again, so at most that much
    // of what it acknowledged can be lost, however many writes wait.
    std::optional<std::uint64_t> fileBytesPerThread;
    std::string method; // in words, for the result
};

ExposurePlan exposurePlan(const Case& c, const StrategyInfo& info);

// Whether the sampler reads the threads' durable counters for the case (else durable = acknowledged, or the
// case has no exposure).
inline bool publishesDurable(const ExposurePlan& plan)
{
    // A buffer of unknown size: the counters cannot bound what it holds, so the line shows nothing for it.
    return plan.point == DurablePoint::LoopSyncs || plan.point == DurablePoint::JobEnd ||
           plan.point == DurablePoint::RunEnd || (plan.point == DurablePoint::HeldBack && plan.heldBackBytes);
}

// The bytes at risk in the threads' counters right now, as the sampler sees them; each thread's figure is
// capped by what the plan says it can hold at most.
std::uint64_t atRiskNow(const ExposurePlan& plan, const Progress* progress, std::size_t threads);

// One thread of a finished repetition, as the runner saw it after joining it.
struct ThreadExposure
{
    std::uint64_t bytes = 0;             // acknowledged
    std::uint64_t durable = 0;           // made durable by the loop's syncs
    TimingClock::time_point durableAt{}; // the last such moment (or the thread's start)
    TimingClock::duration longestWait{}; // between two such moments, while bytes waited
    TimingClock::time_point ended{};     // its job returned (after its own final sync, if any)
};

// The repetition's exposure. `runDurable` is when the run's own fsync after the timed part returned.
Exposure computeExposure(const ExposurePlan& plan, const std::vector<ThreadExposure>& threads,
                         TimingClock::time_point runDurable);

// The case's: over its measured, successful repetitions, the largest bytes and the longest seconds (either
// unknown when any repetition's is), AtMost when any repetition's bytes were; nullopt when none has one.
std::optional<Exposure> worstExposure(const std::vector<RepetitionResult>& repetitions);

// "64 MiB for 1.20 s", "0 B", "at most 16 KiB for an unknown time", "unknown".
std::string formatExposure(const Exposure& exposure);

// The stated meaning of the figures, for tooltips, reports and the README.
inline constexpr const char* kExposureMeaning =
    "what a power cut would lose, assuming the device honours flushes; a process crash loses less: the page "
    "cache survives kill -9";

} // namespace iolab
