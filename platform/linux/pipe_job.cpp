// SPDX-License-Identifier: MIT
#include "platform/linux/pipe_job.h"

#include "core/base/log.h"
#include "core/base/units.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "core/model/axes.h"
#include "platform/pipe_write_job.h"
#include "platform/thread_placement.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <string>

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

// A /proc/meminfo figure in bytes ("HugePages_Free" counts pages, the others are in kB), 0 when absent.
std::uint64_t meminfoValue(const std::string& key)
{
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.compare(0, key.size() + 1, key + ":") != 0)
            continue;
        std::istringstream fields(line.substr(key.size() + 1));
        std::uint64_t value = 0;
        std::string unit;
        fields >> value >> unit;
        return unit == "kB" ? value * 1024 : value;
    }
    return 0;
}

constexpr std::size_t kThpBytes = 2 * kMiB;

// The bytes of a mapping starting at `start` that the kernel backs with transparent huge pages (smaps).
std::uint64_t anonHugeBytes(const void* start)
{
    std::ifstream in("/proc/self/smaps");
    const std::string head = fmt::format("{:x}-", reinterpret_cast<std::uintptr_t>(start));
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        if (!line.empty() && std::isxdigit(static_cast<unsigned char>(line[0])) &&
            line.find('-') != std::string::npos && line.find(':') > line.find(' ')) {
            inside = line.compare(0, head.size(), head) == 0;
            continue;
        }
        if (inside && line.compare(0, 14, "AnonHugePages:") == 0) {
            std::istringstream fields(line.substr(14));
            std::uint64_t kb = 0;
            fields >> kb;
            return kb * 1024;
        }
    }
    return 0;
}

// Maps the ring's `bytes` with the pages asked for, populated; nullptr with `outcome` set when it cannot.
std::byte* mapRing(std::size_t& bytes, PipePages pages, Outcome& outcome)
{
    if (pages == PipePages::Normal) {
        void* p =
            ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (p == MAP_FAILED) {
            outcome = posix::errnoOutcome(errno, "mmap (vmsplice ring)", {});
            return nullptr;
        }
        return static_cast<std::byte*>(p);
    }
    if (pages == PipePages::Hugetlb) {
        const std::uint64_t hugePage = std::max<std::uint64_t>(meminfoValue("Hugepagesize"), kThpBytes);
        bytes = (bytes + hugePage - 1) / hugePage * hugePage;
        void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE, -1, 0);
        if (p == MAP_FAILED) {
            const int error = errno;
            outcome = posix::errnoOutcome(error, "mmap (MAP_HUGETLB, vmsplice ring)", {});
            outcome.status = Status::Unsupported;
            outcome.message =
                fmt::format("the vmsplice ring needs {} huge pages of {} KiB and {} of {} are free ({}); "
                            "reserve more with "
                            "`echo N > /proc/sys/vm/nr_hugepages` (root), or use pipe pages thp",
                            bytes / hugePage, hugePage / 1024, meminfoValue("HugePages_Free"),
                            meminfoValue("HugePages_Total"), posix::errnoName(error));
            return nullptr;
        }
        return static_cast<std::byte*>(p);
    }
    // THP: an aligned run of whole huge pages, advised before its first touch so that each fault can take a
    // huge page; then asked of the kernel whether it did.
    bytes = (bytes + kThpBytes - 1) / kThpBytes * kThpBytes;
    void* raw =
        ::mmap(nullptr, bytes + kThpBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) {
        outcome = posix::errnoOutcome(errno, "mmap (vmsplice ring)", {});
        return nullptr;
    }
    // The aligned run inside the mapping; what lies before and after it is given back.
    const std::size_t lead = (kThpBytes - reinterpret_cast<std::uintptr_t>(raw) % kThpBytes) % kThpBytes;
    std::byte* const ring = static_cast<std::byte*>(raw) + lead;
    if (lead > 0)
        ::munmap(raw, lead);
    if (kThpBytes - lead > 0)
        ::munmap(ring + bytes, kThpBytes - lead);
    if (::madvise(ring, bytes, MADV_HUGEPAGE) != 0) {
        outcome = posix::errnoOutcome(errno, "madvise (MADV_HUGEPAGE, vmsplice ring)", {});
        ::munmap(ring, bytes);
        return nullptr;
    }
    std::memset(ring, 1, bytes);
    const std::uint64_t huge = anonHugeBytes(ring);
    if (huge < bytes) {
        outcome = {Status::Unsupported, 0, "madvise (MADV_HUGEPAGE, vmsplice ring)",
                   fmt::format("the kernel backed {} KiB of the {} KiB vmsplice ring with transparent huge "
                               "pages, not all of it (memory too fragmented for 2 MiB pages?); pipe pages "
                               "thp needs every buffer in huge pages",
                               huge / 1024, bytes / 1024)};
        ::munmap(ring, bytes);
        return nullptr;
    }
    return ring;
}

