// SPDX-License-Identifier: MIT
// The Windows counterpart of posix_io.h: owned handles, UTF-8 <-> UTF-16 at the API boundary, Win32 errors as
// Outcomes, and the one mapping of a case's options to CreateFile flags.
#pragma once

#include "core/engine/strategy.h"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace iolab::win {

// Paths and messages are UTF-8 everywhere above this layer and UTF-16 in every W call.
std::wstring widen(std::string_view utf8);
std::string narrow(std::wstring_view wide);

// An owned kernel handle (file, pipe, mapping, process).
class UniqueHandle
{
public:
    UniqueHandle() = default;
    explicit UniqueHandle(HANDLE handle) : m_handle(handle == nullptr ? INVALID_HANDLE_VALUE : handle) {}
    ~UniqueHandle() { reset(); }
    UniqueHandle(UniqueHandle&& other) noexcept : m_handle(other.release()) {}
    UniqueHandle& operator=(UniqueHandle&& other) noexcept
    {
        if (this != &other)
            reset(other.release());
        return *this;
    }
    UniqueHandle(const UniqueHandle&) = delete;
    UniqueHandle& operator=(const UniqueHandle&) = delete;

    HANDLE get() const noexcept { return m_handle; }
    explicit operator bool() const noexcept { return m_handle != INVALID_HANDLE_VALUE; }
    HANDLE release() noexcept { return std::exchange(m_handle, INVALID_HANDLE_VALUE); }
    void reset(HANDLE handle = INVALID_HANDLE_VALUE) noexcept;
    // Closes and returns the error CloseHandle gave (0 when it worked).
    DWORD close() noexcept;

private:
    HANDLE m_handle = INVALID_HANDLE_VALUE;
};

// "ERROR_DISK_FULL" for 112; "error 1234" for codes without a name here.
std::string errorName(DWORD error);
// The system's text for the error, without the trailing period and line break.
std::string errorText(DWORD error);
// A REG_SZ value as UTF-8 without trailing blanks, or "" when the key or the value is absent or unreadable.
std::string registryText(HKEY root, const wchar_t* key, const wchar_t* value);
// "WriteFile C:\x\y failed: There is not enough space on the disk (ERROR_DISK_FULL); the target is full",
// with the Win32 code in errorCode.
Outcome errorOutcome(DWORD error, std::string_view call, const std::string& path);

// Why a sync policy has no Windows meaning, or nullopt when it has one: none, fsync-end and fsync-every
// (FlushFileBuffers) and o_dsync (FILE_FLAG_WRITE_THROUGH).
std::optional<std::string> syncUnavailable(SyncMode mode);
// For a strategy's declaration: the policies above that have a Windows meaning, and why the others do not.
std::vector<SyncMode> windowsSyncModes();
std::string windowsSyncRefusal();

// The one mapping of a case's options to CreateFile's dwFlagsAndAttributes: FILE_FLAG_WRITE_THROUGH for
// o_dsync, FILE_FLAG_NO_BUFFERING for direct I/O. nullopt for a sync policy without a Windows meaning.
std::optional<DWORD> createFileFlags(const Case& c, bool direct);

// FILE_FLAG_NO_BUFFERING's rules (the file system, not wine, enforces them): every transfer's offset and
// length are multiples of the volume's sector size and the buffer address is aligned to it. Returns why the
// transfer breaks them, or nullopt.
std::optional<std::string> noBufferingProblem(std::uint64_t offset, std::uint64_t length,
                                              std::uintptr_t address, std::uint32_t sectorBytes);

// The rules for a job's transfers: a whole chunk and the tail, from `address` (every offset is a multiple
// of the chunk, so these two cover them all).
inline std::optional<std::string> noBufferingProblem(const JobSpec& spec, std::uintptr_t address)
{
    const std::uint32_t sector = spec.target.logicalBlockBytes;
    const std::uint64_t chunk = spec.testCase.chunkBytes;
    auto problem = noBufferingProblem(0, chunk, address, sector);
    if (const std::uint64_t tail = spec.bytes % chunk; !problem && tail != 0)
        problem = noBufferingProblem(spec.bytes - tail, tail, address, sector);
    return problem;
}

