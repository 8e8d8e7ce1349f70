// SPDX-License-Identifier: MIT
// write-random, direct-random: WriteFile at an offset (an OVERLAPPED offset on a synchronous handle), every
// chunk of the thread's file once in a random order; through the cache, or with FILE_FLAG_NO_BUFFERING from
// a page-aligned copy of the pattern. Sync policies as write's and direct's.
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/windows/win_chunk_order.h"
#include "platform/windows/win_io.h"

#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"

#include <algorithm>
#include <cstring>

namespace iolab::windows_backend {

namespace {

class RandomWriteJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, bool direct, Outcome& outcome)
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
            const auto problem = win::noBufferingProblem(spec, reinterpret_cast<std::uintptr_t>(base));
            if (problem) {
                outcome = {Status::Refused, ERROR_INVALID_PARAMETER, "align", *problem};
                return nullptr;
            }
        }
        win::UniqueHandle handle = win::openOutput(spec, GENERIC_WRITE, direct, outcome);
        if (!handle)
            return nullptr;
        return std::unique_ptr<Job>(
            new RandomWriteJob(spec, std::move(handle), direct, std::move(copy), base));
    }

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern{m_base};
        const SyncPolicy sync = m_spec.testCase.sync;
        const HANDLE file = m_handle.get();
        const std::uint64_t chunk = m_spec.testCase.chunkBytes;
        const std::uint64_t fileBytes = m_spec.bytes;
        const std::uint32_t every = sync.mode == SyncMode::FsyncEvery ? sync.everyWrites : 0;
        win::ChunkSequence order(m_spec.thread, fileBytes / chunk + (fileBytes % chunk != 0 ? 1 : 0));
        // The loop's offsets are ignored: its n-th write is the order's n-th chunk, whole or the file's tail
        // (the sizes add up to the same total).
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            return runChunks(
                fileBytes, chunk, every, progress, timer,
                [&](std::uint64_t, std::uint64_t) {
                    const std::uint64_t at = order.next() * chunk;
                    if (win::writeAt(file, pattern.at(at), std::min(chunk, fileBytes - at), at)) [[likely]]
                        return true;
                    return fail(m_direct ? "WriteFile(NO_BUFFERING, offset)" : "WriteFile (offset)");
                },
                [&] { return win::syncForPolicy(file, SyncMode::FsyncEvery) || fail("FlushFileBuffers"); });
        });
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (!timedFinalSync(m_spec.latency, sync.mode, [&] { return win::syncForPolicy(file, sync.mode); }))
            return win::errorOutcome(::GetLastError(), "FlushFileBuffers", m_spec.path);
        if (const DWORD error = m_handle.close(); error != 0)
            return win::errorOutcome(error, "CloseHandle", m_spec.path);
        return Outcome::success();
    }

private:
    RandomWriteJob(const JobSpec& spec, win::UniqueHandle handle, bool direct, win::VirtualBuffer copy,
                   const std::byte* base)
        : m_spec(spec), m_handle(std::move(handle)), m_direct(direct), m_copy(std::move(copy)), m_base(base)
    {}

    bool fail(const char* call)
    {
        m_error = win::errorOutcome(::GetLastError(), call, m_spec.path);
        return false;
    }

    JobSpec m_spec;
    win::UniqueHandle m_handle;
    bool m_direct;
    win::VirtualBuffer m_copy; // direct only: the page-aligned source
    const std::byte* m_base;   // the pattern's first byte (the copy's for direct)
    Outcome m_error;
};

class WriteRandomStrategy final : public BasicStrategy
{
public:
    explicit WriteRandomStrategy(bool direct) : BasicStrategy(infoFor(direct)), m_direct(direct) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return RandomWriteJob::create(spec, m_direct, outcome);
    }

private:
    static StrategyInfo infoFor(bool direct)
    {
        StrategyInfo info{.id = direct ? "direct-random" : "write-random",
                          .description = direct
                                             ? "WriteFile of every chunk once at random offsets with "
                                               "FILE_FLAG_NO_BUFFERING"
                                             : "WriteFile of every chunk once at random offsets through the "
                                               "system cache",
                          .targets = {TargetKind::Directory},
                          .syncModes = win::windowsSyncModes(),
                          .syncRefusal = win::windowsSyncRefusal()};
        if (direct) {
            info.needsBlockAlignedChunks = true;
            info.needsDirectIo = true;
            info.callCost = CallCost::DirectWrite;
        }
        return info;
    }

    bool m_direct;
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeWriteRandomStrategy()
{
    return std::make_unique<windows_backend::WriteRandomStrategy>(false);
}

std::unique_ptr<Strategy> builtin::makeDirectRandomStrategy()
{
    return std::make_unique<windows_backend::WriteRandomStrategy>(true);
}

} // namespace iolab
