// SPDX-License-Identifier: MIT
#include "core/base/latency_histogram.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace iolab {

void LatencyHistogram::merge(const LatencyHistogram& other) noexcept
{
    if (other.m_count == 0)
        return;
    for (std::size_t i = 0; i < kBuckets; ++i)
        m_counts[i] += other.m_counts[i];
    m_count += other.m_count;
    m_sumNs += other.m_sumNs;
    m_minNs = std::min(m_minNs, other.m_minNs);
    m_maxNs = std::max(m_maxNs, other.m_maxNs);
}

void LatencyHistogram::clear() noexcept
{
    m_counts.fill(0);
    m_count = 0;
    m_sumNs = 0;
    m_minNs = std::numeric_limits<std::uint64_t>::max();
    m_maxNs = 0;
}

double LatencyHistogram::meanNs() const noexcept
{
    return m_count == 0 ? 0.0 : static_cast<double>(m_sumNs) / static_cast<double>(m_count);
}

std::uint64_t LatencyHistogram::percentileNs(double p) const noexcept
{
    if (m_count == 0)
        return 0;
    // The same nearest rank as percentile() over raw values (core/analysis/stats.cpp), with its tolerance for
    // p / 100 * n landing a hair above a whole rank in binary.
    const double exact = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(m_count);
    const auto rank = std::clamp<std::uint64_t>(
        static_cast<std::uint64_t>(std::ceil(exact - 1e-9 * std::max(1.0, exact))), 1, m_count);
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < kBuckets; ++i) {
        seen += m_counts[i];
        if (seen < rank)
            continue;
        if (i == kOverflow)
            return m_maxNs;
        const std::uint64_t low = lowOf(i);
        const std::uint64_t mid = low + (highOf(i) - low - 1) / 2;
        return std::clamp(mid, minNs(), m_maxNs);
    }
    return m_maxNs;
}

LatencySummary LatencyHistogram::summary() const
{
    LatencySummary s;
    s.count = m_count;
    s.meanNs = meanNs();
    s.minNs = minNs();
    s.p50Ns = percentileNs(50);
    s.p90Ns = percentileNs(90);
    s.p99Ns = percentileNs(99);
    s.p999Ns = percentileNs(99.9);
    s.p9999Ns = percentileNs(99.99);
    s.maxNs = m_maxNs;
    return s;
}

std::vector<LatencyBucket> LatencyHistogram::buckets() const
{
    std::vector<LatencyBucket> out;
    for (std::size_t i = 0; i < kBuckets; ++i) {
        if (m_counts[i] != 0)
            out.push_back({lowOf(i), highOf(i), m_counts[i]});
    }
    return out;
}

std::optional<LatencyHistogram> LatencyHistogram::fromDistribution(const LatencyDistribution& distribution,
                                                                   std::string* problem)
{
    const auto fail = [problem](std::string text) -> std::optional<LatencyHistogram> {
        if (problem != nullptr)
            *problem = std::move(text);
        return std::nullopt;
    };
    LatencyHistogram h;
    for (const auto& bucket : distribution.buckets) {
        const std::size_t i = indexOf(bucket.lowNs);
        if (lowOf(i) != bucket.lowNs || highOf(i) != bucket.highNs)
            return fail(fmt::format("latency bucket {}-{} ns is not one of this histogram's", bucket.lowNs,
                                    bucket.highNs));
        h.m_counts[i] += bucket.count;
        h.m_count += bucket.count;
    }
    const LatencySummary& s = distribution.summary;
    if (h.m_count != s.count)
        return fail(fmt::format("latency buckets hold {} calls, the summary says {}", h.m_count, s.count));
    if (h.m_count != 0) {
        h.m_minNs = s.minNs;
        h.m_maxNs = s.maxNs;
        h.m_sumNs = static_cast<std::uint64_t>(std::llround(s.meanNs * static_cast<double>(s.count)));
    }
    return h;
}

} // namespace iolab
