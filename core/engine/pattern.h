// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/case.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace iolab {

// The bytes every strategy writes: byte i of a stream or file is byteAt(i), a deterministic sequence with a
// period of kPeriodBytes. IOLab's own (the default, expected(i)) never holds a zero byte, so sparse files,
// zero-page tricks and compression cannot flatter a result (a block-level deduplicator still finds the
// repeats of the period); the case's pattern axis (DataPattern) can choose
// zeros, random or compressible bytes instead, to show what compression or deduplication does. The buffer
// holds one period plus the largest chunk, so the data for any write is the contiguous window at(offset).
class Pattern
{
public:
    static constexpr std::size_t kPeriodBytes = std::size_t{256} * 1024;
    static constexpr std::size_t kAlignment = 4096; // windows at chunk multiples satisfy O_DIRECT alignment

    explicit Pattern(std::uint64_t maxChunkBytes, DataPattern kind = {});

    // The base pointer as a value, for hot loops: held in a register, it is not reloaded after every opaque
    // library call the way a member behind a reference must be.
    struct View
    {
        const std::byte* base;
        const std::byte* at(std::uint64_t offset) const noexcept
        {
            return base + (offset & (kPeriodBytes - 1));
        }
    };
    View view() const noexcept { return View{m_data.get()}; }

    const std::byte* at(std::uint64_t offset) const noexcept
    {
        return m_data.get() + (offset & (kPeriodBytes - 1));
    }

    // IOLab's own pattern's byte at `offset` (never zero).
    static std::byte expected(std::uint64_t offset) noexcept;
    // This pattern's byte at `offset`.
    std::byte byteAt(std::uint64_t offset) const noexcept { return *at(offset); }
    const DataPattern& kind() const noexcept { return m_kind; }

    // Offset (relative to `offset`) of the first byte of `data` that differs from the pattern, if any.
    // Compares whole spans with memcmp: one per call when `size` is at most the chunk the pattern was made
    // for.
    std::optional<std::uint64_t> firstMismatch(std::uint64_t offset, const std::byte* data,
                                               std::size_t size) const noexcept;

    std::size_t sizeBytes() const noexcept { return m_size; }

private:
    struct AlignedFree
    {
        void operator()(std::byte* p) const noexcept;
    };
    DataPattern m_kind;
    std::size_t m_size = 0;
    std::unique_ptr<std::byte[], AlignedFree> m_data;
};

} // namespace iolab
