// SPDX-License-Identifier: MIT
// uring-write, uring-random-write (and -direct): writes of a file per thread through io_uring, up to the
// queue depth in flight; sequential, or every chunk once in a random order (ChunkOrder).
#include "core/engine/chunk_order.h"
#include "platform/linux/uring_queue.h"
#include "platform/linux/uring_strategies.h"

#include <memory>

namespace iolab::linux_backend {

namespace {

// The loop's n-th request writes the order's n-th chunk; the short tail chunk, wherever it falls, is the
// file's last.
struct ShuffledPlace
{
    ChunkOrder order;
    std::uint64_t chunkBytes;
    std::uint64_t fileBytes;

    Extent operator()(std::uint64_t offset, std::uint64_t) const noexcept
    {
        const std::uint64_t at = order.at(offset / chunkBytes) * chunkBytes;
        return {at, std::min(chunkBytes, fileBytes - at)};
    }
};

struct NoCheck
{
    Outcome operator()(std::uint64_t, const std::byte*, std::uint64_t) const { return Outcome::success(); }
};

class UringWriteJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, bool random, bool direct, Outcome& outcome)
    {
        std::unique_ptr<UringWriteJob> job(new UringWriteJob(spec, random));
        const UringOptions options = requestedOptions(spec.testCase.uring);
        // The ring first: a machine without io_uring leaves no file behind.
        if (!job->m_ring.init(spec.testCase.queueDepth, outcome, ringSetupFor(options)))
            return nullptr;
        job->m_fd = posix::openOutput(spec, O_WRONLY, direct, outcome);
        if (!job->m_fd)
            return nullptr;
        QueueIo& io = job->m_io;
        io.fd = job->m_fd.get();
        io.pattern = spec.pattern->view();
        // Requests send straight from the pattern's memory, no copy: registered whole as buffer 0
        // (fixedbufs), its pages are pinned once instead of per request. Registration only pins, the kernel
        // never writes to them.
        const std::vector<iovec> pattern{
            {const_cast<std::byte*>(spec.pattern->at(0)), spec.pattern->sizeBytes()}};
        if (!registerForOptions(job->m_ring, options, io, pattern, outcome))
            return nullptr;
        io.call = "io_uring write";
        io.syncDataOnly = syncsDataOnly(spec.testCase.sync.mode);
        io.path = spec.path;
        return job;
    }

    Outcome execute(Progress& progress) override
    {
        const SyncMode mode = m_spec.testCase.sync.mode;
        const std::uint32_t every = m_spec.testCase.sync.loopSyncEvery();
        const std::uint32_t depth = m_spec.testCase.queueDepth;
        const std::uint64_t chunk = m_spec.testCase.chunkBytes;
        const std::uint64_t total = m_spec.bytes;
        const bool syncAtEnd =
            mode == SyncMode::FsyncEnd || mode == SyncMode::FdatasyncEnd || syncsEveryN(mode);
        const auto run = [&](const auto& timer, auto place) {
            UringQueue queue(m_ring, m_io, depth, timer, std::move(place), NoCheck{}, m_error);
            LoopEnd end = runQueuedChunks(total, chunk, depth, every, progress, queue);
            if (end == LoopEnd::Completed && syncAtEnd &&
                !timedFinalSync(m_spec.latency, mode, [&] { return queue.fsync(syncsDataOnly(mode)); }))
                end = LoopEnd::Failed;
            return end;
        };
        const LoopEnd end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            if (m_random)
                return run(timer, ShuffledPlace{ChunkOrder((total + chunk - 1) / chunk, m_spec.thread + 1),
                                                chunk, total});
            return run(timer, SequentialPlace{});
        });
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (m_io.fixedFile)
            m_ring.unregisterFile(); // the ring's reference would keep the file open past close(2)
        if (const int error = m_fd.close(); error != 0)
            return posix::errnoOutcome(error, "close", m_spec.path);
        return Outcome::success();
    }

    std::optional<UringOptions> uringInEffect() const override { return optionsInEffect(m_ring, m_io); }

private:
    UringWriteJob(const JobSpec& spec, bool random) : m_spec(spec), m_random(random) {}

    JobSpec m_spec;
    bool m_random;
    posix::UniqueFd m_fd; // declared before the ring: closed after the ring let go of it
    Ring m_ring;
    QueueIo m_io;
    Outcome m_error;
};

class UringWriteStrategy final : public UringStrategy
{
public:
    UringWriteStrategy(StrategyInfo info, bool random) : UringStrategy(std::move(info)), m_random(random) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        const bool direct = info().needsDirectIo;
        // As for direct: every source address is the pattern's base plus a block multiple; check the base,
        // since a misaligned buffer is a silent EINVAL on one filesystem and a silent copy on another.
        const auto address = reinterpret_cast<std::uintptr_t>(spec.pattern->at(0));
        if (direct && address % spec.target.logicalBlockBytes != 0) {
            outcome = {Status::Failed, EINVAL, "align", "the O_DIRECT source buffer is not block aligned"};
            return nullptr;
        }
        return UringWriteJob::create(spec, m_random, direct, outcome);
    }

private:
    bool m_random;
};

} // namespace

std::unique_ptr<Strategy> makeUringWriteStrategy(StrategyInfo info, bool random)
{
    return std::make_unique<UringWriteStrategy>(std::move(info), random);
}

} // namespace iolab::linux_backend
