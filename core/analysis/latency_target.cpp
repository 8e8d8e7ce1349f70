// SPDX-License-Identifier: MIT
#include "core/analysis/latency_target.h"

#include "core/analysis/ranking.h"
#include "core/base/units.h"
#include "core/model/axes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <map>

namespace iolab {

namespace {

std::string latencyWords(double seconds)
{
    return seconds >= 1e-3 ? fmt::format("{:.3g} ms", seconds * 1e3)
                           : fmt::format("{:.3g} us", seconds * 1e6);
}

std::string where(const LatencyTargetPoint& p)
{
    return p.threads > 1 ? fmt::format("QD {} x {} threads", p.queueDepth, p.threads)
                         : fmt::format("QD {}", p.queueDepth);
}

} // namespace

double latencyAt(const LatencySummary& summary, double percentile)
{
    const std::uint64_t ns = percentile <= 50     ? summary.p50Ns
                             : percentile <= 90   ? summary.p90Ns
                             : percentile <= 99   ? summary.p99Ns
                             : percentile <= 99.9 ? summary.p999Ns
                                                  : summary.p9999Ns;
    return static_cast<double>(ns) / 1e9;
}

std::vector<LatencyTargetAnswer> latencyTargetAnswers(const RunResult& result, const LatencyTarget& target)
{
    // A series: every axis but the queue depth and the threads alike.
    std::map<std::string, std::vector<const CaseResult*>> series;
    for (const CaseResult& c : result.cases) {
        if (c.status != Status::Ok || !c.callLatency || c.callLatency->summary.count == 0 ||
            c.apparentMBps.count == 0 || c.testCase.queueDepth == 0 || c.testCase.chunkBytes == 0)
            continue;
        Case key = c.testCase;
        key.queueDepth = 0;
        key.threads = 1;
        series[key.label()].push_back(&c);
    }
    const std::string percentile = fmt::format("p{:g}", target.percentile);
    std::vector<LatencyTargetAnswer> out;
    for (const auto& [label, cases] : series) {
        if (cases.size() < 2)
            continue;
        LatencyTargetAnswer a;
        const Case& k = cases.front()->testCase;
        a.series = fmt::format("`{}` with {} chunks", k.strategy, formatBytes(k.chunkBytes));
        for (const CaseResult* c : cases) {
            LatencyTargetPoint p;
            p.caseIndex = c->index;
            p.queueDepth = c->testCase.queueDepth;
            p.threads = c->testCase.threads;
            p.mbps = rankedRate(*c, Ranking::Durable).median;
            p.iops = p.mbps * 1e6 / static_cast<double>(c->testCase.chunkBytes);
            p.latencySeconds = latencyAt(c->callLatency->summary, target.percentile);
            a.points.push_back(p);
        }
        std::sort(a.points.begin(), a.points.end(),
                  [](const auto& x, const auto& y) { return x.iops < y.iops; });
        for (const auto& p : a.points)
            if (p.latencySeconds <= target.seconds && (!a.best || p.iops > a.best->iops))
                a.best = p;
        for (const auto& p : a.points)
            if (p.latencySeconds > target.seconds && (!a.best || p.iops > a.best->iops)) {
                a.next = p;
                break;
            }
        const std::string goal = fmt::format("{} under {}", percentile, latencyWords(target.seconds));
        if (a.best && a.next)
            a.text =
                fmt::format("Latency target, {}: up to {} IOPS ({}) at {} keep {} ({}); {} gives {} at {}.",
                            a.series, formatThousands(a.best->iops), formatMBps(a.best->mbps), where(*a.best),
                            goal, latencyWords(a.best->latencySeconds), where(*a.next),
                            formatThousands(a.next->iops), latencyWords(a.next->latencySeconds));
        else if (a.best)
            a.text =
                fmt::format("Latency target, {}: every depth measured keeps {}; the most, {} IOPS ({}) at {} "
                            "({}), is the most this run can vouch for: a deeper queue may give more.",
                            a.series, goal, formatThousands(a.best->iops), formatMBps(a.best->mbps),
                            where(*a.best), latencyWords(a.best->latencySeconds));
        else {
            const auto lowest =
                std::min_element(a.points.begin(), a.points.end(), [](const auto& x, const auto& y) {
                    return x.latencySeconds < y.latencySeconds;
                });
            a.text =
                fmt::format("Latency target, {}: no depth measured keeps {}; the lowest, {} at {} ({} IOPS), "
                            "is already over it.",
                            a.series, goal, latencyWords(lowest->latencySeconds), where(*lowest),
                            formatThousands(lowest->iops));
        }
        out.push_back(std::move(a));
    }
    return out;
}

} // namespace iolab
