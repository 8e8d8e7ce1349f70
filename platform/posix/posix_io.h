// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/strategy.h"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fcntl.h>
#include <memory>
#include <string>
#include <string_view>
#include <unistd.h>
#include <utility>
#include <vector>

namespace iolab::posix {

// An owned file descriptor.
class UniqueFd
{
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : m_fd(fd) {}
    ~UniqueFd() { reset(); }
    UniqueFd(UniqueFd&& other) noexcept : m_fd(other.release()) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept
    {
        if (this != &other)
            reset(other.release());
        return *this;
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;

    int get() const noexcept { return m_fd; }
    explicit operator bool() const noexcept { return m_fd >= 0; }
    int release() noexcept { return std::exchange(m_fd, -1); }
    void reset(int fd = -1) noexcept;
    // Closes and reports the error close(2) gave (which can be a delayed write error).
    int close() noexcept;

private:
    int m_fd = -1;
};

// "write to /x/y failed: No space left on device (ENOSPC)" with the status a failure of that kind deserves.
Outcome errnoOutcome(int error, std::string_view call, const std::string& path);
std::string errnoName(int error);

// The one mapping of a case's options to open(2) flags (sync flags, O_DIRECT).
int openFlags(const Case& c, bool direct);

// Opens the job's output: a new file in the run folder (O_CREAT|O_EXCL|O_NOFOLLOW, never an existing file) or
// the null device. `access` is O_WRONLY or O_RDWR. A new file gets the case's preallocation (fallocate, or
// the whole file written first), untimed, before it is returned.
UniqueFd openOutput(const JobSpec& spec, int access, bool direct, Outcome& outcome);
// Creates a new scratch file in the run folder.
UniqueFd createScratch(const std::string& path, int flags, Outcome& outcome);

// fallocate(2) of `bytes` from offset 0; a filesystem without it makes the outcome Unsupported.
bool reserveSpace(int fd, std::uint64_t bytes, const std::string& path, Outcome& outcome);

// The sync policy's call, fsync or fdatasync (syncCallName), at the end or every N writes; nothing for none,
// O_SYNC and O_DSYNC. Returns false and sets errno on failure.
bool syncForPolicy(int fd, SyncMode mode) noexcept;

// The last steps of a writer that does not write through `fd` (a mapping's): its sync policy (named by its
// call in an error; timed into `latency`'s sync histogram when the case times calls), then close.
inline Outcome syncAndClose(UniqueFd& fd, SyncMode mode, const std::string& path,
                            CallLatency* latency = nullptr)
{
    if (!timedFinalSync(latency, mode, [&] { return syncForPolicy(fd.get(), mode); }))
        return errnoOutcome(errno, syncCallName(mode), path);
    if (const int error = fd.close(); error != 0)
        return errnoOutcome(error, "close", path);
    return Outcome::success();
}

// write(2) until everything is written; false with errno set on failure.
inline bool writeFully(int fd, const std::byte* data, std::size_t size) noexcept
{
    for (;;) {
        const ssize_t written = ::write(fd, data, size);
        if (written == static_cast<ssize_t>(size)) [[likely]]
            return true;
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        if (written == 0) {
            errno = EIO;
            return false;
        }
        data += written;
        size -= static_cast<std::size_t>(written);
    }
}

// pwrite(2) at `offset` until everything is written; false with errno set on failure.
inline bool pwriteFully(int fd, const std::byte* data, std::size_t size, std::uint64_t offset) noexcept
{
    for (;;) {
        const ssize_t written = ::pwrite(fd, data, size, static_cast<off_t>(offset));
        if (written == static_cast<ssize_t>(size)) [[likely]]
            return true;
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        if (written == 0) {
            errno = EIO;
            return false;
        }
        data += written;
        size -= static_cast<std::size_t>(written);
        offset += static_cast<std::uint64_t>(written);
    }
}

// Opens a data-set file for reading (O_NOFOLLOW, plus O_DIRECT when `direct`), and for writing too when
// `writeToo` (a read/write mix writes the same bytes back in place).
UniqueFd openInput(const std::string& path, bool direct, Outcome& outcome, bool writeToo = false);
// posix_fadvise(2) over the whole file for the case's hint (nothing for NotApplicable).
bool adviseRead(int fd, ReadHint hint, const std::string& path, Outcome& outcome);
// The hints posix_fadvise has: normal, sequential, random, noreuse; the first is the default.
const std::vector<ReadHint>& fadviseHints();

// read(2)/pread(2) until `size` bytes or the end of the file; the bytes read, or -1 with errno set.
inline ssize_t readFully(int fd, std::byte* data, std::size_t size) noexcept
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::read(fd, data + done, size - done);
        if (n > 0) [[likely]] {
            done += static_cast<std::size_t>(n);
            continue;
        }
        if (n == 0)
            break;
        if (errno != EINTR)
            return -1;
    }
    return static_cast<ssize_t>(done);
}

inline ssize_t preadFully(int fd, std::byte* data, std::size_t size, std::uint64_t offset) noexcept
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pread(fd, data + done, size - done, static_cast<off_t>(offset + done));
        if (n > 0) [[likely]] {
            done += static_cast<std::size_t>(n);
            continue;
        }
        if (n == 0)
            break;
        if (errno != EINTR)
            return -1;
    }
    return static_cast<ssize_t>(done);
}

// Ignores SIGPIPE for the process, so a pipe whose reader went away fails with EPIPE instead of killing us.
void ignoreSigpipe();

// A child's end as waitpid's status gives it, in words: "exited with code 3", "was killed by signal 9
// (SIGKILL)".
std::string describeWaitStatus(int status);

} // namespace iolab::posix
