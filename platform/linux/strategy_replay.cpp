// SPDX-License-Identifier: MIT
// replay on Linux: a recorded program's calls re-issued in the run folder (core/engine/replay_script.h
// decides what, in which order, on which files, with which bytes; platform/common/replay_job.h runs the
// threads and times the calls). This file makes one call of a step with the C library and the system.
#include "core/analysis/program_profile.h"
#include "core/engine/pattern.h"
#include "core/engine/replay_script.h"
#include "core/model/replay.h"
#include "platform/builtin_strategies.h"
#include "platform/common/replay_job.h"
#include "platform/linux/uring_queue.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/posix_io.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace iolab::linux_backend {

namespace {

using trace::Call;
constexpr std::size_t kMaxVectors = 1024; // IOV_MAX

int openFlagsOf(std::uint32_t flags)
{
    int out = 0;
    const bool reads = (flags & trace::OpenRead) != 0;
    const bool writes = (flags & trace::OpenWrite) != 0;
    out |= reads && writes ? O_RDWR : writes ? O_WRONLY : O_RDONLY;
    if ((flags & trace::OpenCreate) != 0 || (flags & trace::OpenTmpfile) != 0)
        out |= O_CREAT;
    if ((flags & trace::OpenTruncate) != 0)
        out |= O_TRUNC;
    if ((flags & trace::OpenExclusive) != 0)
        out |= O_EXCL;
    if ((flags & trace::OpenAppend) != 0)
        out |= O_APPEND;
    if ((flags & trace::OpenDirect) != 0)
        out |= O_DIRECT;
    if ((flags & trace::OpenSync) != 0)
        out |= O_SYNC;
    if ((flags & trace::OpenDSync) != 0)
        out |= O_DSYNC;
    if ((flags & trace::OpenDirectory) != 0)
        out |= O_DIRECTORY;
    return out | O_CLOEXEC;
}

// What a request queued on io_uring that failed was (io-uring variant), for failure() on the same thread.
thread_local std::string t_queuedFailure;

// fopen's and fdopen's mode for the open flags the recorder kept.
const char* streamMode(std::uint32_t flags)
{
    const bool reads = (flags & trace::OpenRead) != 0;
    const bool writes = (flags & trace::OpenWrite) != 0;
    const bool append = (flags & trace::OpenAppend) != 0;
    const bool truncate = (flags & trace::OpenTruncate) != 0;
    if (reads && writes)
        return append ? "a+" : truncate ? "w+" : "r+";
    if (writes)
        return append ? "a" : "w";
    return "r";
}

int writeFlagsOf(std::uint32_t flags)
{
    int out = 0;
    if ((flags & trace::WriteDSync) != 0)
        out |= RWF_DSYNC;
    if ((flags & trace::WriteSync) != 0)
        out |= RWF_SYNC;
    if ((flags & trace::WriteAppend) != 0)
        out |= RWF_APPEND;
    if ((flags & trace::WriteHiPri) != 0)
        out |= RWF_HIPRI;
    return out;
}

enum class SlotKind : std::uint8_t
{
    None,
    Descriptor,
    Stream,
    Mapping
};

struct Handle
{
    SlotKind kind = SlotKind::None;
    int fd = -1;
    FILE* stream = nullptr;
    void* address = nullptr;
    std::uint64_t mappedBytes = 0;
    std::uint32_t streamFd = kNoReplaySlot; // a stream's descriptor slot (fopen's: closed by fclose)
};

class ReplayJob final : public ReplayJobBase
{
public:
    ReplayJob(const JobSpec& spec, ReplayTiming timing)
        : ReplayJobBase(spec, timing), m_handles(m_script.slots), m_vectors(m_script.threads.size())
    {
        for (auto& vectors : m_vectors)
            vectors.resize(kMaxVectors);
    }

