// SPDX-License-Identifier: MIT
// write(2) into a pipe, or the article's double buffer: memcpy into one of two buffers and vmsplice(2) it
// into a pipe sized to the chunk (CHUNK must be a page multiple). A reader thread drains the pipe: it splices
// it into /dev/null, or, verifying, read(2)s READ_BYTES at a time and memcmp()s each read against an expanded
// copy of the pattern (one period plus READ_BYTES, so that every read compares in one call). Timed until the
// reader has seen end-of-file. EXTRA: 0 write, 1 vmsplice; add 2 to verify; add 4 for a forked reader (a
// process of its own, as `yes | pv` has, which reports what it saw through a shared mapping and is waited for
// inside the timed part; the CPU figure then adds the reader's). The pipe record's steps (mazzo.li, "How fast
// are Linux pipes anyway?"), for vmsplice: add 8 for buffers in transparent huge pages (2 MiB aligned,
// MADV_HUGEPAGE), 16 for a busy-polling reader (O_NONBLOCK / SPLICE_F_NONBLOCK, retried at once), 32 for the
// article's writer, which vmsplices the same filled buffers again instead of copying each chunk in (not with
// verification), 64 for a busy-polling writer too (SPLICE_F_NONBLOCK), 128 to pin the writer to CPU 0 and the
// reader to CPU 1 (IOLab's reader CPU other). Optional 5th argument: READ_BYTES (default 1 MiB).
#include "plain_common.h"

#include <cerrno>
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

int main(int argc, char** argv)
{
    const auto a = plain::parse(argc, argv);
    const bool vmsplice = (a.extra & 1) != 0;
    const bool verify = (a.extra & 2) != 0;
    const bool forked = (a.extra & 4) != 0;
    const bool huge = (a.extra & 8) != 0;
    const bool spinReader = (a.extra & 16) != 0;
    const bool noCopy = (a.extra & 32) != 0;
    const bool spinWriter = (a.extra & 64) != 0;
    const bool twoCpus = (a.extra & 128) != 0;
    if (noCopy && verify)
        plain::die("the article's writer (32) sends the same bytes again: not with verification (2)");
    const auto pinTo = [](int cpu) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (::sched_setaffinity(0, sizeof set, &set) != 0)
            plain::die("sched_setaffinity");
    };
    const std::uint64_t readBytes = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : std::uint64_t{1} << 20;
    const unsigned char* src = plain::sourceBuffer(std::max(a.chunk, readBytes));
    int fds[2];
    if (::pipe(fds) != 0)
        plain::die("pipe");
    unsigned char* buffers[2] = {nullptr, nullptr};
    if (huge) {
        constexpr std::size_t kHuge = 2 << 20;
        const std::size_t each = (a.chunk + kHuge - 1) / kHuge * kHuge;
        void* raw =
            ::mmap(nullptr, 2 * each + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED)
            plain::die("mmap");
        auto* base = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(raw) + kHuge - 1) /
                                                      kHuge * kHuge);
        if (::madvise(base, 2 * each, MADV_HUGEPAGE) != 0)
            plain::die("madvise");
        buffers[0] = base;
        buffers[1] = base + each;
    } else {
        buffers[0] = static_cast<unsigned char*>(std::aligned_alloc(4096, a.chunk));
        buffers[1] = static_cast<unsigned char*>(std::aligned_alloc(4096, a.chunk));
    }
    std::memset(buffers[0], 1, a.chunk);
    std::memset(buffers[1], 1, a.chunk);
    int flip = 0;
    if (vmsplice && ::fcntl(fds[1], F_SETPIPE_SZ, static_cast<int>(a.chunk)) != static_cast<int>(a.chunk))
        plain::die("F_SETPIPE_SZ");
    struct Seen
    {
        std::uint64_t received;
        bool mismatch;
    };
    // Shared with a forked reader; a reader thread uses it as it is.
    auto* seen = static_cast<Seen*>(
        ::mmap(nullptr, sizeof(Seen), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    if (seen == MAP_FAILED)
        plain::die("mmap");
    *seen = {0, false};
    if (spinReader && ::fcntl(fds[0], F_SETFL, O_NONBLOCK) != 0)
        plain::die("O_NONBLOCK");
    const auto drain = [&] {
        if (twoCpus)
            pinTo(1);
        std::uint64_t received = 0;
        if (!verify) {
            const int devNull = ::open("/dev/null", O_WRONLY);
            const unsigned flags = SPLICE_F_MOVE | (spinReader ? SPLICE_F_NONBLOCK : 0U);
            ssize_t n = 0;
            while ((n = ::splice(fds[0], nullptr, devNull, nullptr, 1 << 20, flags)) > 0 ||
                   (n < 0 && errno == EAGAIN))
                received += n > 0 ? static_cast<std::uint64_t>(n) : 0;
            ::close(devNull);
            seen->received = received;
            return;
        }
        auto* in = static_cast<unsigned char*>(std::aligned_alloc(4096, readBytes));
        ssize_t n = 0;
        bool mismatch = false;
        while ((n = ::read(fds[0], in, readBytes)) > 0 || (n < 0 && errno == EAGAIN)) {
            if (n < 0)
                continue;
            if (std::memcmp(in, src + (received & plain::kMask), static_cast<std::size_t>(n)) != 0)
                mismatch = true;
            received += static_cast<std::uint64_t>(n);
        }
        std::free(in);
        *seen = {received, mismatch};
    };
    std::thread reader;
    pid_t child = -1;
    if (forked) {
        child = ::fork();
        if (child < 0)
            plain::die("fork");
        if (child == 0) {
            ::close(fds[1]);
            drain();
            ::_exit(0);
        }
        ::close(fds[0]);
    } else {
        reader = std::thread(drain);
    }
    const std::uint64_t writes = a.total / a.chunk;
    if (twoCpus)
        pinTo(0);
    const auto start = plain::start(forked);
    std::uint64_t offset = 0;
    for (std::uint64_t i = 0; i < writes; ++i) {
        const unsigned char* p = src + (offset & plain::kMask);
        if (vmsplice) {
            if (!noCopy)
                std::memcpy(buffers[flip], p, a.chunk);
            iovec iov{buffers[flip], a.chunk};
            flip ^= 1;
            while (iov.iov_len > 0) {
                const ssize_t n = ::vmsplice(fds[1], &iov, 1, spinWriter ? SPLICE_F_NONBLOCK : 0U);
                if (n < 0 && errno == EAGAIN)
                    continue;
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
    int status = 0;
    if (forked && ::waitpid(child, &status, 0) != child)
        plain::die("waitpid");
    if (!forked)
        reader.join();
    const auto end = plain::Clock::now();
    if ((forked && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) || seen->mismatch ||
        seen->received != offset) {
        std::fprintf(stderr, "the reader saw %llu bytes%s\n", static_cast<unsigned long long>(seen->received),
                     seen->mismatch ? ", some of them wrong" : "");
        return 1;
    }
    plain::report(offset, start, end, forked);
}
