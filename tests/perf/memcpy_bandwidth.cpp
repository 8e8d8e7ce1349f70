// SPDX-License-Identifier: MIT
// What one CPU of this machine copies per second, for the pipe record's ceiling (tests/perf/README.md): a
// pipe moves each byte at least once when its reader reads it (a copy), and vmsplice into splice moves page
// references only, so the copy rate bounds a verifying reader and the memory's bandwidth a checking one.
// memcpy of BLOCK bytes from one buffer to another, over buffers of SPAN bytes (cache-resident when small,
// from memory when large), repeated for about a second; prints GB/s (10^9 bytes copied per second).
//   memcpy_bandwidth [BLOCK_BYTES [SPAN_BYTES]]   (default 1 MiB blocks over 256 MiB)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv)
{
    const std::size_t block = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::size_t{1} << 20;
    const std::size_t span = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : std::size_t{256} << 20;
    auto* from = static_cast<unsigned char*>(std::aligned_alloc(4096, span));
    auto* to = static_cast<unsigned char*>(std::aligned_alloc(4096, span));
    std::memset(from, 1, span);
    std::memset(to, 2, span);
    using Clock = std::chrono::steady_clock;
    std::uint64_t copied = 0;
    const auto start = Clock::now();
    auto now = start;
    std::size_t at = 0;
    while (now - start < std::chrono::seconds(1)) {
        for (int i = 0; i < 64; ++i) {
            std::memcpy(to + at, from + at, block);
            copied += block;
            at = at + 2 * block > span ? 0 : at + block;
        }
        now = Clock::now();
    }
    const double seconds = std::chrono::duration<double>(now - start).count();
    std::printf("%.2f GB/s (%zu-byte blocks over %zu bytes, checksum %d)\n",
                static_cast<double>(copied) / seconds / 1e9, block, span, to[span / 2] + to[0]);
}
