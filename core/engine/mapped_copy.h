// SPDX-License-Identifier: MIT
// The copying half of the two mapping strategies, shared by the backends; each backend brings the mapping
// calls (mmap/munmap, MapViewOfFile/UnmapViewOfFile) and the write of a full batch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace iolab {

// The window of mmap-window and the batch buffer of mmap-batch-direct, on every OS (the Optane article: 4 KiB
// x 4).
inline constexpr std::uint64_t kMmapWindowBytes = std::uint64_t{16} * 1024;

// mmap-batch-direct's batch buffer: chunks are appended; each time it fills, flush() writes it out and resets
// `used`. The common case, a chunk that fits, is one memcpy.
struct BatchBuffer
{
    std::byte* data = nullptr;
    std::uint64_t capacity = 0;
    std::uint64_t used = 0;

    template <class Flush> bool append(const std::byte* source, std::uint64_t size, Flush&& flush)
    {
        if (used + size < capacity) [[likely]] {
            std::memcpy(data + used, source, size);
            used += size;
            return true;
        }
        while (size > 0) {
            const std::uint64_t piece = std::min(size, capacity - used);
            std::memcpy(data + used, source, piece);
            used += piece;
            source += piece;
            size -= piece;
            if (used == capacity && !flush())
                return false;
        }
        return true;
    }
};

// mmap-window's window onto the file: [start, end) of the file is mapped at `data`. A chunk inside it is one
// memcpy; one that crosses its end calls map(windowStart) for each next window, which unmaps the old one
// and sets all three fields (end = 0 while nothing is mapped, so the fast path never matches then).
struct FileWindow
{
    std::byte* data = nullptr;
    std::uint64_t start = 0;
    std::uint64_t end = 0;

    template <class Map>
    bool copy(std::uint64_t offset, const std::byte* source, std::uint64_t size, std::uint64_t windowBytes,
              Map&& map)
    {
        if (offset + size <= end) [[likely]] {
            std::memcpy(data + (offset - start), source, size);
            return true;
        }
        while (size > 0) {
            if (offset >= end || data == nullptr) {
                if (!map(offset - offset % windowBytes))
                    return false;
            }
            const std::uint64_t piece = std::min(size, end - offset);
            std::memcpy(data + (offset - start), source, piece);
            offset += piece;
            source += piece;
            size -= piece;
        }
        return true;
    }
};

} // namespace iolab
