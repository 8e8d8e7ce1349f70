// SPDX-License-Identifier: MIT
#include "platform/windows/win_io.h"
#include "platform/stdio_buffer.h"

#include "core/base/units.h"
#include "core/engine/pattern.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace iolab::win {

std::wstring widen(std::string_view utf8)
{
    if (utf8.empty())
        return {};
    const int size =
        ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), nullptr, 0);
    std::wstring wide(static_cast<std::size_t>(size), L'\0');
    ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), wide.data(), size);
    return wide;
}

std::string narrow(std::wstring_view wide)
{
    if (wide.empty())
        return {};
    const int size = ::WideCharToMultiByte(CP_UTF8, 0, wide.data(), static_cast<int>(wide.size()), nullptr, 0,
                                           nullptr, nullptr);
    std::string utf8(static_cast<std::size_t>(size), '\0');
    ::WideCharToMultiByte(CP_UTF8, 0, wide.data(), static_cast<int>(wide.size()), utf8.data(), size, nullptr,
                          nullptr);
    return utf8;
}

void UniqueHandle::reset(HANDLE handle) noexcept
{
    if (m_handle != INVALID_HANDLE_VALUE)
        ::CloseHandle(m_handle);
    m_handle = handle == nullptr ? INVALID_HANDLE_VALUE : handle;
}

DWORD UniqueHandle::close() noexcept
{
    if (m_handle == INVALID_HANDLE_VALUE)
        return 0;
    return ::CloseHandle(std::exchange(m_handle, INVALID_HANDLE_VALUE)) != 0 ? 0 : ::GetLastError();
}

std::string errorName(DWORD error)
{
    struct Name
    {
        DWORD code;
        const char* name;
    };
    static constexpr std::array kNames{
        Name{ERROR_INVALID_FUNCTION, "ERROR_INVALID_FUNCTION"},
        Name{ERROR_FILE_NOT_FOUND, "ERROR_FILE_NOT_FOUND"},
        Name{ERROR_PATH_NOT_FOUND, "ERROR_PATH_NOT_FOUND"},
        Name{ERROR_ACCESS_DENIED, "ERROR_ACCESS_DENIED"},
        Name{ERROR_INVALID_HANDLE, "ERROR_INVALID_HANDLE"},
        Name{ERROR_NOT_ENOUGH_MEMORY, "ERROR_NOT_ENOUGH_MEMORY"},
        Name{ERROR_OUTOFMEMORY, "ERROR_OUTOFMEMORY"},
        Name{ERROR_WRITE_PROTECT, "ERROR_WRITE_PROTECT"},
        Name{ERROR_NOT_READY, "ERROR_NOT_READY"},
        Name{ERROR_WRITE_FAULT, "ERROR_WRITE_FAULT"},
        Name{ERROR_SHARING_VIOLATION, "ERROR_SHARING_VIOLATION"},
        Name{ERROR_HANDLE_DISK_FULL, "ERROR_HANDLE_DISK_FULL"},
        Name{ERROR_NOT_SUPPORTED, "ERROR_NOT_SUPPORTED"},
        Name{ERROR_FILE_EXISTS, "ERROR_FILE_EXISTS"},
        Name{ERROR_INVALID_PARAMETER, "ERROR_INVALID_PARAMETER"},
        Name{ERROR_BROKEN_PIPE, "ERROR_BROKEN_PIPE"},
        Name{ERROR_DISK_FULL, "ERROR_DISK_FULL"},
        Name{ERROR_INVALID_NAME, "ERROR_INVALID_NAME"},
        Name{ERROR_DIR_NOT_EMPTY, "ERROR_DIR_NOT_EMPTY"},
        Name{ERROR_ALREADY_EXISTS, "ERROR_ALREADY_EXISTS"},
        Name{ERROR_DIRECTORY, "ERROR_DIRECTORY"},
        Name{ERROR_NO_DATA, "ERROR_NO_DATA"},
        Name{ERROR_OPERATION_ABORTED, "ERROR_OPERATION_ABORTED"},
        Name{ERROR_MAPPED_ALIGNMENT, "ERROR_MAPPED_ALIGNMENT"},
    };
    for (const auto& n : kNames) {
        if (n.code == error)
            return n.name;
    }
    return fmt::format("error {}", error);
}

std::string registryText(HKEY root, const wchar_t* key, const wchar_t* value)
{
    wchar_t buffer[512] = {};
    DWORD size = sizeof buffer;
    if (::RegGetValueW(root, key, value, RRF_RT_REG_SZ, nullptr, buffer, &size) != ERROR_SUCCESS)
        return {};
    std::string text = narrow(buffer);
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    return text;
}

