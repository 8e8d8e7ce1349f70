// SPDX-License-Identifier: MIT
// The replay job's skeleton, the same on every system: one thread per recorded thread, each making its steps
// in order (core/engine/replay_script.h decides them) and waiting where the script says another thread must
// have gone first, every call timed, the program's pauses kept when asked, the power-loss exposure followed
// from the program's own syncs. Each system's job (platform/linux/strategy_replay.cpp, platform/windows/
// strategy_replay.cpp) issues one call of a step with its own API and says what a failed call means.
#pragma once

#include "core/engine/replay_script.h"
#include "core/engine/strategy.h"
#include "core/model/replay.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

class Pattern;
struct JobSpec;

// The case's replay-timing axis (back-to-back unless it says as-recorded).
ReplayTiming replayTimingOf(const JobSpec& spec);

class ReplayJobBase : public Job
{
public:
    ReplayJobBase(const JobSpec& spec, ReplayTiming timing);

    // The threads' buffers for reads and strings, page-aligned, as large as the largest call; false (with
    // the outcome) when they cannot be had.
    bool prepareBuffers(Outcome& outcome);
    // What the system's job needs besides (an io_uring ring per thread for queued steps); false with the
    // outcome when it cannot be had.
    virtual bool prepareSystem(Outcome&) { return true; }

    Outcome execute(Progress& progress) override;
    Outcome finish() override;
    std::optional<double> insideSeconds() const override;
    std::optional<TrackedExposure> trackedExposure() const override;
    std::uint64_t callsMade() const override;

protected:
    // One call of `step` (the i-th of its run) on recorded thread `thread`: its result, < 0 when it failed
    // (then failure() says why, right after, on the same thread).
    virtual std::int64_t issue(const ReplayStep& step, std::uint32_t i, std::size_t thread) = 0;
    virtual Outcome failure(const ReplayStep& step) = 0;
    // What the program's exit did: its streams flushed and closed, its handles closed. Each system's job
    // calls it from its destructor too.
    virtual Outcome closeEverything() = 0;

    std::string pathOf(std::uint32_t file) const
    {
        return replayPath(m_folder, m_script.files[file].relativePath);
    }
    std::string describe(const ReplayStep& step) const;
    std::byte* buffer(std::size_t thread) { return m_threads[thread].buffer; }
    std::size_t threadCount() const { return m_threads.size(); }
    // A direct batch's (kDirectBatch) whole blocks, [from, from + bytes), each byte the pattern's at its
    // offset, copied into `into` (page-aligned, as large as the thread's buffer), as a program fills its
    // batch before it writes it.
    struct DirectBlocks
    {
        std::uint64_t from = 0;
        std::uint64_t bytes = 0;
    };
    DirectBlocks fillDirectBatch(const ReplayStep& step, std::byte* into) const;
    // What a direct batch's call gave back of the step's own bytes, `written` of its blocks having gone.
    static std::int64_t directBatchResult(const ReplayStep& step, DirectBlocks blocks, std::uint64_t written);
    // The size of every thread's buffer, and so of a mapped batch: the largest call and a block at each end.
    std::size_t bufferBytes() const;
    // Whether the script has a step with all of `flags` (kQueued, kDirectBatch | kMappedBatch) on thread
    // `thread`, or on any thread.
    bool anyStepWith(std::uint32_t flags, std::size_t thread = SIZE_MAX) const;

    const ReplayScript& m_script;
    std::string m_folder;
    const Pattern& m_pattern;

private:
    struct alignas(64) ThreadState
    {
        std::atomic<std::uint32_t> done{0};
        std::atomic<std::uint32_t> begun{0}; // steps whose waits are over
        std::uint64_t insideNs = 0;
        std::uint64_t calls = 0;
        Outcome outcome;
        CallLatency latency;
        std::unique_ptr<std::byte[]> storage;
        std::byte* buffer = nullptr; // in storage, page-aligned
    };

    void runThread(std::size_t index, Progress& progress);
    bool waitFor(const ReplayWait& wait, Progress& progress);
    // Until no sync of `content` is running (false when the run stops or another thread failed).
    bool waitForSyncs(std::uint32_t content, Progress& progress);
    void pause(std::uint64_t untilNs, Progress& progress);
    void account(const ReplayStep& step);
    // A group commit's sync (ReplayStep::group) of thread `index`: made, or waited for while another thread
    // makes one that covers every write so far. The call's result, and whether this thread made it.
    std::int64_t groupSync(const ReplayStep& step, std::size_t index, bool& made);

