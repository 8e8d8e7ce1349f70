// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/pattern.h"
#include "core/engine/strategy.h"

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>

namespace iolab {

// A read buffer aligned to 4 KiB, so that O_DIRECT and FILE_FLAG_NO_BUFFERING accept it on any device with
// sectors up to that size. Plain heap memory: core stays free of OS calls.
class ReadBuffer
{
public:
    static constexpr std::size_t kAlignment = 4096;

    explicit ReadBuffer(std::size_t bytes)
        : m_size(bytes),
          m_data(static_cast<std::byte*>(::operator new[](roundUp(bytes), std::align_val_t{kAlignment})))
    {}

    std::byte* data() noexcept { return m_data.get(); }
    std::size_t size() const noexcept { return m_size; }

private:
    static std::size_t roundUp(std::size_t bytes)
    {
        return (bytes + kAlignment - 1) / kAlignment * kAlignment;
    }
    struct Free
    {
        void operator()(std::byte* p) const noexcept { ::operator delete[](p, std::align_val_t{kAlignment}); }
    };
    std::size_t m_size;
    std::unique_ptr<std::byte[], Free> m_data;
};

// Chunk-aligned random offsets over a file of `fileBytes` (xorshift64*: a few instructions per offset),
// seeded per thread so that threads do not walk in step. The random readers of both backends use it.
class RandomOffsets
{
public:
    RandomOffsets(std::uint32_t thread, std::uint64_t fileBytes, std::uint64_t chunkBytes) noexcept
        : m_state(0x9e3779b97f4a7c15ULL * (thread + 1)),
          m_slots(fileBytes / chunkBytes > 0 ? fileBytes / chunkBytes : 1), m_chunk(chunkBytes)
    {}

    std::uint64_t next() noexcept
    {
        m_state ^= m_state >> 12;
        m_state ^= m_state << 25;
        m_state ^= m_state >> 27;
        return ((m_state * 0x2545f4914f6cdd1dULL) % m_slots) * m_chunk;
    }

private:
    std::uint64_t m_state;
    std::uint64_t m_slots;
    std::uint64_t m_chunk;
};

// The checks every read strategy makes with verification on: the bytes it got are the pattern's from the
// file's offset, and the file held as many bytes as were written. Messages name the file.
inline Outcome checkReadBytes(const Pattern& pattern, const std::string& path, std::uint64_t patternOffset,
                              std::uint64_t fileOffset, const std::byte* data, std::size_t size)
{
    if (auto at = pattern.firstMismatch(patternOffset + fileOffset, data, size))
        return {Status::Failed, 0, "verify",
                fmt::format("{}: byte {} differs from what was written", path, fileOffset + *at)};
    return Outcome::success();
}

inline Outcome checkReadLength(const std::string& path, std::uint64_t got, std::uint64_t expected)
{
    if (got == expected)
        return Outcome::success();
    return {Status::Failed, 0, "read",
            fmt::format("{}: read {} bytes, but {} were written (the file changed during the run)", path, got,
                        expected)};
}

} // namespace iolab
