// SPDX-License-Identifier: MIT
// fsync-every on an io_uring queue, the two orders, written by hand with liburing: the fsync queued in line
// behind the writes before it (IOSQE_IO_DRAIN) while the loop keeps the queue full, as IOLab's uring-*
// strategies do, against letting the queue drain and then syncing, as fio does (and IOLab did before
// 1657b8d). Same writes, same syncs, same final fdatasync: only the order differs. Alternating A/B pairs,
// each run on a new file:
//
//     build/dev/tests/perf/uring_fsync_order PATH [CHUNK_KIB QD EVERY TOTAL_MIB PAIRS]
//
// (defaults: 64 KiB chunks, queue depth 8, an fsync every 16 writes, 256 MiB, 8 pairs; O_DIRECT). It prints
// each run's MB/s, the medians and the median of the per-pair ratios in line / drained.
#include <liburing.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

enum class Order
{
    InLine, // the fsync carries IOSQE_IO_DRAIN and takes a queue slot; writes go on behind it
    Drained // the loop waits for every write in flight, then for the fsync
};

struct Setup
{
    std::string path;
    std::uint64_t chunk = 64 * 1024;
    unsigned depth = 8;
    unsigned every = 16;
    std::uint64_t total = 256ULL << 20;
};

[[noreturn]] void fail(const char* what, int error)
{
    std::fprintf(stderr, "%s: %s\n", what, std::strerror(error));
    std::exit(1);
}

// Reaps what has completed (waiting for one when `wait`), returns how many; a failed request ends the
// program.
unsigned reap(io_uring& ring, bool wait)
{
    io_uring_cqe* cqe = nullptr;
    if (wait) {
        if (const int r = io_uring_wait_cqe(&ring, &cqe); r < 0)
            fail("io_uring_wait_cqe", -r);
    }
    unsigned seen = 0;
    while (io_uring_peek_cqe(&ring, &cqe) == 0) {
        if (cqe->res < 0)
            fail("a request", -cqe->res);
        io_uring_cqe_seen(&ring, cqe);
        ++seen;
    }
    return seen;
}

io_uring_sqe* slot(io_uring& ring)
{
    io_uring_sqe* sqe = io_uring_get_sqe(&ring);
    if (sqe == nullptr) {
        io_uring_submit(&ring);
        sqe = io_uring_get_sqe(&ring);
    }
    if (sqe == nullptr)
        fail("io_uring_get_sqe", EBUSY);
    return sqe;
}

// One run: MB/s over the writes, their fsyncs and the final fdatasync.
double run(const Setup& s, Order order, const void* buffer)
{
    const int fd = ::open(s.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_CLOEXEC, 0644);
    if (fd < 0)
        fail(s.path.c_str(), errno);
    io_uring ring{};
    if (const int r = io_uring_queue_init(s.depth * 2, &ring, 0); r < 0)
        fail("io_uring_queue_init", -r);
    const std::uint64_t writes = s.total / s.chunk;
    std::uint64_t queued = 0; // writes queued
    unsigned inFlight = 0;    // requests (writes and fsyncs) not yet reaped
    unsigned sinceSync = 0;   // writes queued since the last fsync
    const auto started = std::chrono::steady_clock::now();
    // Both orders sync after every `every` writes, the last group's included.
    while (queued < writes || inFlight > 0 || sinceSync == s.every) {
        if (order == Order::Drained && sinceSync == s.every) {
            // Wait for every write in flight, then for the fsync alone.
            io_uring_submit(&ring);
            while (inFlight > 0)
                inFlight -= reap(ring, true);
            io_uring_prep_fsync(slot(ring), fd, 0);
            io_uring_submit(&ring);
            reap(ring, true);
            sinceSync = 0;
            continue;
        }
        while (inFlight < s.depth && (queued < writes || sinceSync == s.every)) {
            if (sinceSync == s.every) {
                if (order == Order::Drained)
                    break;
                io_uring_sqe* sync = slot(ring);
                io_uring_prep_fsync(sync, fd, 0);
                sync->flags |= IOSQE_IO_DRAIN;
                ++inFlight;
                sinceSync = 0;
                continue;
            }
            io_uring_prep_write(slot(ring), fd, buffer, static_cast<unsigned>(s.chunk), queued * s.chunk);
            ++queued;
            ++inFlight;
            ++sinceSync;
        }
        if (order == Order::Drained && sinceSync == s.every)
            continue;
        if (inFlight == 0)
            break;
        if (const int r = io_uring_submit_and_wait(&ring, 1); r < 0)
            fail("io_uring_submit_and_wait", -r);
        inFlight -= reap(ring, false);
    }
    if (::fdatasync(fd) != 0)
        fail("fdatasync", errno);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    io_uring_queue_exit(&ring);
    ::close(fd);
    ::unlink(s.path.c_str());
    return static_cast<double>(writes * s.chunk) / seconds / 1e6;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s PATH [CHUNK_KIB QD EVERY TOTAL_MIB PAIRS]\n", argv[0]);
        return 2;
    }
    Setup s;
    s.path = std::string(argv[1]) + "/uring-fsync-order.dat";
    if (argc > 2)
        s.chunk = std::strtoull(argv[2], nullptr, 10) * 1024;
    if (argc > 3)
        s.depth = static_cast<unsigned>(std::atoi(argv[3]));
    if (argc > 4)
        s.every = static_cast<unsigned>(std::atoi(argv[4]));
    if (argc > 5)
        s.total = std::strtoull(argv[5], nullptr, 10) << 20;
    const int pairs = argc > 6 ? std::atoi(argv[6]) : 8;
    void* buffer = nullptr;
    if (::posix_memalign(&buffer, 4096, s.chunk) != 0)
        fail("posix_memalign", ENOMEM);
    std::memset(buffer, 0x5a, s.chunk);

    std::printf("%llu KiB writes, QD %u, an fsync every %u writes, %llu MiB, O_DIRECT, %s\n",
                static_cast<unsigned long long>(s.chunk / 1024), s.depth, s.every,
                static_cast<unsigned long long>(s.total >> 20), s.path.c_str());
    run(s, Order::InLine, buffer); // warm-up of both paths, untimed
    run(s, Order::Drained, buffer);
    std::vector<double> inLine;
    std::vector<double> drained;
    std::vector<double> ratios;
    for (int p = 0; p < pairs; ++p) {
        // Alternate which goes first, so that neither always follows the other's write-back.
        double a = 0;
        double b = 0;
        if (p % 2 == 0) {
            a = run(s, Order::InLine, buffer);
            b = run(s, Order::Drained, buffer);
        } else {
            b = run(s, Order::Drained, buffer);
            a = run(s, Order::InLine, buffer);
        }
        inLine.push_back(a);
        drained.push_back(b);
        ratios.push_back(a / b);
        std::printf("pair %d: in line %8.1f MB/s, drained %8.1f MB/s, ratio %.3f\n", p + 1, a, b, a / b);
    }
    std::printf("median: in line %.1f MB/s, drained %.1f MB/s; median ratio in line / drained %.3f (%.2f to "
                "%.2f)\n",
                median(inLine), median(drained), median(ratios),
                *std::min_element(ratios.begin(), ratios.end()),
                *std::max_element(ratios.begin(), ratios.end()));
    std::free(buffer);
    return 0;
}
