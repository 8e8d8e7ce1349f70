// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "platform/posix/posix_io.h"

#include <memory>

namespace iolab::posix {

// write(2) per chunk on a descriptor opened with the case's flags (plus O_DIRECT for the direct strategy).
class FdWriteJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, bool direct, Outcome& outcome)
    {
        UniqueFd fd = openOutput(spec, O_WRONLY, direct, outcome);
        if (!fd)
            return nullptr;
        return std::unique_ptr<Job>(new FdWriteJob(spec, std::move(fd), direct));
    }

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern = m_spec.pattern->view();
        const SyncPolicy sync = m_spec.testCase.sync;
        const int fd = m_fd.get();
        const std::uint32_t every = sync.mode == SyncMode::FsyncEvery ? sync.everyWrites : 0;
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            return runChunks(
                m_spec.bytes, m_spec.testCase.chunkBytes, every, progress, timer,
                [&](std::uint64_t offset, std::uint64_t size) {
                    if (writeFully(fd, pattern.at(offset), size)) [[likely]]
                        return true;
                    return fail(m_direct ? "write(O_DIRECT)" : "write");
                },
                [&] { return syncForPolicy(fd, SyncMode::FsyncEvery) || fail("fsync"); });
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
    FdWriteJob(const JobSpec& spec, UniqueFd fd, bool direct)
        : m_spec(spec), m_fd(std::move(fd)), m_direct(direct)
    {}

    bool fail(const char* call)
    {
        m_error = errnoOutcome(errno, call, m_spec.path);
        return false;
    }

    JobSpec m_spec;
    UniqueFd m_fd;
    bool m_direct;
    Outcome m_error;
};

} // namespace iolab::posix
