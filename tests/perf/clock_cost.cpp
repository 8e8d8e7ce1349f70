// SPDX-License-Identifier: MIT
// What timing one call costs: the clock the chunk loop times calls with (TimingClock,
// core/engine/call_timing.h) read back to back, and a clock read plus a record into IOLab's latency histogram
// (what CallTimer adds to each call). The README's "a clock read per call (about 20 ns here)" comes from this
// program:
//
//     build/dev/tests/perf/clock_cost [rounds]
//
// Each round times 10 million of each by the thread's CPU time (so that other work on a loaded machine does
// not count); the medians over the rounds are printed, with the slowest and fastest.
#include "core/base/latency_histogram.h"
#include "core/engine/call_timing.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <vector>

namespace {

constexpr int kCalls = 10'000'000;

using iolab::TimingClock;

// The calling thread's CPU time in nanoseconds.
double cpuNs()
{
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// kCalls clock reads back to back; the sum of their low bits keeps the compiler from dropping any.
double clockReads(std::uint64_t& sink)
{
    const double started = cpuNs();
    for (int i = 0; i < kCalls; ++i)
        sink += static_cast<std::uint64_t>(TimingClock::now().time_since_epoch().count()) & 1U;
    return (cpuNs() - started) / kCalls;
}

// What CallTimer does per call: a clock read and the time since the previous one recorded.
double clockReadsRecorded(iolab::LatencyHistogram& histogram)
{
    const double started = cpuNs();
    auto previous = TimingClock::now();
    for (int i = 0; i < kCalls; ++i) {
        const auto now = TimingClock::now();
        histogram.record(iolab::elapsedNs(previous, now));
        previous = now;
    }
    return (cpuNs() - started) / kCalls;
}

void print(const char* what, std::vector<double> ns)
{
    std::sort(ns.begin(), ns.end());
    std::printf("%-44s median %6.1f ns   (%.1f to %.1f over %zu rounds)\n", what, ns[ns.size() / 2],
                ns.front(), ns.back(), ns.size());
}

} // namespace

int main(int argc, char** argv)
{
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
    std::uint64_t sink = 0;
    auto histogram = std::make_unique<iolab::LatencyHistogram>();
    std::vector<double> reads;
    std::vector<double> recorded;
    clockReads(sink); // warm up: the vDSO's page, the CPU's clock
    for (int r = 0; r < rounds; ++r) {
        reads.push_back(clockReads(sink));
        recorded.push_back(clockReadsRecorded(*histogram));
    }
    print("steady_clock::now()", reads);
    print("steady_clock::now() + LatencyHistogram::record", recorded);
    std::printf("(%llu)\n", static_cast<unsigned long long>(sink % 2 + histogram->count() % 2));
    return 0;
}
