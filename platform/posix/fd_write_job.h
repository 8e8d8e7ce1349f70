// SPDX-License-Identifier: MIT
#pragma once

#include "platform/plain_write_job.h"
#include "platform/posix/posix_io.h"

namespace iolab::posix {

// The POSIX calls under the plain writers' loop (platform/plain_write_job.h): write(2) per chunk, or
// pwrite(2) at an offset, on a descriptor opened with the case's flags (plus O_DIRECT for the direct
// strategies); errno for what failed.
struct FdWrites
{
    struct Opened
    {
        UniqueFd file;
        const std::byte* source = nullptr;
    };

    static Opened open(const JobSpec& spec, bool direct, Outcome& outcome)
    {
        // With O_DIRECT: the pattern buffer is page aligned and every write starts at a multiple of the
        // (block-aligned) chunk, so each source address is block aligned as long as the base is; check it
        // rather than trust it, since a misaligned buffer is a silent EINVAL on one filesystem and a silent
        // copy on another.
        const std::byte* source = spec.pattern->at(0);
        if (direct && reinterpret_cast<std::uintptr_t>(source) % spec.target.logicalBlockBytes != 0) {
            outcome = {Status::Failed, EINVAL, "align", "the O_DIRECT source buffer is not block aligned"};
            return {};
        }
        return {openOutput(spec, O_WRONLY, direct, outcome), source};
    }

    static bool write(int fd, const std::byte* data, std::uint64_t size) noexcept
    {
        return writeFully(fd, data, size);
    }
    static bool writeAt(int fd, const std::byte* data, std::uint64_t size, std::uint64_t offset) noexcept
    {
        return pwriteFully(fd, data, size, offset);
    }
    static const char* writeCall(bool direct) noexcept { return direct ? "write(O_DIRECT)" : "write"; }
    static const char* writeAtCall(bool direct) noexcept { return direct ? "pwrite(O_DIRECT)" : "pwrite"; }

    static bool sync(int fd, SyncMode mode) noexcept { return syncForPolicy(fd, mode); }
    static const char* syncCall(SyncMode mode) noexcept { return syncCallName(mode); }

    static Outcome failure(const char* call, const std::string& path)
    {
        return errnoOutcome(errno, call, path);
    }
    static Outcome closeFailure(int error, const std::string& path)
    {
        return errnoOutcome(error, "close", path);
    }
};

using FdWriteJob = PlainWriteJob<FdWrites>;

} // namespace iolab::posix
