// SPDX-License-Identifier: MIT
// uring-linked-sync: one io_uring submission per write, the write linked (IOSQE_IO_LINK) to an fsync or
// fdatasync every N writes, waiting for both: the sync lab's io_uring row. The link makes the kernel start
// the sync only once the write has completed, without a return to the program in between.
#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "platform/builtin_strategies.h"
#include "platform/common/one_os_strategies.h"
#include "platform/linux/uring_queue.h"
#include "platform/posix/basic_strategy.h"

#include <array>
#include <cerrno>

namespace iolab::linux_backend {

namespace {

class LinkedSyncJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, Outcome& outcome)
    {
        std::unique_ptr<LinkedSyncJob> job(new LinkedSyncJob(spec));
        if (!job->m_ring.init(2, outcome)) // a write and its sync
            return nullptr;
        job->m_fd = posix::openOutput(spec, O_WRONLY, false, outcome);
        if (!job->m_fd)
            return nullptr;
        return job;
    }

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern = m_spec.pattern->view();
        const SyncPolicy sync = m_spec.testCase.sync;
        std::uint64_t untilSync = sync.everyWrites;
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            return runChunks(
                m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress, timer,
                [&](std::uint64_t offset, std::uint64_t size) {
                    const bool linked = --untilSync == 0;
                    const std::uint64_t at = placeInFile(m_spec.testCase.preallocate, offset);
                    if (!linked)
                        return writeAndSync(pattern.at(at), size, at, false);
                    untilSync = sync.everyWrites;
                    if (!writeAndSync(pattern.at(at), size, at, true))
                        return false;
                    // The loop writes from the file's start: its first offset + size bytes are durable.
                    progress.markDurable(offset + size, TimingClock::now());
                    return true;
                },
                [] { return true; });
        });
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        // The writes after the last linked sync, as the other writers with a sync every N writes do.
        if (!timedFinalSync(m_spec.latency, sync.mode,
                            [&] { return posix::syncForPolicy(m_fd.get(), sync.mode); }))
            return posix::errnoOutcome(errno, syncName(), m_spec.path);
        if (const int error = m_fd.close(); error != 0)
            return posix::errnoOutcome(error, "close", m_spec.path);
        return Outcome::success();
    }

private:
    explicit LinkedSyncJob(const JobSpec& spec) : m_spec(spec) {}

    const char* syncName() const { return syncCallName(m_spec.testCase.sync.mode); }

    // One write of `size` bytes at `offset`, with its sync linked behind it when `linked`; returns once both
    // have completed. A short write breaks the link (the kernel cancels the sync), so the rest goes again
    // with the sync linked behind it.
    bool writeAndSync(const std::byte* data, std::uint64_t size, std::uint64_t offset, bool linked)
    {
        for (;;) {
            io_uring_sqe* write = m_ring.nextSqe();
            io_uring_prep_write(write, m_fd.get(), data, static_cast<unsigned>(size), offset);
            io_uring_sqe_set_data64(write, 0);
            if (linked) {
                write->flags |= IOSQE_IO_LINK;
                io_uring_sqe* fsync = m_ring.nextSqe();
                io_uring_prep_fsync(fsync, m_fd.get(),
                                    syncsDataOnly(m_spec.testCase.sync.mode) ? IORING_FSYNC_DATASYNC : 0);
                io_uring_sqe_set_data64(fsync, 1);
            }
            const unsigned entries = linked ? 2 : 1;
            int written = 0;
            int synced = 0;
            unsigned seen = 0;
            while (seen < entries) {
                const int submitted = m_ring.submitAndWait(1);
                if (submitted < 0 && submitted != -EINTR && submitted != -EAGAIN)
                    return fail(-submitted, "io_uring_submit");
                std::array<io_uring_cqe*, 2> cqes{};
                const unsigned n = m_ring.peek(cqes.data(), entries - seen);
                for (unsigned i = 0; i < n; ++i)
                    (io_uring_cqe_get_data64(cqes[i]) == 0 ? written : synced) = cqes[i]->res;
                m_ring.advance(n);
                seen += n;
            }
            if (written < 0)
                return fail(-written, "io_uring write");
            if (written == 0)
                return fail(EIO, "io_uring write");
            const auto done = static_cast<std::uint64_t>(written);
            if (done < size) { // the linked sync was cancelled: it goes again behind the rest
                data += done;
                size -= done;
                offset += done;
                continue;
            }
            if (linked && synced < 0)
                return fail(-synced, uringSyncCall(syncsDataOnly(m_spec.testCase.sync.mode)));
            return true;
        }
    }

    bool fail(int error, const char* call)
    {
        m_error = posix::errnoOutcome(error, call, m_spec.path);
        return false;
    }

    JobSpec m_spec;
    Ring m_ring; // before the file: torn down after it, with nothing left in flight
    posix::UniqueFd m_fd;
    Outcome m_error;
};

class UringLinkedSyncStrategy final : public BasicStrategy
{
public:
    UringLinkedSyncStrategy() : BasicStrategy(uringLinkedSyncDeclaration().info) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return LinkedSyncJob::create(spec, outcome);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeUringLinkedSyncStrategy()
{
    return std::make_unique<linux_backend::UringLinkedSyncStrategy>();
}

} // namespace iolab
