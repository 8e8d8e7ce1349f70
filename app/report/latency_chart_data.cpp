// SPDX-License-Identifier: MIT
#include "app/report/latency_chart_data.h"

#include "core/base/units.h"
#include "core/model/axes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace iolab::report {

const LatencyDistribution* latencyOf(const CaseResult& c, LatencyKind kind)
{
    const auto& d = kind == LatencyKind::Calls ? c.callLatency : c.syncLatency;
    return d && d->summary.count > 0 && !d->buckets.empty() ? &*d : nullptr;
}

QString caseShortName(const CaseResult& c)
{
    QString s = QStringLiteral("#%1").arg(c.index + 1);
    for (const AxisSpec* axis : axesInShortNameOrder()) {
        if (const std::string part = axis->shortText(c.testCase); !part.empty())
            s += QStringLiteral(" ") + QString::fromStdString(part);
    }
    return s;
}

double LatencyCurve::Bin::midNs() const
{
    return std::sqrt(lowNs * highNs);
}

std::vector<LatencyCurve::Bin> LatencyChartData::mergeBuckets(const std::vector<LatencyBucket>& buckets,
                                                              std::uint64_t total, int binsPerOctave)
{
    std::map<long, std::uint64_t> counts;
    for (const auto& b : buckets) {
        // The overflow bucket has no upper end: it goes where it starts.
        const double high = b.highNs == std::numeric_limits<std::uint64_t>::max()
                                ? static_cast<double>(b.lowNs) + 1
                                : static_cast<double>(b.highNs);
        const double mid = std::max(1.0, (static_cast<double>(b.lowNs) + high) / 2);
        counts[static_cast<long>(std::floor(std::log2(mid) * binsPerOctave))] += b.count;
    }
    std::vector<LatencyCurve::Bin> bins;
    bins.reserve(counts.size());
    const double denominator = total > 0 ? static_cast<double>(total) : 1.0;
    for (const auto& [k, n] : counts) {
        bins.push_back({std::exp2(static_cast<double>(k) / binsPerOctave),
                        std::exp2(static_cast<double>(k + 1) / binsPerOctave),
                        static_cast<double>(n) / denominator});
    }
    return bins;
}

std::vector<double> LatencyChartData::ticks() const
{
    std::vector<double> out;
    for (double t = minNs; t <= maxNs * 1.0001; t *= 10)
        out.push_back(t);
    return out;
}

LatencyChartData LatencyChartData::from(const std::vector<CaseResult>& cases, LatencyKind kind,
                                        const std::vector<std::size_t>& chosen)
{
    LatencyChartData d;
    d.kind = kind;
    std::vector<std::size_t> indices = chosen;
    if (indices.empty()) {
        for (std::size_t i = 0; i < cases.size(); ++i)
            indices.push_back(i);
    }
    double low = 0;
    double high = 0;
    for (const std::size_t i : indices) {
        if (i >= cases.size())
            continue;
        const LatencyDistribution* dist = latencyOf(cases[i], kind);
        if (!dist)
            continue;
        LatencyCurve curve;
        curve.caseIndex = i;
        curve.name = caseShortName(cases[i]);
        curve.summary = dist->summary;
        curve.bins = mergeBuckets(dist->buckets, dist->summary.count);
        const auto& s = dist->summary;
        curve.markers = {{QStringLiteral("p50"), static_cast<double>(s.p50Ns)},
                         {QStringLiteral("p99"), static_cast<double>(s.p99Ns)},
                         {QStringLiteral("p99.9"), static_cast<double>(s.p999Ns)}};
        for (const auto& b : curve.bins) {
            low = low == 0 ? b.lowNs : std::min(low, b.lowNs);
            high = std::max(high, b.highNs);
            d.maxShare = std::max(d.maxShare, b.share);
        }
        for (const auto& m : curve.markers) {
            if (m.ns > 0) {
                low = low == 0 ? m.ns : std::min(low, m.ns);
                high = std::max(high, m.ns);
            }
        }
        d.curves.push_back(std::move(curve));
    }
    if (low > 0) {
        d.minNs = std::pow(10.0, std::floor(std::log10(low)));
        d.maxNs = std::max(d.minNs * 10, std::pow(10.0, std::ceil(std::log10(high))));
    }
    return d;
}

QColor chartColour(std::size_t i)
{
    static const QColor colours[] = {QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00),
                                     QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                     QColor(0x56, 0xb4, 0xe9), QColor(0xd5, 0x5e, 0x00),
                                     QColor(0x44, 0x44, 0x44)};
    return colours[i % (sizeof(colours) / sizeof(colours[0]))];
}

QString latencyLabel(double ns)
{
    return QString::fromStdString(formatLatency(ns * 1e-9));
}

QString latencyTickLabel(double ns)
{
    // A decade needs no decimals: "1 us", not "1.00 us".
    QString s = latencyLabel(ns);
    s.replace(QStringLiteral(".00 "), QStringLiteral(" "))
        .replace(QStringLiteral(".0 "), QStringLiteral(" "));
    return s;
}

} // namespace iolab::report