    ~ReplayJob() override { closeEverything(); }

private:
    std::int64_t issue(const ReplayStep& step, std::uint32_t i, std::size_t thread) override;
    Outcome failure(const ReplayStep& step) override
    {
        const int error = errno;
        // A request queued on io_uring failed: it, not the step that waited for it, is named.
        std::string what = describe(step);
        if (!t_queuedFailure.empty())
            what = std::exchange(t_queuedFailure, std::string());
        Outcome outcome = posix::errnoOutcome(error, what, m_folder);
        if (step.call == Call::Open && (step.flags & trace::OpenDirect) != 0 && error == EINVAL) {
            outcome.status = Status::Unsupported;
            outcome.message = fmt::format("this filesystem does not support O_DIRECT (open of a file in {} "
                                          "gave EINVAL)",
                                          m_folder);
        }
        return outcome;
    }
    Outcome closeEverything() override;
    bool prepareSystem(Outcome& outcome) override;
    std::int64_t directBatch(int fd, const ReplayStep& step, std::byte* buffer) const;
    // Per thread, a file in the run folder mapped MAP_SHARED as large as the thread's buffer, unlinked at
    // once (the mapping keeps it, nothing is left behind): the mmap-batch variant's batch buffers.
    bool mapBatches(Outcome& outcome);
    // A queued step (kQueued) on the thread's ring: a write's bytes, or after a sync, 0 once everything
    // queued is complete; < 0 with errno when a request failed.
    std::int64_t queue(const ReplayStep& step, std::uint32_t i, std::size_t thread, int fd);
    // Submits what the thread's ring holds and waits for all of it: false with errno when a request failed
    // or wrote short.
    bool completeQueued(std::size_t thread);

