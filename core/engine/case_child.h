// SPDX-License-Identifier: MIT
// A case run in a child process: the same program re-executed as `<program> __case-child <link file>`. The
// kill -9 probe (core/engine/crash_probe.h) runs its kills there. Parent and child share one small block, a
// file in the run folder that both map: its header (the handshake and the child's outcome), one Progress per
// thread (what each thread's API has acknowledged), one ThreadEnd per thread and the merged latency
// histograms (what a measured run leaves for the runner's exposure and latency figures), then the request as
// JSON. The platform starts, kills and
// waits for the process (CaseChildLauncher); what the child does is here, the same jobs through the same loop
// (executeJobs) as in the runner's own process.
#pragma once

#include "core/base/outcome.h"
#include "core/engine/call_timing.h"
#include "core/engine/probe.h"
#include "core/engine/strategy.h"
#include "core/model/case.h"
#include "core/model/memory_budget.h"
#include "core/model/target.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace iolab {

class Registry;

inline constexpr std::string_view kCaseChildCommand = "__case-child";

namespace childlink {

inline constexpr std::array<char, 8> kMagic{'I', 'O', 'L', 'A', 'B', 'L', 'N', 'K'};
inline constexpr std::uint32_t kVersion = 5;
inline constexpr std::size_t kHeaderBytes = 4096;
inline constexpr std::uint32_t kMaxThreads = 1024;

enum class State : std::uint32_t
{
    Starting = 0, // the parent laid out the block; the child has not answered
    Ready = 1,    // the child prepared its jobs (files open) and waits for go
    Running = 2,  // the jobs run
    Finished = 3, // the jobs ended; the outcome is in the header
    Failed = 4    // the child could not prepare or run; the outcome says why
};

// Lock-free atomics are address-free, so both processes may use them through their own mappings.
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
static_assert(std::atomic<bool>::is_always_lock_free);

struct Header
{
    std::array<char, 8> magic;
    std::uint32_t version;
    std::uint32_t threads;
    std::uint64_t requestBytes;
    std::int64_t parentPid;
    // Windows: the child's handle of the event the parent waits on for a new state (0 on Linux, where the
    // parent waits on `state` itself).
    std::uint64_t wakeHandle;
    std::atomic<std::uint32_t> state;
    std::atomic<std::uint32_t> go;
    std::atomic<bool> stop;
    std::int32_t status; // the child's outcome (Status), once Finished or Failed
    std::int32_t code;
    std::array<char, 64> operation;
    std::array<char, 512> message;
    // A measured run's figures, once Finished: when its clock started and when its last call returned
    // (steady clock nanoseconds, one clock for every process of the machine), whether the case's time limit
    // ended it, and the child's CPU over the timed part.
    std::int64_t startedNs;
    std::int64_t returnedNs;
    std::uint32_t timeLimitReached;
    double cpuUserSeconds;
    double cpuSystemSeconds;
    // Whether the block's latency histograms hold the run's calls (the request asked for them, and it ran).
    std::uint32_t latencyRecorded;
};
static_assert(sizeof(Header) <= kHeaderBytes);
static_assert(sizeof(Progress) % alignof(Progress) == 0);

// What one thread of a measured run left as its job returned, for the runner's exposure (ThreadExposure):
// when (steady clock nanoseconds), and how many of its bytes its own syncs had made durable by then. The
// rest of it (the bytes, the last durable moment, the longest wait) is in the thread's Progress.
struct ThreadEnd
{
    std::int64_t endedNs;
    std::uint64_t durable;
};

// The histograms are copied into and out of the block whole.
static_assert(std::is_trivially_copyable_v<CallLatency>);

constexpr std::size_t progressOffset(std::uint32_t thread)
{
    return kHeaderBytes + thread * sizeof(Progress);
}
constexpr std::size_t threadEndOffset(std::uint32_t threads, std::uint32_t thread)
{
    return progressOffset(threads) + thread * sizeof(ThreadEnd);
}
constexpr std::size_t latencyOffset(std::uint32_t threads)
{
    constexpr std::size_t kAlign = alignof(CallLatency) > 64 ? alignof(CallLatency) : 64;
    return (threadEndOffset(threads, threads) + kAlign - 1) / kAlign * kAlign;
}
constexpr std::size_t requestOffset(std::uint32_t threads)
{
    return latencyOffset(threads) + sizeof(CallLatency);
}
// The size of a block for `threads` threads and a request of `requestBytes`.
constexpr std::size_t blockBytes(std::uint32_t threads, std::size_t requestBytes)
{
    return requestOffset(threads) + requestBytes;
}

// The block's times: steady clock nanoseconds, one clock for every process of the machine.
std::int64_t nanosecondsOf(TimingClock::time_point at);
TimingClock::time_point timePointOf(std::int64_t nanoseconds);

// Wakes a parent waiting for a new state (CaseChild::waitState): on Linux a futex wake on Header::state, on
// Windows the event of Header::wakeHandle.
using Waker = void (*)(Header& header);

// A mapped block, in either process. The mapping must start page-aligned (Progress is cache-line aligned).
class Link
{
public:
    // `wake`: the child's, called after every new state; the parent's block has none.
    Link(std::byte* base, std::size_t size, Waker wake = nullptr) : m_base(base), m_size(size), m_wake(wake)
    {}