bool makeSpliceRing(int writeEnd, std::uint64_t chunkBytes, PipePages pages, SpliceRing& ring,
                    Outcome& outcome)
{
    // vmsplice hands the pipe references to the writer's pages, so a buffer may be refilled only once the
    // reader has taken every page of it out of the pipe. Each chunk occupies ceil(chunk / page) pipe slots
    // (the buffers are page aligned) and the pipe holds `slots` of them: once ceil(slots / chunkPages) later
    // chunks have gone in, the oldest has surely come out. So the ring needs that many buffers plus one: two,
    // a double buffer, when the pipe is exactly one chunk, as in the fast-yes article. Huge pages change
    // none of this: the pipe still takes a slot per base page.
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
    std::size_t bytes = ring.stride * ring.count;
    std::byte* p = mapRing(bytes, pages, outcome);
    if (p == nullptr)
        return false;
    // A reader process need not see the ring: without this the writer's first pass over it after the fork
    // would copy every page (copy on write), and a hugetlb ring would need its pages twice.
    ::madvise(p, bytes, MADV_DONTFORK);
    ring.buffers = std::unique_ptr<std::byte, SpliceRingFree>(p, SpliceRingFree{bytes});
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

bool PipeReadCalls::spinOn(const Handle& readEnd, Outcome& outcome)
{
    const int flags = ::fcntl(readEnd.get(), F_GETFL);
    if (flags < 0 || ::fcntl(readEnd.get(), F_SETFL, flags | O_NONBLOCK) != 0) {
        outcome = posix::errnoOutcome(errno, "fcntl(O_NONBLOCK, spinning pipe reader)", {});
        return false;
    }
    return true;
}

bool PipeReadCalls::discardAll(const Handle& readEnd, StreamCheck& check)
{
    posix::UniqueFd devNull(::open("/dev/null", O_WRONLY | O_CLOEXEC));
    const int status = ::fcntl(readEnd.get(), F_GETFL);
    const unsigned flags =
        SPLICE_F_MOVE | (status >= 0 && (status & O_NONBLOCK) != 0 ? SPLICE_F_NONBLOCK : 0U);
    while (devNull) {
        const ssize_t n = ::splice(readEnd.get(), nullptr, devNull.get(), nullptr, kSpliceBytes, flags);
        if (n > 0) {
            check.skip(static_cast<std::uint64_t>(n));
            continue;
        }
        if (n == 0)
            return true;
        if (errno == EINTR || errno == EAGAIN) // EAGAIN: a spinning reader found the pipe empty
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
        if (errno == EINTR || errno == EAGAIN) // EAGAIN: a spinning reader found the pipe empty
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
        return PipeWriteJob<PipeWrite>::start(spec, *placement, outcome, std::move(readEnd),
                                              std::move(writeEnd));
    // Size the pipe to the chunk (the fast-yes article: F_SETPIPE_SZ = CHUNKSIZE), within what an
    // unprivileged process may ask for; the kernel rounds up to a power-of-two number of pages.
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t wanted =
        std::clamp<std::uint64_t>((spec.testCase.chunkBytes + page - 1) / page * page, page, pipeMaxBytes());
    if (::fcntl(writeEnd.get(), F_SETPIPE_SZ, static_cast<int>(wanted)) < 0)
        logger(LogModule::Platform).warn("F_SETPIPE_SZ {} failed: {}", wanted, posix::errnoName(errno));
    SpliceRing ring;
    if (!makeSpliceRing(writeEnd.get(), spec.testCase.chunkBytes, pipePages(spec.testCase), ring, outcome))
        return nullptr;
    return PipeWriteJob<VmspliceWrite>::start(spec, *placement, outcome, std::move(readEnd),
                                              std::move(writeEnd), std::move(ring));
}

PipePages pipePages(const Case& c)
{
    const std::string pages = extraAxisValue(c, "pipePages", "normal");
    return pages == "hugetlb" ? PipePages::Hugetlb : pages == "thp" ? PipePages::Thp : PipePages::Normal;
}

std::string pipePagesProblem(PipePages pages)
{
    if (pages == PipePages::Hugetlb && meminfoValue("HugePages_Free") == 0)
        return fmt::format(
            "pipe pages hugetlb: no huge page is free ({} reserved in /proc/sys/vm/nr_hugepages); "
            "reserve some with `echo N > /proc/sys/vm/nr_hugepages` (root), or use pipe pages thp",
            meminfoValue("HugePages_Total"));
    if (pages == PipePages::Thp) {
        std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
        std::string modes;
        std::getline(in, modes);
        if (!in && modes.empty())
            return "pipe pages thp: this kernel has no transparent huge pages "
                   "(/sys/kernel/mm/transparent_hugepage/enabled is missing)";
        if (modes.find("[never]") != std::string::npos)
            return "pipe pages thp: transparent huge pages are off "
                   "(/sys/kernel/mm/transparent_hugepage/enabled "
                   "is never); as root, echo madvise into it";
    }
    return {};
}

} // namespace iolab::linux_backend
