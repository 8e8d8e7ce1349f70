// SPDX-License-Identifier: MIT
#include "core/engine/pattern.h"

#include "core/base/splitmix.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace iolab {

static_assert((Pattern::kPeriodBytes & (Pattern::kPeriodBytes - 1)) == 0,
              "the period must be a power of two");
static_assert(Pattern::kPeriodBytes % Pattern::kAlignment == 0);

void Pattern::AlignedFree::operator()(std::byte* p) const noexcept
{
    ::operator delete[](p, std::align_val_t{kAlignment});
}

std::byte Pattern::expected(std::uint64_t offset) noexcept
{
    // SplitMix64's finaliser of the position within the period, folded into 1..255: every byte depends on
    // every bit of its position, so no compressor finds repeats inside the period (a plain multiplicative
    // hash left patterns zlib shrank to 37%).
    const std::uint64_t z = splitMixFinalise((offset & (kPeriodBytes - 1)) * kSplitMixGamma);
    return static_cast<std::byte>(1 + (z >> 32) % 255);
}

namespace {

// A fixed pseudo-random stream of bytes (SplitMix64's words, low byte first): the same bytes on every run and
// machine.
class RandomBytes
{
public:
    std::byte next() noexcept
    {
        if (m_left == 0) {
            m_word = m_words.next();
            m_left = 8;
        }
        const auto b = static_cast<std::byte>(m_word & 0xFF);
        m_word >>= 8;
        --m_left;
        return b;
    }

private:
    SplitMix64 m_words{0x10'1AB0'5EED};
    std::uint64_t m_word = 0;
    int m_left = 0;
};

} // namespace

Pattern::Pattern(std::uint64_t maxChunkBytes, DataPattern kind)
    : m_kind(kind), m_size(kPeriodBytes + ((maxChunkBytes + kAlignment - 1) / kAlignment) * kAlignment),
      m_data(static_cast<std::byte*>(::operator new[](m_size, std::align_val_t{kAlignment})))
{
    static_assert(kPeriodBytes % kCompressibleBlockBytes == 0);
    RandomBytes random;
    switch (kind.kind) {
    case PatternKind::Iolab:
        for (std::size_t i = 0; i < kPeriodBytes; ++i)
            m_data[i] = expected(i);
        break;
    case PatternKind::Zeros:
        std::memset(m_data.get(), 0, kPeriodBytes);
        break;
    case PatternKind::Random:
        for (std::size_t i = 0; i < kPeriodBytes; ++i)
            m_data[i] = random.next();
        break;
    case PatternKind::Compressible: {
        // Each block: its random share first, then its zeros, as fio fills a compressible buffer.
        const std::size_t zeros = kCompressibleBlockBytes * std::min<std::uint32_t>(kind.percent, 100) / 100;
        for (std::size_t i = 0; i < kPeriodBytes; ++i)
            m_data[i] =
                i % kCompressibleBlockBytes < kCompressibleBlockBytes - zeros ? random.next() : std::byte{0};
        break;
    }
    }
    for (std::size_t i = kPeriodBytes; i < m_size; ++i)
        m_data[i] = m_data[i - kPeriodBytes];
}

std::optional<std::uint64_t> Pattern::firstMismatch(std::uint64_t offset, const std::byte* data,
                                                    std::size_t size) const noexcept
{
    // The buffer holds one period plus at least a chunk, so from any place in the period the expected bytes
    // run on contiguously to the buffer's end: whole spans compare with one memcmp each, and a span ends only
    // where the buffer does (the stream's offset wraps to the period's start there).
    std::size_t checked = 0;
    while (checked < size) {
        const std::size_t start = (offset + checked) & (kPeriodBytes - 1);
        const std::size_t span = std::min<std::size_t>(size - checked, m_size - start);
        const std::byte* want = m_data.get() + start;
        const std::byte* got = data + checked;
        if (std::memcmp(want, got, span) != 0) [[unlikely]] {
            // Only on a mismatch: narrow down to the first wrong byte.
            std::size_t at = 0;
            constexpr std::size_t kBlock = 64;
            while (at + kBlock <= span && std::memcmp(want + at, got + at, kBlock) == 0)
                at += kBlock;
            while (want[at] == got[at])
                ++at;
            return checked + at;
        }
        checked += span;
    }
    return std::nullopt;
}

} // namespace iolab
