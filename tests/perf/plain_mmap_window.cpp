// SPDX-License-Identifier: MIT
// fallocate, then memcpy each chunk into a 16 KiB shared mapping, remapping the next window when full.
// Chunks must divide the window (the benchmark uses 4 KiB, as the article does).
#include "plain_common.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    const auto a = plain::parse(argc, argv);
    constexpr std::uint64_t kWindow = 16 * 1024;
    const unsigned char* src = plain::sourceBuffer(a.chunk);
    const int fd = ::open(a.path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        plain::die("open");
    if (::fallocate(fd, 0, 0, static_cast<off_t>(a.total)) != 0)
        plain::die("fallocate");
    const std::uint64_t writes = a.total / a.chunk;
    const auto start = plain::start();
    unsigned char* window = nullptr;
    std::uint64_t windowStart = 0;
    std::uint64_t offset = 0;
    for (std::uint64_t i = 0; i < writes; ++i) {
        if (window == nullptr || offset >= windowStart + kWindow) {
            if (window != nullptr)
                ::munmap(window, kWindow);
            windowStart = offset;
            void* p =
                ::mmap(nullptr, kWindow, PROT_READ | PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(offset));
            if (p == MAP_FAILED)
                plain::die("mmap");
            window = static_cast<unsigned char*>(p);
        }
        std::memcpy(window + (offset - windowStart), src + (offset & plain::kMask), a.chunk);
        offset += a.chunk;
    }
    ::munmap(window, kWindow);
    ::close(fd);
    const auto end = plain::Clock::now();
    plain::report(offset, start, end);
    const int again = ::open(a.path.c_str(), O_RDONLY);
    ::fsync(again);
    ::close(again);
    ::unlink(a.path.c_str());
}