    ReplayTiming m_timing;
    CallLatency* m_latency;
    std::vector<ThreadState> m_threads;
    // What the replay's calls have acknowledged that is not yet durable, per file and per stream buffer,
    // under one lock taken once per step that changes it (a step is a system call or a run of them).
    struct Risk
    {
        std::mutex lock;
        std::vector<std::uint64_t> pending;         // per content: handed to the system, not synced
        std::vector<TimingClock::time_point> since; // its oldest byte's moment
        std::vector<std::uint64_t> buffered;        // per stream slot: in the stream's buffer
        std::vector<TimingClock::time_point> bufferedSince;
        std::uint64_t atRisk = 0;
        std::uint64_t peak = 0;
        TimingClock::duration longest{};
    };
    mutable Risk m_risk;
    // Per content, for a group commit: the syncs asked for, and how many of them the last sync made covered
    // (a sync covers every one asked before it began).
    struct Commit
    {
        std::mutex lock;
        std::condition_variable done;
        std::uint64_t asked = 0;
        std::uint64_t covered = 0;
        bool syncing = false;
        bool failed = false; // the last sync made failed
    };
    std::unique_ptr<Commit[]> m_commits; // only when the script has a group commit

    std::unique_ptr<std::atomic<std::uint32_t>[]> m_syncsRunning; // per content: syncs under way
    std::atomic<bool> m_failed{false};
    std::uint64_t m_startNs = 0;
};

// The C runtime's calls a stdio step makes that differ between systems: fprintf as the program called it, and
// the unlocked puts (null where the runtime has none: such a step fails, and says why).
struct StreamCalls
{
    int (*print)(std::FILE*, const char*, ...) = nullptr;
    std::size_t (*writeUnlocked)(const void*, std::size_t, std::size_t, std::FILE*) = nullptr;
    int (*putcUnlocked)(int, std::FILE*) = nullptr;
};

// A stdio step's call on `stream` with the pattern's bytes: fwrite, fputc, fputs, fprintf, each locked or
// unlocked (kStreamUnlocked: fwrite_unlocked, fputc_unlocked, the text of fputs and fprintf written with
// fwrite_unlocked), fflush, fread, fgetc, fgets, and a buffer spilled or refilled. 0, or -1 with errno set;
// `handled` false for any other call (the system's job makes it).
std::int64_t issueStreamStep(const ReplayStep& step, std::uint32_t i, std::FILE* stream,
                             const Pattern& pattern, std::byte* scratch, const StreamCalls& calls,
                             bool& handled);

// A write or sync queued (kQueued: on io_uring, or in flight on an overlapped handle); an open the overlapped
// way flags is made as any other.
inline bool isQueued(const ReplayStep& step)
{
    return (step.flags & kQueued) != 0 &&
           (step.call == trace::Call::Write || step.call == trace::Call::PWrite ||
            step.call == trace::Call::Fsync || step.call == trace::Call::Fdatasync);
}

// The replay job of `spec` on the system this build replays (`own`), or nullptr with the outcome: a spec
// without a script, or a trace recorded on the other system.
template <typename SystemJob>
std::unique_ptr<Job> makeReplayJob(const JobSpec& spec, trace::System own, Outcome& outcome)
{
    if (spec.replay == nullptr || spec.pattern == nullptr) {
        outcome = {Status::Failed, 0, "prepare", "a replay job was given no script"};
        return nullptr;
    }
    if (spec.replay->system != own) {
        outcome = {Status::Refused, 0, "prepare",
                   spec.replay->traceName + " was recorded on " +
                       (spec.replay->system == trace::System::Windows ? "Windows" : "Linux") +
                       ": a replay runs on the system it was recorded on"};
        return nullptr;
    }
    auto job = std::make_unique<SystemJob>(spec, replayTimingOf(spec));
    ReplayJobBase& base = *job; // each system's job keeps its overrides private
    if (!base.prepareBuffers(outcome) || !base.prepareSystem(outcome))
        return nullptr;
    return job;
}

} // namespace iolab
