// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

// One non-empty bucket of a latency histogram as files hold it: the latencies from lowNs up to (not
// including) highNs, and how many calls took that long.
struct LatencyBucket
{
    std::uint64_t lowNs = 0;
    std::uint64_t highNs = 0;
    std::uint64_t count = 0;

    friend bool operator==(const LatencyBucket&, const LatencyBucket&) = default;
};

// What a set of call latencies comes to, in nanoseconds. Percentiles are nearest-rank values read off the
// histogram (within its 0.4% error), never outside the smallest and largest latency seen.
struct LatencySummary
{
    std::uint64_t count = 0;
    double meanNs = 0;
    std::uint64_t minNs = 0;
    std::uint64_t p50Ns = 0;
    std::uint64_t p90Ns = 0;
    std::uint64_t p99Ns = 0;
    std::uint64_t p999Ns = 0;  // 99.9%
    std::uint64_t p9999Ns = 0; // 99.99%
    std::uint64_t maxNs = 0;

    friend bool operator==(const LatencySummary&, const LatencySummary&) = default;
};

// A summary with the histogram behind it: what a case's merged repetitions keep, and what the result JSON
// holds (the non-empty buckets in ascending order).
struct LatencyDistribution
{
    LatencySummary summary;
    std::vector<LatencyBucket> buckets;

    friend bool operator==(const LatencyDistribution&, const LatencyDistribution&) = default;
};

// A log-linear histogram of latencies in nanoseconds with fixed memory: every power of two from 128 ns up is
// cut into 128 buckets, so a bucket is at most 1/128 of its value wide and the midpoint that a percentile
// reads is within 0.4% of any value in it (about three significant digits). Below 128 ns every nanosecond
// has its own bucket. It spans 1 ns to 2^37 ns (137 s); longer calls go to one overflow bucket, whose
// percentile reads the largest latency seen. 3,969 counters of 8 bytes: 31 KiB, allocated once with the
// object; record() never allocates and takes a few instructions. One histogram per thread, merged after the
// timed part: it is not thread-safe.
class LatencyHistogram
{
public:
    static constexpr unsigned kSubBits = 7;
    static constexpr std::uint64_t kSub = std::uint64_t{1} << kSubBits; // buckets per power of two
    static constexpr unsigned kTopExponent = 36;                        // the last power of two: 2^36 ns
    static constexpr std::size_t kOverflow = (kTopExponent - kSubBits + 2) * kSub; // bucket of >= 2^37 ns
    static constexpr std::size_t kBuckets = kOverflow + 1;
    static constexpr std::uint64_t kOverflowNs = std::uint64_t{1} << (kTopExponent + 1);

    void record(std::uint64_t ns) noexcept
    {
        ++m_counts[indexOf(ns)];
        ++m_count;
        m_sumNs += ns;
        if (ns < m_minNs)
            m_minNs = ns;
        if (ns > m_maxNs)
            m_maxNs = ns;
    }

    void merge(const LatencyHistogram& other) noexcept;
    void clear() noexcept;

    std::uint64_t count() const noexcept { return m_count; }
    bool empty() const noexcept { return m_count == 0; }
    std::uint64_t minNs() const noexcept { return m_count == 0 ? 0 : m_minNs; }
    std::uint64_t maxNs() const noexcept { return m_maxNs; }
    double meanNs() const noexcept;
    // The nearest-rank percentile (0 < p <= 100): the smallest latency that at least p% of the calls did not
    // exceed, as the midpoint of its bucket, clamped to the smallest and largest seen; 0 when empty.
    std::uint64_t percentileNs(double p) const noexcept;

    LatencySummary summary() const;
    std::vector<LatencyBucket> buckets() const; // the non-empty ones, ascending
    LatencyDistribution distribution() const { return {summary(), buckets()}; }

    // Rebuilds a histogram from a file's buckets and its summary's count, min, max and mean; nullopt when a
    // bucket is not one of this layout's or the counts do not add up.
    static std::optional<LatencyHistogram> fromDistribution(const LatencyDistribution& distribution,
                                                            std::string* problem = nullptr);

    // The bucket a latency falls in, and a bucket's bounds [low, high).
    static constexpr std::size_t indexOf(std::uint64_t ns) noexcept
    {
        if (ns < kSub)
            return static_cast<std::size_t>(ns);
        const unsigned exponent = static_cast<unsigned>(std::bit_width(ns)) - 1;
        if (exponent > kTopExponent)
            return kOverflow;
        const unsigned shift = exponent - kSubBits;
        return static_cast<std::size_t>((exponent - kSubBits) * kSub + (ns >> shift));
    }
    static constexpr std::uint64_t lowOf(std::size_t index) noexcept
    {
        if (index < kSub)
            return index;
        if (index >= kOverflow)
            return kOverflowNs;
        const unsigned shift = static_cast<unsigned>(index / kSub) - 1;
        return (kSub + index % kSub) << shift;
    }
    static constexpr std::uint64_t highOf(std::size_t index) noexcept
    {
        if (index >= kOverflow)
            return std::numeric_limits<std::uint64_t>::max();
        return index + 1 < kOverflow ? lowOf(index + 1) : kOverflowNs;
    }

private:
    std::array<std::uint64_t, kBuckets> m_counts{};
    std::uint64_t m_count = 0;
    std::uint64_t m_sumNs = 0;
    std::uint64_t m_minNs = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t m_maxNs = 0;
};

} // namespace iolab
