// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/chunk_order.h"
#include "core/engine/pattern.h"
#include "platform/posix/posix_io.h"

#include <algorithm>
#include <memory>

namespace iolab::posix {

// How a writer walks its file: front to back, every chunk once in a random order (ChunkOrder), or the first
// chunk again and again (preallocate rewrite).
enum class WriteOrder
{
    Sequential,
    Random,
    Rewrite
};

// write(2) per chunk on a descriptor opened with the case's flags (plus O_DIRECT for the direct strategy),
// pwrite(2) of every chunk once at its place in a random order, or, under preallocate rewrite, pwrite(2) of
// the first chunk at offset 0 on every call. Byte p of the file is the pattern's byte p every way, so the
// runner verifies them the same way.
class FdWriteJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, bool direct, Outcome& outcome,
                                       WriteOrder order = WriteOrder::Sequential)
    {
        UniqueFd fd = openOutput(spec, O_WRONLY, direct, outcome);
        if (!fd)
            return nullptr;
        if (spec.testCase.preallocate == Preallocate::Rewrite)
            order = WriteOrder::Rewrite;
        return std::unique_ptr<Job>(new FdWriteJob(spec, std::move(fd), direct, order));
    }

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern = m_spec.pattern->view();
        const SyncPolicy sync = m_spec.testCase.sync;
        const int fd = m_fd.get();
        const std::uint32_t every = sync.loopSyncEvery();
        const std::uint64_t chunk = m_spec.testCase.chunkBytes;
        const auto syncEvery = [&] {
            return syncForPolicy(fd, sync.mode) || fail(syncsDataOnly(sync.mode) ? "fdatasync" : "fsync");
        };
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            if (m_order == WriteOrder::Random) {
                // The loop's n-th call writes the order's n-th chunk; the short tail chunk, wherever it
                // falls, is the file's last.
                const std::uint64_t total = m_spec.bytes;
                const ChunkOrder order((total + chunk - 1) / chunk, m_spec.thread + 1);
                return runChunks(
                    total, chunk, every, progress, timer,
                    [&](std::uint64_t offset, std::uint64_t) {
                        const std::uint64_t at = order.at(offset / chunk) * chunk;
                        const std::uint64_t size = std::min(chunk, total - at);
                        if (pwriteFully(fd, pattern.at(at), size, at)) [[likely]]
                            return true;
                        return fail(m_direct ? "pwrite(O_DIRECT)" : "pwrite");
                    },
                    syncEvery);
            }
            if (m_order == WriteOrder::Rewrite) {
                return runChunks(
                    m_spec.bytes, chunk, every, progress, timer,
                    [&](std::uint64_t, std::uint64_t size) {
                        if (pwriteFully(fd, pattern.at(0), size, 0)) [[likely]]
                            return true;
                        return fail(m_direct ? "pwrite(O_DIRECT)" : "pwrite");
                    },
                    syncEvery);
            }
            return runChunks(
                m_spec.bytes, chunk, every, progress, timer,
                [&](std::uint64_t offset, std::uint64_t size) {
                    if (writeFully(fd, pattern.at(offset), size)) [[likely]]
                        return true;
                    return fail(m_direct ? "write(O_DIRECT)" : "write");
                },
                syncEvery);
        });
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (!timedFinalSync(m_spec.latency, sync.mode, [&] { return syncForPolicy(fd, sync.mode); }))
            return errnoOutcome(errno, sync.mode == SyncMode::FdatasyncEnd ? "fdatasync" : "fsync",
                                m_spec.path);
        if (const int error = m_fd.close(); error != 0)
            return errnoOutcome(error, "close", m_spec.path);
        return Outcome::success();
    }

private:
    FdWriteJob(const JobSpec& spec, UniqueFd fd, bool direct, WriteOrder order)
        : m_spec(spec), m_fd(std::move(fd)), m_direct(direct), m_order(order)
    {}

    bool fail(const char* call)
    {
        m_error = errnoOutcome(errno, call, m_spec.path);
        return false;
    }

    JobSpec m_spec;
    UniqueFd m_fd;
    bool m_direct;
    WriteOrder m_order;
    Outcome m_error;
};

} // namespace iolab::posix