std::string errorText(DWORD error)
{
    wchar_t* buffer = nullptr;
    const DWORD length = ::FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                              FORMAT_MESSAGE_IGNORE_INSERTS,
                                          nullptr, error, 0, reinterpret_cast<wchar_t*>(&buffer), 0, nullptr);
    std::string text;
    if (length > 0 && buffer != nullptr)
        text = narrow(std::wstring_view(buffer, length));
    if (buffer != nullptr)
        ::LocalFree(buffer);
    while (!text.empty() &&
           (text.back() == '\n' || text.back() == '\r' || text.back() == ' ' || text.back() == '.'))
        text.pop_back();
    if (text.empty())
        text = fmt::format("Windows error {}", error);
    return text;
}

Outcome errorOutcome(DWORD error, std::string_view call, const std::string& path)
{
    Outcome o;
    o.status = Status::Failed;
    o.errorCode = static_cast<int>(error);
    o.operation = std::string(call);
    const std::string where = path.empty() ? std::string() : " " + path;
    o.message = fmt::format("{}{} failed: {} ({})", call, where, errorText(error), errorName(error));
    if (error == ERROR_DISK_FULL || error == ERROR_HANDLE_DISK_FULL)
        o.message += "; the target is full";
    return o;
}

std::optional<std::string> syncUnavailable(SyncMode mode)
{
    switch (mode) {
    case SyncMode::None:
    case SyncMode::FsyncEnd:
    case SyncMode::FsyncEvery:
    case SyncMode::ODsync:
        return std::nullopt;
    case SyncMode::FdatasyncEnd:
        return std::string(
            "fdatasync-end has no Windows meaning: FlushFileBuffers always writes the metadata "
            "too (use fsync-end)");
    case SyncMode::FdatasyncEvery:
        return std::string("fdatasync-every:N has no Windows meaning: FlushFileBuffers always writes the "
                           "metadata too (use fsync-every:N)");
    case SyncMode::OSync:
        return std::string(
            "o_sync has no Windows meaning apart from FILE_FLAG_WRITE_THROUGH, which is o_dsync "
            "here (use o_dsync)");
    }
    return std::string("unknown sync policy");
}

namespace {

constexpr SyncMode kEverySyncMode[] = {SyncMode::None,       SyncMode::FsyncEnd,       SyncMode::FdatasyncEnd,
                                       SyncMode::FsyncEvery, SyncMode::FdatasyncEvery, SyncMode::OSync,
                                       SyncMode::ODsync};

} // namespace

std::vector<SyncMode> windowsSyncModes()
{
    std::vector<SyncMode> modes;
    for (const SyncMode mode : kEverySyncMode) {
        if (!syncUnavailable(mode))
            modes.push_back(mode);
    }
    return modes;
}

std::string windowsSyncRefusal()
{
    std::string reasons;
    for (const SyncMode mode : kEverySyncMode) {
        if (auto reason = syncUnavailable(mode))
            reasons += (reasons.empty() ? "" : "; ") + *reason;
    }
    return reasons;
}

std::optional<DWORD> createFileFlags(const Case& c, bool direct)
{
    if (syncUnavailable(c.sync.mode))
        return std::nullopt;
    DWORD flags = FILE_ATTRIBUTE_NORMAL;
    if (c.sync.mode == SyncMode::ODsync)
        flags |= FILE_FLAG_WRITE_THROUGH;
    if (direct)
        flags |= FILE_FLAG_NO_BUFFERING;
    return flags;
}

std::optional<std::string> noBufferingProblem(std::uint64_t offset, std::uint64_t length,
                                              std::uintptr_t address, std::uint32_t sectorBytes)
{
    if (sectorBytes == 0 || (sectorBytes & (sectorBytes - 1)) != 0)
        return fmt::format("the volume reports a sector size of {} bytes, which is not a power of two",
                           sectorBytes);
    if (length % sectorBytes != 0)
        return fmt::format("a {} transfer is not a multiple of the volume's {} sectors", formatBytes(length),
                           formatBytes(sectorBytes));
    if (offset % sectorBytes != 0)
        return fmt::format("offset {} is not a multiple of the volume's {} sectors", offset,
                           formatBytes(sectorBytes));
    if (address % sectorBytes != 0)
        return fmt::format("the buffer at 0x{:x} is not aligned to the volume's {} sectors", address,
                           formatBytes(sectorBytes));
    return std::nullopt;
}

