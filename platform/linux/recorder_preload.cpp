// SPDX-License-Identifier: MIT
// libiolab-record.so: the Linux recorder, preloaded into the program `iolab-cli record` starts (LD_PRELOAD).
// It defines the C library's file calls (the stdio layer and the descriptor layer) under their own names, so
// that the program's calls reach it first; each one calls the C library's own function (found with
// dlsym(RTLD_NEXT)), leaves its result and errno exactly as they were, and records the call into this
// process's part of the trace (platform/common/trace_part_writer.h) in the folder IOLAB_RECORD_DIR names.
//
// What it cannot see (the manual's recording.md says the same): calls the C library makes to itself (stdio's
// own write() of its buffer is seen as the fwrite or fflush that caused it), system calls made without the C
// library's wrappers (raw syscall() is noted; inline assembly is invisible), io_uring's submissions (a ring
// is noted when the recorder can see it) and statically linked programs (an exec of one is noted).
//
// Timing: a call that enters the kernel is timed with two clock reads. A stdio call the stream's buffer
// absorbs (a put that fits, a get the buffer holds) does not reach the system and is counted, not timed:
// timing it would cost more than the call (a clock read is about 20 ns here, a one-byte fwrite 5-10 ns).
#include "platform/common/trace_part_writer.h"

#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string_view>
#include <type_traits>

using iolab::recorder::openFlagsOfMode;
using iolab::recorder::PartFile;
using iolab::recorder::PartWriter;
namespace trace = iolab::trace;

