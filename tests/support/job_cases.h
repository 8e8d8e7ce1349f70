// SPDX-License-Identifier: MIT
// Plain cases for the tests of the exported jobs (fio, DiskSpd): one file, one thread, no sync.
#pragma once

#include "core/model/case.h"

#include <cstdint>
#include <string>
#include <utility>

namespace iolab::test {

inline Case writeCase(std::string strategy, std::uint64_t chunk, std::uint64_t size)
{
    Case c;
    c.strategy = std::move(strategy);
    c.chunkBytes = chunk;
    c.totalBytes = size;
    if (c.strategy == "stdio")
        c.buffer = {BufferMode::Default, 0}; // a stdio case always holds a buffer setting
    return c;
}

inline Case readCase(std::string strategy, std::uint64_t chunk, std::uint64_t size)
{
    Case c = writeCase(std::move(strategy), chunk, size);
    c.direction = Direction::Read;
    c.hint = ReadHint::Normal;
    c.cache = CacheState::Cold;
    return c;
}

} // namespace iolab::test