// Opens the job's output: a new file in the run folder (CREATE_NEW: never an existing file or link) or the
// NUL device. `access` is GENERIC_WRITE, or GENERIC_READ | GENERIC_WRITE for a mapping; `extraFlags` is
// FILE_FLAG_OVERLAPPED for the queued writers.
UniqueHandle openOutput(const JobSpec& spec, DWORD access, bool direct, Outcome& outcome,
                        DWORD extraFlags = 0);
// Creates a new scratch file in the run folder for reading and writing.
UniqueHandle createScratch(const std::string& path, Outcome& outcome);

// Reserves `bytes` of disk for the file by setting its end there (the fallocate counterpart: the file takes
// its final size), and leaves the file pointer at 0.
bool reserveSpace(HANDLE file, std::uint64_t bytes, const std::string& path, Outcome& outcome);

// FlushFileBuffers for fsync-end and fsync-every; nothing for the others. False with GetLastError set.
bool syncForPolicy(HANDLE file, SyncMode mode) noexcept;

// The last steps of a writer that does not write through `file` (a mapping's): its sync policy
// (FlushFileBuffers, timed into `latency`'s sync histogram when the case times calls), then CloseHandle.
inline Outcome syncAndClose(UniqueHandle& file, SyncMode mode, const std::string& path,
                            CallLatency* latency = nullptr)
{
    if (!timedFinalSync(latency, mode, [&] { return syncForPolicy(file.get(), mode); }))
        return errorOutcome(::GetLastError(), "FlushFileBuffers", path);
    if (const DWORD error = file.close(); error != 0)
        return errorOutcome(error, "CloseHandle", path);
    return Outcome::success();
}

// WriteFile until everything is written; false with GetLastError set on failure.
inline bool writeFully(HANDLE file, const std::byte* data, std::uint64_t size) noexcept
{
    while (size > 0) {
        const DWORD piece = static_cast<DWORD>(std::min<std::uint64_t>(size, 1U << 30));
        DWORD written = 0;
        if (::WriteFile(file, data, piece, &written, nullptr) == 0) [[unlikely]]
            return false;
        if (written == 0) [[unlikely]] {
            ::SetLastError(ERROR_WRITE_FAULT);
            return false;
        }
        data += written;
        size -= written;
    }
    return true;
}

// WriteFile at an offset, the pwrite counterpart (an OVERLAPPED offset on a synchronous handle).
bool writeAt(HANDLE file, const std::byte* data, std::uint64_t size, std::uint64_t offset) noexcept;

// Reads. The hints Windows has, as CreateFile flags: normal (none), sequential (FILE_FLAG_SEQUENTIAL_SCAN),
// random (FILE_FLAG_RANDOM_ACCESS); noreuse has no counterpart.
const std::vector<ReadHint>& windowsReadHints();
std::string windowsHintRefusal();
// Opens an existing data-set file for reading with the hint's flag (and FILE_FLAG_NO_BUFFERING when
// `direct`, and `extraFlags`: FILE_FLAG_OVERLAPPED for the queued readers); for writing too when `writeToo`
// (a read/write mix writes the same bytes back in place), shared for writing with the case's other threads.
UniqueHandle openInput(const std::string& path, ReadHint hint, bool direct, Outcome& outcome,
                       DWORD extraFlags = 0, bool writeToo = false);

// ReadFile until `size` bytes or the end of the file; false with GetLastError set on failure. `got` is what
// arrived.
inline bool readFully(HANDLE file, std::byte* data, std::uint64_t size, std::uint64_t& got) noexcept
{
    got = 0;
    while (got < size) {
        const DWORD piece = static_cast<DWORD>(std::min<std::uint64_t>(size - got, 1U << 30));
        DWORD n = 0;
        if (::ReadFile(file, data + got, piece, &n, nullptr) == 0) [[unlikely]]
            return false;
        if (n == 0)
            break;
        got += n;
    }
    return true;
}
// ReadFile at an offset (the pread counterpart); as readFully otherwise.
bool readAt(HANDLE file, std::byte* data, std::uint64_t size, std::uint64_t offset,
            std::uint64_t& got) noexcept;

// Pages of the given size from VirtualAlloc (aligned to the allocation granularity, so to any sector size).
struct VirtualRelease
{
    void operator()(std::byte* p) const noexcept;
};
using VirtualBuffer = std::unique_ptr<std::byte, VirtualRelease>;
VirtualBuffer virtualAlloc(std::size_t bytes);

} // namespace iolab::win