namespace {

// The C library's own functions, looked up once.
template <typename F> F next(const char* name)
{
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}
#define IOLAB_REAL(name) static const auto real = next<decltype(&::name)>(#name)

// The system calls the recorder makes for itself, straight to the C library's syscall(): never through the
// program-facing wrappers below (this library's own syscall() among them).
template <typename T> long asArgument(T value)
{
    if constexpr (std::is_pointer_v<T>)
        return reinterpret_cast<long>(value);
    else
        return static_cast<long>(value);
}

template <typename... Args> long sys(long number, Args... args)
{
    static const auto real = next<long (*)(long, ...)>("syscall");
    return real(number, asArgument(args)...);
}

std::uint64_t monotonicNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

std::uint64_t realtimeNs()
{
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

// The part file: an address range reserved once (64 GiB, no memory behind it), into which the file is mapped
// shared as it grows, each piece allocated on the disk first (fallocate) so that a full disk stops the
// recording instead of raising SIGBUS in the program on a store into a hole.
class LinuxPartFile final : public PartFile
{
    static auto realMmap()
    {
        static const auto real = next<decltype(&::mmap)>("mmap");
        return real;
    }

public:
    static constexpr std::uint64_t kReservedBytes = 64ull << 30;

    bool open(const char* path)
    {
        m_fd = static_cast<int>(sys(SYS_openat, AT_FDCWD, path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
        if (m_fd < 0)
            return false;
        void* range = realMmap()(nullptr, kReservedBytes, PROT_NONE,
                                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (range == MAP_FAILED) {
            sys(SYS_close, m_fd);
            m_fd = -1;
            return false;
        }
        m_base = static_cast<unsigned char*>(range);
        return true;
    }

    bool growTo(std::uint64_t bytes) override
    {
        if (m_fd < 0 || bytes > kReservedBytes)
            return false;
        if (bytes <= m_mapped)
            return true;
        if (sys(SYS_fallocate, m_fd, 0, static_cast<off_t>(m_mapped), static_cast<off_t>(bytes - m_mapped)) !=
                0 &&
            sys(SYS_ftruncate, m_fd, static_cast<off_t>(bytes)) != 0)
            return false;
        // fallocate extends the file; where it is not supported (EOPNOTSUPP), ftruncate makes the file long
        // enough and the pages stay holes.
        sys(SYS_ftruncate, m_fd, static_cast<off_t>(bytes));
        void* at = realMmap()(m_base + m_mapped, bytes - m_mapped, PROT_READ | PROT_WRITE,
                              MAP_SHARED | MAP_FIXED, m_fd, static_cast<off_t>(m_mapped));
        if (at == MAP_FAILED)
            return false;
        m_mapped = bytes;
        return true;
    }

    unsigned char* base() override { return m_base; }
    int fd() const { return m_fd; }

private:
    int m_fd = -1;
    unsigned char* m_base = nullptr;
    std::uint64_t m_mapped = 0;
};

// The recorder of this process: made by the library's constructor, again in a forked child.
// constinit: the library's constructor (recorderStart) may run before any dynamic initialiser of this file,
// which would then wipe what it set up.
struct Recorder
{
    alignas(LinuxPartFile) unsigned char fileStorage[sizeof(LinuxPartFile)]{};
    alignas(PartWriter) unsigned char writerStorage[sizeof(PartWriter)]{};
    std::atomic<PartWriter*> writer{nullptr};
    std::uint64_t startMonotonicNs = 0;
    std::uint32_t pid = 0;
    int partFd = -1;
};
constinit Recorder g_recorder;

[[gnu::tls_model("initial-exec")]] thread_local std::uint32_t t_tid = 0;
[[gnu::tls_model("initial-exec")]] thread_local bool t_busy =
    false; // inside the recorder (a signal handler's
           // call there is passed through)

std::uint32_t tid()
{
    if (t_tid == 0)
        t_tid = static_cast<std::uint32_t>(sys(SYS_gettid));
    return t_tid;
}

PartWriter* writer()
{
    if (t_busy)
        return nullptr;
    return g_recorder.writer.load(std::memory_order_acquire);
}

std::uint64_t sinceStart(std::uint64_t ns)
{
    return ns - g_recorder.startMonotonicNs;
}

// The program's command line, executable and working folder, for the Process record.
void recordProcess(PartWriter& part)
{
    static char text[16384];
    std::size_t used = 0;
    auto append = [&](const char* data, std::size_t size) {
        const std::size_t n = size < sizeof text - used - 1 ? size : sizeof text - used - 1;
        memcpy(text + used, data, n);
        used += n;
    };
    char buffer[4096];
    const ssize_t exeBytes = sys(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", buffer, sizeof buffer);
    append(buffer, exeBytes > 0 ? static_cast<std::size_t>(exeBytes) : 0);
    append("", 1);
    std::uint16_t arguments = 0;
    const int fd = static_cast<int>(sys(SYS_openat, AT_FDCWD, "/proc/self/cmdline", O_RDONLY | O_CLOEXEC));
    if (fd >= 0) {
        ssize_t n = 0;
        while ((n = sys(SYS_read, fd, buffer, sizeof buffer)) > 0) {
            for (ssize_t i = 0; i < n; ++i)
                arguments = static_cast<std::uint16_t>(arguments + (buffer[i] == '\0'));
            append(buffer, static_cast<std::size_t>(n));
        }
        sys(SYS_close, fd);
    }
    append("", 1);
    const long cwdBytes = sys(SYS_getcwd, buffer, sizeof buffer);
    if (cwdBytes > 0)
        append(buffer, strnlen(buffer, sizeof buffer));
    part.process(tid(), std::string_view(text, used), arguments);
}

std::uint32_t openFlagsOf(int flags)
{
    std::uint32_t bits = 0;
    switch (flags & O_ACCMODE) {
    case O_RDONLY:
        bits |= trace::OpenRead;
        break;
    case O_WRONLY:
        bits |= trace::OpenWrite;
        break;
    default:
        bits |= trace::OpenRead | trace::OpenWrite;
        break;
    }
    if (flags & O_CREAT)
        bits |= trace::OpenCreate;
    if (flags & O_TRUNC)
        bits |= trace::OpenTruncate;
    if (flags & O_EXCL)
        bits |= trace::OpenExclusive;
    if (flags & O_APPEND)
        bits |= trace::OpenAppend;
    if (flags & O_DIRECT)
        bits |= trace::OpenDirect;
    if ((flags & O_SYNC) == O_SYNC)
        bits |= trace::OpenSync;
    else if (flags & O_DSYNC)
        bits |= trace::OpenDSync;
    if ((flags & O_TMPFILE) == O_TMPFILE)
        bits |= trace::OpenTmpfile;
    else if (flags & O_DIRECTORY)
        bits |= trace::OpenDirectory;
    return bits;
}

std::uint32_t writeFlagsOf(int flags)
{
    std::uint32_t bits = 0;
    if (flags & RWF_DSYNC)
        bits |= trace::WriteDSync;
    if (flags & RWF_SYNC)
        bits |= trace::WriteSync;
    if (flags & RWF_APPEND)
        bits |= trace::WriteAppend;
    if (flags & RWF_NOWAIT)
        bits |= trace::WriteNoWait;
    if (flags & RWF_HIPRI)
        bits |= trace::WriteHiPri;
    return bits;
}

// A path as the program named it, made absolute against the working folder or the descriptor it is relative
// to (a replay must tell the files apart; the program's own path strings are kept as they were otherwise).
struct AbsolutePath
{
    char text[8192];
    std::size_t size = 0;

    AbsolutePath(int dirFd, const char* path)
    {
        if (!path)
            return;
        if (path[0] != '/') {
            if (dirFd == AT_FDCWD) {
                if (sys(SYS_getcwd, text, sizeof text / 2) > 0)
                    size = strnlen(text, sizeof text / 2);
            } else {
                char link[64];
                snprintfFd(link, dirFd);
                const ssize_t n = sys(SYS_readlinkat, AT_FDCWD, link, text, sizeof text / 2);
                size = n > 0 ? static_cast<std::size_t>(n) : 0;
            }
            if (size > 0 && text[size - 1] != '/')
                text[size++] = '/';
        }
        const std::size_t length = strnlen(path, sizeof text - size - 1);
        memcpy(text + size, path, length);
        size += length;
    }

    std::string_view view() const { return {text, size}; }

    static void snprintfFd(char* out, int fd)
    {
        // "/proc/self/fd/N" without snprintf (which the recorder could see through a stream it wraps).
        const char prefix[] = "/proc/self/fd/";
        memcpy(out, prefix, sizeof prefix - 1);
        char digits[16];
        int count = 0;
        unsigned value = static_cast<unsigned>(fd);
        do {
            digits[count++] = static_cast<char>('0' + value % 10);
            value /= 10;
        } while (value && count < 16);
        std::size_t at = sizeof prefix - 1;
        while (count)
            out[at++] = digits[--count];
        out[at] = '\0';
    }
};

// The descriptors the program was given (a redirected stdout, a pipe): recorded as opens marked inherited, so
// that the profile can name what fd 1 was.
void recordInheritedDescriptors(PartWriter& part, int ownFd)
{
    DIR* folder = opendir("/proc/self/fd");
    if (!folder)
        return;
    const int folderFd = dirfd(folder);
    const std::uint64_t at = sinceStart(monotonicNs());
    while (const dirent* entry = readdir(folder)) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
            continue;
        const int fd = atoi(entry->d_name);
        if (fd == folderFd || fd == ownFd)
            continue;
        char link[64];
        AbsolutePath::snprintfFd(link, fd);
        char target[4096];
        const ssize_t n = sys(SYS_readlinkat, AT_FDCWD, link, target, sizeof target);
        const int flags = static_cast<int>(sys(SYS_fcntl, fd, F_GETFL));
        iolab::recorder::Call call{trace::Call::Open};
        call.handle = static_cast<std::uint64_t>(fd);
        call.result = fd;
        call.flags = (flags >= 0 ? openFlagsOf(flags) : 0) | trace::OpenInherited;
        call.startNs = at;
        call.endNs = at;
        call.path = std::string_view(target, n > 0 ? static_cast<std::size_t>(n) : 0);
        part.record(tid(), call);
    }
    closedir(folder);
    // The standard streams over them: a program's fwrite(stdout) is on fd 1's file.
    for (FILE* stream : {stdin, stdout, stderr}) {
        iolab::recorder::Call call{trace::Call::FOpen};
        call.handle = reinterpret_cast<std::uintptr_t>(stream);
        call.offset = stream == stdin ? 0 : stream == stdout ? 1 : 2;
        call.flags = (stream == stdin ? trace::OpenRead : trace::OpenWrite) | trace::OpenInherited;
        call.startNs = at;
        call.endNs = at;
        part.record(tid(), call);
    }
}

void start(std::uint32_t parentPid)
{
    const char* folder = getenv("IOLAB_RECORD_DIR");
    if (!folder || !*folder)
        return;
    g_recorder.startMonotonicNs = monotonicNs();
    g_recorder.pid = static_cast<std::uint32_t>(sys(SYS_getpid));
    t_tid = 0;
    char path[4096];
    const std::size_t folderBytes = strnlen(folder, 3000);
    memcpy(path, folder, folderBytes);
    std::size_t at = folderBytes;
    path[at++] = '/';
    // <pid>-<monotonic ns>.part: a process that execs gets a second part under the same pid.
    for (std::uint64_t value : {static_cast<std::uint64_t>(g_recorder.pid), g_recorder.startMonotonicNs}) {
        char digits[24];
        int count = 0;
        do {
            digits[count++] = static_cast<char>('0' + value % 10);
            value /= 10;
        } while (value);
        while (count)
            path[at++] = digits[--count];
        path[at++] = '-';
    }
    memcpy(path + at - 1, ".part", 6);
    auto* file = new (g_recorder.fileStorage) LinuxPartFile;
    if (!file->open(path))
        return;
    g_recorder.partFd = file->fd();
    auto* part = new (g_recorder.writerStorage) PartWriter(
        *file, trace::System::Linux, g_recorder.pid, parentPid, realtimeNs(), g_recorder.startMonotonicNs);
    if (!part->ready())
        return;
    t_busy = true;
    recordProcess(*part);
    recordInheritedDescriptors(*part, file->fd());
    t_busy = false;
    g_recorder.writer.store(part, std::memory_order_release);
}

void restartInChild()
{
    // A forked child keeps the parent's mapping (shared: its records would land in the parent's chunks) and
    // none of its other threads. It starts a part of its own; the parent's mapping stays, unused.
    const std::uint32_t parent = g_recorder.pid;
    g_recorder.writer.store(nullptr, std::memory_order_release);
    PartWriter::forgetThread();
    start(parent);
}

[[gnu::constructor]] void recorderStart()
{
    start(static_cast<std::uint32_t>(sys(SYS_getppid)));
    pthread_atfork(nullptr, nullptr, restartInChild);
}

// Records one call; errno is kept as the call left it.
void put(const iolab::recorder::Call& call)
{
    PartWriter* part = writer();
    if (!part)
        return;
    const int savedErrno = errno;
    t_busy = true;
    part->record(tid(), call);
    t_busy = false;
    errno = savedErrno;
}

// Times `real(args...)` and records it as `kind` on `handle`; `shape` fills in the rest from the result.
template <typename Result, typename Real, typename Shape, typename... Args>
Result timed(trace::Call kind, std::uint64_t handle, Shape&& shape, Real real, Args... args)
{
    if (!writer())
        return real(args...);
    const std::uint64_t start = monotonicNs();
    const Result result = real(args...);
    const int error = errno;
    const std::uint64_t end = monotonicNs();
    iolab::recorder::Call call{kind};
    call.handle = handle;
    call.startNs = sinceStart(start);
    call.endNs = sinceStart(end);
    shape(call, result, error);
    put(call);
    errno = error;
    return result;
}

// Shapes for the common cases: a transfer of `bytes` (at `offset`, -1 the position) returning a count or -1.
auto transfer(std::uint64_t bytes, std::int64_t offset, std::uint32_t flags = 0)
{
    return [=](iolab::recorder::Call& call, auto result, int error) {
        call.bytes = bytes;
        call.offset = offset;
        call.flags = flags;
        call.result = static_cast<std::int64_t>(result);
        call.error = result < 0 ? error : 0;
    };
}

auto status()
{
    return [](iolab::recorder::Call& call, auto result, int error) {
        call.result = static_cast<std::int64_t>(result);
        call.error = result < 0 ? error : 0;
    };
}

std::uint64_t vectorBytes(const iovec* vector, int count)
{
    std::uint64_t bytes = 0;
    for (int i = 0; vector && i < count; ++i)
        bytes += vector[i].iov_len;
    return bytes;
}

// A stdio call that only touches the stream's buffer: counted, with one clock read when it starts a new
// record.
bool putFits(FILE* stream, std::size_t bytes)
{
    return stream && stream->_IO_write_ptr && stream->_IO_write_end > stream->_IO_write_ptr &&
           static_cast<std::size_t>(stream->_IO_write_end - stream->_IO_write_ptr) > bytes;
}

bool getFits(FILE* stream, std::size_t bytes)
{
    return stream && stream->_IO_read_ptr && stream->_IO_read_end >= stream->_IO_read_ptr &&
           static_cast<std::size_t>(stream->_IO_read_end - stream->_IO_read_ptr) >= bytes && bytes > 0;
}

template <typename Result, typename Real, typename Shape, typename... Args>
Result stdioCall(bool fits, trace::Call kind, FILE* stream, Shape&& shape, Real real, Args... args)
{
    if (!fits)
        return timed<Result>(kind, reinterpret_cast<std::uintptr_t>(stream), shape, real, args...);
    PartWriter* part = writer();
    if (!part)
        return real(args...);
    const Result result = real(args...);
    const int error = errno;
    iolab::recorder::Call call{kind};
    call.handle = reinterpret_cast<std::uintptr_t>(stream);
    shape(call, result, error);
    t_busy = true;
    if (!part->extendUntimed(call)) {
        call.startNs = call.endNs = sinceStart(monotonicNs());
        part->record(tid(), call);
    }
    t_busy = false;
    errno = error;
    return result;
}

} // namespace

// ---- the descriptor layer
// -----------------------------------------------------------------------------------

namespace {

int openCommon(trace::Call kind, int dirFd, const char* path, int flags, mode_t mode,
               int (*real)(int, const char*, int, ...))
{
    if (!writer())
        return real(dirFd, path, flags, mode);
    const std::uint64_t start = monotonicNs();
    const int fd = real(dirFd, path, flags, mode);
    const int error = errno;
    const std::uint64_t end = monotonicNs();
    const AbsolutePath absolute(dirFd, path);
    iolab::recorder::Call call{kind};
    call.handle = fd >= 0 ? static_cast<std::uint64_t>(fd) : ~0ull;
    call.result = fd;
    call.error = fd < 0 ? error : 0;
    call.flags = openFlagsOf(flags);
    call.startNs = sinceStart(start);
    call.endNs = sinceStart(end);
    call.path = absolute.view();
    put(call);
    errno = error;
    return fd;
}

int realOpenat(int dirFd, const char* path, int flags, ...)
{
    va_list list;
    va_start(list, flags);
    const mode_t mode = va_arg(list, mode_t);
    va_end(list);
    IOLAB_REAL(openat);
    return real(dirFd, path, flags, mode);
}

mode_t modeOf(int flags, va_list list)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(list, mode_t) : 0;
}

} // namespace

extern "C" {

int open(const char* path, int flags, ...)
{
    va_list list;
    va_start(list, flags);
    const mode_t mode = modeOf(flags, list);
    va_end(list);
    return openCommon(trace::Call::Open, AT_FDCWD, path, flags, mode, realOpenat);
}

int openat(int dirFd, const char* path, int flags, ...)
{
    va_list list;
    va_start(list, flags);
    const mode_t mode = modeOf(flags, list);
    va_end(list);
    return openCommon(trace::Call::Open, dirFd, path, flags, mode, realOpenat);
}

// _FORTIFY_SOURCE's forms, which Debian's programs call.
int __open_2(const char* path, int flags)
{
    return openCommon(trace::Call::Open, AT_FDCWD, path, flags, 0, realOpenat);
}

int __openat_2(int dirFd, const char* path, int flags)
{
    return openCommon(trace::Call::Open, dirFd, path, flags, 0, realOpenat);
}

int creat(const char* path, mode_t mode)
{
    return openCommon(trace::Call::Open, AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode, realOpenat);
}

int close(int fd)
{
    IOLAB_REAL(close);
    if (fd == g_recorder.partFd && fd >= 0) {
        // The program closing every descriptor (a daemon does): the part's mapping keeps working without it.
        g_recorder.partFd = -1;
    }
    return timed<int>(trace::Call::Close, static_cast<std::uint64_t>(fd), status(), real, fd);
}

ssize_t write(int fd, const void* buffer, size_t bytes)
{
    IOLAB_REAL(write);
    return timed<ssize_t>(trace::Call::Write, static_cast<std::uint64_t>(fd), transfer(bytes, -1), real, fd,
                          buffer, bytes);
}

ssize_t pwrite(int fd, const void* buffer, size_t bytes, off_t offset)
{
    IOLAB_REAL(pwrite);
    return timed<ssize_t>(trace::Call::PWrite, static_cast<std::uint64_t>(fd), transfer(bytes, offset), real,
                          fd, buffer, bytes, offset);
}

ssize_t writev(int fd, const iovec* vector, int count)
{
    IOLAB_REAL(writev);
    return timed<ssize_t>(trace::Call::WriteV, static_cast<std::uint64_t>(fd),
                          transfer(vectorBytes(vector, count), -1), real, fd, vector, count);
}

ssize_t pwritev(int fd, const iovec* vector, int count, off_t offset)
{
    IOLAB_REAL(pwritev);
    return timed<ssize_t>(trace::Call::PWriteV, static_cast<std::uint64_t>(fd),
                          transfer(vectorBytes(vector, count), offset), real, fd, vector, count, offset);
}

ssize_t pwritev2(int fd, const iovec* vector, int count, off_t offset, int flags)
{
    IOLAB_REAL(pwritev2);
    return timed<ssize_t>(trace::Call::PWriteV, static_cast<std::uint64_t>(fd),
                          transfer(vectorBytes(vector, count), offset, writeFlagsOf(flags)), real, fd, vector,
                          count, offset, flags);
}

ssize_t read(int fd, void* buffer, size_t bytes)
{
    IOLAB_REAL(read);
    return timed<ssize_t>(trace::Call::Read, static_cast<std::uint64_t>(fd), transfer(bytes, -1), real, fd,
                          buffer, bytes);
}

ssize_t __read_chk(int fd, void* buffer, size_t bytes, size_t bufferBytes)
{
    IOLAB_REAL(__read_chk);
    return timed<ssize_t>(trace::Call::Read, static_cast<std::uint64_t>(fd), transfer(bytes, -1), real, fd,
                          buffer, bytes, bufferBytes);
}

ssize_t pread(int fd, void* buffer, size_t bytes, off_t offset)
{
    IOLAB_REAL(pread);
    return timed<ssize_t>(trace::Call::PRead, static_cast<std::uint64_t>(fd), transfer(bytes, offset), real,
                          fd, buffer, bytes, offset);
}

ssize_t __pread_chk(int fd, void* buffer, size_t bytes, off_t offset, size_t bufferBytes)
{
    IOLAB_REAL(__pread_chk);
    return timed<ssize_t>(trace::Call::PRead, static_cast<std::uint64_t>(fd), transfer(bytes, offset), real,
                          fd, buffer, bytes, offset, bufferBytes);
}

ssize_t readv(int fd, const iovec* vector, int count)
{
    IOLAB_REAL(readv);
    return timed<ssize_t>(trace::Call::ReadV, static_cast<std::uint64_t>(fd),
                          transfer(vectorBytes(vector, count), -1), real, fd, vector, count);
}

ssize_t preadv(int fd, const iovec* vector, int count, off_t offset)
{
    IOLAB_REAL(preadv);
    return timed<ssize_t>(trace::Call::PReadV, static_cast<std::uint64_t>(fd),
                          transfer(vectorBytes(vector, count), offset), real, fd, vector, count, offset);
}

ssize_t preadv2(int fd, const iovec* vector, int count, off_t offset, int flags)
{
    IOLAB_REAL(preadv2);
    return timed<ssize_t>(trace::Call::PReadV, static_cast<std::uint64_t>(fd),
                          transfer(vectorBytes(vector, count), offset, writeFlagsOf(flags)), real, fd, vector,
                          count, offset, flags);
}

off_t lseek(int fd, off_t offset, int whence)
{
    IOLAB_REAL(lseek);
    return timed<off_t>(trace::Call::Seek, static_cast<std::uint64_t>(fd),
                        transfer(0, offset, static_cast<std::uint32_t>(whence)), real, fd, offset, whence);
}

int fsync(int fd)
{
    IOLAB_REAL(fsync);
    return timed<int>(trace::Call::Fsync, static_cast<std::uint64_t>(fd), status(), real, fd);
}

int fdatasync(int fd)
{
    IOLAB_REAL(fdatasync);
    return timed<int>(trace::Call::Fdatasync, static_cast<std::uint64_t>(fd), status(), real, fd);
}

int sync_file_range(int fd, off64_t offset, off64_t bytes, unsigned int flags)
{
    IOLAB_REAL(sync_file_range);
    return timed<int>(
        trace::Call::SyncFileRange, static_cast<std::uint64_t>(fd),
        [=](iolab::recorder::Call& call, int result, int error) {
            call.offset = offset;
            call.bytes = static_cast<std::uint64_t>(bytes);
            call.flags = flags;
            call.result = result;
            call.error = result < 0 ? error : 0;
        },
        real, fd, offset, bytes, flags);
}

int syncfs(int fd)
{
    IOLAB_REAL(syncfs);
    return timed<int>(trace::Call::Syncfs, static_cast<std::uint64_t>(fd), status(), real, fd);
}

void sync(void)
{
    IOLAB_REAL(sync);
    timed<int>(trace::Call::Sync, 0, status(), [] {
        real();
        return 0;
    });
}

int fallocate(int fd, int mode, off_t offset, off_t bytes)
{
    IOLAB_REAL(fallocate);
    return timed<int>(trace::Call::Fallocate, static_cast<std::uint64_t>(fd),
                      transfer(static_cast<std::uint64_t>(bytes), offset, static_cast<std::uint32_t>(mode)),
                      real, fd, mode, offset, bytes);
}

// posix_fallocate returns its error instead of setting errno.
int posix_fallocate(int fd, off_t offset, off_t bytes)
{
    IOLAB_REAL(posix_fallocate);
    return timed<int>(
        trace::Call::Fallocate, static_cast<std::uint64_t>(fd),
        [=](iolab::recorder::Call& call, int result, int) {
            call.offset = offset;
            call.bytes = static_cast<std::uint64_t>(bytes);
            call.result = result == 0 ? 0 : -1;
            call.error = result;
        },
        real, fd, offset, bytes);
}

int ftruncate(int fd, off_t length)
{
    IOLAB_REAL(ftruncate);
    return timed<int>(trace::Call::Ftruncate, static_cast<std::uint64_t>(fd),
                      transfer(static_cast<std::uint64_t>(length), -1), real, fd, length);
}

} // extern "C"

// ---- mappings, copies, names
// -----------------------------------------------------------------------------------

namespace {

std::uint32_t mapFlagsOf(int protection, int flags)
{
    std::uint32_t bits = 0;
    if (flags & MAP_SHARED)
        bits |= trace::MapShared;
    if (protection & PROT_WRITE)
        bits |= trace::MapWrite;
    if (protection & PROT_READ)
        bits |= trace::MapRead;
    return bits;
}

std::uint32_t msyncFlagsOf(int flags)
{
    std::uint32_t bits = 0;
    if (flags & MS_SYNC)
        bits |= trace::MapSyncWait;
    if (flags & MS_ASYNC)
        bits |= trace::MapSyncAsync;
    if (flags & MS_INVALIDATE)
        bits |= trace::MapInvalidate;
    return bits;
}

template <typename Real>
void* mapCommon(Real real, void* address, size_t bytes, int protection, int flags, int fd, off64_t offset)
{
    // Only mappings of files: the program's anonymous memory is not I/O.
    if (fd < 0 || (flags & MAP_ANONYMOUS) || !writer())
        return real(address, bytes, protection, flags, fd, offset);
    const std::uint64_t start = monotonicNs();
    void* result = real(address, bytes, protection, flags, fd, offset);
    const int error = errno;
    const std::uint64_t end = monotonicNs();
    iolab::recorder::Call call{trace::Call::Mmap};
    call.handle = static_cast<std::uint64_t>(fd);
    call.bytes = bytes;
    call.offset = offset;
    call.flags = mapFlagsOf(protection, flags);
    call.result =
        result == MAP_FAILED ? -1 : static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(result));
    call.error = result == MAP_FAILED ? error : 0;
    call.startNs = sinceStart(start);
    call.endNs = sinceStart(end);
    put(call);
    errno = error;
    return result;
}

// rename and unlink: the paths made absolute, both of them.
template <typename Result, typename Real, typename... Args>
Result namesCall(trace::Call kind, int fromDir, const char* from, int toDir, const char* to, Real real,
                 Args... args)
{
    if (!writer())
        return real(args...);
    const std::uint64_t start = monotonicNs();
    const Result result = real(args...);
    const int error = errno;
    const std::uint64_t end = monotonicNs();
    const AbsolutePath first(fromDir, from);
    const AbsolutePath second(toDir, to);
    iolab::recorder::Call call{kind};
    call.result = result;
    call.error = result < 0 ? error : 0;
    call.startNs = sinceStart(start);
    call.endNs = sinceStart(end);
    call.path = first.view();
    call.path2 = to ? second.view() : std::string_view{};
    put(call);
    errno = error;
    return result;
}

} // namespace

extern "C" {

void* mmap(void* address, size_t bytes, int protection, int flags, int fd, off_t offset)
{
    IOLAB_REAL(mmap);
    return mapCommon(real, address, bytes, protection, flags, fd, offset);
}

int msync(void* address, size_t bytes, int flags)
{
    IOLAB_REAL(msync);
    return timed<int>(trace::Call::Msync, reinterpret_cast<std::uintptr_t>(address),
                      transfer(bytes, -1, msyncFlagsOf(flags)), real, address, bytes, flags);
}

int munmap(void* address, size_t bytes)
{
    IOLAB_REAL(munmap);
    return timed<int>(trace::Call::Munmap, reinterpret_cast<std::uintptr_t>(address), transfer(bytes, -1),
                      real, address, bytes);
}

ssize_t copy_file_range(int inFd, off64_t* inOffset, int outFd, off64_t* outOffset, size_t bytes,
                        unsigned int flags)
{
    IOLAB_REAL(copy_file_range);
    const std::int64_t at = outOffset ? *outOffset : -1;
    return timed<ssize_t>(trace::Call::CopyFileRange, static_cast<std::uint64_t>(outFd),
                          transfer(bytes, at, static_cast<std::uint32_t>(inFd)), real, inFd, inOffset, outFd,
                          outOffset, bytes, flags);
}

ssize_t sendfile(int outFd, int inFd, off_t* inOffset, size_t bytes)
{
    IOLAB_REAL(sendfile);
    return timed<ssize_t>(trace::Call::SendFile, static_cast<std::uint64_t>(outFd),
                          transfer(bytes, -1, static_cast<std::uint32_t>(inFd)), real, outFd, inFd, inOffset,
                          bytes);
}

int rename(const char* from, const char* to)
{
    IOLAB_REAL(rename);
    return namesCall<int>(trace::Call::Rename, AT_FDCWD, from, AT_FDCWD, to, real, from, to);
}

int renameat(int fromDir, const char* from, int toDir, const char* to)
{
    IOLAB_REAL(renameat);
    return namesCall<int>(trace::Call::Rename, fromDir, from, toDir, to, real, fromDir, from, toDir, to);
}

int renameat2(int fromDir, const char* from, int toDir, const char* to, unsigned int flags)
{
    IOLAB_REAL(renameat2);
    return namesCall<int>(trace::Call::Rename, fromDir, from, toDir, to, real, fromDir, from, toDir, to,
                          flags);
}

int unlink(const char* path)
{
    IOLAB_REAL(unlink);
    return namesCall<int>(trace::Call::Unlink, AT_FDCWD, path, AT_FDCWD, nullptr, real, path);
}

int unlinkat(int dirFd, const char* path, int flags)
{
    IOLAB_REAL(unlinkat);
    if (flags & AT_REMOVEDIR)
        return real(dirFd, path, flags); // a folder, not a file's life
    return namesCall<int>(trace::Call::Unlink, dirFd, path, AT_FDCWD, nullptr, real, dirFd, path, flags);
}

int remove(const char* path)
{
    IOLAB_REAL(remove);
    struct stat info
    {};
    if (sys(SYS_newfstatat, AT_FDCWD, path, &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(info.st_mode))
        return real(path);
    return namesCall<int>(trace::Call::Unlink, AT_FDCWD, path, AT_FDCWD, nullptr, real, path);
}

int dup(int fd)
{
    IOLAB_REAL(dup);
    return timed<int>(trace::Call::Dup, static_cast<std::uint64_t>(fd), status(), real, fd);
}

int dup2(int fd, int target)
{
    IOLAB_REAL(dup2);
    return timed<int>(trace::Call::Dup, static_cast<std::uint64_t>(fd), status(), real, fd, target);
}

int dup3(int fd, int target, int flags)
{
    IOLAB_REAL(dup3);
    return timed<int>(trace::Call::Dup, static_cast<std::uint64_t>(fd), status(), real, fd, target, flags);
}

} // extern "C"

namespace {

// fcntl takes one more argument, an int or a pointer by command: passed on as a pointer-sized value, which is
// how the calling convention carries either.
int fcntlCommon(int (*real)(int, int, ...), int fd, int command, void* argument)
{
    const auto value = static_cast<int>(reinterpret_cast<std::intptr_t>(argument));
    switch (command) {
    case F_DUPFD:
    case F_DUPFD_CLOEXEC:
        return timed<int>(trace::Call::Dup, static_cast<std::uint64_t>(fd), status(), real, fd, command,
                          value);
    case F_SETFL:
        return timed<int>(
            trace::Call::SetFlags, static_cast<std::uint64_t>(fd),
            [=](iolab::recorder::Call& call, int result, int error) {
                call.flags = openFlagsOf(value) & (trace::OpenAppend | trace::OpenDirect);
                call.result = result;
                call.error = result < 0 ? error : 0;
            },
            real, fd, command, value);
    default:
        return real(fd, command, argument);
    }
}

} // namespace

extern "C" {

int fcntl(int fd, int command, ...)
{
    va_list list;
    va_start(list, command);
    void* argument = va_arg(list, void*);
    va_end(list);
    IOLAB_REAL(fcntl);
    return fcntlCommon(real, fd, command, argument);
}

int fcntl64(int fd, int command, ...)
{
    va_list list;
    va_start(list, command);
    void* argument = va_arg(list, void*);
    va_end(list);
    static const auto real = next<int (*)(int, int, ...)>("fcntl64");
    return fcntlCommon(real ? real : next<int (*)(int, int, ...)>("fcntl"), fd, command, argument);
}

} // extern "C"

// ---- the stdio layer
// -------------------------------------------------------------------------------------------

namespace {

auto streamTransfer(std::uint64_t bytes)
{
    return [=](iolab::recorder::Call& call, auto result, int error) {
        call.bytes = bytes;
        call.result = static_cast<std::int64_t>(result);
        call.error = static_cast<std::int64_t>(result) < 0 ? error : 0;
    };
}

// fwrite and fread return items; the record keeps bytes, asked and moved.
auto itemsTransfer(std::size_t size, std::size_t count)
{
    return [=](iolab::recorder::Call& call, std::size_t items, int error) {
        call.bytes = size * count;
        call.result = static_cast<std::int64_t>(size * items);
        call.error = items < count ? error : 0;
    };
}

// A put of one character: 1 moved, or -1 (EOF).
auto onePut()
{
    return [](iolab::recorder::Call& call, int result, int error) {
        call.bytes = 1;
        call.result = result == EOF ? -1 : 1;
        call.error = result == EOF ? error : 0;
    };
}

auto printed()
{
    return [](iolab::recorder::Call& call, int result, int error) {
        call.bytes = result > 0 ? static_cast<std::uint64_t>(result) : 0;
        call.result = result;
        call.error = result < 0 ? error : 0;
    };
}

FILE* openStream(trace::Call kind, const char* path, const char* mode, int fd, FILE* replaced,
                 FILE* (*call)(void*), void* context)
{
    if (!writer())
        return call(context);
    const std::uint64_t start = monotonicNs();
    FILE* stream = call(context);
    const int error = errno;
    const std::uint64_t end = monotonicNs();
    const AbsolutePath absolute(AT_FDCWD, path);
    iolab::recorder::Call record{kind};
    record.handle = reinterpret_cast<std::uintptr_t>(stream ? stream : replaced);
    record.flags = openFlagsOfMode(mode);
    record.offset = stream ? fileno(stream) : fd;
    record.result = stream ? 0 : -1;
    record.error = stream ? 0 : error;
    record.startNs = sinceStart(start);
    record.endNs = sinceStart(end);
    record.path = absolute.view();
    put(record);
    errno = error;
    return stream;
}

} // namespace

extern "C" {

FILE* fopen(const char* path, const char* mode)
{
    IOLAB_REAL(fopen);
    struct Args
    {
        const char* path;
        const char* mode;
    } args{path, mode};
    return openStream(
        trace::Call::FOpen, path, mode, -1, nullptr,
        [](void* context) {
            auto* a = static_cast<Args*>(context);
            return real(a->path, a->mode);
        },
        &args);
}

FILE* fdopen(int fd, const char* mode)
{
    IOLAB_REAL(fdopen);
    struct Args
    {
        int fd;
        const char* mode;
    } args{fd, mode};
    return openStream(
        trace::Call::FOpen, nullptr, mode, fd, nullptr,
        [](void* context) {
            auto* a = static_cast<Args*>(context);
            return real(a->fd, a->mode);
        },
        &args);
}

FILE* freopen(const char* path, const char* mode, FILE* stream)
{
    IOLAB_REAL(freopen);
    struct Args
    {
        const char* path;
        const char* mode;
        FILE* stream;
    } args{path, mode, stream};
    return openStream(
        trace::Call::FOpen, path, mode, -1, stream,
        [](void* context) {
            auto* a = static_cast<Args*>(context);
            return real(a->path, a->mode, a->stream);
        },
        &args);
}

int fclose(FILE* stream)
{
    IOLAB_REAL(fclose);
    return timed<int>(trace::Call::FClose, reinterpret_cast<std::uintptr_t>(stream), status(), real, stream);
}

int setvbuf(FILE* stream, char* buffer, int mode, size_t bytes)
{
    IOLAB_REAL(setvbuf);
    const auto bufferMode = static_cast<std::uint32_t>(mode == _IONBF   ? trace::BufferMode::None
                                                       : mode == _IOLBF ? trace::BufferMode::Line
                                                                        : trace::BufferMode::Full);
    return timed<int>(trace::Call::SetVBuf, reinterpret_cast<std::uintptr_t>(stream),
                      transfer(bytes, -1, bufferMode), real, stream, buffer, mode, bytes);
}

void setbuf(FILE* stream, char* buffer)
{
    IOLAB_REAL(setvbuf);
    const auto mode = static_cast<std::uint32_t>(buffer ? trace::BufferMode::Full : trace::BufferMode::None);
    timed<int>(trace::Call::SetVBuf, reinterpret_cast<std::uintptr_t>(stream),
               transfer(buffer ? BUFSIZ : 0, -1, mode), real, stream, buffer, buffer ? _IOFBF : _IONBF,
               static_cast<size_t>(BUFSIZ));
}

void setbuffer(FILE* stream, char* buffer, size_t bytes)
{
    IOLAB_REAL(setvbuf);
    const auto mode = static_cast<std::uint32_t>(buffer ? trace::BufferMode::Full : trace::BufferMode::None);
    timed<int>(trace::Call::SetVBuf, reinterpret_cast<std::uintptr_t>(stream),
               transfer(buffer ? bytes : 0, -1, mode), real, stream, buffer, buffer ? _IOFBF : _IONBF, bytes);
}

void setlinebuf(FILE* stream)
{
    IOLAB_REAL(setvbuf);
    timed<int>(trace::Call::SetVBuf, reinterpret_cast<std::uintptr_t>(stream),
               transfer(0, -1, static_cast<std::uint32_t>(trace::BufferMode::Line)), real, stream, nullptr,
               _IOLBF, static_cast<size_t>(0));
}

size_t fwrite(const void* data, size_t size, size_t count, FILE* stream)
{
    IOLAB_REAL(fwrite);
    return stdioCall<size_t>(putFits(stream, size * count), trace::Call::FWrite, stream,
                             itemsTransfer(size, count), real, data, size, count, stream);
}

size_t fwrite_unlocked(const void* data, size_t size, size_t count, FILE* stream)
{
    IOLAB_REAL(fwrite_unlocked);
    return stdioCall<size_t>(putFits(stream, size * count), trace::Call::FWrite, stream,
                             itemsTransfer(size, count), real, data, size, count, stream);
}

int fputc(int c, FILE* stream)
{
    IOLAB_REAL(fputc);
    return stdioCall<int>(putFits(stream, 1), trace::Call::FPutc, stream, onePut(), real, c, stream);
}

int putc(int c, FILE* stream)
{
    IOLAB_REAL(putc);
    return stdioCall<int>(putFits(stream, 1), trace::Call::FPutc, stream, onePut(), real, c, stream);
}

int _IO_putc(int c, FILE* stream)
{
    IOLAB_REAL(_IO_putc);
    return stdioCall<int>(putFits(stream, 1), trace::Call::FPutc, stream, onePut(), real, c, stream);
}

int fputc_unlocked(int c, FILE* stream)
{
    IOLAB_REAL(fputc_unlocked);
    return stdioCall<int>(putFits(stream, 1), trace::Call::FPutc, stream, onePut(), real, c, stream);
}

int putc_unlocked(int c, FILE* stream)
{
    IOLAB_REAL(putc_unlocked);
    return stdioCall<int>(putFits(stream, 1), trace::Call::FPutc, stream, onePut(), real, c, stream);
}

int putchar(int c)
{
    IOLAB_REAL(putchar);
    return stdioCall<int>(putFits(stdout, 1), trace::Call::FPutc, stdout, onePut(), real, c);
}

int putchar_unlocked(int c)
{
    IOLAB_REAL(putchar_unlocked);
    return stdioCall<int>(putFits(stdout, 1), trace::Call::FPutc, stdout, onePut(), real, c);
}

// The C library's slow path of a put compiled into the program: the buffer is full (or the stream
// unbuffered).
int __overflow(FILE* stream, int c)
{
    IOLAB_REAL(__overflow);
    return timed<int>(trace::Call::StreamSpill, reinterpret_cast<std::uintptr_t>(stream), onePut(), real,
                      stream, c);
}

int fputs(const char* text, FILE* stream)
{
    IOLAB_REAL(fputs);
    const std::size_t bytes = strlen(text);
    return stdioCall<int>(putFits(stream, bytes), trace::Call::FPuts, stream, streamTransfer(bytes), real,
                          text, stream);
}

int fputs_unlocked(const char* text, FILE* stream)
{
    IOLAB_REAL(fputs_unlocked);
    const std::size_t bytes = strlen(text);
    return stdioCall<int>(putFits(stream, bytes), trace::Call::FPuts, stream, streamTransfer(bytes), real,
                          text, stream);
}

int puts(const char* text)
{
    IOLAB_REAL(puts);
    const std::size_t bytes = strlen(text) + 1;
    return stdioCall<int>(putFits(stdout, bytes), trace::Call::FPuts, stdout, streamTransfer(bytes), real,
                          text);
}

int vfprintf(FILE* stream, const char* format, va_list list)
{
    IOLAB_REAL(vfprintf);
    return timed<int>(trace::Call::FPrintf, reinterpret_cast<std::uintptr_t>(stream), printed(), real, stream,
                      format, list);
}

int __vfprintf_chk(FILE* stream, int flag, const char* format, va_list list)
{
    IOLAB_REAL(__vfprintf_chk);
    return timed<int>(trace::Call::FPrintf, reinterpret_cast<std::uintptr_t>(stream), printed(), real, stream,
                      flag, format, list);
}

int vprintf(const char* format, va_list list)
{
    IOLAB_REAL(vfprintf);
    return timed<int>(trace::Call::FPrintf, reinterpret_cast<std::uintptr_t>(stdout), printed(), real, stdout,
                      format, list);
}

int __vprintf_chk(int flag, const char* format, va_list list)
{
    IOLAB_REAL(__vfprintf_chk);
    return timed<int>(trace::Call::FPrintf, reinterpret_cast<std::uintptr_t>(stdout), printed(), real, stdout,
                      flag, format, list);
}

int fprintf(FILE* stream, const char* format, ...)
{
    va_list list;
    va_start(list, format);
    const int result = vfprintf(stream, format, list);
    va_end(list);
    return result;
}

int __fprintf_chk(FILE* stream, int flag, const char* format, ...)
{
    va_list list;
    va_start(list, format);
    const int result = __vfprintf_chk(stream, flag, format, list);
    va_end(list);
    return result;
}

int printf(const char* format, ...)
{
    va_list list;
    va_start(list, format);
    const int result = vfprintf(stdout, format, list);
    va_end(list);
    return result;
}

int __printf_chk(int flag, const char* format, ...)
{
    va_list list;
    va_start(list, format);
    const int result = __vfprintf_chk(stdout, flag, format, list);
    va_end(list);
    return result;
}

int fflush(FILE* stream)
{
    IOLAB_REAL(fflush);
    return timed<int>(trace::Call::FFlush, reinterpret_cast<std::uintptr_t>(stream), status(), real, stream);
}

int fflush_unlocked(FILE* stream)
{
    IOLAB_REAL(fflush_unlocked);
    return timed<int>(trace::Call::FFlush, reinterpret_cast<std::uintptr_t>(stream), status(), real, stream);
}

size_t fread(void* data, size_t size, size_t count, FILE* stream)
{
    IOLAB_REAL(fread);
    return stdioCall<size_t>(getFits(stream, size * count), trace::Call::FRead, stream,
                             itemsTransfer(size, count), real, data, size, count, stream);
}

size_t fread_unlocked(void* data, size_t size, size_t count, FILE* stream)
{
    IOLAB_REAL(fread_unlocked);
    return stdioCall<size_t>(getFits(stream, size * count), trace::Call::FRead, stream,
                             itemsTransfer(size, count), real, data, size, count, stream);
}

size_t __fread_chk(void* data, size_t dataBytes, size_t size, size_t count, FILE* stream)
{
    IOLAB_REAL(__fread_chk);
    return stdioCall<size_t>(getFits(stream, size * count), trace::Call::FRead, stream,
                             itemsTransfer(size, count), real, data, dataBytes, size, count, stream);
}

size_t __fread_unlocked_chk(void* data, size_t dataBytes, size_t size, size_t count, FILE* stream)
{
    IOLAB_REAL(__fread_unlocked_chk);
    return stdioCall<size_t>(getFits(stream, size * count), trace::Call::FRead, stream,
                             itemsTransfer(size, count), real, data, dataBytes, size, count, stream);
}

int fgetc(FILE* stream)
{
    IOLAB_REAL(fgetc);
    return stdioCall<int>(getFits(stream, 1), trace::Call::FGetc, stream, onePut(), real, stream);
}

int getc(FILE* stream)
{
    IOLAB_REAL(getc);
    return stdioCall<int>(getFits(stream, 1), trace::Call::FGetc, stream, onePut(), real, stream);
}

int _IO_getc(FILE* stream)
{
    IOLAB_REAL(_IO_getc);
    return stdioCall<int>(getFits(stream, 1), trace::Call::FGetc, stream, onePut(), real, stream);
}

int getc_unlocked(FILE* stream)
{
    IOLAB_REAL(getc_unlocked);
    return stdioCall<int>(getFits(stream, 1), trace::Call::FGetc, stream, onePut(), real, stream);
}

int fgetc_unlocked(FILE* stream)
{
    IOLAB_REAL(fgetc_unlocked);
    return stdioCall<int>(getFits(stream, 1), trace::Call::FGetc, stream, onePut(), real, stream);
}

int __uflow(FILE* stream)
{
    IOLAB_REAL(__uflow);
    return timed<int>(trace::Call::StreamSpill, reinterpret_cast<std::uintptr_t>(stream), onePut(), real,
                      stream);
}

namespace {

auto line(std::size_t bytes)
{
    return [=](iolab::recorder::Call& call, char* result, int error) {
        call.bytes = bytes;
        call.result = result ? static_cast<std::int64_t>(strlen(result)) : -1;
        call.error = result ? 0 : error;
    };
}

} // namespace

char* fgets(char* text, int bytes, FILE* stream)
{
    IOLAB_REAL(fgets);
    return timed<char*>(trace::Call::FGets, reinterpret_cast<std::uintptr_t>(stream),
                        line(static_cast<std::size_t>(bytes)), real, text, bytes, stream);
}

char* fgets_unlocked(char* text, int bytes, FILE* stream)
{
    IOLAB_REAL(fgets_unlocked);
    return timed<char*>(trace::Call::FGets, reinterpret_cast<std::uintptr_t>(stream),
                        line(static_cast<std::size_t>(bytes)), real, text, bytes, stream);
}

char* __fgets_chk(char* text, size_t textBytes, int bytes, FILE* stream)
{
    IOLAB_REAL(__fgets_chk);
    return timed<char*>(trace::Call::FGets, reinterpret_cast<std::uintptr_t>(stream),
                        line(static_cast<std::size_t>(bytes)), real, text, textBytes, bytes, stream);
}

int fseek(FILE* stream, long offset, int whence)
{
    IOLAB_REAL(fseek);
    return timed<int>(trace::Call::FSeek, reinterpret_cast<std::uintptr_t>(stream),
                      transfer(0, offset, static_cast<std::uint32_t>(whence)), real, stream, offset, whence);
}

int fseeko(FILE* stream, off_t offset, int whence)
{
    IOLAB_REAL(fseeko);
    return timed<int>(trace::Call::FSeek, reinterpret_cast<std::uintptr_t>(stream),
                      transfer(0, offset, static_cast<std::uint32_t>(whence)), real, stream, offset, whence);
}

void rewind(FILE* stream)
{
    IOLAB_REAL(rewind);
    timed<int>(trace::Call::FSeek, reinterpret_cast<std::uintptr_t>(stream),
               transfer(0, 0, static_cast<std::uint32_t>(SEEK_SET)), [stream] {
                   real(stream);
                   return 0;
               });
}

} // extern "C"

// ---- the process
// ----------------------------------------------------------------------------------------------

namespace {

// An exec the recorder will not be in: a statically linked program (no interpreter to preload into), or an
// environment without this library in LD_PRELOAD. Said in a note; the exec itself goes ahead unchanged.
bool isStaticExecutable(const char* path)
{
    const int fd = static_cast<int>(sys(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC));
    if (fd < 0)
        return false;
    Elf64_Ehdr header{};
    bool isStatic = false;
    if (sys(SYS_pread64, fd, &header, sizeof header, 0) == static_cast<long>(sizeof header) &&
        memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 && header.e_ident[EI_CLASS] == ELFCLASS64 &&
        header.e_phentsize == sizeof(Elf64_Phdr) && header.e_phnum > 0 && header.e_phnum < 256) {
        isStatic = true;
        for (int i = 0; i < header.e_phnum; ++i) {
            Elf64_Phdr program{};
            if (sys(SYS_pread64, fd, &program, sizeof program,
                    static_cast<off_t>(header.e_phoff + static_cast<std::uint64_t>(i) * sizeof program)) !=
                static_cast<long>(sizeof program))
                break;
            if (program.p_type == PT_INTERP) {
                isStatic = false;
                break;
            }
        }
    }
    sys(SYS_close, fd);
    return isStatic;
}

bool keepsRecorder(char* const environment[])
{
    for (int i = 0; environment && environment[i]; ++i) {
        if (strncmp(environment[i], "LD_PRELOAD=", 11) == 0 && strstr(environment[i], "libiolab-record.so"))
            return true;
    }
    return false;
}

// The program an execvp or posix_spawnp would run: `name` as is when it has a '/', else the first match on
// PATH.
void resolveOnPath(const char* name, char* out, std::size_t outBytes)
{
    out[0] = '\0';
    if (!name)
        return;
    if (strchr(name, '/')) {
        strncpy(out, name, outBytes - 1);
        out[outBytes - 1] = '\0';
        return;
    }
    const char* path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char* end = strchr(path, ':');
        const std::size_t length = end ? static_cast<std::size_t>(end - path) : strlen(path);
        if (length + strlen(name) + 2 < outBytes) {
            memcpy(out, path, length);
            out[length] = '/';
            strcpy(out + length + 1, name);
            if (sys(SYS_faccessat, AT_FDCWD, out, X_OK) == 0)
                return;
        }
        if (!end)
            break;
        path = end + 1;
    }
    out[0] = '\0';
}

void beforeExec(const char* program, char* const environment[])
{
    PartWriter* part = writer();
    if (!part || !program)
        return;
    t_busy = true;
    const std::uint64_t at = sinceStart(monotonicNs());
    const AbsolutePath absolute(AT_FDCWD, program);
    iolab::recorder::Call call{trace::Call::Exec};
    call.startNs = at;
    call.endNs = at;
    call.path = absolute.view();
    part->record(tid(), call);
    if (isStaticExecutable(program))
        part->note(tid(), trace::NoteKind::StaticExec, 1, at, absolute.view());
    else if (!keepsRecorder(environment))
        part->note(tid(), trace::NoteKind::ChildNotRecorded, 1, at, absolute.view());
    t_busy = false;
}

// An exec that failed returns: its record says so.
void afterFailedExec(int error)
{
    PartWriter* part = writer();
    if (!part)
        return;
    const std::uint64_t at = sinceStart(monotonicNs());
    iolab::recorder::Call call{trace::Call::Exec};
    call.startNs = at;
    call.endNs = at;
    call.result = -1;
    call.error = error;
    put(call);
}

constinit std::atomic<bool> g_exitRecorded{false};

void recordExit(std::int32_t status)
{
    PartWriter* part = writer();
    if (!part || g_exitRecorded.exchange(true))
        return;
    t_busy = true;
    const std::uint64_t at = sinceStart(monotonicNs());
    // A ring of io_uring still open: its submissions were never seen.
    if (DIR* folder = opendir("/proc/self/fd")) {
        while (const dirent* entry = readdir(folder)) {
            char link[64];
            AbsolutePath::snprintfFd(link, atoi(entry->d_name));
            char target[256];
            const ssize_t n = sys(SYS_readlinkat, AT_FDCWD, link, target, sizeof target - 1);
            if (n > 0 && std::string_view(target, static_cast<std::size_t>(n)) == "anon_inode:[io_uring]") {
                part->note(tid(), trace::NoteKind::IoUring, 1, at,
                           "an io_uring ring was open when the process ended");
                break;
            }
        }
        closedir(folder);
    }
    if (const std::uint64_t lost = part->dropped())
        part->note(tid(), trace::NoteKind::BufferLost, static_cast<std::uint32_t>(lost), at,
                   "calls not recorded: the trace could not grow (is the disk full?)");
    part->exit(tid(), status, at);
    t_busy = false;
}

[[gnu::destructor]] void recorderEnd()
{
    recordExit(trace::kExitStatusUnknown);
}

const char* syscallName(long number)
{
    switch (number) {
    case SYS_write:
        return "write";
    case SYS_pwrite64:
        return "pwrite64";
    case SYS_writev:
        return "writev";
    case SYS_pwritev:
        return "pwritev";
    case SYS_pwritev2:
        return "pwritev2";
    case SYS_read:
        return "read";
    case SYS_pread64:
        return "pread64";
    case SYS_open:
        return "open";
    case SYS_openat:
        return "openat";
    case SYS_openat2:
        return "openat2";
    case SYS_close:
        return "close";
    case SYS_fsync:
        return "fsync";
    case SYS_fdatasync:
        return "fdatasync";
    case SYS_sync_file_range:
        return "sync_file_range";
    case SYS_fallocate:
        return "fallocate";
    case SYS_ftruncate:
        return "ftruncate";
    case SYS_rename:
        return "rename";
    case SYS_renameat:
        return "renameat";
    case SYS_renameat2:
        return "renameat2";
    case SYS_unlink:
        return "unlink";
    case SYS_unlinkat:
        return "unlinkat";
    case SYS_copy_file_range:
        return "copy_file_range";
    case SYS_sendfile:
        return "sendfile";
    case SYS_io_uring_setup:
        return "io_uring_setup";
    case SYS_io_uring_enter:
        return "io_uring_enter";
    case SYS_io_submit:
        return "io_submit";
    default:
        return nullptr;
    }
}

} // namespace

extern "C" {

pid_t fork(void)
{
    IOLAB_REAL(fork);
    // The child starts its own part in the atfork handler and records nothing of the fork; the parent records
    // it.
    if (!writer())
        return real();
    const std::uint64_t start = monotonicNs();
    const pid_t child = real();
    const int error = errno;
    if (child != 0) {
        iolab::recorder::Call call{trace::Call::Fork};
        call.result = child;
        call.error = child < 0 ? error : 0;
        call.startNs = sinceStart(start);
        call.endNs = sinceStart(monotonicNs());
        put(call);
    }
    errno = error;
    return child;
}

int execve(const char* path, char* const arguments[], char* const environment[])
{
    IOLAB_REAL(execve);
    beforeExec(path, environment);
    const int result = real(path, arguments, environment);
    const int error = errno;
    afterFailedExec(error);
    errno = error;
    return result;
}

int execv(const char* path, char* const arguments[])
{
    IOLAB_REAL(execv);
    beforeExec(path, environ);
    const int result = real(path, arguments);
    const int error = errno;
    afterFailedExec(error);
    errno = error;
    return result;
}

int execvp(const char* name, char* const arguments[])
{
    IOLAB_REAL(execvp);
    char program[4096];
    resolveOnPath(name, program, sizeof program);
    beforeExec(program[0] ? program : name, environ);
    const int result = real(name, arguments);
    const int error = errno;
    afterFailedExec(error);
    errno = error;
    return result;
}

int execvpe(const char* name, char* const arguments[], char* const environment[])
{
    IOLAB_REAL(execvpe);
    char program[4096];
    resolveOnPath(name, program, sizeof program);
    beforeExec(program[0] ? program : name, environment);
    const int result = real(name, arguments, environment);
    const int error = errno;
    afterFailedExec(error);
    errno = error;
    return result;
}

int posix_spawn(pid_t* pid, const char* path, const posix_spawn_file_actions_t* actions,
                const posix_spawnattr_t* attributes, char* const arguments[], char* const environment[])
{
    IOLAB_REAL(posix_spawn);
    beforeExec(path, environment);
    return real(pid, path, actions, attributes, arguments, environment);
}

int posix_spawnp(pid_t* pid, const char* name, const posix_spawn_file_actions_t* actions,
                 const posix_spawnattr_t* attributes, char* const arguments[], char* const environment[])
{
    IOLAB_REAL(posix_spawnp);
    char program[4096];
    resolveOnPath(name, program, sizeof program);
    beforeExec(program[0] ? program : name, environment);
    return real(pid, name, actions, attributes, arguments, environment);
}

void exit(int status)
{
    IOLAB_REAL(exit);
    recordExit(status);
    real(status);
    __builtin_unreachable();
}

void _exit(int status)
{
    IOLAB_REAL(_exit);
    recordExit(status);
    real(status);
    __builtin_unreachable();
}

void _Exit(int status)
{
    IOLAB_REAL(_Exit);
    recordExit(status);
    real(status);
    __builtin_unreachable();
}

// syscall(): passed on as it is; a file-related number is noted once a process (the recorder cannot follow
// it).
long syscall(long number, ...)
{
    va_list list;
    va_start(list, number);
    long arguments[6];
    for (long& argument : arguments)
        argument = va_arg(list, long);
    va_end(list);
    static const auto real = next<long (*)(long, ...)>("syscall");
    static std::atomic<std::uint64_t> noted[8]{};
    if (const char* name = syscallName(number); name && number >= 0 && number < 512) {
        const std::uint64_t bit = 1ull << (number % 64);
        PartWriter* part = writer();
        if (part && !(noted[number / 64].fetch_or(bit) & bit)) {
            t_busy = true;
            const trace::NoteKind kind =
                number == SYS_io_uring_setup ? trace::NoteKind::IoUring : trace::NoteKind::RawSyscall;
            part->note(tid(), kind, 1, sinceStart(monotonicNs()), name);
            t_busy = false;
        }
    }
    return real(number, arguments[0], arguments[1], arguments[2], arguments[3], arguments[4], arguments[5]);
}

} // extern "C"

// x86-64's 64-bit-offset names are the same C library functions as the plain ones (off_t is 64 bits there):
// each is defined once above and its other name is an alias of it, so a program calling either reaches it.
static_assert(sizeof(off_t) == sizeof(off64_t), "the 64 names are aliases only where off_t is 64 bits");

extern "C" {

int open64(const char* path, int flags, ...) __attribute__((alias("open")));
int openat64(int dirFd, const char* path, int flags, ...) __attribute__((alias("openat")));
int __open64_2(const char* path, int flags) __attribute__((alias("__open_2")));
int __openat64_2(int dirFd, const char* path, int flags) __attribute__((alias("__openat_2")));
int creat64(const char* path, mode_t mode) __attribute__((alias("creat")));
ssize_t pwrite64(int fd, const void* buffer, size_t bytes, off64_t offset) __attribute__((alias("pwrite")));
ssize_t pwritev64(int fd, const iovec* vector, int count, off64_t offset) __attribute__((alias("pwritev")));
ssize_t pwritev64v2(int fd, const iovec* vector, int count, off64_t offset, int flags)
    __attribute__((alias("pwritev2")));
ssize_t pread64(int fd, void* buffer, size_t bytes, off64_t offset) __attribute__((alias("pread")));
ssize_t __pread64_chk(int fd, void* buffer, size_t bytes, off64_t offset, size_t bufferBytes)
    __attribute__((alias("__pread_chk")));
ssize_t preadv64(int fd, const iovec* vector, int count, off64_t offset) __attribute__((alias("preadv")));
ssize_t preadv64v2(int fd, const iovec* vector, int count, off64_t offset, int flags)
    __attribute__((alias("preadv2")));
off64_t lseek64(int fd, off64_t offset, int whence) __attribute__((alias("lseek")));
int fallocate64(int fd, int mode, off64_t offset, off64_t bytes) __attribute__((alias("fallocate")));
int posix_fallocate64(int fd, off64_t offset, off64_t bytes) __attribute__((alias("posix_fallocate")));
int ftruncate64(int fd, off64_t length) __attribute__((alias("ftruncate")));
void* mmap64(void* address, size_t bytes, int protection, int flags, int fd, off64_t offset)
    __attribute__((alias("mmap")));
ssize_t sendfile64(int outFd, int inFd, off64_t* inOffset, size_t bytes) __attribute__((alias("sendfile")));
FILE* fopen64(const char* path, const char* mode) __attribute__((alias("fopen")));
FILE* freopen64(const char* path, const char* mode, FILE* stream) __attribute__((alias("freopen")));
int fseeko64(FILE* stream, off64_t offset, int whence) __attribute__((alias("fseeko")));

} // extern "C"