    // Parent: lays out a new, zero-filled block of blockBytes(threads, request.size()).
    static void initialize(std::byte* base, std::uint32_t threads, std::int64_t parentPid,
                           std::string_view request);

    // Whether the block is one this program lays out (magic, version, sizes within the mapping).
    bool valid() const;
    Header& header() const { return *reinterpret_cast<Header*>(m_base); }
    Progress& progress(std::uint32_t thread) const
    {
        return *reinterpret_cast<Progress*>(m_base + progressOffset(thread));
    }
    ThreadEnd& threadEnd(std::uint32_t thread) const
    {
        return *reinterpret_cast<ThreadEnd*>(m_base + threadEndOffset(header().threads, thread));
    }
    CallLatency& latency() const
    {
        return *reinterpret_cast<CallLatency*>(m_base + latencyOffset(header().threads));
    }
    std::string_view request() const;
    State state() const { return static_cast<State>(header().state.load(std::memory_order_acquire)); }
    void setState(State state) const
    {
        header().state.store(static_cast<std::uint32_t>(state), std::memory_order_release);
        if (m_wake != nullptr)
            m_wake(header());
    }

    // The acknowledged bytes of every thread, summed.
    std::uint64_t acknowledgedBytes() const;
    // Child: the outcome, then the state that says it is there.
    void publishOutcome(const Outcome& outcome, State state) const;
    // Parent: the outcome a Finished or Failed child left.
    Outcome outcome() const;

private:
    std::byte* m_base;
    std::size_t m_size;
    Waker m_wake;
};

} // namespace childlink

// What a child runs: the case, the target's facts and, per thread, its files and its share of the bytes.
struct ChildThread
{
    std::string path;
    std::string auxPath;
    std::uint64_t bytes = 0;
    // The kill -9 probe's acknowledgement point (Progress::holdAtBytes): the thread stops right after the
    // call whose acknowledgement reaches it, and waits there for the kill.
    std::uint64_t holdAtBytes = Progress::kNoHold;
};

struct ChildRequest
{
    Case testCase;
    TargetInfo target;
    std::vector<ChildThread> threads;
    bool everyCall = false; // publish the acknowledged bytes after every call (Progress::everyCall)
    // A measured repetition (the memory budget): the child times its run, ends it at the case's time limit
    // and reports its CPU and its threads' ends; a probe run is none of these.
    bool measured = false;
    // A measured repetition whose calls are timed (chooseLatency): the child records them and leaves the
    // merged histograms in the block.
    bool latency = false;
};

std::string childRequestToJson(const ChildRequest& request);
// Throws InputError on a malformed request.
ChildRequest childRequestFromJson(std::string_view text);

// How a child process ended, in words for a result: "killed by signal 9 (SIGKILL)", "exited with code 3",
// "terminated (TerminateProcess, exit code 1)".
struct ChildExit
{
    bool exitedNormally = false; // it returned from main (any code)
    int code = 0;                // the exit code, or the signal that ended it
    std::string description;
};

// A running child, as the platform started it (Linux: posix_spawn with PR_SET_PDEATHSIG; Windows: a job
// object that kills it when the parent's handle closes). Destroying it kills a child still running and waits.
class CaseChild
{
public:
    virtual ~CaseChild() = default;
    virtual const childlink::Link& link() const = 0;
    virtual bool exited() = 0;    // without waiting
    virtual void kill() = 0;      // SIGKILL (TerminateProcess), at once
    virtual ChildExit wait() = 0; // until it has exited
    // Sleeps until the child's state is no longer `from`, the child has exited, or `most` has passed; the
    // state then. The child wakes it at once (Link's waker), so the parent neither polls while a measured
    // repetition runs (a wake-up every millisecond cost a CPU-bound child 5%) nor notices its end late.
    virtual childlink::State waitState(childlink::State from, std::chrono::milliseconds most) = 0;
    // While it runs: its CPU time and resident memory (nullopt once it has gone, or where not read).
    virtual std::optional<ProcessCounters> process() = 0;
    // A child under a memory limit: its memory cgroup's counters now (nullopt for a child without one).
    virtual std::optional<BudgetCounters> budget() = 0;
    // After wait(): the cgroup's peak and OOM kills (zeros for a child without one).
    virtual BudgetEnd budgetEnd() = 0;
};

class CaseChildLauncher
{
public:
    virtual ~CaseChildLauncher() = default;
    // Creates the block at `linkPath` (a new file in the run folder) holding `request`, maps it and starts
    // the child on it; a measured request whose case has a memory limit starts it in a memory cgroup of its
    // own, capped there. nullptr, with `outcome` saying why, when it cannot.
    virtual std::unique_ptr<CaseChild> start(const std::string& linkPath, const ChildRequest& request,
                                             Outcome& outcome) = 0;
};

// The child's side, after the platform mapped the block: prepares the request's jobs with `registry`'s
// strategy, says Ready, waits for go (or the parent's stop), runs them and publishes the outcome. Returns the
// process's exit code: 0 when the jobs ran (whatever their outcome, which is in the block), 2 when the block
// or the request is unusable. `probe` reads the child's CPU for a measured run.
int runCaseChild(const childlink::Link& link, const Registry& registry, SystemProbe* probe = nullptr);

} // namespace iolab
