// SPDX-License-Identifier: MIT
// overlapped-read, overlapped-random-read and their -direct forms: ReadFile on a handle opened with
// FILE_FLAG_OVERLAPPED (and the hint's FILE_FLAG_SEQUENTIAL_SCAN / RANDOM_ACCESS through the cache),
// queue-depth requests in flight on an I/O completion port, each into its own page-aligned buffer.
// Sequential reads go from the front of the thread's file, random ones at chunk-aligned offsets of the
// shared file (RandomOffsets, as read-random's, or a hot spot's HotSpotOffsets), reading or, in a read/write
// mix, writing the same bytes back.
#include "platform/basic_strategy.h"
#include "platform/windows/overlapped_queue.h"
#include "platform/windows/overlapped_strategies.h"

#include "core/engine/offset_picker.h"
#include "core/engine/pattern.h"
#include "core/engine/read_buffer.h"

namespace iolab::windows_backend {

namespace {

// What every read request checks once complete: its bytes against the pattern when verifying.
struct ReadCheck
{
    static constexpr bool kWrite = false;
    const JobSpec* spec;
    std::uint64_t fileBytes;

    bool check(const OverlappedSlot& slot, Outcome& error) const
    {
        if (!spec->verifyData)
            return true;
        error = checkReadBytes(*spec->pattern, spec->path, spec->patternOffset, slot.offset, slot.buffer,
                               static_cast<std::size_t>(slot.bytes));
        return error.ok();
    }
    Outcome shortFile(std::uint64_t endedAt) const { return checkReadLength(spec->path, endedAt, fileBytes); }
};

struct SequentialReads : ReadCheck
{
    void place(std::uint64_t offset, std::uint64_t bytes, OverlappedSlot& slot) const noexcept
    {
        slot.offset = offset;
        slot.bytes = bytes;
    }
};

template <class Offsets> struct RandomReads : ReadCheck
{
    Offsets offsets;

    void place(std::uint64_t, std::uint64_t bytes, OverlappedSlot& slot) noexcept
    {
        slot.offset = offsets.next();
        slot.bytes = bytes;
        slot.write = false;
    }
};

// A read/write mix (fio's rwmixread): the random readers' offsets, each request a write of the pattern's
// bytes for its place unless the chooser says read (the draws in the order every backend makes them); the
// completed requests counted each way.
template <class Offsets> struct MixedRequests : ReadCheck
{
    Offsets offsets;
    MixChooser chooser;
    Pattern::View pattern;
    Job::MixCounts* counts;

    void place(std::uint64_t, std::uint64_t bytes, OverlappedSlot& slot) noexcept
    {
        slot.offset = offsets.next();
        slot.bytes = bytes;
        slot.write = !chooser.nextIsRead();
        slot.source = slot.write ? pattern.at(spec->patternOffset + slot.offset) : nullptr;
    }
    bool check(const OverlappedSlot& slot, Outcome& error) const
    {
        if (slot.write) {
            ++counts->writeOps;
            counts->writeBytes += slot.bytes;
            return true;
        }
        ++counts->readOps;
        counts->readBytes += slot.bytes;
        return ReadCheck::check(slot, error);
    }
};

class OverlappedReadJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, Order order, bool direct, Outcome& outcome)
    {
        if (auto refusal = readBufferRefusal(spec.testCase)) {
            outcome = {Status::Refused, 0, "queue depth", *refusal};
            return nullptr;
        }
        const bool mix = mixes(spec.testCase);
        if (mix && direct) {
            // A mix's writes send the pattern's bytes from its memory: NO_BUFFERING needs them aligned too.
            if (auto problem = win::noBufferingProblem(
                    spec, reinterpret_cast<std::uintptr_t>(spec.pattern->at(spec.patternOffset)))) {
                outcome = {Status::Refused, 0, "FILE_FLAG_NO_BUFFERING", *problem};
                return nullptr;
            }
        }
        win::UniqueHandle handle =
            win::openInput(spec.path, spec.testCase.hint, direct, outcome, FILE_FLAG_OVERLAPPED, mix);
        if (!handle)
            return nullptr;
        auto file = OverlappedFile::create(std::move(handle), slotsFor(spec), spec.testCase.chunkBytes,
                                           spec.path, outcome);
        if (!file)
            return nullptr;
        if (direct) {
            for (std::uint32_t i = 0; i < file->slotCount(); ++i) {
                if (auto problem = win::noBufferingProblem(
                        spec, reinterpret_cast<std::uintptr_t>(file->slot(i).buffer))) {
                    outcome = {Status::Refused, 0, "FILE_FLAG_NO_BUFFERING", *problem};
                    return nullptr;
                }
            }
        }
        return std::unique_ptr<Job>(new OverlappedReadJob(spec, order, direct, std::move(file)));
    }

