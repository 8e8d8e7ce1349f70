// SPDX-License-Identifier: MIT
// fwrite_unlocked per chunk with setvbuf, written the plain way. EXTRA: 0 default buffer, 1 unbuffered, N
// bytes.
#include "plain_common.h"

#include <unistd.h>

int main(int argc, char** argv)
{
    const auto a = plain::parse(argc, argv);
    const unsigned char* src = plain::sourceBuffer(a.chunk);
    FILE* f = std::fopen(a.path.c_str(), "wbx");
    if (f == nullptr)
        plain::die("fopen");
    char* buffer = nullptr;
    if (a.extra == 1) {
        std::setvbuf(f, nullptr, _IONBF, 0);
    } else if (a.extra > 1) {
        buffer = static_cast<char*>(std::malloc(a.extra));
        std::setvbuf(f, buffer, _IOFBF, a.extra);
    }
    const std::uint64_t writes = a.total / a.chunk;
    const auto start = plain::start();
    std::uint64_t offset = 0;
    for (std::uint64_t i = 0; i < writes; ++i) {
        if (::fwrite_unlocked(src + (offset & plain::kMask), 1, a.chunk, f) != a.chunk)
            plain::die("fwrite");
        offset += a.chunk;
    }
    if (std::fclose(f) != 0)
        plain::die("fclose");
    const auto end = plain::Clock::now();
    FILE* again = std::fopen(a.path.c_str(), "rb");
    ::fsync(fileno(again));
    std::fclose(again);
    plain::report(offset, start, end); // CPU time through the fsync, as IOLab's repetitions count it
    std::remove(a.path.c_str());
    std::free(buffer);
}
