// SPDX-License-Identifier: MIT
// The job of the sync lab's per-call writers (pwritev2-dsync, sync-file-range): one call per chunk at its
// place in a file of the run folder, where the call itself is the durability being measured. `Call` is
// `bool operator()(int fd, const std::byte* data, std::uint64_t size, std::uint64_t offset)`, false with
// errno set, and names itself in errors with `static constexpr const char* kName`.
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "platform/posix/posix_io.h"

#include <cerrno>
#include <memory>

namespace iolab::linux_backend {

template <class Call> class SyncCallJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, Outcome& outcome)
    {
        posix::UniqueFd fd = posix::openOutput(spec, O_WRONLY, false, outcome);
        if (!fd)
            return nullptr;
        return std::unique_ptr<Job>(new SyncCallJob(spec, std::move(fd)));
    }

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern = m_spec.pattern->view();
        const int fd = m_fd.get();
        const Preallocate preallocate = m_spec.testCase.preallocate;
        int error = 0;
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            return runChunks(
                m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress, timer,
                [pattern, fd, preallocate, &error](std::uint64_t offset, std::uint64_t size) {
                    const std::uint64_t at = placeInFile(preallocate, offset);
                    if (Call{}(fd, pattern.at(at), size, at)) [[likely]]
                        return true;
                    error = errno;
                    return false;
                },
                [] { return true; });
        });
        if (end == LoopEnd::Failed)
            return posix::errnoOutcome(error, Call::kName, m_spec.path);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (const int closeError = m_fd.close(); closeError != 0)
            return posix::errnoOutcome(closeError, "close", m_spec.path);
        return Outcome::success();
    }

private:
    SyncCallJob(const JobSpec& spec, posix::UniqueFd fd) : m_spec(spec), m_fd(std::move(fd)) {}

    JobSpec m_spec;
    posix::UniqueFd m_fd;
};

} // namespace iolab::linux_backend
