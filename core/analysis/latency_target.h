// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

// A latency target's answer (fio's latency_target, issue 39 part 2) for one series of cases equal in every
// axis but their queue depth and thread count: the highest IOPS whose chosen percentile of the call latency
// stays under the target, and the next faster point that does not.
struct LatencyTargetPoint
{
    std::uint32_t caseIndex = 0;
    std::uint32_t queueDepth = 0;
    std::uint32_t threads = 1;
    double iops = 0;
    double mbps = 0;
    double latencySeconds = 0; // at the target's percentile
};

struct LatencyTargetAnswer
{
    std::string series;                     // "`uring-random-write-direct` with 4 KiB chunks"
    std::vector<LatencyTargetPoint> points; // by IOPS, slowest first
    std::optional<LatencyTargetPoint> best; // the fastest under the target; nullopt: none is
    std::optional<LatencyTargetPoint> next; // the next faster point, over the target
    std::string text;                       // the Summary's sentence
};

// The series of the run's measured cases that time their calls and sweep the queue depth or the threads
// (two points or more), each answered against `target`.
std::vector<LatencyTargetAnswer> latencyTargetAnswers(const RunResult& result, const LatencyTarget& target);

// The latency at a percentile a summary holds (50, 90, 99, 99.9, 99.99), in seconds.
double latencyAt(const LatencySummary& summary, double percentile);

} // namespace iolab
