// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "platform/posix/posix_io.h"
#include "platform/stdio_buffer.h"

#include <cstdio>
#include <memory>

namespace iolab::posix {

// A stdio call per chunk into a FILE opened on the job's output, with the case's setvbuf. `Write` is the
// call, a function object so that the loop inlines it: write(data, size, file) returns the bytes written,
// kCall names it in errors, and with kFixedChunks set, chunks of 1 to 8 bytes run a loop compiled for that
// constant size (Write then also takes a FixedChunk).
template <class Write> class StdioJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, Outcome& outcome)
    {
        UniqueFd fd = openOutput(spec, O_WRONLY, false, outcome);
        if (!fd)
            return nullptr;
        std::FILE* file = ::fdopen(fd.get(), "wb");
        if (file == nullptr) {
            outcome = errnoOutcome(errno, "fdopen", spec.path);
            return nullptr;
        }
        fd.release();
        auto job = std::unique_ptr<StdioJob>(new StdioJob(spec, file));
        if (applyStdioBuffer(file, spec.testCase.buffer, job->m_buffer) != 0) {
            outcome = errnoOutcome(errno != 0 ? errno : EINVAL, "setvbuf", spec.path);
            return nullptr;
        }
        return job;
    }

    ~StdioJob() override
    {
        if (m_file != nullptr)
            std::fclose(m_file);
    }

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern = m_spec.pattern->view();
        const SyncPolicy sync = m_spec.testCase.sync;
        std::FILE* const file = m_file;
        const Write write{};
        const std::uint32_t every = sync.mode == SyncMode::FsyncEvery ? sync.everyWrites : 0;
        const auto loop = [&](auto chunk) {
            return runChunks(
                m_spec.bytes, chunk, every, progress,
                [&](std::uint64_t offset, auto size) {
                    if (write(pattern.at(offset), size, file) == size) [[likely]]
                        return true;
                    return fail(Write::kCall);
                },
                [&] { return flushAndSync(SyncMode::FsyncEvery); });
        };
        LoopEnd end = LoopEnd::Completed;
        if constexpr (Write::kFixedChunks)
            end = withFixedChunk(m_spec.testCase.chunkBytes, loop);
        else
            end = loop(m_spec.testCase.chunkBytes);
        if (end == LoopEnd::Failed)
            return closeAfter(std::move(m_error));
        if (end == LoopEnd::Cancelled)
            return closeAfter(Outcome::cancelled());
        if (sync.mode == SyncMode::FsyncEnd || sync.mode == SyncMode::FdatasyncEnd) {
            if (!flushAndSync(sync.mode))
                return closeAfter(std::move(m_error));
        }
        const int rc = std::fclose(std::exchange(m_file, nullptr));
        if (rc != 0)
            return errnoOutcome(errno, "fclose", m_spec.path);
        return Outcome::success();
    }

private:
    StdioJob(const JobSpec& spec, std::FILE* file) : m_spec(spec), m_file(file) {}

    bool fail(const char* call)
    {
        m_error = errnoOutcome(errno != 0 ? errno : EIO, call, m_spec.path);
        return false;
    }

    bool flushAndSync(SyncMode mode)
    {
        if (std::fflush(m_file) != 0)
            return fail("fflush");
        if (!syncForPolicy(::fileno(m_file), mode))
            return fail(mode == SyncMode::FdatasyncEnd ? "fdatasync" : "fsync");
        return true;
    }

    Outcome closeAfter(Outcome outcome)
    {
        std::fclose(std::exchange(m_file, nullptr));
        return outcome;
    }

    JobSpec m_spec;
    std::FILE* m_file = nullptr;
    std::unique_ptr<char[]> m_buffer; // outlives the FILE: the destructor body closes it first
    Outcome m_error;
};

} // namespace iolab::posix
