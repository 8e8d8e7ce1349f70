// SPDX-License-Identifier: MIT
#include "core/pattern.h"

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
    // A multiplicative hash of the position within the period, folded into 1..255.
    std::uint64_t x = (offset & (kPeriodBytes - 1)) * 0x9E3779B97F4A7C15ULL;
    x ^= x >> 29;
    return static_cast<std::byte>(1 + (x >> 32) % 255);
}

Pattern::Pattern(std::uint64_t maxChunkBytes)
    : m_size(kPeriodBytes + ((maxChunkBytes + kAlignment - 1) / kAlignment) * kAlignment),
      m_data(static_cast<std::byte*>(::operator new[](m_size, std::align_val_t{kAlignment})))
{
    for (std::size_t i = 0; i < kPeriodBytes; ++i)
        m_data[i] = expected(i);
    for (std::size_t i = kPeriodBytes; i < m_size; ++i)
        m_data[i] = m_data[i - kPeriodBytes];
}

std::optional<std::uint64_t> Pattern::firstMismatch(std::uint64_t offset, const std::byte* data,
                                                    std::size_t size) const noexcept
{
    std::size_t checked = 0;
    while (checked < size) {
        const std::size_t toPeriodEnd = kPeriodBytes - ((offset + checked) & (kPeriodBytes - 1));
        const std::size_t piece = std::min<std::size_t>(size - checked, toPeriodEnd);
        const std::byte* want = at(offset + checked);
        if (std::memcmp(want, data + checked, piece) != 0) {
            for (std::size_t i = 0; i < piece; ++i) {
                if (want[i] != data[checked + i])
                    return checked + i;
            }
        }
        checked += piece;
    }
    return std::nullopt;
}

} // namespace iolab
