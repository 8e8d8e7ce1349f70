// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/latency_histogram.h"
#include "core/model/case.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace iolab {

struct StrategyInfo;

// One thread's latency histograms for one repetition: every call of the loop (a write, a read, a request's
// submission to its completion) and every sync call (fsync-every's, the final fsync or fdatasync). The runner
// allocates them before the timed part and merges them after it.
struct CallLatency
{
    LatencyHistogram calls;
    LatencyHistogram syncs;
    LatencyHistogram writes; // a read/write mix's writes: `calls` then holds its reads only
};

// Whether a case's calls are timed, and why, in words for the result ("each write(2) is a system call").
struct LatencyChoice
{
    bool record = false;
    std::string why;
};

// The latency axis applied to a case: auto times wherever a call is a system call or a device operation,
// and not stdio calls of under 4 KiB into a buffer or copies into a mapping, where the clock reads would cost
// as much as the call; on times wherever the strategy can; off never.
LatencyChoice chooseLatency(const Case& c, const StrategyInfo& info);

// The loops' compile-time timing policies (core/engine/chunk_loop.h). A loop instantiated with NoCallTimer is
// the loop without any timing: not a branch, not a clock read. CallTimer reads the clock once per call (the
// end of one call is the start of the next, so the loop's own few instructions count towards the call) and
// records into the thread's histograms.
struct NoCallTimer
{
    static constexpr bool kOn = false;
};

struct CallTimer
{
    static constexpr bool kOn = true;
    LatencyHistogram* calls = nullptr;
    LatencyHistogram* syncs = nullptr;
    LatencyHistogram* writes = nullptr; // a mix's writes (CallLatency::writes)
};

using TimingClock = std::chrono::steady_clock;

inline std::uint64_t elapsedNs(TimingClock::time_point from, TimingClock::time_point to) noexcept
{
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(to - from).count());
}

inline double inSeconds(TimingClock::duration d) noexcept
{
    return std::chrono::duration<double>(d).count();
}

// Calls body(CallTimer) when the thread records latency (`latency` set), body(NoCallTimer) otherwise: the
// choice is made once, outside the loop, and both loops are compiled.
template <class Body> decltype(auto) withCallTimer(CallLatency* latency, Body&& body)
{
    if (latency != nullptr)
        return body(CallTimer{&latency->calls, &latency->syncs, &latency->writes});
    return body(NoCallTimer{});
}

// Runs one sync call (fsync, fdatasync, FlushFileBuffers) and, with a CallTimer, records how long it took.
template <class Timer, class Fn> decltype(auto) timedSync(const Timer& timer, Fn&& sync)
{
    if constexpr (Timer::kOn) {
        const auto started = TimingClock::now();
        decltype(auto) result = sync();
        timer.syncs->record(elapsedNs(started, TimingClock::now()));
        return result;
    } else {
        return sync();
    }
}

// A job's sync after its loop (fsync-end, fdatasync-end, fsync-every's last): timed into the thread's sync
// histogram when it records latency and the policy makes a sync call there.
template <class Fn> bool timedFinalSync(CallLatency* latency, SyncMode mode, Fn&& sync)
{
    const bool syncs = mode == SyncMode::FsyncEnd || mode == SyncMode::FdatasyncEnd || syncsEveryN(mode);
    if (latency == nullptr || !syncs)
        return sync();
    return timedSync(CallTimer{&latency->calls, &latency->syncs, &latency->writes}, sync);
}

} // namespace iolab
