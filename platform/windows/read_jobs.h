// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/file_set_job.h"
#include "core/engine/pattern.h"
#include "core/engine/read_buffer.h"
#include "platform/plain_read_job.h"
#include "platform/windows/win_io.h"

namespace iolab::windows_backend {

// The Win32 calls under the plain readers' loop (platform/plain_read_job.h): ReadFile per chunk, or at an
// offset (an OVERLAPPED offset on a synchronous handle); through the cache with the hint's CreateFile flag,
// or with FILE_FLAG_NO_BUFFERING; GetLastError for what failed. Wine does not enforce NO_BUFFERING's rules,
// so a direct job checks its buffer before opening and every transfer against them itself.
struct HandleReads
{
    using File = win::UniqueHandle;

    static win::UniqueHandle open(const JobSpec& spec, bool direct, const std::byte* buffer, Outcome& outcome)
    {
        if (direct) {
            const auto address = reinterpret_cast<std::uintptr_t>(buffer);
            const auto sector = spec.target.logicalBlockBytes;
            auto problem = win::noBufferingProblem(0, spec.testCase.chunkBytes, address, sector);
            if (!problem)
                problem = win::noBufferingProblem(0, spec.bytes, address, sector);
            if (problem) {
                outcome = {Status::Refused, 0, "FILE_FLAG_NO_BUFFERING", *problem};
                return {};
            }
        }
        return win::openInput(spec.path, spec.testCase.hint, direct, outcome, 0, mixes(spec.testCase));
    }

    static bool read(HANDLE file, std::byte* buffer, std::uint64_t size, std::uint64_t& got) noexcept
    {
        return win::readFully(file, buffer, size, got);
    }
    static bool readAt(HANDLE file, std::byte* buffer, std::uint64_t size, std::uint64_t offset,
                       std::uint64_t& got) noexcept
    {
        return win::readAt(file, buffer, size, offset, got);
    }
    static bool writeAt(HANDLE file, const std::byte* data, std::uint64_t size, std::uint64_t offset) noexcept
    {
        return win::writeAt(file, data, size, offset);
    }
    static const char* readCall(bool direct) noexcept
    {
        return direct ? "ReadFile(NO_BUFFERING)" : "ReadFile";
    }
    static const char* writeAtCall(bool direct) noexcept
    {
        return direct ? "WriteFile (offset)(NO_BUFFERING)" : "WriteFile (offset)";
    }
    static const char* readAtCall(bool direct) noexcept
    {
        return direct ? "ReadFile (offset)(NO_BUFFERING)" : "ReadFile (offset)";
    }

    static bool directTransferFits(const JobSpec& spec, const std::byte* buffer, std::uint64_t offset,
                                   std::uint64_t size, Outcome& error)
    {
        const auto problem = win::noBufferingProblem(offset, size, reinterpret_cast<std::uintptr_t>(buffer),
                                                     spec.target.logicalBlockBytes);
        if (problem)
            error = {Status::Failed, 0, "ReadFile(NO_BUFFERING)", *problem};
        return !problem;
    }

    static Outcome failure(const char* call, const std::string& path)
    {
        return win::errorOutcome(::GetLastError(), call, path);
    }
    static Outcome closeFailure(DWORD error, const std::string& path)
    {
        return win::errorOutcome(error, "CloseHandle", path);
    }
};

using HandleReadJob = PlainReadJob<HandleReads>;

// Reads one file of a set: CreateFile with the hint's flag, ReadFile of the buffer's size until the end of
// the file, CloseHandle; every byte compared with the pattern when verifying.
struct FileReader
{
    ReadHint hint = ReadHint::NotApplicable;
    const Pattern* pattern = nullptr; // set: verify

    Outcome operator()(const DataFile& file, ReadBuffer& buffer, std::uint64_t& bytes) const
    {
        Outcome outcome;
        win::UniqueHandle handle = win::openInput(file.relativePath, hint, false, outcome);
        if (!handle)
            return outcome;
        for (;;) {
            std::uint64_t got = 0;
            if (!win::readFully(handle.get(), buffer.data(), buffer.size(), got))
                return win::errorOutcome(::GetLastError(), "ReadFile", file.relativePath);
            if (pattern != nullptr) {
                outcome = checkReadBytes(*pattern, file.relativePath, file.patternOffset, bytes,
                                         buffer.data(), got);
                if (!outcome.ok())
                    return outcome;
            }
            bytes += got;
            if (got < buffer.size())
                break;
        }
        if (const DWORD error = handle.close(); error != 0)
            return win::errorOutcome(error, "CloseHandle", file.relativePath);
        return checkReadLength(file.relativePath, bytes, file.bytes);
    }
};

} // namespace iolab::windows_backend