    std::vector<Handle> m_handles;
    // Per recorded thread that queues steps (null for the others): its ring, and what each of its
    // entries asked (user_data is the entry's index here), to check and to name a failed request.
    struct Queued
    {
        std::uint64_t offset = 0;
        std::uint64_t bytes = 0; // a write's; 0 for a sync
        Call call = Call::Write;
    };
    std::vector<std::unique_ptr<Ring>> m_rings;
    std::vector<std::vector<Queued>> m_queued;
    std::vector<std::uint32_t> m_nextQueued;
    struct Mapped
    {
        void* address = MAP_FAILED;
        std::size_t bytes = 0;
        Mapped() = default;
        Mapped(const Mapped&) = delete;
        Mapped& operator=(const Mapped&) = delete;
        ~Mapped()
        {
            if (address != MAP_FAILED)
                ::munmap(address, bytes);
        }
    };
    std::vector<std::unique_ptr<Mapped>> m_batches; // per recorded thread, only for the mmap-batch variant
    std::vector<std::vector<iovec>> m_vectors;      // per recorded thread
};

bool ReplayJob::prepareSystem(Outcome& outcome)
{
    const bool queued = anyStepWith(kQueued);
    const bool mapped = anyStepWith(kDirectBatch | kMappedBatch);
    if (mapped && !mapBatches(outcome))
        return false;
    if (!queued)
        return true;
    m_rings.resize(m_script.threads.size());
    m_queued.resize(m_script.threads.size());
    m_nextQueued.assign(m_script.threads.size(), 0);
    for (std::size_t t = 0; t < m_script.threads.size(); ++t) {
        if (!anyStepWith(kQueued, t))
            continue;
        auto ring = std::make_unique<Ring>();
        if (!ring->init(kUringDepth, outcome))
            return false;
        m_queued[t].resize(ring->entries());
        m_rings[t] = std::move(ring);
    }
    return true;
}

bool ReplayJob::mapBatches(Outcome& outcome)
{
    // As large as the thread's buffer: the largest batch and its two partial blocks.
    const std::size_t bytes = bufferBytes();
    for (std::size_t t = 0; t < m_script.threads.size(); ++t) {
        const std::string path = fmt::format("{}/batch-{}.map", m_folder, t + 1);
        posix::UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (!fd) {
            outcome = posix::errnoOutcome(errno, "open (the mapped batch)", path);
            return false;
        }
        auto batch = std::make_unique<Mapped>();
        batch->bytes = bytes;
        const bool sized = ::ftruncate(fd.get(), static_cast<off_t>(bytes)) == 0;
        if (sized)
            batch->address = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
        const int error = errno;
        ::unlink(path.c_str());
        if (batch->address == MAP_FAILED) {
            outcome = posix::errnoOutcome(
                error, sized ? "mmap (the mapped batch)" : "ftruncate (the mapped batch)", path);
            return false;
        }
        m_batches.push_back(std::move(batch));
    }
    return true;
}

std::int64_t ReplayJob::queue(const ReplayStep& step, std::uint32_t i, std::size_t thread, int fd)
{
    Ring& ring = *m_rings[thread];
    if (ring.outstanding() + 1 >= ring.entries() && !completeQueued(thread))
        return -1;
    io_uring_sqe* sqe = ring.nextSqe();
    const std::uint32_t entry = m_nextQueued[thread]++ % ring.entries();
    io_uring_sqe_set_data64(sqe, entry);
    if (step.call == Call::Fsync || step.call == Call::Fdatasync) {
        io_uring_prep_fsync(sqe, fd, step.call == Call::Fdatasync ? IORING_FSYNC_DATASYNC : 0);
        sqe->flags |= IOSQE_IO_DRAIN; // after every request queued before it
        m_queued[thread][entry] = Queued{0, 0, step.call};
        return completeQueued(thread) ? 0 : -1;
    }
    const std::uint64_t dataAt = step.dataAt + std::uint64_t{i} * step.bytes;
    io_uring_prep_write(sqe, fd, m_pattern.at(dataAt), static_cast<unsigned>(step.bytes), dataAt);
    m_queued[thread][entry] = Queued{dataAt, step.bytes, step.call};
    return static_cast<std::int64_t>(step.bytes);
}

bool ReplayJob::completeQueued(std::size_t thread)
{
    Ring& ring = *m_rings[thread];
    int error = 0;
    while (ring.outstanding() > 0) {
        // One call hands over what is queued and waits for all of it; a signal, or a kernel short of
        // resources for the moment (EAGAIN, EBUSY: its completions are consumed below), only means again.
        const auto waitFor =
            static_cast<unsigned>(std::min<std::uint64_t>(ring.outstanding(), ring.entries()));
        if (const int submitted = ring.submitAndWait(waitFor);
            submitted < 0 && submitted != -EINTR && submitted != -EAGAIN && submitted != -EBUSY) {
            error = -submitted;
            t_queuedFailure = "io_uring_enter (the writes and syncs queued on io_uring)";
            break;
        }
        std::array<io_uring_cqe*, 64> cqes{};
        const unsigned n = ring.peek(cqes.data(), static_cast<unsigned>(cqes.size()));
        for (unsigned k = 0; k < n; ++k) {
            const Queued& asked =
                m_queued[thread][io_uring_cqe_get_data64(cqes[k]) % m_queued[thread].size()];
            const std::int64_t res = cqes[k]->res;
            if (error != 0 || res == static_cast<std::int64_t>(asked.bytes))
                continue;
            error = res < 0 ? static_cast<int>(-res) : EIO;
            t_queuedFailure =
                asked.bytes == 0 ? fmt::format("{} queued on io_uring",
                                               asked.call == Call::Fdatasync ? "fdatasync" : "fsync")
                : res < 0
                    ? fmt::format("a write of {} B at offset {} queued on io_uring", asked.bytes,
                                  asked.offset)
                    : fmt::format("a write of {} B at offset {} queued on io_uring (it wrote only {} B)",
                                  asked.bytes, asked.offset, res);
        }
        ring.advance(n);
    }
    errno = error;
    return error == 0;
}

std::int64_t ReplayJob::issue(const ReplayStep& step, std::uint32_t i, std::size_t thread)
{
    std::vector<iovec>& vectorsOf = m_vectors[thread];
    std::byte* const scratch = buffer(thread);
    const auto at = [&](std::uint64_t offset) {
        return m_pattern.at(offset);
    };
    Handle* h = step.slot != kNoReplaySlot ? &m_handles[step.slot] : nullptr;
    const int fd = h != nullptr ? h->fd : -1;
    if (thread < m_rings.size() && m_rings[thread]) {
        if (isQueued(step))
            return queue(step, i, thread, fd);
        // Any other call of the thread comes after what it queued, as the program's did.
        if (m_rings[thread]->outstanding() > 0 && !completeQueued(thread))
            return -1;
    }
    FILE* stream = h != nullptr ? h->stream : nullptr;
    const std::uint64_t dataAt = step.dataAt + std::uint64_t{i} * step.bytes;
    const auto bytes = static_cast<std::size_t>(step.bytes);
    const auto vectors = [&](const void* base) {
        const std::size_t count =
            std::clamp<std::size_t>(step.flags, 1, std::min(kMaxVectors, std::max<std::size_t>(bytes, 1)));
        const std::size_t each = bytes / count;
        for (std::size_t v = 0; v < count; ++v) {
            vectorsOf[v].iov_base = const_cast<std::byte*>(static_cast<const std::byte*>(base) + v * each);
            vectorsOf[v].iov_len = v + 1 == count ? bytes - each * (count - 1) : each;
        }
        return static_cast<int>(count);
    };
    switch (step.call) {
    case Call::Open: {
        const int opened = ::open(pathOf(step.file).c_str(), openFlagsOf(step.flags), 0644);
        if (opened >= 0 && step.error != 0) { // the program's failed, the replay's did not: let it go
            ::close(opened);
            return 0;
        }
        if (opened >= 0)
            m_handles[step.slot2] = Handle{SlotKind::Descriptor, opened};
        return opened;
    }
    case Call::FOpen: {
        FILE* opened = nullptr;
        if (step.file != kNoReplaySlot) {
            opened = std::fopen(pathOf(step.file).c_str(), streamMode(step.flags));
            if (opened != nullptr && step.error != 0) {
                std::fclose(opened);
                return 0;
            }
            if (opened != nullptr)
                m_handles[step.slot] = Handle{SlotKind::Descriptor, fileno(opened)};
        } else {
            // fdopen takes the descriptor over; the standard streams over inherited files get a copy.
            const int under = step.synthetic != 0 ? ::dup(fd) : fd;
            opened = under >= 0 ? ::fdopen(under, streamMode(step.flags)) : nullptr;
        }
        if (opened == nullptr)
            return -1;
        Handle made;
        made.kind = SlotKind::Stream;
        made.stream = opened;
        made.streamFd = step.slot;
        m_handles[step.slot2] = made;
        return 0;
    }
    case Call::Close: {
        h->kind = SlotKind::None;
        h->fd = -1;
        return ::close(fd);
    }
    case Call::FClose: {
        if (h->streamFd != kNoReplaySlot)
            m_handles[h->streamFd] = Handle{};
        *h = Handle{};
        return std::fclose(stream) == 0 ? 0 : -1;
    }
    case Call::Dup: {
        const int copy = ::dup(fd);
        if (copy >= 0)
            m_handles[step.slot2] = Handle{SlotKind::Descriptor, copy};
        return copy;
    }
    case Call::SetFlags: {
        int flags = 0;
        if ((step.flags & trace::OpenAppend) != 0)
            flags |= O_APPEND;
        if ((step.flags & trace::OpenDirect) != 0)
            flags |= O_DIRECT;
        return ::fcntl(fd, F_SETFL, flags);
    }
    case Call::Write:
        return ::write(fd, at(dataAt), bytes);
    case Call::PWrite:
        if ((step.flags & kDirectBatch) != 0)
            return directBatch(fd, step,
                               (step.flags & kMappedBatch) != 0 && thread < m_batches.size()
                                   ? static_cast<std::byte*>(m_batches[thread]->address)
                                   : scratch);
        return ::pwrite(fd, at(dataAt), bytes,
                        static_cast<off_t>(step.offset + static_cast<std::int64_t>(i * step.bytes)));
    case Call::WriteV:
        return ::writev(fd, vectorsOf.data(), vectors(at(dataAt)));
    case Call::PWriteV: {
        const off_t offset =
            step.offset < 0 ? -1
                            : static_cast<off_t>(step.offset + static_cast<std::int64_t>(i * step.bytes));
        return ::pwritev2(fd, vectorsOf.data(), vectors(at(dataAt)), offset, writeFlagsOf(step.flags));
    }
    case Call::Read:
        return ::read(fd, scratch, bytes);
    case Call::PRead:
        return ::pread(fd, scratch, bytes,
                       static_cast<off_t>(step.offset + static_cast<std::int64_t>(i * step.bytes)));
    case Call::ReadV:
        return ::readv(fd, vectorsOf.data(), vectors(scratch));
    case Call::PReadV: {
        const off_t offset =
            step.offset < 0 ? -1
                            : static_cast<off_t>(step.offset + static_cast<std::int64_t>(i * step.bytes));
        return ::preadv2(fd, vectorsOf.data(), vectors(scratch), offset, 0);
    }
    case Call::Seek:
        return ::lseek(fd, static_cast<off_t>(step.offset), static_cast<int>(step.flags));
    case Call::Fsync:
        return ::fsync(fd);
    case Call::Fdatasync:
        return ::fdatasync(fd);
    case Call::SyncFileRange:
        return ::sync_file_range(fd, static_cast<off_t>(step.offset), static_cast<off_t>(step.bytes),
                                 step.flags);
    case Call::Syncfs:
        return ::syncfs(fd);
    case Call::Sync:
        ::sync();
        return 0;
    case Call::Fallocate:
        if (step.flags == 0) {
            const int error =
                ::posix_fallocate(fd, static_cast<off_t>(step.offset), static_cast<off_t>(step.bytes));
            errno = error;
            return error == 0 ? 0 : -1;
        }
        return ::fallocate(fd, static_cast<int>(step.flags), static_cast<off_t>(step.offset),
                           static_cast<off_t>(step.bytes));
    case Call::Ftruncate:
        return ::ftruncate(fd, static_cast<off_t>(step.bytes));
    case Call::Mmap: {
        int protection = 0;
        if ((step.flags & trace::MapRead) != 0)
            protection |= PROT_READ;
        if ((step.flags & trace::MapWrite) != 0)
            protection |= PROT_WRITE;
        const int sharing = (step.flags & trace::MapShared) != 0 ? MAP_SHARED : MAP_PRIVATE;
        void* address = ::mmap(nullptr, bytes, protection, sharing, fd, static_cast<off_t>(step.offset));
        if (address == MAP_FAILED)
            return -1;
        Handle made;
        made.kind = SlotKind::Mapping;
        made.address = address;
        made.mappedBytes = step.bytes;
        m_handles[step.slot2] = made;
        return 0;
    }
    case Call::Msync: {
        int flags = (step.flags & trace::MapSyncWait) != 0 ? MS_SYNC : MS_ASYNC;
        if ((step.flags & trace::MapInvalidate) != 0)
            flags |= MS_INVALIDATE;
        return ::msync(h->address, h->mappedBytes, flags);
    }
    case Call::Munmap: {
        void* address = h->address;
        const std::uint64_t mapped = h->mappedBytes;
        *h = Handle{};
        return ::munmap(address, mapped);
    }
    case Call::Rename:
        return ::rename(pathOf(step.file).c_str(), pathOf(step.file2).c_str());
    case Call::Unlink:
        return ::unlink(pathOf(step.file).c_str());
    case Call::CopyFileRange: {
        const int in = m_handles[step.slot2].fd;
        loff_t offset = step.offset;
        return ::copy_file_range(in, nullptr, fd, step.offset >= 0 ? &offset : nullptr, bytes, 0);
    }
    case Call::SendFile:
        return ::sendfile(fd, m_handles[step.slot2].fd, nullptr, bytes);
    case Call::SetVBuf: {
        const auto mode = static_cast<trace::BufferMode>(step.flags);
        const int how = mode == trace::BufferMode::None   ? _IONBF
                        : mode == trace::BufferMode::Line ? _IOLBF
                                                          : _IOFBF;
        return std::setvbuf(stream, nullptr, how, bytes);
    }
    case Call::FSeek:
        return ::fseeko(stream, static_cast<off_t>(step.offset), static_cast<int>(step.flags));
    default: {
        bool handled = false;
        const std::int64_t result =
            issueStreamStep(step, i, stream, m_pattern, scratch,
                            StreamCalls{&std::fprintf, &::fwrite_unlocked, &::fputc_unlocked}, handled);
        return handled ? result : 0;
    }
    }
}

// The whole blocks a direct batch's bytes fall in, copied into the thread's page-aligned buffer (or its
// mapped batch) and written with one pwrite on the O_DIRECT | O_DSYNC descriptor: the step's bytes when the
// call wrote them all.
std::int64_t ReplayJob::directBatch(int fd, const ReplayStep& step, std::byte* buffer) const
{
    const DirectBlocks blocks = fillDirectBatch(step, buffer);
    const ssize_t written = ::pwrite(fd, buffer, blocks.bytes, static_cast<off_t>(blocks.from));
    if (written < 0)
        return -1;
    return directBatchResult(step, blocks, static_cast<std::uint64_t>(written));
}

Outcome ReplayJob::closeEverything()
{
    Outcome outcome = Outcome::success();
    for (std::size_t t = 0; t < m_rings.size(); ++t)
        if (m_rings[t] && m_rings[t]->outstanding() > 0 && !completeQueued(t) && outcome.ok())
            outcome = posix::errnoOutcome(errno, "io_uring (at the program's end)", m_folder);
    for (Handle& h : m_handles) {
        if (h.kind == SlotKind::Stream) {
            if (h.streamFd != kNoReplaySlot)
                m_handles[h.streamFd] = Handle{};
            if (std::fclose(h.stream) != 0 && outcome.ok())
                outcome = posix::errnoOutcome(errno, "fclose (at the program's end)", m_folder);
            h = Handle{};
        }
    }
    for (Handle& h : m_handles) {
        if (h.kind == SlotKind::Mapping)
            ::munmap(h.address, h.mappedBytes);
        else if (h.kind == SlotKind::Descriptor && h.fd >= 0)
            ::close(h.fd);
        h = Handle{};
    }
    return outcome;
}

class ReplayStrategy final : public BasicStrategy
{
public:
    ReplayStrategy() : BasicStrategy(replayStrategyInfo()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return makeReplayJob<ReplayJob>(spec, trace::System::Linux, outcome);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeReplayStrategy()
{
    return std::make_unique<linux_backend::ReplayStrategy>();
}

} // namespace iolab
