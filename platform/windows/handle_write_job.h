// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/chunk_order.h"
#include "core/engine/pattern.h"
#include "platform/windows/win_io.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace iolab::windows_backend {

// How a writer walks its file: front to back, every chunk once in a random order (ChunkOrder), or the first
// chunk again and again (preallocate rewrite), as the Linux writers do (platform/posix/fd_write_job.h).
enum class WriteOrder
{
    Sequential,
    Random,
    Rewrite
};

// WriteFile per chunk on a handle opened with the case's flags. For direct I/O (FILE_FLAG_NO_BUFFERING) the
// data comes from a VirtualAlloc copy of the pattern, so every source address is page aligned, and the
// alignment of the first transfer (offset 0, one chunk, the buffer) is checked in our own code before the
// first write: wine does not enforce NO_BUFFERING's rules, a real volume fails or, worse, some filter
// drivers quietly buffer.
class HandleWriteJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, bool direct, Outcome& outcome,
                                       WriteOrder order = WriteOrder::Sequential)
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
            if (const auto problem = win::noBufferingProblem(spec, reinterpret_cast<std::uintptr_t>(base))) {
                outcome = {Status::Refused, ERROR_INVALID_PARAMETER, "align", *problem};
                return nullptr;
            }
        }
        win::UniqueHandle handle = win::openOutput(spec, GENERIC_WRITE, direct, outcome);
        if (!handle)
            return nullptr;
        if (spec.testCase.preallocate == Preallocate::Rewrite)
            order = WriteOrder::Rewrite;
        return std::unique_ptr<Job>(
            new HandleWriteJob(spec, std::move(handle), direct, order, std::move(copy), base));
    }

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern{m_base};
        const SyncPolicy sync = m_spec.testCase.sync;
        const HANDLE file = m_handle.get();
        const std::uint32_t every = sync.loopSyncEvery();
        const std::uint64_t chunk = m_spec.testCase.chunkBytes;
        const auto syncEvery = [&] {
            return win::syncForPolicy(file, SyncMode::FsyncEvery) || fail("FlushFileBuffers");
        };
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            if (m_order == WriteOrder::Random) {
                // The loop's n-th call writes the order's n-th chunk (seeded as the Linux writers'); the
                // short tail chunk, wherever it falls, is the file's last.
                const std::uint64_t total = m_spec.bytes;
                const ChunkOrder order((total + chunk - 1) / chunk, m_spec.thread + 1);
                return runChunks(
                    total, chunk, every, progress, timer,
                    [&](std::uint64_t offset, std::uint64_t) {
                        const std::uint64_t at = order.at(offset / chunk) * chunk;
                        if (win::writeAt(file, pattern.at(at), std::min(chunk, total - at), at)) [[likely]]
                            return true;
                        return fail(m_direct ? "WriteFile(NO_BUFFERING, offset)" : "WriteFile (offset)");
                    },
                    syncEvery);
            }
            if (m_order == WriteOrder::Rewrite) {
                return runChunks(
                    m_spec.bytes, chunk, every, progress, timer,
                    [&](std::uint64_t, std::uint64_t size) {
                        if (win::writeAt(file, pattern.at(0), size, 0)) [[likely]]
                            return true;
                        return fail(m_direct ? "WriteFile(NO_BUFFERING, offset)" : "WriteFile (offset)");
                    },
                    syncEvery);
            }
            return runChunks(
                m_spec.bytes, chunk, every, progress, timer,
                [&](std::uint64_t offset, std::uint64_t size) {
                    if (win::writeFully(file, pattern.at(offset), size)) [[likely]]
                        return true;
                    return fail(m_direct ? "WriteFile(NO_BUFFERING)" : "WriteFile");
                },
                syncEvery);
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
    HandleWriteJob(const JobSpec& spec, win::UniqueHandle handle, bool direct, WriteOrder order,
                   win::VirtualBuffer copy, const std::byte* base)
        : m_spec(spec), m_handle(std::move(handle)), m_direct(direct), m_order(order),
          m_copy(std::move(copy)), m_base(base)
    {}

    bool fail(const char* call)
    {
        m_error = win::errorOutcome(::GetLastError(), call, m_spec.path);
        return false;
    }

    JobSpec m_spec;
    win::UniqueHandle m_handle;
    bool m_direct;
    WriteOrder m_order;
    win::VirtualBuffer m_copy; // direct only: the page-aligned source
    const std::byte* m_base;   // the pattern's first byte (the copy's for direct)
    Outcome m_error;
};

} // namespace iolab::windows_backend
