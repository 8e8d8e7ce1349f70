// SPDX-License-Identifier: MIT
// uring-read, uring-random-read (and -direct): reads through io_uring, up to the queue depth in flight, into
// a pool of registered buffers; each thread's own file front to back, or random chunks of one shared file.
#include "core/engine/offset_picker.h"
#include "core/engine/read_buffer.h"
#include "platform/linux/uring_queue.h"
#include "platform/linux/uring_strategies.h"

#include <memory>
#include <optional>

namespace iolab::linux_backend {

namespace {

template <class Offsets> struct RandomPlace
{
    Offsets offsets;
    Extent operator()(std::uint64_t, std::uint64_t size) noexcept { return {offsets.next(), size}; }
};

// A read/write mix: the same offsets, each request a write unless the chooser says read (the order of the
// draws is the plain readers' too, so both strategies of a thread send the same requests the same way).
template <class Offsets> struct MixedPlace
{
    Offsets offsets;
    MixChooser chooser;
    Extent operator()(std::uint64_t, std::uint64_t size) noexcept
    {
        const std::uint64_t at = offsets.next();
        return {at, size, !chooser.nextIsRead()};
    }
};

class UringReadJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, bool random, bool direct, Outcome& outcome)
    {
        std::unique_ptr<UringReadJob> job(new UringReadJob(spec, random));
        const std::uint32_t depth = std::max<std::uint32_t>(1, spec.testCase.queueDepth);
        const UringOptions options = requestedOptions(spec.testCase.uring);
        if (!job->m_ring.init(depth, outcome, ringSetupFor(options)))
            return nullptr;
        const bool mix = mixes(spec.testCase);
        job->m_fd = posix::openInput(spec.path, direct, outcome, mix);
        if (!job->m_fd || !posix::adviseRead(job->m_fd.get(), spec.testCase.hint, spec.path, outcome))
            return nullptr;
        // One page-aligned slot per request in flight (O_DIRECT takes any block size up to a page).
        const std::uint64_t slotBytes = (spec.testCase.chunkBytes + ReadBuffer::kAlignment - 1) /
                                        ReadBuffer::kAlignment * ReadBuffer::kAlignment;
        job->m_pool.emplace(depth * slotBytes);
        QueueIo& io = job->m_io;
        io.read = true;
        io.fd = job->m_fd.get();
        io.pool = job->m_pool->data();
        io.slotBytes = slotBytes;
        std::vector<iovec> slots(depth);
        for (std::uint32_t i = 0; i < depth; ++i)
            slots[i] = {io.pool + i * slotBytes, slotBytes};
        if (!registerForOptions(job->m_ring, options, io, slots, outcome))
            return nullptr;
        io.call = "io_uring read";
        io.path = spec.path;
        if (mix) {
            // A mix's writes send the pattern's bytes for their place straight from its memory (unregistered:
            // buffer indexes belong to the pool).
            io.pattern = spec.pattern->view();
            io.patternOffset = spec.patternOffset;
            io.mix = &job->m_mix;
        }
        io.fileBytes = random ? spec.testCase.totalBytes : spec.bytes;
        return job;
    }

    Outcome execute(Progress& progress) override
    {
        const std::uint32_t depth = m_spec.testCase.queueDepth;
        const std::uint64_t chunk = m_spec.testCase.chunkBytes;
        const auto check = [&](std::uint64_t at, const std::byte* data, std::uint64_t size) {
            if (!m_spec.verifyData)
                return Outcome::success();
            return checkReadBytes(*m_spec.pattern, m_spec.path, m_spec.patternOffset, at, data, size);
        };
        const LoopEnd end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            const auto run = [&](auto place) {
                UringQueue queue(m_ring, m_io, depth, timer, std::move(place), check, m_error);
                return runQueuedChunks(m_spec.bytes, chunk, depth, 0, progress, queue);
            };
            if (!m_random)
                return run(SequentialPlace{});
            return withOffsetPicker(
                m_spec.testCase.randomDist, m_spec.thread, m_spec.testCase.totalBytes, chunk,
                [&](auto offsets) {
                    if (mixes(m_spec.testCase))
                        return run(MixedPlace<decltype(offsets)>{
                            offsets, MixChooser(*m_spec.testCase.readPercent, m_spec.thread)});
                    return run(RandomPlace<decltype(offsets)>{offsets});
                });
        });
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (m_io.fixedFile)
            m_ring.unregisterFile();
        if (const int error = m_fd.close(); error != 0)
            return posix::errnoOutcome(error, "close", m_spec.path);
        return Outcome::success();
    }

    std::optional<MixCounts> mixCounts() const override
    {
        return mixes(m_spec.testCase) ? std::optional<MixCounts>(m_mix) : std::nullopt;
    }
    std::optional<UringOptions> uringInEffect() const override { return optionsInEffect(m_ring, m_io); }

private:
    UringReadJob(const JobSpec& spec, bool random) : m_spec(spec), m_random(random) {}

    JobSpec m_spec;
    bool m_random;
    // Declared before the ring, so released after it: no request can still be reading into the pool.
    std::optional<ReadBuffer> m_pool;
    posix::UniqueFd m_fd;
    Ring m_ring;
    QueueIo m_io;
    Outcome m_error;
    MixCounts m_mix;
};

class UringReadStrategy final : public UringStrategy
{
public:
    UringReadStrategy(StrategyInfo info, bool random)
        : UringStrategy(withHints(std::move(info))), m_random(random)
    {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return UringReadJob::create(spec, m_random, info().needsDirectIo, outcome);
    }

private:
    // Reads through the page cache take posix_fadvise's hints, as read and read-random do; the common
    // declaration stays OS-free and leaves them to this backend.
    static StrategyInfo withHints(StrategyInfo info)
    {
        if (!info.needsDirectIo)
            info.hints = posix::fadviseHints();
        return info;
    }

    bool m_random;
};

} // namespace

std::unique_ptr<Strategy> makeUringReadStrategy(StrategyInfo info, bool random)
{
    return std::make_unique<UringReadStrategy>(std::move(info), random);
}

} // namespace iolab::linux_backend
