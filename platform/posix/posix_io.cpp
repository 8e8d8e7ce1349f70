// SPDX-License-Identifier: MIT
#include "platform/posix/posix_io.h"
#include "core/engine/pattern.h"
#include "platform/stdio_buffer.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/wait.h>
#include <vector>

namespace iolab::posix {

void UniqueFd::reset(int fd) noexcept
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = fd;
}

int UniqueFd::close() noexcept
{
    if (m_fd < 0)
        return 0;
    const int rc = ::close(std::exchange(m_fd, -1));
    return rc == 0 ? 0 : errno;
}

std::string errnoName(int error)
{
    struct Name
    {
        int code;
        const char* name;
    };
    static constexpr std::array kNames{
        Name{EPERM, "EPERM"},           Name{ENOENT, "ENOENT"}, Name{EIO, "EIO"},
        Name{EBADF, "EBADF"},           Name{EACCES, "EACCES"}, Name{EEXIST, "EEXIST"},
        Name{ENOTDIR, "ENOTDIR"},       Name{EISDIR, "EISDIR"}, Name{EINVAL, "EINVAL"},
        Name{EFBIG, "EFBIG"},           Name{ENOSPC, "ENOSPC"}, Name{EROFS, "EROFS"},
        Name{EPIPE, "EPIPE"},           Name{EDQUOT, "EDQUOT"}, Name{ELOOP, "ELOOP"},
        Name{EOPNOTSUPP, "EOPNOTSUPP"}, Name{ENOMEM, "ENOMEM"}, Name{EAGAIN, "EAGAIN"},
        Name{ENODEV, "ENODEV"},         Name{ENOSYS, "ENOSYS"},
    };
    for (const auto& n : kNames) {
        if (n.code == error)
            return n.name;
    }
    return fmt::format("errno {}", error);
}

Outcome errnoOutcome(int error, std::string_view call, const std::string& path)
{
    Outcome o;
    o.status = Status::Failed;
    o.errorCode = error;
    o.operation = std::string(call);
    const std::string where = path.empty() ? std::string() : " " + path;
    o.message = fmt::format("{}{} failed: {} ({})", call, where, std::strerror(error), errnoName(error));
    if (error == ENOSPC)
        o.message += "; the target is full";
    return o;
}

int openFlags(const Case& c, bool direct)
{
    int flags = O_CLOEXEC;
    if (direct)
        flags |= O_DIRECT;
    switch (c.sync.mode) {
    case SyncMode::OSync:
        flags |= O_SYNC;
        break;
    case SyncMode::ODsync:
        flags |= O_DSYNC;
        break;
    case SyncMode::None:
    case SyncMode::FsyncEnd:
    case SyncMode::FdatasyncEnd:
    case SyncMode::FsyncEvery:
    case SyncMode::FdatasyncEvery:
        break;
    }
    return flags;
}

namespace {

// Preallocate overwrite and rewrite: the file written (the whole of it, or the one chunk that rewrite writes
// again and again; bytes unlike the pattern, so that nothing of it survives the timed part unnoticed) and
// made durable through a descriptor of its own, then evicted from the page cache so that the timed part
// starts as a new file would: overwriting blocks that exist, with nothing cached.
bool writeBeforehand(const JobSpec& spec, Outcome& outcome)
{
    const std::string mode = toString(spec.testCase.preallocate);
    const auto failed = [&](int error, const char* call) {
        outcome = errnoOutcome(error, fmt::format("{} (preallocate {})", call, mode), spec.path);
        return false;
    };
    UniqueFd fd(::open(spec.path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd)
        return failed(errno, "open");
    const std::uint64_t bytes = bytesInFile(spec.testCase.preallocate, spec.testCase.chunkBytes, spec.bytes);
    constexpr std::uint64_t kPieceBytes = std::uint64_t{1} << 20;
    std::vector<std::byte> piece(std::min(kPieceBytes, bytes));
    for (std::uint64_t offset = 0; offset < bytes; offset += piece.size()) {
        const std::size_t size = std::min<std::uint64_t>(piece.size(), bytes - offset);
        for (std::size_t i = 0; i < size; ++i)
            piece[i] = ~Pattern::expected(offset + i);
        if (!writeFully(fd.get(), piece.data(), size))
            return failed(errno, "write");
    }
    if (::fdatasync(fd.get()) != 0)
        return failed(errno, "fdatasync");
    ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_DONTNEED);
    if (const int error = fd.close(); error != 0)
        return failed(error, "close");
    return true;
}

// The case's preallocation, untimed, on the file just created.
bool preallocate(int fd, const JobSpec& spec, Outcome& outcome)
{
    switch (spec.testCase.preallocate) {
    case Preallocate::None:
        return true;
    case Preallocate::Fallocate:
        return reserveSpace(fd, spec.bytes, spec.path, outcome);
    case Preallocate::Overwrite:
    case Preallocate::Rewrite:
        return writeBeforehand(spec, outcome);
    }
    return true;
}

} // namespace

