// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace iolab::report {

// A queue-depth sweep: per series (cases equal in every axis but the queue depth) its rate and call latency
// (p99, or a latency target's percentile) at each depth it ran with, ascending. Only series that ran at two
// depths or more are kept, so a run without a sweep has none. The PDF and the app's "Queue depth" tab draw
// from it.
struct QdSweepData
{
    struct Point
    {
        std::uint32_t queueDepth = 0;
        double mbps = 0;                 // the ranked median (rankedRate())
        std::optional<double> latencyNs; // of the case's calls at `percentile`, when timed
        std::size_t caseIndex = 0;       // into the cases given
    };
    struct Series
    {
        QString name; // the cases' short name without the queue depth: "uring-write-direct 4K"
        std::vector<Point> points;
    };
    std::vector<Series> series;
    std::uint32_t minQueueDepth = 0;
    std::uint32_t maxQueueDepth = 0;
    double maxMBps = 0;
    double maxLatencyNs = 0;             // 0: no point has a latency
    double percentile = 99;              // the percentile of the calls' latency drawn: p99, or the target's
    std::optional<LatencyTarget> target; // the run's latency target, marked on the chart

    bool empty() const noexcept { return series.empty(); }
    bool hasLatency() const noexcept { return maxLatencyNs > 0; }
    // The powers of two from minQueueDepth to maxQueueDepth (the x axis is log2): 1, 2, 4, ... 32.
    std::vector<std::uint32_t> ticks() const;

    static QdSweepData from(const std::vector<CaseResult>& cases, Ranking ranking,
                            std::optional<LatencyTarget> target = std::nullopt);
};

} // namespace iolab::report
