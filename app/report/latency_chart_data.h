// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <QColor>
#include <QString>

#include <cstddef>
#include <optional>
#include <vector>

namespace iolab::report {

// Which latencies a chart shows: each timed call, or each sync call (fsync, fdatasync) where a case made
// some.
enum class LatencyKind
{
    Calls,
    SyncCalls
};

// The distribution a case holds of that kind, or nullptr.
const LatencyDistribution* latencyOf(const CaseResult& c, LatencyKind kind);

// "#3 write 4K": the case number, then each declared axis's short part (core/model/axes.h).
QString caseShortName(const CaseResult& c);

// One case's latency histogram, its buckets merged into a few per octave so that a curve reads as a shape
// rather than as 128 spikes per power of two, and its percentiles as markers.
struct LatencyCurve
{
    struct Bin
    {
        double lowNs = 0;
        double highNs = 0;
        double share = 0; // of the case's calls, 0..1
        double midNs() const;
    };
    struct Marker
    {
        QString name; // "p50", "p99", "p99.9"
        double ns = 0;
    };
    std::size_t caseIndex = 0; // into the cases given
    QString name;
    LatencySummary summary;
    std::vector<Bin> bins; // ascending, only the non-empty ones
    std::vector<Marker> markers;
};

// The histograms of some cases on one log time axis (the PDF and the app's Latency tab draw from it).
struct LatencyChartData
{
    static constexpr int kBinsPerOctave = 3;

    LatencyKind kind = LatencyKind::Calls;
    std::vector<LatencyCurve> curves;
    double minNs = 1; // the axis: whole decades around every bin
    double maxNs = 10;
    double maxShare = 0; // the tallest bin

    bool empty() const noexcept { return curves.empty(); }
    // The decades from minNs to maxNs: 100 ns, 1 us, 10 us...
    std::vector<double> ticks() const;

    // The cases at `chosen` (indices into `cases`; empty: every case) that hold latencies of `kind`.
    static LatencyChartData from(const std::vector<CaseResult>& cases, LatencyKind kind,
                                 const std::vector<std::size_t>& chosen = {});
    // `buckets` merged into bins of 2^(1/binsPerOctave), each with its share of `total` calls.
    static std::vector<LatencyCurve::Bin> mergeBuckets(const std::vector<LatencyBucket>& buckets,
                                                       std::uint64_t total,
                                                       int binsPerOctave = kBinsPerOctave);
};

// The colour of curve `i` in the app and the PDF alike, distinct in print and for the colour-blind
// (Okabe-Ito).
QColor chartColour(std::size_t i);

// A latency as formatLatency writes it: "850 ns", "12.3 us", "1.20 ms".
QString latencyLabel(double ns);
// A decade tick's label: "100 ns", "1 us", "10 ms".
QString latencyTickLabel(double ns);

} // namespace iolab::report
