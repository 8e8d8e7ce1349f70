// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace iolab {

// A random order of the chunks [0, count): at(i) is the chunk written i-th, and i -> at(i) is a bijection, so
// every chunk is visited exactly once. A four-round Feistel network over the smallest even-width power of
// two that holds count, with cycle walking back into [0, count); that domain is under 4 * count, so a call
// takes under four permutations on average and no memory. Seeded per thread so threads do not walk in step.
class ChunkOrder
{
public:
    ChunkOrder(std::uint64_t count, std::uint64_t seed) noexcept : m_count(count == 0 ? 1 : count)
    {
        const auto width = static_cast<unsigned>(std::bit_width(m_count - 1));
        m_halfBits = width < 2 ? 1 : (width + 1) / 2;
        m_halfMask = (std::uint64_t{1} << m_halfBits) - 1;
        std::uint64_t state = seed;
        for (auto& key : m_keys)
            key = splitMix(state);
    }

    std::uint64_t count() const noexcept { return m_count; }

    std::uint64_t at(std::uint64_t index) const noexcept
    {
        std::uint64_t x = index;
        do
            x = permute(x);
        while (x >= m_count);
        return x;
    }

private:
    static std::uint64_t splitMix(std::uint64_t& state) noexcept
    {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    std::uint64_t round(std::uint64_t half, std::uint64_t key) const noexcept
    {
        std::uint64_t z = (half ^ key) * 0xbf58476d1ce4e5b9ULL;
        z ^= z >> 29;
        z *= 0x94d049bb133111ebULL;
        return (z ^ (z >> 32)) & m_halfMask;
    }

    std::uint64_t permute(std::uint64_t x) const noexcept
    {
        std::uint64_t left = x >> m_halfBits;
        std::uint64_t right = x & m_halfMask;
        for (const std::uint64_t key : m_keys) {
            const std::uint64_t next = left ^ round(right, key);
            left = right;
            right = next;
        }
        return (left << m_halfBits) | right;
    }

    std::uint64_t m_count;
    unsigned m_halfBits = 1;
    std::uint64_t m_halfMask = 1;
    std::array<std::uint64_t, 4> m_keys{};
};

} // namespace iolab
