// SPDX-License-Identifier: MIT
// write(2) (EXTRA 0) into a pipe, or (EXTRA 1) the article's double buffer: memcpy into one of two buffers
// and vmsplice(2) it into a pipe sized to the chunk (CHUNK must be a page multiple). A reader thread splices
// the pipe into /dev/null. Timed until the reader has seen end-of-file.
#include "plain_common.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <thread>
#include <unistd.h>

int main(int argc, char** argv)
{
    const auto a = plain::parse(argc, argv);
    const unsigned char* src = plain::sourceBuffer(a.chunk);
    int fds[2];
    if (::pipe(fds) != 0)
        plain::die("pipe");
    const bool vmsplice = a.extra == 1;
    unsigned char* buffers[2] = {static_cast<unsigned char*>(std::aligned_alloc(4096, a.chunk)),
                                 static_cast<unsigned char*>(std::aligned_alloc(4096, a.chunk))};
    std::memset(buffers[0], 1, a.chunk);
    std::memset(buffers[1], 1, a.chunk);
    int flip = 0;
    if (vmsplice && ::fcntl(fds[1], F_SETPIPE_SZ, static_cast<int>(a.chunk)) != static_cast<int>(a.chunk))
        plain::die("F_SETPIPE_SZ");
    std::thread reader([&] {
        const int devNull = ::open("/dev/null", O_WRONLY);
        while (::splice(fds[0], nullptr, devNull, nullptr, 1 << 20, SPLICE_F_MOVE) > 0) {
        }
        ::close(devNull);
    });
    const std::uint64_t writes = a.total / a.chunk;
    const auto start = plain::Clock::now();
    std::uint64_t offset = 0;
    for (std::uint64_t i = 0; i < writes; ++i) {
        const unsigned char* p = src + (offset & plain::kMask);
        if (vmsplice) {
            std::memcpy(buffers[flip], p, a.chunk);
            iovec iov{buffers[flip], a.chunk};
            flip ^= 1;
            while (iov.iov_len > 0) {
                const ssize_t n = ::vmsplice(fds[1], &iov, 1, 0);
                if (n < 0)
                    plain::die("vmsplice");
                iov.iov_base = static_cast<unsigned char*>(iov.iov_base) + n;
                iov.iov_len -= static_cast<std::size_t>(n);
            }
        } else if (::write(fds[1], p, a.chunk) != static_cast<ssize_t>(a.chunk)) {
            plain::die("write");
        }
        offset += a.chunk;
    }
    ::close(fds[1]);
    reader.join();
    const auto end = plain::Clock::now();
    plain::report(offset, start, end);
}
