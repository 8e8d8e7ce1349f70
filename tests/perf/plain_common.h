// SPDX-License-Identifier: MIT
// What every plain benchmark loop shares: arguments, a source buffer holding the same kind of never-zero
// pattern IOLab writes (one 256 KiB period plus a chunk, page aligned), the clock, and the result line.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#ifdef _WIN32
#include <malloc.h>
#endif
#include <string>

namespace plain {

constexpr std::uint64_t kPeriod = 256 * 1024;
constexpr std::uint64_t kMask = kPeriod - 1;

struct Args
{
    std::string path; // file to create (or unused for pipes)
    std::uint64_t chunk = 0;
    std::uint64_t total = 0;
    std::uint64_t extra = 0; // stdio buffer bytes (0 = default, 1 = none), pipe: verify flag
};

inline Args parse(int argc, char** argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s PATH CHUNK_BYTES TOTAL_BYTES [EXTRA]\n", argv[0]);
        std::exit(2);
    }
    Args a;
    a.path = argv[1];
    a.chunk = std::strtoull(argv[2], nullptr, 10);
    a.total = std::strtoull(argv[3], nullptr, 10);
    a.extra = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 0;
    return a;
}

inline unsigned char* sourceBuffer(std::uint64_t chunk)
{
    const std::uint64_t size = kPeriod + ((chunk + 4095) / 4096) * 4096;
#ifdef _WIN32
    auto* p = static_cast<unsigned char*>(::_aligned_malloc(size, 4096)); // msvcrt has no aligned_alloc
#else
    auto* p = static_cast<unsigned char*>(std::aligned_alloc(4096, size));
#endif
    for (std::uint64_t i = 0; i < size; ++i)
        p[i] = static_cast<unsigned char>(1 + ((i & kMask) * 2654435761ULL >> 13) % 255);
    return p;
}

using Clock = std::chrono::steady_clock;

inline void report(std::uint64_t bytes, Clock::time_point start, Clock::time_point end)
{
    const double seconds = std::chrono::duration<double>(end - start).count();
    std::printf("%.3f\n", static_cast<double>(bytes) / seconds / 1e6);
}

inline void die(const char* what)
{
    std::perror(what);
    std::exit(1);
}

} // namespace plain
