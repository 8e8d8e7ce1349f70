// SPDX-License-Identifier: MIT
// To be merged with core/engine/chunk_order.h (the Linux branch's permutation): the lead unifies them.
#pragma once

#include <cstdint>

namespace iolab::windows_backend {

// Every chunk index of a file of `chunks` chunks exactly once, in a random order, in constant memory: a
// bijective mix of the 2^k indices above `chunks` (multiply by an odd number, xor-shift, add, all modulo
// 2^k), walked in counter order, skipping the images at or above `chunks` (under half of them). Seeded per
// thread so that threads do not write in step.
class ChunkOrder
{
public:
    ChunkOrder(std::uint32_t thread, std::uint64_t chunks) noexcept : m_chunks(chunks)
    {
        while (m_bits < 64 && (std::uint64_t{1} << m_bits) < chunks)
            ++m_bits;
        m_mask = m_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << m_bits) - 1;
        m_shift = m_bits / 2 + 1;
        const std::uint64_t seed = 0x9e3779b97f4a7c15ULL * (std::uint64_t{thread} + 1);
        m_add = seed >> 7;
        m_multiply = (seed ^ 0xd1b54a32d192ed03ULL) | 1;
    }

    // The next chunk index; the sequence has `chunks` of them (after that it starts again).
    std::uint64_t next() noexcept
    {
        if (m_chunks == 0)
            return 0;
        for (;;) {
            const std::uint64_t index = mix(m_counter);
            m_counter = (m_counter + 1) & m_mask;
            if (index < m_chunks)
                return index;
        }
    }

private:
    std::uint64_t mix(std::uint64_t x) const noexcept
    {
        for (int round = 0; round < 3; ++round) {
            x = (x * m_multiply) & m_mask;
            x ^= x >> m_shift;
            x = (x + m_add) & m_mask;
        }
        return x;
    }

    std::uint64_t m_chunks;
    std::uint64_t m_counter = 0;
    std::uint32_t m_bits = 0;
    std::uint32_t m_shift = 1;
    std::uint64_t m_mask = 0;
    std::uint64_t m_add = 0;
    std::uint64_t m_multiply = 1;
};

} // namespace iolab::windows_backend
