// SPDX-License-Identifier: MIT
// read(2) per chunk from the front of a file, the plain way. The file is written first (untimed), then
// evicted from the page cache as IOLab's cold cases are (fdatasync + POSIX_FADV_DONTNEED), or read once to
// warm it. EXTRA: 0 cold, 1 warm, 2 cold with O_DIRECT. THREADED (after EXTRA) 1: a second thread waits while
// the loop runs, as IOLab's sampler does (plain::IdleThread).
#include "plain_common.h"

#include <fcntl.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    const auto a = plain::parse(argc, argv);
    const plain::IdleThread idle(argc > 5 && std::strcmp(argv[5], "1") == 0);
    const unsigned char* src = plain::sourceBuffer(1 << 20);
    {
        const int fd = ::open(a.path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0)
            plain::die("open");
        for (std::uint64_t done = 0; done < a.total; done += 1 << 20)
            if (::write(fd, src + (done & plain::kMask), 1 << 20) != 1 << 20)
                plain::die("write");
        if (::fdatasync(fd) != 0 || ::close(fd) != 0)
            plain::die("close");
    }
    auto* buffer = static_cast<unsigned char*>(std::aligned_alloc(4096, (a.chunk + 4095) / 4096 * 4096));
    {
        const int fd = ::open(a.path.c_str(), O_RDONLY);
        if (a.extra == 1) {
            while (::read(fd, buffer, a.chunk) > 0) {
            }
        } else {
            ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        }
        ::close(fd);
    }
    const int fd = ::open(a.path.c_str(), O_RDONLY | (a.extra == 2 ? O_DIRECT : 0));
    if (fd < 0)
        plain::die("open");
    const std::uint64_t reads = a.total / a.chunk;
    const auto start = plain::start();
    std::uint64_t offset = 0;
    for (std::uint64_t i = 0; i < reads; ++i) {
        if (::read(fd, buffer, a.chunk) != static_cast<ssize_t>(a.chunk))
            plain::die("read");
        offset += a.chunk;
    }
    if (::close(fd) != 0)
        plain::die("close");
    const auto end = plain::Clock::now();
    plain::report(offset, start, end);
    ::unlink(a.path.c_str());
}
