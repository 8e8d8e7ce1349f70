// SPDX-License-Identifier: MIT
// write(2) per chunk, written the plain way. EXTRA: 1 adds O_DIRECT. THREADED (after EXTRA) 1: a second
// thread waits while the loop runs, as IOLab's sampler does (plain::IdleThread).
#include "plain_common.h"

#include <fcntl.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    const auto a = plain::parse(argc, argv);
    const plain::IdleThread idle(argc > 5 && std::strcmp(argv[5], "1") == 0);
    const unsigned char* src = plain::sourceBuffer(a.chunk);
    const int flags = O_WRONLY | O_CREAT | O_EXCL | (a.extra == 1 ? O_DIRECT : 0);
    const int fd = ::open(a.path.c_str(), flags, 0644);
    if (fd < 0)
        plain::die("open");
    const std::uint64_t writes = a.total / a.chunk;
    const auto start = plain::start();
    std::uint64_t offset = 0;
    for (std::uint64_t i = 0; i < writes; ++i) {
        if (::write(fd, src + (offset & plain::kMask), a.chunk) != static_cast<ssize_t>(a.chunk))
            plain::die("write");
        offset += a.chunk;
    }
    if (::close(fd) != 0)
        plain::die("close");
    const auto end = plain::Clock::now();
    plain::report(offset, start, end);
    const int again = ::open(a.path.c_str(), O_RDONLY);
    ::fsync(again);
    ::close(again);
    ::unlink(a.path.c_str());
}
