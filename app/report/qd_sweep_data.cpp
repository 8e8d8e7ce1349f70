// SPDX-License-Identifier: MIT
#include "app/report/qd_sweep_data.h"

#include "app/report/bar_chart_data.h"
#include "app/report/chart_axis.h"
#include "core/analysis/latency_target.h"
#include "core/model/axes.h"

#include <algorithm>
#include <bit>

namespace iolab::report {

std::vector<std::uint32_t> QdSweepData::ticks() const
{
    std::vector<std::uint32_t> out;
    if (empty())
        return out;
    for (std::uint32_t t = std::bit_floor(std::max(1u, minQueueDepth)); t <= maxQueueDepth && t != 0; t *= 2)
        out.push_back(t);
    if (out.empty() || out.back() < maxQueueDepth)
        out.push_back(std::bit_ceil(maxQueueDepth));
    return out;
}

QdSweepData QdSweepData::from(const std::vector<CaseResult>& cases, Ranking ranking,
                              std::optional<LatencyTarget> target)
{
    const double percentile = target ? target->percentile : 99.0;
    // Series keyed by the case with its queue depth cleared: equal keys differ only there.
    std::vector<std::pair<Case, Series>> found;
    std::optional<ChartAxis> qdAxis;
    if (const AxisSpec* axis = findAxisByResultKey("queueDepth"))
        qdAxis = ChartAxis::of(*axis);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const CaseResult& c = cases[i];
        const Summary& rate = rankedRate(c, ranking);
        if (c.status != Status::Ok || c.testCase.queueDepth == 0 || rate.count == 0)
            continue;
        Case key = c.testCase;
        key.queueDepth = 0;
        auto it = std::find_if(found.begin(), found.end(), [&](const auto& f) { return f.first == key; });
        if (it == found.end()) {
            found.emplace_back(key, Series{qdAxis ? barVariant(c.testCase, qdAxis)
                                                  : QString::fromStdString(c.testCase.label()),
                                           {}});
            it = std::prev(found.end());
        }
        Point p{c.testCase.queueDepth, rate.median, std::nullopt, i};
        if (c.callLatency && c.callLatency->summary.count > 0)
            p.latencyNs = latencyAt(c.callLatency->summary, percentile) * 1e9;
        it->second.points.push_back(p);
    }
    QdSweepData d;
    for (auto& [key, series] : found) {
        std::sort(series.points.begin(), series.points.end(),
                  [](const Point& a, const Point& b) { return a.queueDepth < b.queueDepth; });
        const bool sweeps = series.points.front().queueDepth != series.points.back().queueDepth;
        if (!sweeps)
            continue;
        for (const auto& p : series.points) {
            d.minQueueDepth = d.minQueueDepth == 0 ? p.queueDepth : std::min(d.minQueueDepth, p.queueDepth);
            d.maxQueueDepth = std::max(d.maxQueueDepth, p.queueDepth);
            d.maxMBps = std::max(d.maxMBps, p.mbps);
            d.maxLatencyNs = std::max(d.maxLatencyNs, p.latencyNs.value_or(0));
        }
        d.series.push_back(std::move(series));
    }
    d.percentile = percentile;
    d.target = target;
    if (target && !d.empty()) // the mark stays on the chart even above every point
        d.maxLatencyNs = std::max(d.maxLatencyNs, target->seconds * 1e9);
    return d;
}

} // namespace iolab::report
