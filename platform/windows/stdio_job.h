// SPDX-License-Identifier: MIT
#pragma once

#include "platform/stdio_write_job.h"
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

// The C runtime around the stdio writers' loop (platform/stdio_write_job.h): a FILE on a handle from
// CreateFile (so the file is new, as on Linux), _doserrno for what failed, FlushFileBuffers for the sync.
struct StdioCrt
{
    static std::FILE* open(const JobSpec& spec, Outcome& outcome)
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
        return file;
    }

    static Outcome setvbufFailure(const JobSpec& spec)
    {
        return {Status::Failed, EINVAL, "setvbuf",
                "setvbuf " + spec.path + " failed: the C runtime refused the buffer"};
    }

    // Stale error values would name the wrong cause for a failure below.
    static void clearErrors() noexcept
    {
        _doserrno = 0;
        errno = 0;
    }

    // The Win32 error behind a failed stdio call. The C runtime keeps it in _doserrno, but not always: when
    // the disk fills in the middle of a write, WriteFile writes part and succeeds, and the runtime reports a
    // short count with no error (wine's msvcrt sets EINVAL). Then a volume with less free space than the
    // write is what stopped it, and the outcome says so.
    static Outcome failure(const JobSpec& spec, const char* call, std::uint64_t wantedBytes)
    {
        auto error = static_cast<DWORD>(_doserrno);
        if (error == 0 && errno == ENOSPC)
            error = ERROR_DISK_FULL;
        if (error == 0 && wantedBytes > 0 && spec.testCase.target == TargetKind::Directory) {
            ULARGE_INTEGER available{};
            if (::GetDiskFreeSpaceExW(win::widen(spec.target.path).c_str(), &available, nullptr, nullptr) !=
                    0 &&
                available.QuadPart < wantedBytes)
                error = ERROR_DISK_FULL;
        }
        if (error != 0)
            return win::errorOutcome(error, call, spec.path);
        return crtErrorOutcome(errno != 0 ? errno : EIO, call, spec.path);
    }

    // Every sync policy a Windows stdio writer declares is FlushFileBuffers (fdatasync-end has no meaning).
    static bool sync(std::FILE* file, SyncMode, const JobSpec& spec, Outcome& error)
    {
        // The C runtime hands the OS handle back as an integer; there is no other way to get it.
        // NOLINTNEXTLINE(performance-no-int-to-ptr)
        const auto handle = reinterpret_cast<HANDLE>(::_get_osfhandle(::_fileno(file)));
        if (::FlushFileBuffers(handle) != 0)
            return true;
        error = win::errorOutcome(::GetLastError(), "FlushFileBuffers", spec.path);
        return false;
    }

    static Outcome close(std::FILE* file, const JobSpec& spec)
    {
        _doserrno = 0;
        if (std::fclose(file) != 0)
            return failure(spec, "fclose", 0);
        return Outcome::success();
    }

    // The Microsoft C runtime's (msvcrt.dll and the Universal CRT, fwrite.c; wine's msvcrt does the same): a
    // FILE's default buffer is _INTERNAL_BUFSIZ, 4 KiB; a call copies into the buffer while it has room;
    // with the buffer full or not yet used, a call of at least a buffer's size flushes it and goes to _write
    // in whole buffer-sized blocks, so a chunk the size of the buffer never waits in it.
    static StdioRuntime runtime()
    {
        return {.name = "the Microsoft C runtime",
                .defaultBufferBytes = 4096,
                .defaultFromFileBlock = false,
                .keepsAFullBuffer = false,
                .smallBufferBytes = 0};
    }

    static std::optional<std::string> bufferRefusal(const Case& c) { return stdioBufferRefusal(c.buffer); }
};

template <class Write> using StdioJob = StdioWriteJob<Write, StdioCrt>;
template <class Write> using StdioStrategy = StdioWriteStrategy<Write, StdioCrt>;

} // namespace iolab::windows_backend
