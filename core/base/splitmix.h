// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace iolab {

// SplitMix64 (Steele, Lea and Flood, 2014): a small, fast generator whose sequence is the same on every
// platform and standard library, so a seed gives the same file sizes and data bytes everywhere. IOLab's
// generated C programs (core/formats/c_program.cpp) repeat it byte for byte.
inline constexpr std::uint64_t kSplitMixGamma = 0x9E3779B97F4A7C15ULL;

// Its finaliser: every output bit depends on every input bit.
constexpr std::uint64_t splitMixFinalise(std::uint64_t z) noexcept
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

class SplitMix64
{
public:
    explicit constexpr SplitMix64(std::uint64_t seed) noexcept : m_state(seed) {}
    constexpr std::uint64_t next() noexcept { return splitMixFinalise(m_state += kSplitMixGamma); }

private:
    std::uint64_t m_state;
};

} // namespace iolab
