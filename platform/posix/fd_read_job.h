// SPDX-License-Identifier: MIT
#pragma once

#include "platform/plain_read_job.h"
#include "platform/posix/posix_io.h"

namespace iolab::posix {

// The POSIX calls under the plain readers' loop (platform/plain_read_job.h): read(2) per chunk, or pread(2)
// at an offset; through the page cache, or with O_DIRECT. The case's hint goes to posix_fadvise once, when
// the file is opened; errno for what failed.
struct FdReads
{
    using File = UniqueFd;

    static UniqueFd open(const JobSpec& spec, bool direct, const std::byte*, Outcome& outcome)
    {
        // A read/write mix writes the same bytes back in place: the file is opened for both.
        UniqueFd fd = openInput(spec.path, direct, outcome, mixes(spec.testCase));
        if (!fd || !adviseRead(fd.get(), spec.testCase.hint, spec.path, outcome))
            return {};
        return fd;
    }

    static bool read(int fd, std::byte* buffer, std::uint64_t size, std::uint64_t& got) noexcept
    {
        const ssize_t n = readFully(fd, buffer, size);
        got = static_cast<std::uint64_t>(n);
        return n >= 0;
    }
    static bool readAt(int fd, std::byte* buffer, std::uint64_t size, std::uint64_t offset,
                       std::uint64_t& got) noexcept
    {
        const ssize_t n = preadFully(fd, buffer, size, offset);
        got = static_cast<std::uint64_t>(n);
        return n >= 0;
    }
    static bool writeAt(int fd, const std::byte* data, std::uint64_t size, std::uint64_t offset) noexcept
    {
        return pwriteFully(fd, data, size, offset);
    }
    static const char* readCall(bool direct) noexcept { return direct ? "read(O_DIRECT)" : "read"; }
    static const char* readAtCall(bool direct) noexcept { return direct ? "pread(O_DIRECT)" : "pread"; }
    static const char* writeAtCall(bool direct) noexcept { return direct ? "pwrite(O_DIRECT)" : "pwrite"; }

    // The kernel enforces O_DIRECT's rules (EINVAL).
    static bool directTransferFits(const JobSpec&, const std::byte*, std::uint64_t, std::uint64_t,
                                   Outcome&) noexcept
    {
        return true;
    }

    static Outcome failure(const char* call, const std::string& path)
    {
        return errnoOutcome(errno, call, path);
    }
    static Outcome closeFailure(int error, const std::string& path)
    {
        return errnoOutcome(error, "close", path);
    }
};

using FdReadJob = PlainReadJob<FdReads>;

} // namespace iolab::posix
