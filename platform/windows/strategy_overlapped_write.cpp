// SPDX-License-Identifier: MIT
// overlapped-write, overlapped-random-write and their -direct forms: WriteFile on a handle opened with
// FILE_FLAG_OVERLAPPED, queue-depth requests in flight on an I/O completion port. Sequential writes go from
// the front of the thread's file; random ones write every chunk of it once, in a random order. The data
// comes straight from the pattern (its page-aligned VirtualAlloc copy for FILE_FLAG_NO_BUFFERING), as the
// synchronous writers' does: a request holds no copy of its own.
#include "platform/basic_strategy.h"
#include "platform/windows/overlapped_queue.h"
#include "platform/windows/overlapped_strategies.h"
#include "platform/windows/win_chunk_order.h"

#include "core/engine/pattern.h"

#include <cstring>

namespace iolab::windows_backend {

namespace {

struct SequentialWrites
{
    static constexpr bool kWrite = true;
    Pattern::View pattern;

    void place(std::uint64_t offset, std::uint64_t bytes, OverlappedSlot& slot) const noexcept
    {
        slot.offset = offset;
        slot.bytes = bytes;
        slot.source = pattern.at(offset);
    }
    bool check(const OverlappedSlot&, Outcome&) const noexcept { return true; }
};

// Ignores the loop's offsets: the n-th request writes the n-th chunk of the order, whole or the file's tail.
// The loop's sizes add up to the same total, so its accounting holds.
struct RandomWrites
{
    static constexpr bool kWrite = true;
    Pattern::View pattern;
    win::ChunkSequence order;
    std::uint64_t chunkBytes;
    std::uint64_t fileBytes;

    void place(std::uint64_t, std::uint64_t, OverlappedSlot& slot) noexcept
    {
        const std::uint64_t at = order.next() * chunkBytes;
        slot.offset = at;
        slot.bytes = std::min(chunkBytes, fileBytes - at);
        slot.source = pattern.at(at);
    }
    bool check(const OverlappedSlot&, Outcome&) const noexcept { return true; }
};

class OverlappedWriteJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, Order order, bool direct, Outcome& outcome)
    {
        win::VirtualBuffer copy;
        const std::byte* base = spec.pattern->at(0);
        if (direct) {
            copy = win::virtualAlloc(spec.pattern->sizeBytes());
            if (!copy) {
                outcome = win::errorOutcome(::GetLastError(), "VirtualAlloc", {});
                return nullptr;
            }
            std::memcpy(copy.get(), base, spec.pattern->sizeBytes());
            base = copy.get();
            if (auto problem = win::noBufferingProblem(spec, reinterpret_cast<std::uintptr_t>(base))) {
                outcome = {Status::Refused, ERROR_INVALID_PARAMETER, "align", *problem};
                return nullptr;
            }
        }
        win::UniqueHandle handle =
            win::openOutput(spec, GENERIC_WRITE, direct, outcome, FILE_FLAG_OVERLAPPED);
        if (!handle)
            return nullptr;
        auto file = OverlappedFile::create(std::move(handle), slotsFor(spec), 0, spec.path, outcome);
        if (!file)
            return nullptr;
        return std::unique_ptr<Job>(
            new OverlappedWriteJob(spec, order, direct, std::move(copy), base, std::move(file)));
    }

    Outcome execute(Progress& progress) override
    {
        const SyncPolicy sync = m_spec.testCase.sync;
        const Pattern::View pattern{m_base};
        const std::uint64_t chunk = m_spec.testCase.chunkBytes;
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            if (m_order == Order::Sequential) {
                SequentialWrites writes{pattern};
                return run(writes, timer, progress);
            }
            RandomWrites writes{pattern, win::ChunkSequence(m_spec.thread, requestCount(m_spec.bytes, chunk)),
                                chunk, m_spec.bytes};
            return run(writes, timer, progress);
        });
        if (end == LoopEnd::Failed) {
            m_file->cancelAndWait();
            return std::move(m_error);
        }
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        const HANDLE file = m_file->file();
        if (!timedFinalSync(m_spec.latency, sync.mode, [&] { return win::syncForPolicy(file, sync.mode); }))
            return win::errorOutcome(::GetLastError(), "FlushFileBuffers", m_spec.path);
        if (const DWORD error = m_file->close(); error != 0)
            return win::errorOutcome(error, "CloseHandle", m_spec.path);
        return Outcome::success();
    }

private:
    OverlappedWriteJob(const JobSpec& spec, Order order, bool direct, win::VirtualBuffer copy,
                       const std::byte* base, std::unique_ptr<OverlappedFile> file)
        : m_spec(spec), m_order(order), m_direct(direct), m_copy(std::move(copy)), m_base(base),
          m_file(std::move(file))
    {}

    template <class Requests, class Timer>
    LoopEnd run(Requests& requests, const Timer& timer, Progress& progress)
    {
        const SyncPolicy sync = m_spec.testCase.sync;
        const std::uint32_t every = sync.loopSyncEvery();
        OverlappedQueue<Timer, Requests> queue(*m_file, requests, timer,
                                               m_direct ? "WriteFile (overlapped, NO_BUFFERING)"
                                                        : "WriteFile (overlapped)",
                                               m_spec.path, m_direct ? m_spec.target.logicalBlockBytes : 0);
        const LoopEnd end = runQueuedChunks(m_spec.bytes, m_spec.testCase.chunkBytes,
                                            m_spec.testCase.queueDepth, every, progress, queue);
        if (end == LoopEnd::Failed)
            m_error = queue.takeError();
        return end;
    }

    JobSpec m_spec;
    Order m_order;
    bool m_direct;
    win::VirtualBuffer m_copy; // direct only: the page-aligned source; outlives m_file, which drains first
    const std::byte* m_base;   // the pattern's first byte (the copy's for direct)
    std::unique_ptr<OverlappedFile> m_file;
    Outcome m_error;
};

class OverlappedWriteStrategy final : public BasicStrategy
{
public:
    OverlappedWriteStrategy(StrategyInfo info, Order order)
        : BasicStrategy(windowsWriterInfo(std::move(info))), m_order(order)
    {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return OverlappedWriteJob::create(spec, m_order, info().needsDirectIo, outcome);
    }

private:
    static StrategyInfo windowsWriterInfo(StrategyInfo info)
    {
        info.syncModes = win::windowsSyncModes();
        info.syncRefusal = win::windowsSyncRefusal();
        return info;
    }

    Order m_order;
};

} // namespace

std::unique_ptr<Strategy> makeOverlappedWriteStrategy(StrategyInfo info, Order order)
{
    return std::make_unique<OverlappedWriteStrategy>(std::move(info), order);
}

} // namespace iolab::windows_backend
