// SPDX-License-Identifier: MIT
#pragma once

#include "platform/plain_write_job.h"
#include "platform/windows/win_io.h"

#include <cstring>

namespace iolab::windows_backend {

// The Win32 calls under the plain writers' loop (platform/plain_write_job.h): WriteFile per chunk, or at an
// offset (an OVERLAPPED offset on a synchronous handle), on a handle opened with the case's flags;
// GetLastError for what failed, FlushFileBuffers for every sync policy that makes a call. For direct I/O
// (FILE_FLAG_NO_BUFFERING) the data comes from a VirtualAlloc copy of the pattern, so every source address is
// page aligned, and the alignment of the first transfer (offset 0, one chunk, the buffer) is checked in our
// own code before the first write: wine does not enforce NO_BUFFERING's rules, a real volume fails or, worse,
// some filter drivers quietly buffer.
struct HandleWrites
{
    struct Opened
    {
        win::UniqueHandle file;
        win::VirtualBuffer copy; // direct only: the page-aligned source
        const std::byte* source = nullptr;
    };

    static Opened open(const JobSpec& spec, bool direct, Outcome& outcome)
    {
        Opened opened;
        opened.source = spec.pattern->at(0);
        if (direct) {
            opened.copy = win::virtualAlloc(spec.pattern->sizeBytes());
            if (!opened.copy) {
                outcome = win::errorOutcome(::GetLastError(), "VirtualAlloc", {});
                return {};
            }
            std::memcpy(opened.copy.get(), opened.source, spec.pattern->sizeBytes());
            opened.source = opened.copy.get();
            if (const auto problem =
                    win::noBufferingProblem(spec, reinterpret_cast<std::uintptr_t>(opened.source))) {
                outcome = {Status::Refused, ERROR_INVALID_PARAMETER, "align", *problem};
                return {};
            }
        }
        opened.file = win::openOutput(spec, GENERIC_WRITE, direct, outcome);
        return opened;
    }

    static bool write(HANDLE file, const std::byte* data, std::uint64_t size) noexcept
    {
        return win::writeFully(file, data, size);
    }
    static bool writeAt(HANDLE file, const std::byte* data, std::uint64_t size, std::uint64_t offset) noexcept
    {
        return win::writeAt(file, data, size, offset);
    }
    static const char* writeCall(bool direct) noexcept
    {
        return direct ? "WriteFile(NO_BUFFERING)" : "WriteFile";
    }
    static const char* writeAtCall(bool direct) noexcept
    {
        return direct ? "WriteFile(NO_BUFFERING, offset)" : "WriteFile (offset)";
    }

    // The fdatasync policies never get here: opening the output refuses them (win::createFileFlags).
    static bool sync(HANDLE file, SyncMode mode) noexcept { return win::syncForPolicy(file, mode); }
    static const char* syncCall(SyncMode) noexcept { return "FlushFileBuffers"; }

    static Outcome failure(const char* call, const std::string& path)
    {
        return win::errorOutcome(::GetLastError(), call, path);
    }
    static Outcome closeFailure(DWORD error, const std::string& path)
    {
        return win::errorOutcome(error, "CloseHandle", path);
    }
};

using HandleWriteJob = PlainWriteJob<HandleWrites>;

} // namespace iolab::windows_backend
