// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/outcome.h"
#include "core/engine/call_timing.h"
#include "core/engine/file_set.h"
#include "core/model/case.h"
#include "core/model/strategy_info.h"
#include "core/model/target.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

class Pattern;
struct ReplayScript;

// How a loop ended: its size done or its time limit reached (Completed), the user's stop, or a failure.
enum class LoopEnd
{
    Completed,
    Cancelled,
    Failed
};

// The only contact between a hot loop and the rest of the engine: a relaxed byte counter bumped at a coarse
// grain and two flags polled at the same grain: the user's stop, and the case's time limit running out. One
// per thread, on its own cache line.
struct alignas(64) Progress
{
    std::atomic<std::uint64_t> bytes{0};
    const std::atomic<bool>* stop = nullptr;
    const std::atomic<bool>* timeUp = nullptr; // set when the case has a time limit
    // The kill -9 probe's runs (untimed): `bytes` is published after every call, so that it is at all times
    // what the API has acknowledged. Read once when a loop starts; normal runs publish once per batch.
    bool everyCall = false;
    // The kill -9 probe's kills at an acknowledgement point: where the thread is, for the runner that kills
    // the child, set by the thread itself.
    enum HoldState : std::uint32_t
    {
        Running = 0,
        Held = 1, // stopped at its point, waiting for the kill
        Ended = 2 // its job returned without reaching its point
    };
    std::atomic<std::uint32_t> holdState{Running};

    // Adds to `bytes` and returns the new count (the add's own result: no second load).
    std::uint64_t add(std::uint64_t n) noexcept { return bytes.fetch_add(n, std::memory_order_relaxed) + n; }
    // Where a loop publishes `bytes` (once per batch, after every call in a probe's run): a probe child whose
    // count has reached its acknowledgement point stops there until it is killed. One compare per batch, the
    // hold itself out of line: the measured loops, whose point is never reached, pay nothing more.
    void addAndHoldAtPoint(std::uint64_t n) noexcept
    {
        if (add(n) >= holdAtBytes) [[unlikely]]
            holdForKill();
    }
    bool stopRequested() const noexcept
    {
        return (stop != nullptr && stop->load(std::memory_order_relaxed)) ||
               (timeUp != nullptr && timeUp->load(std::memory_order_relaxed));
    }
    // Whether a loop that saw stopRequested() ran out of time, so that it ended as it should (LoopEnd::
    // Completed: the job then syncs and closes as at the end of its size) rather than being cancelled. The
    // user's stop wins when both are set.
    bool timeIsUp() const noexcept
    {
        return timeUp != nullptr && timeUp->load(std::memory_order_relaxed) &&
               !(stop != nullptr && stop->load(std::memory_order_relaxed));
    }
    // How a loop ends when it saw stopRequested().
    LoopEnd stoppedEnd() const noexcept { return timeIsUp() ? LoopEnd::Completed : LoopEnd::Cancelled; }

    // Power-loss exposure (core/engine/exposure.h): how many of `bytes` a completed sync of this thread has
    // made durable. Stored, relaxed, once per completed sync and never per write; a strategy whose every
    // write returns durable publishes nothing. The sampler reads it while the loop runs.
    std::atomic<std::uint64_t> durable{0};
    // Kept by the loop's own thread and read by the runner once it has joined it: when `durable` last
    // advanced (the runner sets the thread's start), and the longest time between two such moments while
    // acknowledged bytes were waiting.
    TimingClock::time_point durableAt{};
    TimingClock::duration longestWait{};

    // The kill -9 probe's acknowledgement point: once `bytes` reaches it, the thread stops right after the
    // call that got it there (holdForKill). Never reached in any other run.
    static constexpr std::uint64_t kNoHold = ~std::uint64_t{0};
    std::uint64_t holdAtBytes = kNoHold;
    // Says Held and waits until the process is killed; returns only when the stop flag is set (the run was
    // cancelled), so that the loop then ends as a cancelled one does. In core/engine/case_child.cpp.
    void holdForKill() noexcept;