UniqueFd openOutput(const JobSpec& spec, int access, bool direct, Outcome& outcome)
{
    if (spec.testCase.target == TargetKind::Null) {
        UniqueFd fd(::open("/dev/null", access | O_CLOEXEC));
        if (!fd)
            outcome = errnoOutcome(errno, "open", "/dev/null");
        return fd;
    }
    const int flags = access | O_CREAT | O_EXCL | O_NOFOLLOW | openFlags(spec.testCase, direct);
    UniqueFd fd(::open(spec.path.c_str(), flags, 0644));
    if (!fd) {
        const int error = errno;
        outcome = errnoOutcome(error, direct ? "open(O_DIRECT)" : "open", spec.path);
        if (direct && error == EINVAL) {
            outcome.status = Status::Unsupported;
            outcome.message =
                fmt::format("this filesystem does not support O_DIRECT (open of {} gave EINVAL)", spec.path);
        }
        return fd;
    }
    if (!preallocate(fd.get(), spec, outcome))
        return UniqueFd();
    return fd;
}

UniqueFd createScratch(const std::string& path, int flags, Outcome& outcome)
{
    UniqueFd fd(::open(path.c_str(), flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd)
        outcome = errnoOutcome(errno, "open", path);
    return fd;
}

bool reserveSpace(int fd, std::uint64_t bytes, const std::string& path, Outcome& outcome)
{
    if (::fallocate(fd, 0, 0, static_cast<off_t>(bytes)) == 0)
        return true;
    const int error = errno;
    outcome = errnoOutcome(error, "fallocate", path);
    if (error == EOPNOTSUPP || error == ENOSYS)
        outcome.status = Status::Unsupported;
    return false;
}

bool syncForPolicy(int fd, SyncMode mode) noexcept
{
    switch (mode) {
    case SyncMode::FsyncEnd:
    case SyncMode::FsyncEvery:
        return ::fsync(fd) == 0;
    case SyncMode::FdatasyncEnd:
    case SyncMode::FdatasyncEvery:
        return ::fdatasync(fd) == 0;
    case SyncMode::None:
    case SyncMode::OSync:
    case SyncMode::ODsync:
        return true;
    }
    return true;
}

UniqueFd openInput(const std::string& path, bool direct, Outcome& outcome, bool writeToo)
{
    int flags = (writeToo ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_CLOEXEC;
#ifdef O_DIRECT
    if (direct)
        flags |= O_DIRECT;
#else
    if (direct) {
        outcome = {Status::Unsupported, 0, "open", "this system has no O_DIRECT"};
        return UniqueFd();
    }
#endif
    UniqueFd fd(::open(path.c_str(), flags));
    if (!fd)
        outcome = errnoOutcome(errno, direct ? "open(O_DIRECT)" : "open", path);
    return fd;
}

const std::vector<ReadHint>& fadviseHints()
{
    static const std::vector<ReadHint> hints{ReadHint::Normal, ReadHint::Sequential, ReadHint::Random,
                                             ReadHint::NoReuse};
    return hints;
}

bool adviseRead(int fd, ReadHint hint, const std::string& path, Outcome& outcome)
{
    int advice = POSIX_FADV_NORMAL;
    switch (hint) {
    case ReadHint::NotApplicable:
        return true;
    case ReadHint::Normal:
        advice = POSIX_FADV_NORMAL;
        break;
    case ReadHint::Sequential:
        advice = POSIX_FADV_SEQUENTIAL;
        break;
    case ReadHint::Random:
        advice = POSIX_FADV_RANDOM;
        break;
    case ReadHint::NoReuse:
        advice = POSIX_FADV_NOREUSE;
        break;
    }
    if (const int error = ::posix_fadvise(fd, 0, 0, advice); error != 0) {
        outcome = errnoOutcome(error, fmt::format("posix_fadvise({})", toString(hint)), path);
        return false;
    }
    return true;
}

void ignoreSigpipe()
{
    static std::once_flag once;
    std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}

std::string describeWaitStatus(int status)
{
    if (WIFEXITED(status))
        return fmt::format("exited with code {}", WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        const char* name = ::sigabbrev_np(signal);
        return name != nullptr ? fmt::format("was killed by signal {} (SIG{})", signal, name)
                               : fmt::format("was killed by signal {}", signal);
    }
    return fmt::format("ended with wait status {}", status);
}

} // namespace iolab::posix

namespace iolab {

Outcome crtErrorOutcome(int error, std::string_view call, const std::string& path)
{
    return posix::errnoOutcome(error, call, path);
}

} // namespace iolab
