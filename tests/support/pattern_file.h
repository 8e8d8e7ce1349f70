// SPDX-License-Identifier: MIT
// Files as the platform tests check them: a whole file's bytes, and a data file as the runner lays it out
// (byte i is the pattern's byte i), for the jobs that read or overwrite one.
#pragma once

#include "core/engine/pattern.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace iolab::test {

inline std::vector<std::byte> readFileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(raw.size());
    std::memcpy(bytes.data(), raw.data(), raw.size());
    return bytes;
}

inline void writePatternFile(const std::string& path, std::uint64_t bytes)
{
    constexpr std::uint64_t kPiece = 64 * 1024;
    const Pattern pattern(kPiece);
    std::ofstream out(path, std::ios::binary);
    for (std::uint64_t at = 0; at < bytes; at += kPiece)
        out.write(reinterpret_cast<const char*>(pattern.at(at)),
                  static_cast<std::streamsize>(std::min(kPiece, bytes - at)));
}

} // namespace iolab::test
