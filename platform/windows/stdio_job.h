// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "platform/stdio_buffer.h"
#include "platform/windows/win_io.h"

#include <fcntl.h>
#include <io.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace iolab::windows_backend {

// The C runtime's setvbuf takes sizes from 2 bytes to INT_MAX; smaller or larger is an EINVAL there.
inline std::optional<std::string> stdioBufferRefusal(const StdioBuffer& buffer)
{
    if (buffer.mode == BufferMode::Bytes && (buffer.bytes < 2 || buffer.bytes > INT_MAX))
        return std::string("the Windows C runtime's setvbuf takes a buffer of 2 bytes to 2 GiB");
    return std::nullopt;
}

// A stdio call per chunk into a FILE on a handle from CreateFile (so the file is new, as on Linux), with the
// case's setvbuf. `Write` is the call, as in platform/posix/stdio_job.h: write(data, size, file) returns the
// bytes written, kCall names it in errors, kFixedChunks compiles chunks of 1 to 8 bytes as constants.
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
        if (applyStdioBuffer(file, spec.testCase.buffer, job->m_buffer) != 0) {
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
        // Stale error values would name the wrong cause for a failure below.
        _doserrno = 0;
        errno = 0;
        const Write write{};
        const auto loop = [&](auto chunk) {
            return runChunks(
                m_spec.bytes, chunk, every, progress,
                [&](std::uint64_t offset, auto size) {
                    if (write(pattern.at(offset), size, file) == size) [[likely]]
                        return true;
                    return fail(Write::kCall, size);
                },
                [&] { return flushAndSync(); });
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
        if (sync.mode == SyncMode::FsyncEnd && !flushAndSync())
            return closeAfter(std::move(m_error));
        _doserrno = 0;
        if (std::fclose(std::exchange(m_file, nullptr)) != 0)
            return runtimeError("fclose");
        return Outcome::success();
    }

private:
    StdioJob(const JobSpec& spec, std::FILE* file) : m_spec(spec), m_file(file) {}

    // The Win32 error behind a failed stdio call. The C runtime keeps it in _doserrno, but not always: when
    // the disk fills in the middle of a write, WriteFile writes part and succeeds, and the runtime reports a
    // short count with no error (wine's msvcrt sets EINVAL). Then a volume with less free space than the
    // write is what stopped it, and the outcome says so.
    Outcome runtimeError(const char* call, std::uint64_t wanted = 0) const
    {
        auto error = static_cast<DWORD>(_doserrno);
        if (error == 0 && errno == ENOSPC)
            error = ERROR_DISK_FULL;
        if (error == 0 && wanted > 0 && m_spec.testCase.target == TargetKind::Directory) {
            ULARGE_INTEGER available{};
            if (::GetDiskFreeSpaceExW(win::widen(m_spec.target.path).c_str(), &available, nullptr, nullptr) !=
                    0 &&
                available.QuadPart < wanted)
                error = ERROR_DISK_FULL;
        }
        if (error != 0)
            return win::errorOutcome(error, call, m_spec.path);
        return crtErrorOutcome(errno != 0 ? errno : EIO, call, m_spec.path);
    }

    bool fail(const char* call, std::uint64_t wanted = 0)
    {
        m_error = runtimeError(call, wanted);
        return false;
    }

    bool flushAndSync()
    {
        if (std::fflush(m_file) != 0)
            return fail("fflush");
        // The C runtime hands the OS handle back as an integer; there is no other way to get it.
        // NOLINTNEXTLINE(performance-no-int-to-ptr)
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
