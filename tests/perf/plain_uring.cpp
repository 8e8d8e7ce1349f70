// SPDX-License-Identifier: MIT
// io_uring with O_DIRECT, written the plain way: one ring of QD entries, the file and the buffers registered,
// up to QD requests submitted, completions reaped in batches with io_uring_peek_batch_cqe.
// usage: plain_uring PATH CHUNK_BYTES TOTAL_BYTES MODE QD [GROUP [RING]]
// GROUP 0 (the default): the prepared requests go to the kernel with the wait (io_uring_submit_and_wait);
// GROUP n: also without waiting (io_uring_submit) whenever n of them are prepared (1: each on its own, as
// fio submits; fio_compare.py --groups races them). RING 0 (the default): a ring with no set-up flags, as
// IOLab's; 1: the flags recent fio sets (COOP_TASKRUN, SINGLE_ISSUER, DEFER_TASKRUN).
// MODE 0: random CHUNK reads of a TOTAL-byte file (written and synced first, untimed), TOTAL bytes in all, at
// chunk-aligned offsets from the same xorshift generator as IOLab's random readers (thread 0).
// MODE 1: sequential CHUNK writes of a new TOTAL-byte file (fsync after the timed part, as plain_write).
#include "plain_common.h"

#include <fcntl.h>
#include <liburing.h>
#include <sys/uio.h>
#include <unistd.h>

#include <bit>
#include <vector>

namespace {

void writeFile(const char* path, std::uint64_t total)
{
    const unsigned char* src = plain::sourceBuffer(1 << 20);
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        plain::die("open");
    for (std::uint64_t done = 0; done < total; done += 1 << 20)
        if (::write(fd, src + (done & plain::kMask), 1 << 20) != 1 << 20)
            plain::die("write");
    if (::fdatasync(fd) != 0 || ::close(fd) != 0)
        plain::die("close");
}

// IOLab's RandomOffsets for thread 0 (core/engine/read_buffer.h), so both sides read the same offsets.
struct RandomOffsets
{
    std::uint64_t state = 0x9e3779b97f4a7c15ULL;
    std::uint64_t slots;
    std::uint64_t chunk;
    std::uint64_t next()
    {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return ((state * 0x2545f4914f6cdd1dULL) % slots) * chunk;
    }
};

} // namespace

int main(int argc, char** argv)
{
    const auto a = plain::parse(argc, argv);
    const bool write = a.extra == 1;
    const unsigned depth = argc > 5 ? static_cast<unsigned>(std::strtoul(argv[5], nullptr, 10)) : 1;
    const unsigned group = argc > 6 ? static_cast<unsigned>(std::strtoul(argv[6], nullptr, 10)) : 0;
    const unsigned ringFlags =
        argc > 7 && std::strtoul(argv[7], nullptr, 10) == 1
            ? IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN
            : 0;
    if (!write)
        writeFile(a.path.c_str(), a.total);

    io_uring ring{};
    if (const int error = io_uring_queue_init(std::bit_ceil(depth), &ring, ringFlags); error < 0) {
        errno = -error;
        plain::die("io_uring_queue_init");
    }
    const int fd = write ? ::open(a.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_DIRECT, 0644)
                         : ::open(a.path.c_str(), O_RDONLY | O_DIRECT);
    if (fd < 0)
        plain::die("open");
    if (io_uring_register_files(&ring, &fd, 1) != 0)
        plain::die("io_uring_register_files");

    // Writes send the pattern (one period plus a chunk); reads land in one slot per request in flight.
    unsigned char* memory = write ? plain::sourceBuffer(a.chunk)
                                  : static_cast<unsigned char*>(std::aligned_alloc(4096, depth * a.chunk));
    const iovec region{memory, write ? plain::kPeriod + a.chunk : depth * a.chunk};
    if (io_uring_register_buffers(&ring, &region, 1) != 0)
        plain::die("io_uring_register_buffers");
    std::vector<unsigned> freeSlots;
    for (unsigned i = depth; i > 0; --i)
        freeSlots.push_back(i - 1);
    RandomOffsets random{.slots = a.total / a.chunk, .chunk = a.chunk};

    const std::uint64_t requests = a.total / a.chunk;
    const auto chunk = static_cast<unsigned>(a.chunk);
    std::uint64_t submitted = 0;
    std::uint64_t completed = 0;
    std::vector<io_uring_cqe*> cqes(2 * std::bit_ceil(depth));
    const auto start = plain::start();
    while (completed < requests) {
        while (submitted - completed < depth && submitted < requests) {
            io_uring_sqe* sqe = io_uring_get_sqe(&ring);
            if (write) {
                const std::uint64_t at = submitted * a.chunk;
                io_uring_prep_write_fixed(sqe, 0, memory + (at & plain::kMask), chunk, at, 0);
                io_uring_sqe_set_data64(sqe, 0);
            } else {
                const unsigned slot = freeSlots.back();
                freeSlots.pop_back();
                io_uring_prep_read_fixed(sqe, 0, memory + slot * a.chunk, chunk, random.next(), 0);
                io_uring_sqe_set_data64(sqe, slot);
            }
            sqe->flags |= IOSQE_FIXED_FILE;
            ++submitted;
            if (group != 0 && io_uring_sq_ready(&ring) >= group)
                io_uring_submit(&ring);
        }
        if (const int error = io_uring_submit_and_wait(&ring, 1); error < 0 && error != -EINTR) {
            errno = -error;
            plain::die("io_uring_submit_and_wait");
        }
        const unsigned count =
            io_uring_peek_batch_cqe(&ring, cqes.data(), static_cast<unsigned>(cqes.size()));
        for (unsigned i = 0; i < count; ++i) {
            if (cqes[i]->res != static_cast<int>(chunk)) {
                errno = cqes[i]->res < 0 ? -cqes[i]->res : EIO;
                plain::die(write ? "io_uring write" : "io_uring read");
            }
            if (!write)
                freeSlots.push_back(static_cast<unsigned>(io_uring_cqe_get_data64(cqes[i])));
        }
        io_uring_cq_advance(&ring, count);
        completed += count;
    }
    if (::close(fd) != 0)
        plain::die("close");
    const auto end = plain::Clock::now();
    plain::report(completed * a.chunk, start, end);
    io_uring_queue_exit(&ring);
    if (write) {
        const int again = ::open(a.path.c_str(), O_RDONLY);
        ::fsync(again);
        ::close(again);
    }
    ::unlink(a.path.c_str());
}