    Outcome execute(Progress& progress) override
    {
        const std::uint64_t chunk = m_spec.testCase.chunkBytes;
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            if (m_order == Order::Sequential) {
                SequentialReads reads{{&m_spec, m_spec.bytes}};
                return run(reads, timer, progress);
            }
            const std::uint64_t fileBytes = m_spec.testCase.totalBytes;
            return withOffsetPicker(
                m_spec.testCase.randomDist, m_spec.thread, fileBytes, chunk, [&](auto offsets) {
                    using Offsets = decltype(offsets);
                    if (mixes(m_spec.testCase)) {
                        MixedRequests<Offsets> mixed{{&m_spec, fileBytes},
                                                     offsets,
                                                     MixChooser(*m_spec.testCase.readPercent, m_spec.thread),
                                                     m_spec.pattern->view(),
                                                     &m_mix};
                        return run(mixed, timer, progress);
                    }
                    RandomReads<Offsets> reads{{&m_spec, fileBytes}, offsets};
                    return run(reads, timer, progress);
                });
        });
        if (end == LoopEnd::Failed) {
            m_file->cancelAndWait();
            return std::move(m_error);
        }
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (const DWORD error = m_file->close(); error != 0)
            return win::errorOutcome(error, "CloseHandle", m_spec.path);
        return Outcome::success();
    }

    std::optional<MixCounts> mixCounts() const override
    {
        return mixes(m_spec.testCase) ? std::optional<MixCounts>(m_mix) : std::nullopt;
    }

private:
    OverlappedReadJob(const JobSpec& spec, Order order, bool direct, std::unique_ptr<OverlappedFile> file)
        : m_spec(spec), m_order(order), m_direct(direct), m_file(std::move(file))
    {}

    template <class Requests, class Timer>
    LoopEnd run(Requests& requests, const Timer& timer, Progress& progress)
    {
        OverlappedQueue<Timer, Requests> queue(*m_file, requests, timer,
                                               m_direct ? "ReadFile (overlapped, NO_BUFFERING)"
                                                        : "ReadFile (overlapped)",
                                               m_spec.path, m_direct ? m_spec.target.logicalBlockBytes : 0);
        const LoopEnd end = runQueuedChunks(m_spec.bytes, m_spec.testCase.chunkBytes,
                                            m_spec.testCase.queueDepth, 0, progress, queue);
        if (end == LoopEnd::Failed)
            m_error = queue.takeError();
        return end;
    }

    JobSpec m_spec;
    Order m_order;
    bool m_direct;
    std::unique_ptr<OverlappedFile> m_file;
    Outcome m_error;
    MixCounts m_mix;
};

class OverlappedReadStrategy final : public BasicStrategy
{
public:
    OverlappedReadStrategy(StrategyInfo info, Order order)
        : BasicStrategy(windowsReaderInfo(std::move(info))), m_order(order)
    {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        return readBufferRefusal(c);
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return OverlappedReadJob::create(spec, m_order, info().needsDirectIo, outcome);
    }

private:
    // Through the cache, the hints Windows has; direct reads keep the declaration's refusal.
    static StrategyInfo windowsReaderInfo(StrategyInfo info)
    {
        if (!info.needsDirectIo) {
            info.hints = win::windowsReadHints();
            info.hintRefusal = win::windowsHintRefusal();
        }
        return info;
    }

    Order m_order;
};

} // namespace

std::unique_ptr<Strategy> makeOverlappedReadStrategy(StrategyInfo info, Order order)
{
    return std::make_unique<OverlappedReadStrategy>(std::move(info), order);
}

} // namespace iolab::windows_backend
