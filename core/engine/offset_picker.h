// SPDX-License-Identifier: MIT
// Where a random reader's next request goes, and whether it reads or writes: the hot spots of fio's
// random_distribution (Case::randomDist) and the read/write mix of its rwmixread (Case::readPercent).
#pragma once

#include "core/engine/chunk_order.h"
#include "core/engine/read_buffer.h"
#include "core/model/case.h"

#include <cmath>
#include <cstdint>

namespace iolab {

// xorshift64*: the generator RandomOffsets uses, for the other pickers.
class FastRandom
{
public:
    explicit FastRandom(std::uint64_t seed) noexcept : m_state(seed == 0 ? 0x9e3779b97f4a7c15ULL : seed) {}

    std::uint64_t next() noexcept
    {
        m_state ^= m_state >> 12;
        m_state ^= m_state << 25;
        m_state ^= m_state >> 27;
        return m_state * 0x2545f4914f6cdd1dULL;
    }
    // Uniform in [0, 1).
    double unit() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    std::uint64_t m_state;
};

// Zipf ranks 1..n, P(k) proportional to k^-theta, exactly, in O(1) per draw whatever n and theta: the
// rejection-inversion method of Hoermann and Derflinger ("Rejection-inversion to generate variates from
// monotone discrete distributions", 1996). The continuous hat h(x) = x^-theta is inverted over [1.5, n + 0.5]
// and a draw is kept unless it falls in the sliver between the hat and the bar of its rank; fewer than one
// draw in ten is rejected for any theta. No table: a 16 TiB file's ranks cost nothing to set up.
class ZipfRanks
{
public:
    ZipfRanks(std::uint64_t n, double theta) noexcept
        : m_n(static_cast<double>(n == 0 ? 1 : n)), m_theta(theta), m_hX1(integral(1.5) - 1.0),
          m_hN(integral(m_n + 0.5)), m_s(2.0 - inverse(integral(2.5) - hat(2.0)))
    {}

    // A rank in [1, n].
    std::uint64_t next(FastRandom& random) noexcept
    {
        for (;;) {
            const double u = m_hN + random.unit() * (m_hX1 - m_hN);
            const double x = inverse(u);
            double k = std::floor(x + 0.5);
            k = k < 1 ? 1 : (k > m_n ? m_n : k);
            if (k - x <= m_s || u >= integral(k + 0.5) - hat(k))
                return static_cast<std::uint64_t>(k);
        }
    }

private:
    // log1p(x) / x and expm1(x) / x, both 1 at 0: the integral and its inverse stay exact near theta = 1.
    static double log1pOverX(double x) noexcept { return std::abs(x) > 1e-8 ? std::log1p(x) / x : 1 - x / 2; }
    static double expm1OverX(double x) noexcept { return std::abs(x) > 1e-8 ? std::expm1(x) / x : 1 + x / 2; }

    double hat(double x) const noexcept { return std::exp(-m_theta * std::log(x)); }
    // H(x) = (x^(1 - theta) - 1) / (1 - theta), log x at theta = 1: a primitive of the hat.
    double integral(double x) const noexcept
    {
        const double logX = std::log(x);
        return expm1OverX((1.0 - m_theta) * logX) * logX;
    }
    double inverse(double y) const noexcept
    {
        double t = y * (1.0 - m_theta);
        if (t < -1.0)
            t = -1.0; // rounding at the lower end
        return std::exp(log1pOverX(t) * y);
    }

    double m_n;
    double m_theta;
    double m_hX1;
    double m_hN;
    double m_s;
};

// Chunk-aligned offsets over a shared file of `fileBytes` with a hot spot (Zipf or Pareto). A rank is drawn
// (0 the hottest) and scattered over the file by one Feistel permutation (ChunkOrder) whose seed every thread
// shares: all threads heat the same chunks, and those are spread through the file rather than at its start,
// as fio scatters its ranks with a hash (a permutation, unlike a hash, never folds two ranks onto one chunk).
// The generator is seeded per thread, as RandomOffsets is.
class HotSpotOffsets
{
public:
    HotSpotOffsets(const RandomDist& dist, std::uint32_t thread, std::uint64_t fileBytes,
                   std::uint64_t chunkBytes) noexcept
        : m_random(0x9e3779b97f4a7c15ULL * (thread + 1)),
          m_slots(fileBytes / chunkBytes > 0 ? fileBytes / chunkBytes : 1), m_chunk(chunkBytes),
          m_zipf(dist.kind == RandomDistKind::Zipf), m_ranks(m_slots, m_zipf ? dist.param : 1.0),
          m_hotHigh(dist.param >= 0.5),
          m_exponent(dist.kind == RandomDistKind::Pareto ? std::log(dist.param) / std::log(1.0 - dist.param)
                                                         : 1.0),
          m_scatter(m_slots, kScatterSeed)
    {}

    std::uint64_t next() noexcept { return m_scatter.at(rank()) * m_chunk; }

    // The next rank, 0 the hottest: for tests, which compare the ranks' shares with hotShare().
    std::uint64_t rank() noexcept
    {
        if (m_zipf)
            return m_ranks.next(m_random) - 1;
        // fio's pareto: x = u^(log h / log(1 - h)); its dense end is 1 for h >= 0.5, else 0.
        const double x = std::pow(m_random.unit(), m_exponent);
        const double fromHot = m_hotHigh ? 1.0 - x : x;
        const auto r = static_cast<std::uint64_t>(fromHot * static_cast<double>(m_slots));
        return r < m_slots ? r : m_slots - 1;
    }

    std::uint64_t chunkOfRank(std::uint64_t r) const noexcept { return m_scatter.at(r); }

    static constexpr std::uint64_t kScatterSeed = 0x1c0ffee5eedULL;

private:
    FastRandom m_random;
    std::uint64_t m_slots;
    std::uint64_t m_chunk;
    bool m_zipf;
    ZipfRanks m_ranks;
    bool m_hotHigh;
    double m_exponent;
    ChunkOrder m_scatter;
};

// Calls body(picker) with the case's offset picker: RandomOffsets for a uniform distribution (the loop as it
// was before hot spots), HotSpotOffsets for Zipf and Pareto. The choice is made once, outside the loop.
template <class Body>
decltype(auto) withOffsetPicker(const RandomDist& dist, std::uint32_t thread, std::uint64_t fileBytes,
                                std::uint64_t chunkBytes, Body&& body)
{
    if (dist.hotSpot())
        return body(HotSpotOffsets(dist, thread, fileBytes, chunkBytes));
    return body(RandomOffsets(thread, fileBytes, chunkBytes));
}

// A mix's choice per request (fio's rwmixread): read with probability readPercent / 100, drawn from a
// generator of the thread's own, apart from the offsets', so a mix does not change where requests go.
class MixChooser
{
public:
    MixChooser(std::uint32_t readPercent, std::uint32_t thread) noexcept
        : m_random(0xd1b54a32d192ed03ULL * (thread + 1) + 0x632be59bd9b4e019ULL),
          m_threshold((static_cast<std::uint64_t>(readPercent) << 32) / 100)
    {}

    bool nextIsRead() noexcept { return (m_random.next() >> 32) < m_threshold; }

private:
    FastRandom m_random;
    std::uint64_t m_threshold;
};

} // namespace iolab