namespace {

// Preallocate overwrite and rewrite: the file created and written (the whole of it, or the one chunk that
// rewrite writes again and again; bytes unlike the pattern) through a plain handle and flushed, untimed; the
// timed handle then opens it as it is. SetFileValidData, which would allocate without writing, needs a
// privilege users do not hold.
bool writeBeforehand(const JobSpec& spec, Outcome& outcome)
{
    const std::string mode = toString(spec.testCase.preallocate);
    const auto failed = [&](DWORD error, const char* call) {
        outcome = errorOutcome(error, fmt::format("{} (preallocate {})", call, mode), spec.path);
        return false;
    };
    UniqueHandle file(::CreateFileW(widen(spec.path).c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                                    FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!file)
        return failed(::GetLastError(), "CreateFile");
    const std::uint64_t bytes = bytesInFile(spec.testCase.preallocate, spec.testCase.chunkBytes, spec.bytes);
    constexpr std::uint64_t kPieceBytes = std::uint64_t{1} << 20;
    std::vector<std::byte> piece(static_cast<std::size_t>(std::min(kPieceBytes, bytes)));
    for (std::uint64_t offset = 0; offset < bytes; offset += piece.size()) {
        const auto size = static_cast<std::size_t>(std::min<std::uint64_t>(piece.size(), bytes - offset));
        for (std::size_t i = 0; i < size; ++i)
            piece[i] = ~Pattern::expected(offset + i);
        if (!writeFully(file.get(), piece.data(), size))
            return failed(::GetLastError(), "WriteFile");
    }
    if (::FlushFileBuffers(file.get()) == 0)
        return failed(::GetLastError(), "FlushFileBuffers");
    if (const DWORD error = file.close(); error != 0)
        return failed(error, "CloseHandle");
    return true;
}

} // namespace

UniqueHandle openOutput(const JobSpec& spec, DWORD access, bool direct, Outcome& outcome, DWORD extraFlags)
{
    if (spec.testCase.target == TargetKind::Null) {
        UniqueHandle handle(::CreateFileW(L"NUL", access, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                                          OPEN_EXISTING, 0, nullptr));
        if (!handle)
            outcome = errorOutcome(::GetLastError(), "CreateFile", "NUL");
        return handle;
    }
    const auto flags = createFileFlags(spec.testCase, direct);
    if (!flags) {
        outcome = {Status::Unsupported, 0, "CreateFile", *syncUnavailable(spec.testCase.sync.mode)};
        return {};
    }
    const Preallocate preallocate = spec.testCase.preallocate;
    const bool writtenBefore = preallocate == Preallocate::Overwrite || preallocate == Preallocate::Rewrite;
    if (writtenBefore && !writeBeforehand(spec, outcome))
        return {};
    UniqueHandle handle(::CreateFileW(widen(spec.path).c_str(), access, FILE_SHARE_READ | FILE_SHARE_DELETE,
                                      nullptr, writtenBefore ? OPEN_EXISTING : CREATE_NEW,
                                      *flags | extraFlags, nullptr));
    if (!handle) {
        outcome =
            errorOutcome(::GetLastError(), direct ? "CreateFile(NO_BUFFERING)" : "CreateFile", spec.path);
        if (direct && outcome.errorCode == ERROR_INVALID_PARAMETER) {
            outcome.status = Status::Unsupported;
            outcome.message = fmt::format("this volume does not take FILE_FLAG_NO_BUFFERING (CreateFile of "
                                          "{} gave ERROR_INVALID_PARAMETER)",
                                          spec.path);
        }
        return handle;
    }
    // Preallocate fallocate: the allocation set up front, as reserveSpace does for the mapped strategies.
    if (preallocate == Preallocate::Fallocate && !reserveSpace(handle.get(), spec.bytes, spec.path, outcome))
        return {};
    return handle;
}

UniqueHandle createScratch(const std::string& path, Outcome& outcome)
{
    UniqueHandle handle(::CreateFileW(widen(path).c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ,
                                      nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!handle)
        outcome = errorOutcome(::GetLastError(), "CreateFile", path);
    return handle;
}

bool reserveSpace(HANDLE file, std::uint64_t bytes, const std::string& path, Outcome& outcome)
{
    // The fallocate counterpart: setting the end of file allocates the clusters (a full disk fails here, not
    // in the timed loop) and, like fallocate without KEEP_SIZE, gives the file its final size.
    LARGE_INTEGER size{};
    size.QuadPart = static_cast<LONGLONG>(bytes);
    LARGE_INTEGER start{};
    if (::SetFilePointerEx(file, size, nullptr, FILE_BEGIN) != 0 && ::SetEndOfFile(file) != 0 &&
        ::SetFilePointerEx(file, start, nullptr, FILE_BEGIN) != 0)
        return true;
    const DWORD error = ::GetLastError();
    outcome = errorOutcome(error, "SetEndOfFile", path);
    if (error == ERROR_NOT_SUPPORTED || error == ERROR_INVALID_FUNCTION)
        outcome.status = Status::Unsupported;
    return false;
}

bool syncForPolicy(HANDLE file, SyncMode mode) noexcept
{
    if (mode == SyncMode::FsyncEnd || mode == SyncMode::FsyncEvery)
        return ::FlushFileBuffers(file) != 0;
    return true;
}

bool writeAt(HANDLE file, const std::byte* data, std::uint64_t size, std::uint64_t offset) noexcept
{
    while (size > 0) {
        OVERLAPPED at{};
        at.Offset = static_cast<DWORD>(offset);
        at.OffsetHigh = static_cast<DWORD>(offset >> 32);
        const DWORD piece = static_cast<DWORD>(std::min<std::uint64_t>(size, 1U << 30));
        DWORD written = 0;
        if (::WriteFile(file, data, piece, &written, &at) == 0)
            return false;
        if (written == 0) {
            ::SetLastError(ERROR_WRITE_FAULT);
            return false;
        }
        data += written;
        size -= written;
        offset += written;
    }
    return true;
}

bool readAt(HANDLE file, std::byte* data, std::uint64_t size, std::uint64_t offset,
            std::uint64_t& got) noexcept
{
    got = 0;
    while (got < size) {
        OVERLAPPED at{};
        at.Offset = static_cast<DWORD>(offset + got);
        at.OffsetHigh = static_cast<DWORD>((offset + got) >> 32);
        const DWORD piece = static_cast<DWORD>(std::min<std::uint64_t>(size - got, 1U << 30));
        DWORD n = 0;
        if (::ReadFile(file, data + got, piece, &n, &at) == 0) {
            if (::GetLastError() == ERROR_HANDLE_EOF)
                break;
            return false;
        }
        if (n == 0)
            break;
        got += n;
    }
    return true;
}

const std::vector<ReadHint>& windowsReadHints()
{
    static const std::vector<ReadHint> hints{ReadHint::Normal, ReadHint::Sequential, ReadHint::Random};
    return hints;
}

std::string windowsHintRefusal()
{
    return "Windows has FILE_FLAG_SEQUENTIAL_SCAN and FILE_FLAG_RANDOM_ACCESS, but nothing like noreuse";
}

UniqueHandle openInput(const std::string& path, ReadHint hint, bool direct, Outcome& outcome,
                       DWORD extraFlags, bool writeToo)
{
    DWORD flags = FILE_ATTRIBUTE_NORMAL | extraFlags;
    if (hint == ReadHint::Sequential)
        flags |= FILE_FLAG_SEQUENTIAL_SCAN;
    else if (hint == ReadHint::Random)
        flags |= FILE_FLAG_RANDOM_ACCESS;
    if (direct)
        flags |= FILE_FLAG_NO_BUFFERING;
    // A read/write mix's threads each write the shared file as well: every handle lets the others write.
    const DWORD access = writeToo ? GENERIC_READ | GENERIC_WRITE : GENERIC_READ;
    const DWORD share = writeToo ? FILE_SHARE_READ | FILE_SHARE_WRITE : FILE_SHARE_READ;
    UniqueHandle file(::CreateFileW(widen(path).c_str(), access, share, nullptr, OPEN_EXISTING,
                                    flags | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    if (!file)
        outcome = errorOutcome(::GetLastError(), direct ? "CreateFile(NO_BUFFERING)" : "CreateFile", path);
    return file;
}

void VirtualRelease::operator()(std::byte* p) const noexcept
{
    ::VirtualFree(p, 0, MEM_RELEASE);
}

VirtualBuffer virtualAlloc(std::size_t bytes)
{
    return VirtualBuffer(
        static_cast<std::byte*>(::VirtualAlloc(nullptr, bytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE)));
}

} // namespace iolab::win

namespace iolab {

Outcome crtErrorOutcome(int error, std::string_view call, const std::string& path)
{
    return {Status::Failed, error, std::string(call),
            fmt::format("{} {} failed: {} (C runtime errno {})", call, path, std::strerror(error), error)};
}

} // namespace iolab
