// SPDX-License-Identifier: MIT
#pragma once

#include "platform/posix/basic_strategy.h"
#include "platform/posix/posix_io.h"
#include "platform/stdio_write_job.h"

#include <cstdio>

namespace iolab::posix {

// The C library around the stdio writers' loop (platform/stdio_write_job.h): a FILE by fdopen on the output
// as the other writers open it, errno for what failed, fsync or fdatasync for the sync policy.
struct StdioCrt
{
    static std::FILE* open(const JobSpec& spec, Outcome& outcome)
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
        return file;
    }

    static Outcome setvbufFailure(const JobSpec& spec)
    {
        return errnoOutcome(errno != 0 ? errno : EINVAL, "setvbuf", spec.path);
    }

    static void clearErrors() noexcept {}

    static Outcome failure(const JobSpec& spec, const char* call, std::uint64_t)
    {
        return errnoOutcome(errno != 0 ? errno : EIO, call, spec.path);
    }

    static bool sync(std::FILE* file, SyncMode mode, const JobSpec& spec, Outcome& error)
    {
        if (syncForPolicy(::fileno(file), mode))
            return true;
        error = failure(spec, syncCallName(mode), 0);
        return false;
    }

    static Outcome close(std::FILE* file, const JobSpec& spec)
    {
        if (std::fclose(file) != 0)
            return errnoOutcome(errno, "fclose", spec.path);
        return Outcome::success();
    }

    // glibc's (the C library Linux builds link): a FILE's default buffer is BUFSIZ, or the file's st_blksize
    // when that is smaller (libio/filedoalloc.c); a call fills the buffer's free space first and keeps a
    // buffer it filled exactly until the next call; past a full buffer, whole buffer-sized blocks go to
    // write(2) and the rest into the buffer, or all of it to write(2) with a buffer under 128 bytes
    // (libio/fileops.c, _IO_new_file_xsputn). Checked with strace: README, "The kill -9 probe".
    static StdioRuntime runtime()
    {
        return {.name = "glibc",
                .defaultBufferBytes = BUFSIZ,
                .defaultFromFileBlock = true,
                .keepsAFullBuffer = true,
                .smallBufferBytes = 128};
    }

    static std::optional<std::string> bufferRefusal(const Case&) { return std::nullopt; }
};

template <class Write> using StdioJob = StdioWriteJob<Write, StdioCrt>;
template <class Write> using StdioStrategy = StdioWriteStrategy<Write, StdioCrt>;

} // namespace iolab::posix
