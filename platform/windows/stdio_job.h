// SPDX-License-Identifier: MIT
#pragma once

#include "core/chunk_loop.h"
#include "core/pattern.h"
#include "platform/windows/win_io.h"

#include <fcntl.h>
#include <io.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace iolab::windows_backend {

// The C runtime's setvbuf takes sizes from 2 bytes to INT_MAX; smaller or larger is an EINVAL there.
inline std::optional<std::string> stdioBufferRefusal(const StdioBuffer& buffer)
{
    if (buffer.mode == BufferMode::Bytes && (buffer.bytes < 2 || buffer.bytes > INT_MAX))
        return std::string("the Windows C runtime's setvbuf takes a buffer of 2 bytes to 2 GiB");
    return std::nullopt;
}

// fwrite or _fwrite_nolock per chunk into a FILE on a handle from CreateFile (so the file is new, as on
// Linux), with the case's setvbuf. `Write` is the stdio call, a function object so that the loop inlines it.
template <class Write> class StdioJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, Outcome& outcome)
    {
        win::UniqueHandle handle = win::openOutput(spec, GENERIC_WRITE, false, outcome);
        if (!handle)
            return nullptr;
        const int fd =
            ::_open_osfhandle(reinterpret_cast<std::intptr_t>(handle.get()), _O_WRONLY | _O_BINARY);
        if (fd < 0) {
            outcome = {Status::Failed, errno, "_open_osfhandle", "the C runtime has no descriptor to spare"};
            return nullptr;
        }
        handle.release(); // the descriptor owns it now
        std::FILE* file = ::_fdopen(fd, "wb");
        if (file == nullptr) {
            ::_close(fd);
            outcome = {Status::Failed, errno, "_fdopen", "the C runtime could not open a FILE on the output"};
            return nullptr;
        }
        auto job = std::unique_ptr<StdioJob>(new StdioJob(spec, file));
        const auto& buffer = spec.testCase.buffer;
        int rc = 0;
        if (buffer.mode == BufferMode::None) {
            rc = std::setvbuf(file, nullptr, _IONBF, 0);
        } else if (buffer.mode == BufferMode::Bytes) {
            job->m_buffer = std::make_unique<char[]>(buffer.bytes);
            rc = std::setvbuf(file, job->m_buffer.get(), _IOFBF, buffer.bytes);
        }
        if (rc != 0) {
            outcome = {Status::Failed, EINVAL, "setvbuf",
                       "setvbuf " + spec.path + " failed: the C runtime refused the buffer"};
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
        const std::uint32_t every = sync.mode == SyncMode::FsyncEvery ? sync.everyWrites : 0;
        const auto end = runChunks(
            m_spec.bytes, m_spec.testCase.chunkBytes, every, progress,
            [&](std::uint64_t offset, std::uint64_t size) {
                if (Write{}(pattern.at(offset), size, file) == size) [[likely]]
                    return true;
                return fail("fwrite");
            },
            [&] { return flushAndSync(); });
        if (end == LoopEnd::Failed)
            return closeAfter(std::move(m_error));
        if (end == LoopEnd::Cancelled)
            return closeAfter(Outcome::cancelled());
        if (sync.mode == SyncMode::FsyncEnd && !flushAndSync())
            return closeAfter(std::move(m_error));
        _doserrno = 0;
        if (std::fclose(std::exchange(m_file, nullptr)) != 0)
            return runtimeError("fclose");
        return Outcome::success();
    }

private:
    StdioJob(const JobSpec& spec, std::FILE* file) : m_spec(spec), m_file(file) {}

    // The C runtime keeps the Win32 error of a failed WriteFile in _doserrno.
    Outcome runtimeError(const char* call) const
    {
        const auto error = static_cast<unsigned long>(_doserrno);
        return win::errorOutcome(error != 0 ? static_cast<DWORD>(error) : ERROR_WRITE_FAULT, call,
                                 m_spec.path);
    }

    bool fail(const char* call)
    {
        m_error = runtimeError(call);
        return false;
    }

    bool flushAndSync()
    {
        if (std::fflush(m_file) != 0)
            return fail("fflush");
        const auto handle = reinterpret_cast<HANDLE>(::_get_osfhandle(::_fileno(m_file)));
        if (::FlushFileBuffers(handle) == 0) {
            m_error = win::errorOutcome(::GetLastError(), "FlushFileBuffers", m_spec.path);
            return false;
        }
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

} // namespace iolab::windows_backend
