// SPDX-License-Identifier: MIT
#include "platform/linux/pipe_job.h"

#include "core/base/log.h"
#include "core/base/units.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "platform/pipe_write_job.h"
#include "platform/thread_placement.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <new>

namespace iolab::linux_backend {

namespace {

// The null-device splice takes up to 1 MiB at a time.
constexpr std::size_t kSpliceBytes = 1 * kMiB;

std::uint64_t pipeMaxBytes()
{
    std::ifstream in("/proc/sys/fs/pipe-max-size");
    std::uint64_t value = 0;
    if (in >> value)
        return value;
    return 1 * kMiB;
}

// pipe-write: write(2) per chunk.
struct PipeWrite
{
    using ReadCalls = PipeReadCalls;

    static LoopEnd write(const JobSpec& spec, const posix::UniqueFd& writeEnd, Progress& progress,
                         Outcome& error)
    {
        const Pattern::View pattern = spec.pattern->view();
        const int fd = writeEnd.get();
        return withCallTimer(spec.latency, [&](const auto& timer) {
            return runChunks(
                spec.bytes, spec.testCase.chunkBytes, 0, progress, timer,
                [&](std::uint64_t offset, std::uint64_t size) {
                    if (posix::writeFully(fd, pattern.at(offset), size)) [[likely]]
                        return true;
                    error = posix::errnoOutcome(errno, "write (pipe)", {});
                    return false;
                },
                [] { return true; });
        });
    }
};

struct SpliceRingFree
{
    std::size_t bytes;
    void operator()(std::byte* p) const noexcept { ::munmap(p, bytes); }
};

// vmsplice: the ring of page-aligned buffers the writer fills in turn; a buffer is refilled only after the
// pipe has let go of its pages (see makeSpliceRing).
struct SpliceRing
{
    std::unique_ptr<std::byte, SpliceRingFree> buffers{nullptr, SpliceRingFree{0}};
    std::size_t stride = 0;
    std::size_t count = 0;
};

bool makeSpliceRing(int writeEnd, std::uint64_t chunkBytes, SpliceRing& ring, Outcome& outcome)
{
    // vmsplice hands the pipe references to the writer's pages, so a buffer may be refilled only once the
    // reader has taken every page of it out of the pipe. Each chunk occupies ceil(chunk / page) pipe slots
    // (the buffers are page aligned) and the pipe holds `slots` of them: once ceil(slots / chunkPages) later
    // chunks have gone in, the oldest has surely come out. So the ring needs that many buffers plus one: two,
    // a double buffer, when the pipe is exactly one chunk, as in the fast-yes article.
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const int pipeBytes = ::fcntl(writeEnd, F_GETPIPE_SZ);
    if (pipeBytes <= 0) {
        outcome = posix::errnoOutcome(errno, "fcntl(F_GETPIPE_SZ)", {});
        return false;
    }
    const std::size_t slots = static_cast<std::size_t>(pipeBytes) / page;
    const std::size_t chunkPages = (chunkBytes + page - 1) / page;
    ring.stride = chunkPages * page;
    ring.count = (slots + chunkPages - 1) / chunkPages + 1;
    const std::size_t bytes = ring.stride * ring.count;
    void* p =
        ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED) {
        outcome = posix::errnoOutcome(errno, "mmap (vmsplice ring)", {});
        return false;
    }
    ring.buffers =
        std::unique_ptr<std::byte, SpliceRingFree>(static_cast<std::byte*>(p), SpliceRingFree{bytes});
    return true;
}

// vmsplice: as a producer does, fill the next ring buffer, then hand its pages to the pipe.
class VmspliceWrite
{
public:
    using ReadCalls = PipeReadCalls;

    explicit VmspliceWrite(SpliceRing ring) : m_ring(std::move(ring)) {}