    // A sync that made the thread's first `upTo` bytes durable returned at `at`.
    void markDurable(std::uint64_t upTo, TimingClock::time_point at) noexcept
    {
        if (upTo > durable.load(std::memory_order_relaxed)) {
            longestWait = std::max(longestWait, at - durableAt);
            durable.store(upTo, std::memory_order_relaxed);
        }
        durableAt = at;
    }
};
// One cache line: the probe's fields sit in what was padding, beside the counter the loop has just written.
static_assert(sizeof(Progress) == 64);

// What one thread of one repetition works on.
struct JobSpec
{
    Case testCase;
    std::uint32_t thread = 0;
    std::uint64_t bytes = 0; // this thread's share
    std::string path;        // the data file (Directory targets)
    std::string auxPath;     // a scratch file the strategy may create (e.g. a mapped batch buffer)
    const Pattern* pattern = nullptr;
    bool verifyStream = false; // pipe targets: the reader checks every byte
    TargetInfo target;
    // Reads: the file's first byte's place in the pattern (path is the file to read), and for file-set
    // strategies every file of the set with its absolute path. verifyData compares every byte read.
    std::uint64_t patternOffset = 0;
    const std::vector<DataFile>* files = nullptr;
    bool verifyData = false;
    // This thread's latency histograms when the case times its calls (chooseLatency), else nullptr.
    CallLatency* latency = nullptr;
    // A replay (core/engine/replay_script.h): what to re-issue; `path` is then the replay's folder, which
    // holds the script's folders and its files that existed before the program ran.
    const ReplayScript* replay = nullptr;
};

// One prepared thread of work. prepare() did the untimed set-up (open, allocate, spawn a reader); execute()
// is the timed part and ends once the data has been handed over as the strategy's API defines it (fclose
// done, reader drained); finish() reports what the pipe reader saw. The destructor releases everything but
// never removes files: the runner does that through the workspace.
class Job
{
public:
    virtual ~Job() = default;
    virtual Outcome execute(Progress& progress) = 0;
    virtual Outcome finish() { return Outcome::success(); }
    // File-set readers: the time each file took (open to close), in seconds, in no particular order.
    virtual std::vector<double> takeFileSeconds() { return {}; }
    // A job that follows its own durability (a replay: the program's syncs): the most bytes its calls had
    // acknowledged that were not yet durable, the longest any waited for a sync, and, when some were still
    // waiting as it returned, since when (they wait until the run's fsync after the timed part). nullopt: the
    // runner works it out from the case's sync policy (core/engine/exposure.h).
    struct TrackedExposure
    {
        std::uint64_t maxBytes = 0;
        TimingClock::duration longestWait{};
        std::optional<TimingClock::time_point> waitingSince;
        std::string method;
    };
    virtual std::optional<TrackedExposure> trackedExposure() const { return std::nullopt; }
    // A replay: the time its threads spent inside the calls, summed, and how many calls it made.
    virtual std::optional<double> insideSeconds() const { return std::nullopt; }
    virtual std::uint64_t callsMade() const { return 0; }
    // A read/write mix (Case::readPercent): the requests and bytes it read and wrote; nullopt for other jobs.
    struct MixCounts
    {
        std::uint64_t readOps = 0;
        std::uint64_t readBytes = 0;
        std::uint64_t writeOps = 0;
        std::uint64_t writeBytes = 0;
    };
    virtual std::optional<MixCounts> mixCounts() const { return std::nullopt; }
    // A uring-* job: io_uring's options the kernel gave its ring (an explicit value's, or what auto got);
    // nullopt for every other job.
    virtual std::optional<UringOptions> uringInEffect() const { return std::nullopt; }
};

class Strategy
{
public:
    virtual ~Strategy() = default;
    virtual const StrategyInfo& info() const = 0;
    // A reason this strategy cannot run the (otherwise valid) case on this target.
    virtual std::optional<std::string> refusal(const Case&, const TargetInfo&) const { return std::nullopt; }
    // Untimed set-up for one thread; returns nullptr and fills `outcome` when it cannot start.
    virtual std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const = 0;
};

} // namespace iolab
