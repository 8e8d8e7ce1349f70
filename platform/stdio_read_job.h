// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "core/engine/read_buffer.h"
#include "platform/stdio_buffer.h"

#include <cerrno>
#include <cstdio>
#include <memory>
#include <utility>

namespace iolab {

// fread or its unlocked twin per chunk from a FILE the backend opened on the thread's file (with the hint
// applied), with the case's setvbuf. `Read` is the stdio call, a function object so that the loop inlines it.
template <class Read> class StdioReadJob final : public Job
{
public:
    // Takes `file` (closing it on failure too) and applies the case's buffer.
    static std::unique_ptr<Job> adopt(const JobSpec& spec, std::FILE* file, Outcome& outcome)
    {
        auto job = std::unique_ptr<StdioReadJob>(new StdioReadJob(spec, file));
        errno = 0;
        if (applyStdioBuffer(file, spec.testCase.buffer, job->m_stdioBuffer) != 0) {
            outcome = crtErrorOutcome(errno != 0 ? errno : EINVAL, "setvbuf", spec.path);
            return nullptr;
        }
        return job;
    }

    ~StdioReadJob() override
    {
        if (m_file != nullptr)
            std::fclose(m_file);
    }
    StdioReadJob(const StdioReadJob&) = delete;
    StdioReadJob& operator=(const StdioReadJob&) = delete;

    Outcome execute(Progress& progress) override
    {
        std::FILE* const file = m_file;
        std::byte* const buffer = m_buffer.data();
        errno = 0; // fread's failure reads it
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            return runChunks(
                m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress, timer,
                [&](std::uint64_t offset, std::uint64_t size) {
                    const std::size_t n = Read{}(buffer, size, file);
                    if (n == size) [[likely]] {
                        if (!m_spec.verifyData)
                            return true;
                        m_error = checkReadBytes(*m_spec.pattern, m_spec.path, m_spec.patternOffset, offset,
                                                 buffer, size);
                        return m_error.ok();
                    }
                    if (std::ferror(file) != 0)
                        m_error = crtErrorOutcome(errno != 0 ? errno : EIO, "fread", m_spec.path);
                    else
                        m_error = checkReadLength(m_spec.path, offset + n, m_spec.bytes);
                    return false;
                },
                [] { return true; });
        });
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (std::fclose(std::exchange(m_file, nullptr)) != 0)
            return crtErrorOutcome(errno, "fclose", m_spec.path);
        return Outcome::success();
    }

private:
    StdioReadJob(const JobSpec& spec, std::FILE* file)
        : m_spec(spec), m_file(file), m_buffer(spec.testCase.chunkBytes)
    {}

    JobSpec m_spec;
    std::FILE* m_file = nullptr;
    std::unique_ptr<char[]> m_stdioBuffer; // outlives the FILE: the destructor body closes it first
    ReadBuffer m_buffer;
    Outcome m_error;
};

} // namespace iolab