    LoopEnd write(const JobSpec& spec, const posix::UniqueFd& writeEnd, Progress& progress, Outcome& error)
    {
        const Pattern::View pattern = spec.pattern->view();
        const int fd = writeEnd.get();
        std::byte* const ring = m_ring.buffers.get();
        const std::size_t stride = m_ring.stride;
        const std::size_t count = m_ring.count;
        std::size_t next = 0;
        return withCallTimer(spec.latency, [&](const auto& timer) {
            return runChunks(
                spec.bytes, spec.testCase.chunkBytes, 0, progress, timer,
                [&](std::uint64_t offset, std::uint64_t size) {
                    std::byte* const buffer = ring + next * stride;
                    next = next + 1 == count ? 0 : next + 1;
                    std::memcpy(buffer, pattern.at(offset), size);
                    iovec iov{buffer, size};
                    while (iov.iov_len > 0) {
                        const ssize_t n = ::vmsplice(fd, &iov, 1, 0);
                        if (n < 0) [[unlikely]] {
                            if (errno == EINTR)
                                continue;
                            error = posix::errnoOutcome(errno, "vmsplice", {});
                            return false;
                        }
                        iov.iov_base = static_cast<std::byte*>(iov.iov_base) + n;
                        iov.iov_len -= static_cast<std::size_t>(n);
                    }
                    return true;
                },
                [] { return true; });
        });
    }

private:
    SpliceRing m_ring;
};

} // namespace

bool PipeReadCalls::discardAll(const Handle& readEnd, StreamCheck& check)
{
    posix::UniqueFd devNull(::open("/dev/null", O_WRONLY | O_CLOEXEC));
    while (devNull) {
        const ssize_t n =
            ::splice(readEnd.get(), nullptr, devNull.get(), nullptr, kSpliceBytes, SPLICE_F_MOVE);
        if (n > 0) {
            check.skip(static_cast<std::uint64_t>(n));
            continue;
        }
        if (n == 0)
            return true;
        if (errno == EINTR)
            continue;
        break; // the caller falls back to read(2)
    }
    return false;
}

std::int64_t PipeReadCalls::read(const Handle& readEnd, std::byte* into, std::size_t bytes, Outcome& error)
{
    for (;;) {
        const ssize_t n = ::read(readEnd.get(), into, bytes);
        if (n >= 0)
            return n;
        if (errno == EINTR)
            continue;
        error = posix::errnoOutcome(errno, "read (pipe reader)", {});
        return -1;
    }
}

std::unique_ptr<Job> makePipeJob(const JobSpec& spec, PipeMode mode, Outcome& outcome)
{
    const auto placement = pipePlacement(spec.testCase.readerCpu, spec.thread, allowedCpus(), outcome);
    if (!placement)
        return nullptr;
    posix::ignoreSigpipe();
    int fds[2] = {-1, -1};
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        outcome = posix::errnoOutcome(errno, "pipe2", {});
        return nullptr;
    }
    posix::UniqueFd readEnd(fds[0]);
    posix::UniqueFd writeEnd(fds[1]);
    if (mode == PipeMode::Write)
        return PipeWriteJob<PipeWrite>::start(spec, *placement, std::move(readEnd), std::move(writeEnd));
    // Size the pipe to the chunk (the fast-yes article: F_SETPIPE_SZ = CHUNKSIZE), within what an
    // unprivileged process may ask for; the kernel rounds up to a power-of-two number of pages.
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t wanted =
        std::clamp<std::uint64_t>((spec.testCase.chunkBytes + page - 1) / page * page, page, pipeMaxBytes());
    if (::fcntl(writeEnd.get(), F_SETPIPE_SZ, static_cast<int>(wanted)) < 0)
        logger(LogModule::Platform).warn("F_SETPIPE_SZ {} failed: {}", wanted, posix::errnoName(errno));
    SpliceRing ring;
    if (!makeSpliceRing(writeEnd.get(), spec.testCase.chunkBytes, ring, outcome))
        return nullptr;
    return PipeWriteJob<VmspliceWrite>::start(spec, *placement, std::move(readEnd), std::move(writeEnd),
                                              std::move(ring));
}

} // namespace iolab::linux_backend
