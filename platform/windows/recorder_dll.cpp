// SPDX-License-Identifier: MIT
// iolab-record.dll: the Windows recorder. `iolab-cli record` starts the program suspended and loads this
// library into it (recorder_inject.h); its DllMain patches the import tables of the program and of every
// library that came with it (not Windows' own, not the C runtime's: their calls to each other are the
// program's calls seen from inside, as glibc's own write() is on Linux), so that the program's calls to
// kernel32's file functions and to the C runtime's stdio reach this library first. Each one calls the
// function the table held, leaves its result, GetLastError() and errno as they were, and records the call
// into this process's part of the trace (platform/common/trace_part_writer.h) in the folder IOLAB_RECORD_DIR
// names. A process the program starts gets the recorder too (CreateProcessW/A), and a library it loads later
// (LoadLibrary*) is patched when it arrives.
//
// What it cannot see (the manual's recording.md says the same): calls through function pointers the program
// took with GetProcAddress, the Nt* native calls, and the C runtime's low-level _write/_read layer.
//
// Timing: a call that enters the kernel is timed with two QueryPerformanceCounter reads. A stdio call the
// stream's buffer absorbs (msvcrt's FILE shows it) is counted, not timed, as on Linux.
#include "platform/common/trace_part_writer.h"
#include "recorder_inject.h"

#include <psapi.h>
#include <tlhelp32.h>
#include <winioctl.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include <atomic>
#include <cstdint>
#include <new>

using iolab::recorder::PartFile;
using iolab::recorder::PartWriter;
namespace trace = iolab::trace;

namespace {

std::uint64_t g_frequency = 1;

std::uint64_t monotonicNs()
{
    LARGE_INTEGER counter;
    QueryPerformanceCounter(&counter);
    const auto ticks = static_cast<std::uint64_t>(counter.QuadPart);
    return ticks / g_frequency * 1'000'000'000ull + ticks % g_frequency * 1'000'000'000ull / g_frequency;
}

std::uint64_t realtimeNs()
{
    FILETIME now;
    GetSystemTimePreciseAsFileTime(&now);
    const std::uint64_t since1601 = (std::uint64_t{now.dwHighDateTime} << 32) | now.dwLowDateTime;
    return (since1601 - 116444736000000000ull) * 100; // 100 ns units since 1601 to ns since 1970
}

// The part file: one view of a file mapping as large as the recording may grow (the file sparse, so that the
// size costs no disk), whose pages are written with zeros through the file before the writer uses them, so
// that a full disk stops the recording instead of raising an in-page error in the program.
class WindowsPartFile final : public PartFile
{
public:
    bool open(const wchar_t* path)
    {
        m_file = CreateFileW(path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, nullptr,
                             CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
        if (m_file == INVALID_HANDLE_VALUE)
            return false;
        DWORD returned = 0;
        const bool sparse =
            DeviceIoControl(m_file, FSCTL_SET_SPARSE, nullptr, 0, nullptr, 0, &returned, nullptr) != 0;
        // Without sparse files (FAT, exFAT) the mapping's size is allocated at once: a smaller one.
        for (std::uint64_t reserve : {sparse ? 4096ull << 20 : 256ull << 20, 64ull << 20, 16ull << 20}) {
            m_mapping = CreateFileMappingW(m_file, nullptr, PAGE_READWRITE, static_cast<DWORD>(reserve >> 32),
                                           static_cast<DWORD>(reserve), nullptr);
            if (!m_mapping)
                continue;
            m_base = static_cast<unsigned char*>(MapViewOfFile(m_mapping, FILE_MAP_WRITE, 0, 0, reserve));
            if (m_base) {
                m_reserved = reserve;
                return true;
            }
            CloseHandle(m_mapping);
            m_mapping = nullptr;
        }
        return false;
    }

    bool growTo(std::uint64_t bytes) override
    {
        if (!m_base || bytes > m_reserved)
            return false;
        static const unsigned char zeros[64 * 1024] = {};
        while (m_mapped < bytes) {
            OVERLAPPED at{};
            at.Offset = static_cast<DWORD>(m_mapped);
            at.OffsetHigh = static_cast<DWORD>(m_mapped >> 32);
            const auto piece =
                static_cast<DWORD>(bytes - m_mapped < sizeof zeros ? bytes - m_mapped : sizeof zeros);
            DWORD written = 0;
            if (!WriteFile(m_file, zeros, piece, &written, &at) || written != piece)
                return false;
            m_mapped += piece;
        }
        return true;
    }

    unsigned char* base() override { return m_base; }

    // At the process's end: the view goes, and the file keeps only the chunks the writer took.
    void finish(std::uint64_t usedBytes)
    {
        if (!m_base)
            return;
        FlushViewOfFile(m_base, 0);
        UnmapViewOfFile(m_base);
        CloseHandle(m_mapping);
        m_base = nullptr;
        LARGE_INTEGER end;
        end.QuadPart = static_cast<LONGLONG>(usedBytes < m_mapped ? usedBytes : m_mapped);
        if (SetFilePointerEx(m_file, end, nullptr, FILE_BEGIN))
            SetEndOfFile(m_file);
        CloseHandle(m_file);
        m_file = INVALID_HANDLE_VALUE;
    }

private:
    HANDLE m_file = INVALID_HANDLE_VALUE;
    HANDLE m_mapping = nullptr;
    unsigned char* m_base = nullptr;
    std::uint64_t m_reserved = 0;
    std::uint64_t m_mapped = 0;
};

struct Recorder
{
    alignas(WindowsPartFile) unsigned char fileStorage[sizeof(WindowsPartFile)]{};
    alignas(PartWriter) unsigned char writerStorage[sizeof(PartWriter)]{};
    WindowsPartFile* file = nullptr;
    std::atomic<PartWriter*> writer{nullptr};
    std::uint64_t startMonotonicNs = 0;
    HMODULE self = nullptr;
    wchar_t selfPath[MAX_PATH * 2]{};
    wchar_t systemFolder[MAX_PATH]{};
    wchar_t windowsFolder[MAX_PATH]{};
    bool exitRecorded = false;
};
Recorder g_recorder;

PartWriter* writer()
{
    return g_recorder.writer.load(std::memory_order_acquire);
}

std::uint32_t tid()
{
    return GetCurrentThreadId();
}

std::uint64_t sinceStart(std::uint64_t ns)
{
    return ns - g_recorder.startMonotonicNs;
}

// Which handles are files the program opened, so that CloseHandle on a thread, an event or a mutex is not
// recorded. Handle values are multiples of 4; past the table's end every close is recorded.
constexpr std::size_t kHandleWords = 4096;
std::atomic<std::uint32_t> g_fileHandles[kHandleWords];

void markHandle(HANDLE handle, bool file)
{
    const auto index = reinterpret_cast<std::uintptr_t>(handle) / 4;
    if (index / 32 >= kHandleWords)
        return;
    const std::uint32_t bit = 1u << (index % 32);
    if (file)
        g_fileHandles[index / 32].fetch_or(bit, std::memory_order_relaxed);
    else
        g_fileHandles[index / 32].fetch_and(~bit, std::memory_order_relaxed);
}

bool isFileHandle(HANDLE handle)
{
    const auto index = reinterpret_cast<std::uintptr_t>(handle) / 4;
    if (index / 32 >= kHandleWords)
        return true;
    return (g_fileHandles[index / 32].load(std::memory_order_relaxed) & (1u << (index % 32))) != 0;
}

// A path as UTF-8, made absolute against the working folder (a replay must tell the files apart).
struct Utf8Path
{
    char text[8192];
    std::size_t size = 0;

    explicit Utf8Path(const wchar_t* path)
    {
        if (!path)
            return;
        wchar_t full[4096];
        const DWORD length = GetFullPathNameW(path, 4096, full, nullptr);
        const wchar_t* use = length > 0 && length < 4096 ? full : path;
        const int n = WideCharToMultiByte(CP_UTF8, 0, use, -1, text, sizeof text, nullptr, nullptr);
        size = n > 0 ? static_cast<std::size_t>(n - 1) : 0;
    }

    std::string_view view() const { return {text, size}; }
};

// An ANSI path (the A calls, fopen) as UTF-16, in the process's code page.
struct WidePath
{
    wchar_t text[4096];
    const wchar_t* get() const { return valid ? text : nullptr; }
    bool valid = false;

    explicit WidePath(const char* path)
    {
        if (path)
            valid = MultiByteToWideChar(CP_ACP, 0, path, -1, text, 4096) > 0;
    }
};

// Records one call; GetLastError() and errno are kept as the call left them.
void put(const iolab::recorder::Call& call)
{
    PartWriter* part = writer();
    if (!part)
        return;
    const DWORD lastError = GetLastError();
    const int savedErrno = errno;
    part->record(tid(), call);
    errno = savedErrno;
    SetLastError(lastError);
}

// ---- the import tables ------------------------------------------------------------------------------------

enum class Source
{
    Kernel, // kernel32.dll, kernelbase.dll, api-ms-win-core-*
    Crt,    // msvcrt.dll, ucrtbase.dll, api-ms-win-crt-*, msvcr*.dll
};

struct Hook
{
    const char* name;
    void* replacement;
    void** real; // the function the first patched table held
    Source source;
};

bool startsWithNoCase(const char* text, const char* prefix)
{
    return _strnicmp(text, prefix, strlen(prefix)) == 0;
}

bool fromSource(const char* dll, Source source)
{
    if (source == Source::Kernel)
        return _stricmp(dll, "kernel32.dll") == 0 || _stricmp(dll, "kernelbase.dll") == 0 ||
               startsWithNoCase(dll, "api-ms-win-core-");
    return _stricmp(dll, "msvcrt.dll") == 0 || _stricmp(dll, "ucrtbase.dll") == 0 ||
           startsWithNoCase(dll, "api-ms-win-crt-") || startsWithNoCase(dll, "msvcr");
}

// msvcrt.dll's FILE is the one the MinGW headers describe (its buffer pointer and count are visible); a
// program on the universal C runtime has an opaque one, and its every stdio call is timed.
bool g_msvcrtStreams = false;

Hook* hooks(std::size_t& count);

void patchModule(HMODULE module)
{
    auto* base = reinterpret_cast<unsigned char*>(module);
    const auto* dos = reinterpret_cast<const IMAGE_DOS_HEADER*>(base);
    if (dos->e_magic != IMAGE_DOS_SIGNATURE)
        return;
    const auto* nt = reinterpret_cast<const IMAGE_NT_HEADERS*>(base + dos->e_lfanew);
    if (nt->Signature != IMAGE_NT_SIGNATURE)
        return;
    const IMAGE_DATA_DIRECTORY directory = nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_IMPORT];
    if (directory.VirtualAddress == 0)
        return;
    std::size_t hookCount = 0;
    Hook* table = hooks(hookCount);
    for (auto* import = reinterpret_cast<IMAGE_IMPORT_DESCRIPTOR*>(base + directory.VirtualAddress);
         import->Name != 0; ++import) {
        const char* dll = reinterpret_cast<const char*>(base + import->Name);
        const bool kernel = fromSource(dll, Source::Kernel);
        const bool crt = fromSource(dll, Source::Crt);
        if (!kernel && !crt)
            continue;
        // The names: OriginalFirstThunk (the table the loader leaves alone); without it the addresses are all
        // there is, and nothing can be matched by name.
        if (import->OriginalFirstThunk == 0)
            continue;
        auto* names = reinterpret_cast<IMAGE_THUNK_DATA*>(base + import->OriginalFirstThunk);
        auto* addresses = reinterpret_cast<IMAGE_THUNK_DATA*>(base + import->FirstThunk);
        for (; names->u1.AddressOfData != 0; ++names, ++addresses) {
            if (IMAGE_SNAP_BY_ORDINAL(names->u1.Ordinal))
                continue;
            const auto* byName =
                reinterpret_cast<const IMAGE_IMPORT_BY_NAME*>(base + names->u1.AddressOfData);
            const char* name = reinterpret_cast<const char*>(byName->Name);
            for (std::size_t i = 0; i < hookCount; ++i) {
                Hook& hook = table[i];
                if ((hook.source == Source::Kernel) != kernel || strcmp(hook.name, name) != 0)
                    continue;
                // An import table's slot holds the function's address as an integer, as the loader wrote it.
                void* current = reinterpret_cast<void*>( // NOLINT(performance-no-int-to-ptr)
                    addresses->u1.Function);
                if (current == hook.replacement)
                    break; // patched already
                if (!*hook.real) {
                    *hook.real = current;
                    if (crt && _stricmp(dll, "msvcrt.dll") == 0)
                        g_msvcrtStreams = true;
                }
                if (*hook.real != current)
                    break; // another C runtime's function of the same name: left alone
                DWORD old = 0;
                if (VirtualProtect(&addresses->u1.Function, sizeof(void*), PAGE_READWRITE, &old)) {
                    addresses->u1.Function = reinterpret_cast<ULONG_PTR>(hook.replacement);
                    VirtualProtect(&addresses->u1.Function, sizeof(void*), old, &old);
                }
                break;
            }
        }
    }
}

bool isSystemModule(const wchar_t* path)
{
    for (const wchar_t* folder : {g_recorder.systemFolder, g_recorder.windowsFolder}) {
        const std::size_t length = wcslen(folder);
        if (length > 0 && _wcsnicmp(path, folder, length) == 0)
            return true;
    }
    return false;
}

// The program, and every module of the process but Windows' own and this one (a program in the system
// folder, cmd.exe for one, is still the program).
void patchProcess()
{
    HMODULE program = GetModuleHandleW(nullptr);
    HMODULE modules[1024];
    DWORD needed = 0;
    if (!K32EnumProcessModules(GetCurrentProcess(), modules, sizeof modules, &needed))
        return;
    const DWORD count = needed / sizeof(HMODULE) < 1024 ? needed / sizeof(HMODULE) : 1024;
    for (DWORD i = 0; i < count; ++i) {
        if (modules[i] == g_recorder.self)
            continue;
        wchar_t path[MAX_PATH * 2];
        if (modules[i] != program &&
            (GetModuleFileNameW(modules[i], path, MAX_PATH * 2) == 0 || isSystemModule(path)))
            continue;
        patchModule(modules[i]);
    }
}

// ---- flags ----------------------------------------------------------------------------------------------

std::uint32_t openFlagsOf(DWORD access, DWORD disposition, DWORD attributes)
{
    std::uint32_t bits = 0;
    if (access & (GENERIC_READ | GENERIC_ALL | FILE_READ_DATA))
        bits |= trace::OpenRead;
    if (access & (GENERIC_WRITE | GENERIC_ALL | FILE_WRITE_DATA | FILE_APPEND_DATA))
        bits |= trace::OpenWrite;
    if ((access & FILE_APPEND_DATA) && !(access & (GENERIC_WRITE | GENERIC_ALL | FILE_WRITE_DATA)))
        bits |= trace::OpenAppend;
    switch (disposition) {
    case CREATE_NEW:
        bits |= trace::OpenCreate | trace::OpenExclusive;
        break;
    case CREATE_ALWAYS:
        bits |= trace::OpenCreate | trace::OpenTruncate;
        break;
    case OPEN_ALWAYS:
        bits |= trace::OpenCreate;
        break;
    case TRUNCATE_EXISTING:
        bits |= trace::OpenTruncate;
        break;
    default:
        break;
    }
    if (attributes & FILE_FLAG_WRITE_THROUGH)
        bits |= trace::OpenWriteThrough;
    if (attributes & FILE_FLAG_NO_BUFFERING)
        bits |= trace::OpenDirect;
    if (attributes & FILE_FLAG_DELETE_ON_CLOSE)
        bits |= trace::OpenTmpfile;
    if (attributes & FILE_FLAG_SEQUENTIAL_SCAN)
        bits |= trace::OpenSequential;
    if (attributes & FILE_FLAG_RANDOM_ACCESS)
        bits |= trace::OpenRandom;
    if (attributes & FILE_FLAG_OVERLAPPED)
        bits |= trace::OpenOverlapped;
    return bits;
}

// fopen's mode, with msvcrt's commit mode ('c': fflush reaches the disk) as a write-through stream.
std::uint32_t streamFlagsOfMode(const char* mode)
{
    std::uint32_t bits = iolab::recorder::openFlagsOfMode(mode);
    for (const char* c = mode ? mode + 1 : ""; *c && *c != ','; ++c) {
        if (*c == 'c')
            bits |= trace::OpenWriteThrough;
    }
    return bits;
}

std::uint32_t openFlagsOfWideMode(const wchar_t* mode)
{
    char narrow[16] = {};
    for (std::size_t i = 0; mode && mode[i] && i + 1 < sizeof narrow; ++i)
        narrow[i] = static_cast<char>(mode[i] < 128 ? mode[i] : '?');
    return streamFlagsOfMode(narrow);
}

std::uint64_t handleKey(HANDLE handle)
{
    return reinterpret_cast<std::uintptr_t>(handle);
}

std::uint64_t streamKey(FILE* stream)
{
    return reinterpret_cast<std::uintptr_t>(stream);
}

// Times a call and records it: `shape` fills in the record from the result.
template <typename Real, typename Shape, typename... Args>
auto timed(trace::Call kind, std::uint64_t handle, Shape&& shape, Real real, Args... args)
{
    using Result = decltype(real(args...));
    if (!writer())
        return real(args...);
    const std::uint64_t start = monotonicNs();
    const Result result = real(args...);
    const DWORD lastError = GetLastError();
    const int error = errno;
    const std::uint64_t end = monotonicNs();
    iolab::recorder::Call call{kind};
    call.handle = handle;
    call.startNs = sinceStart(start);
    call.endNs = sinceStart(end);
    shape(call, result, lastError, error);
    put(call);
    errno = error;
    SetLastError(lastError);
    return result;
}

// ---- kernel32 -------------------------------------------------------------------------------------------

#define IOLAB_REAL(name) decltype(&::name) real_##name = nullptr

IOLAB_REAL(CreateFileW);
IOLAB_REAL(CreateFileA);
IOLAB_REAL(WriteFile);
IOLAB_REAL(WriteFileEx);
IOLAB_REAL(ReadFile);
IOLAB_REAL(ReadFileEx);
IOLAB_REAL(FlushFileBuffers);
IOLAB_REAL(SetFilePointerEx);
IOLAB_REAL(SetFilePointer);
IOLAB_REAL(SetEndOfFile);
IOLAB_REAL(SetFileInformationByHandle);
IOLAB_REAL(CloseHandle);
IOLAB_REAL(DeleteFileW);
IOLAB_REAL(DeleteFileA);
IOLAB_REAL(MoveFileExW);
IOLAB_REAL(MoveFileExA);
IOLAB_REAL(MoveFileW);
IOLAB_REAL(MoveFileA);
IOLAB_REAL(CreateProcessW);
IOLAB_REAL(CreateProcessA);
IOLAB_REAL(LoadLibraryW);
IOLAB_REAL(LoadLibraryA);
IOLAB_REAL(LoadLibraryExW);
IOLAB_REAL(LoadLibraryExA);
IOLAB_REAL(ExitProcess);

HANDLE openCommon(const wchar_t* widePath, HANDLE handle, DWORD lastError, DWORD access, DWORD disposition,
                  DWORD attributes, std::uint64_t start, std::uint64_t end)
{
    const Utf8Path path(widePath);
    iolab::recorder::Call call{trace::Call::Open};
    const bool opened = handle != INVALID_HANDLE_VALUE;
    call.handle = opened ? handleKey(handle) : ~0ull;
    call.result = opened ? static_cast<std::int64_t>(handleKey(handle)) : -1;
    call.error = opened ? 0 : static_cast<std::int32_t>(lastError);
    call.flags = openFlagsOf(access, disposition, attributes);
    call.startNs = sinceStart(start);
    call.endNs = sinceStart(end);
    call.path = path.view();
    put(call);
    if (opened)
        markHandle(handle, true);
    SetLastError(lastError);
    return handle;
}

HANDLE WINAPI hookCreateFileW(LPCWSTR name, DWORD access, DWORD share, LPSECURITY_ATTRIBUTES security,
                              DWORD disposition, DWORD attributes, HANDLE templateFile)
{
    if (!writer())
        return real_CreateFileW(name, access, share, security, disposition, attributes, templateFile);
    const std::uint64_t start = monotonicNs();
    HANDLE handle = real_CreateFileW(name, access, share, security, disposition, attributes, templateFile);
    const DWORD lastError = GetLastError();
    return openCommon(name, handle, lastError, access, disposition, attributes, start, monotonicNs());
}

HANDLE WINAPI hookCreateFileA(LPCSTR name, DWORD access, DWORD share, LPSECURITY_ATTRIBUTES security,
                              DWORD disposition, DWORD attributes, HANDLE templateFile)
{
    if (!writer())
        return real_CreateFileA(name, access, share, security, disposition, attributes, templateFile);
    const std::uint64_t start = monotonicNs();
    HANDLE handle = real_CreateFileA(name, access, share, security, disposition, attributes, templateFile);
    const DWORD lastError = GetLastError();
    const std::uint64_t end = monotonicNs();
    const WidePath wide(name);
    return openCommon(wide.get(), handle, lastError, access, disposition, attributes, start, end);
}

std::int64_t offsetOf(const OVERLAPPED* overlapped)
{
    if (!overlapped)
        return -1;
    return static_cast<std::int64_t>((std::uint64_t{overlapped->OffsetHigh} << 32) | overlapped->Offset);
}

// WriteFile and ReadFile: the bytes moved, or the bytes asked of an overlapped call still under way.
auto handleTransfer(DWORD bytes, const OVERLAPPED* overlapped, const DWORD* done)
{
    return [=](iolab::recorder::Call& call, BOOL ok, DWORD lastError, int) {
        call.bytes = bytes;
        call.offset = offsetOf(overlapped);
        if (ok) {
            call.result = done ? *done : bytes;
        } else if (lastError == ERROR_IO_PENDING) {
            call.result = bytes;
        } else {
            call.result = -1;
            call.error = static_cast<std::int32_t>(lastError);
        }
    };
}

auto handleStatus()
{
    return [](iolab::recorder::Call& call, BOOL ok, DWORD lastError, int) {
        call.result = ok ? 0 : -1;
        call.error = ok ? 0 : static_cast<std::int32_t>(lastError);
    };
}

BOOL WINAPI hookWriteFile(HANDLE file, LPCVOID data, DWORD bytes, LPDWORD written, LPOVERLAPPED overlapped)
{
    // A caller's null `written` (allowed with an OVERLAPPED) still lets the record have the count.
    DWORD own = 0;
    LPDWORD count = written ? written : (overlapped ? nullptr : &own);
    return timed(overlapped ? trace::Call::PWrite : trace::Call::Write, handleKey(file),
                 handleTransfer(bytes, overlapped, count), real_WriteFile, file, data, bytes, count,
                 overlapped);
}

BOOL WINAPI hookWriteFileEx(HANDLE file, LPCVOID data, DWORD bytes, LPOVERLAPPED overlapped,
                            LPOVERLAPPED_COMPLETION_ROUTINE done)
{
    return timed(trace::Call::PWrite, handleKey(file), handleTransfer(bytes, overlapped, nullptr),
                 real_WriteFileEx, file, data, bytes, overlapped, done);
}

BOOL WINAPI hookReadFile(HANDLE file, LPVOID data, DWORD bytes, LPDWORD read, LPOVERLAPPED overlapped)
{
    DWORD own = 0;
    LPDWORD count = read ? read : (overlapped ? nullptr : &own);
    return timed(overlapped ? trace::Call::PRead : trace::Call::Read, handleKey(file),
                 handleTransfer(bytes, overlapped, count), real_ReadFile, file, data, bytes, count,
                 overlapped);
}

BOOL WINAPI hookReadFileEx(HANDLE file, LPVOID data, DWORD bytes, LPOVERLAPPED overlapped,
                           LPOVERLAPPED_COMPLETION_ROUTINE done)
{
    return timed(trace::Call::PRead, handleKey(file), handleTransfer(bytes, overlapped, nullptr),
                 real_ReadFileEx, file, data, bytes, overlapped, done);
}

BOOL WINAPI hookFlushFileBuffers(HANDLE file)
{
    return timed(trace::Call::Fsync, handleKey(file), handleStatus(), real_FlushFileBuffers, file);
}

BOOL WINAPI hookSetFilePointerEx(HANDLE file, LARGE_INTEGER distance, PLARGE_INTEGER newPosition,
                                 DWORD method)
{
    LARGE_INTEGER position{};
    const BOOL ok = timed(
        trace::Call::Seek, handleKey(file),
        [&](iolab::recorder::Call& call, BOOL result, DWORD lastError, int) {
            call.offset = distance.QuadPart;
            call.flags = method;
            call.result = result ? position.QuadPart : -1;
            call.error = result ? 0 : static_cast<std::int32_t>(lastError);
        },
        real_SetFilePointerEx, file, distance, &position, method);
    if (ok && newPosition)
        *newPosition = position;
    return ok;
}

DWORD WINAPI hookSetFilePointer(HANDLE file, LONG distance, PLONG distanceHigh, DWORD method)
{
    const std::int64_t asked =
        distanceHigh ? static_cast<std::int64_t>((static_cast<std::uint64_t>(*distanceHigh) << 32) |
                                                 static_cast<DWORD>(distance))
                     : distance;
    return timed(
        trace::Call::Seek, handleKey(file),
        [&](iolab::recorder::Call& call, DWORD low, DWORD lastError, int) {
            call.offset = asked;
            call.flags = method;
            const bool failed = low == INVALID_SET_FILE_POINTER && lastError != NO_ERROR;
            const std::uint64_t high = distanceHigh ? static_cast<DWORD>(*distanceHigh) : 0;
            call.result = failed ? -1 : static_cast<std::int64_t>((high << 32) | low);
            call.error = failed ? static_cast<std::int32_t>(lastError) : 0;
        },
        real_SetFilePointer, file, distance, distanceHigh, method);
}

BOOL WINAPI hookSetEndOfFile(HANDLE file)
{
    // The new length is the position, which SetEndOfFile does not say: asked first (no change to it).
    // This library's own import of SetFilePointerEx is never patched: the system's.
    LARGE_INTEGER position{};
    if (writer())
        ::SetFilePointerEx(file, LARGE_INTEGER{}, &position, FILE_CURRENT);
    return timed(
        trace::Call::Ftruncate, handleKey(file),
        [&](iolab::recorder::Call& call, BOOL ok, DWORD lastError, int) {
            call.bytes = static_cast<std::uint64_t>(position.QuadPart);
            call.result = ok ? 0 : -1;
            call.error = ok ? 0 : static_cast<std::int32_t>(lastError);
        },
        real_SetEndOfFile, file);
}

BOOL namesCall(trace::Call kind, const wchar_t* from, const wchar_t* to, BOOL ok, DWORD lastError,
               std::uint64_t start, std::uint64_t end);

// The path of an open handle, as a DOS path ("C:\dir\file", the "\\?\" prefix taken off), or false. This
// library's own import of GetFinalPathNameByHandleW is never patched.
bool pathOfHandle(HANDLE handle, wchar_t* path, DWORD capacity)
{
    const DWORD n =
        ::GetFinalPathNameByHandleW(handle, path, capacity, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    if (n == 0 || n >= capacity)
        return false;
    if (wcsncmp(path, L"\\\\?\\UNC\\", 8) == 0) { // \\?\UNC\server\share -> \\server\share
        memmove(path + 2, path + 8, (n - 8 + 1) * sizeof(wchar_t));
    } else if (wcsncmp(path, L"\\\\?\\", 4) == 0) {
        memmove(path, path + 4, (n - 4 + 1) * sizeof(wchar_t));
    }
    return true;
}

// The classes of SetFileInformationByHandle whose numbers older headers lack.
constexpr auto kFileDispositionInfoEx = static_cast<FILE_INFO_BY_HANDLE_CLASS>(21);
constexpr auto kFileRenameInfoEx = static_cast<FILE_INFO_BY_HANDLE_CLASS>(22);
constexpr DWORD kDispositionDelete = 0x1; // FILE_DISPOSITION_FLAG_DELETE

// A rename (FileRenameInfo, FileRenameInfoEx) or a delete (FileDispositionInfo, FileDispositionInfoEx with
// its delete flag) through a handle, recorded as MoveFileEx and DeleteFile are: by the file's path, asked of
// the handle first. The new name is the one given, in the file's own folder when it is a bare name, or in
// the folder of the handle given as its root.
BOOL nameByHandle(HANDLE file, FILE_INFO_BY_HANDLE_CLASS kind, LPVOID information, DWORD size, bool rename)
{
    wchar_t from[4096];
    wchar_t to[4096];
    bool known = pathOfHandle(file, from, 4096);
    if (known && rename) {
        const auto* info = static_cast<const FILE_RENAME_INFO*>(information);
        const std::size_t chars = info->FileNameLength / sizeof(wchar_t);
        const wchar_t* name = info->FileName;
        if (chars >= 4 && wcsncmp(name, L"\\??\\", 4) == 0) // an NT path: \??\C:\...
            name += 4;
        const std::size_t length = chars - static_cast<std::size_t>(name - info->FileName);
        std::size_t at = 0;
        const bool bare = wmemchr(name, L'\\', length) == nullptr && info->RootDirectory == nullptr;
        if (info->RootDirectory != nullptr) {
            known = pathOfHandle(info->RootDirectory, to, 4096);
            at = known ? wcslen(to) : 0;
            if (known && at + 1 < 4096)
                to[at++] = L'\\';
        } else if (bare) {
            const wchar_t* slash = wcsrchr(from, L'\\');
            at = slash != nullptr ? static_cast<std::size_t>(slash - from) + 1 : 0;
            wmemcpy(to, from, at);
        }
        known = known && at + length < 4096;
        if (known) {
            wmemcpy(to + at, name, length);
            to[at + length] = L'\0';
        }
    }
    if (!known)
        return real_SetFileInformationByHandle(file, kind, information, size);
    const std::uint64_t start = monotonicNs();
    const BOOL ok = real_SetFileInformationByHandle(file, kind, information, size);
    const DWORD lastError = GetLastError();
    return namesCall(rename ? trace::Call::Rename : trace::Call::Unlink, from, rename ? to : nullptr, ok,
                     lastError, start, monotonicNs());
}

// A new end (FileEndOfFileInfo: an ftruncate) or allocation (FileAllocationInfo: a fallocate that keeps the
// size, or an ftruncate where it is below the end, which it then cuts) set through a handle; a rename or a
// delete through one (nameByHandle). The other classes (basic information, ...) are passed on unrecorded.
BOOL WINAPI hookSetFileInformationByHandle(HANDLE file, FILE_INFO_BY_HANDLE_CLASS kind, LPVOID information,
                                           DWORD size)
{
    if (writer() && information != nullptr) {
        if ((kind == FileRenameInfo || kind == kFileRenameInfoEx) && size >= sizeof(FILE_RENAME_INFO))
            return nameByHandle(file, kind, information, size, true);
        const bool deletes = (kind == FileDispositionInfo && size >= sizeof(FILE_DISPOSITION_INFO) &&
                              static_cast<const FILE_DISPOSITION_INFO*>(information)->DeleteFile) ||
                             (kind == kFileDispositionInfoEx && size >= sizeof(DWORD) &&
                              (*static_cast<const DWORD*>(information) & kDispositionDelete) != 0);
        if (deletes)
            return nameByHandle(file, kind, information, size, false);
    }
    const bool end =
        kind == FileEndOfFileInfo && information != nullptr && size >= sizeof(FILE_END_OF_FILE_INFO);
    const bool allocation =
        kind == FileAllocationInfo && information != nullptr && size >= sizeof(FILE_ALLOCATION_INFO);
    if (!end && !allocation)
        return real_SetFileInformationByHandle(file, kind, information, size);
    const LONGLONG bytes =
        end ? static_cast<const FILE_END_OF_FILE_INFO*>(information)->EndOfFile.QuadPart
            : static_cast<const FILE_ALLOCATION_INFO*>(information)->AllocationSize.QuadPart;
    // An allocation below the end cuts the file there: asked first (this library's own import of
    // GetFileSizeEx is never patched).
    LARGE_INTEGER length{};
    const bool cuts = allocation && writer() && ::GetFileSizeEx(file, &length) && bytes < length.QuadPart;
    return timed(
        end || cuts ? trace::Call::Ftruncate : trace::Call::Fallocate, handleKey(file),
        [&](iolab::recorder::Call& call, BOOL ok, DWORD lastError, int) {
            call.bytes = static_cast<std::uint64_t>(std::max<LONGLONG>(bytes, 0));
            if (allocation && !cuts) {
                call.offset = 0;
                call.flags = trace::FallocKeepSize; // the end of the file stays
            }
            call.result = ok ? 0 : -1;
            call.error = ok ? 0 : static_cast<std::int32_t>(lastError);
        },
        real_SetFileInformationByHandle, file, kind, information, size);
}

BOOL WINAPI hookCloseHandle(HANDLE handle)
{
    if (!isFileHandle(handle))
        return real_CloseHandle(handle);
    markHandle(handle, false);
    return timed(trace::Call::Close, handleKey(handle), handleStatus(), real_CloseHandle, handle);
}

BOOL namesCall(trace::Call kind, const wchar_t* from, const wchar_t* to, BOOL ok, DWORD lastError,
               std::uint64_t start, std::uint64_t end)
{
    const Utf8Path path(from);
    const Utf8Path path2(to);
    iolab::recorder::Call call{kind};
    call.result = ok ? 0 : -1;
    call.error = ok ? 0 : static_cast<std::int32_t>(lastError);
    call.startNs = sinceStart(start);
    call.endNs = sinceStart(end);
    call.path = path.view();
    call.path2 = path2.view();
    put(call);
    SetLastError(lastError);
    return ok;
}

template <typename Real, typename... Args>
BOOL timedNames(trace::Call kind, const wchar_t* from, const wchar_t* to, Real real, Args... args)
{
    if (!writer())
        return real(args...);
    const std::uint64_t start = monotonicNs();
    const BOOL ok = real(args...);
    const DWORD lastError = GetLastError();
    return namesCall(kind, from, to, ok, lastError, start, monotonicNs());
}

BOOL WINAPI hookDeleteFileW(LPCWSTR name)
{
    return timedNames(trace::Call::Unlink, name, nullptr, real_DeleteFileW, name);
}

BOOL WINAPI hookDeleteFileA(LPCSTR name)
{
    const WidePath wide(name);
    return timedNames(trace::Call::Unlink, wide.get(), nullptr, real_DeleteFileA, name);
}

BOOL WINAPI hookMoveFileExW(LPCWSTR from, LPCWSTR to, DWORD flags)
{
    return timedNames(trace::Call::Rename, from, to, real_MoveFileExW, from, to, flags);
}

BOOL WINAPI hookMoveFileExA(LPCSTR from, LPCSTR to, DWORD flags)
{
    const WidePath wideFrom(from);
    const WidePath wideTo(to);
    return timedNames(trace::Call::Rename, wideFrom.get(), wideTo.get(), real_MoveFileExA, from, to, flags);
}

BOOL WINAPI hookMoveFileW(LPCWSTR from, LPCWSTR to)
{
    return timedNames(trace::Call::Rename, from, to, real_MoveFileW, from, to);
}

BOOL WINAPI hookMoveFileA(LPCSTR from, LPCSTR to)
{
    const WidePath wideFrom(from);
    const WidePath wideTo(to);
    return timedNames(trace::Call::Rename, wideFrom.get(), wideTo.get(), real_MoveFileA, from, to);
}

// A process the program starts gets the recorder before its first instruction, as the program did; it
// writes its own part (its parent's pid in the header).
template <typename Real, typename... Args>
BOOL startChild(Real real, DWORD& creationFlags, LPPROCESS_INFORMATION info, Args... args)
{
    if (!writer())
        return real(args...);
    const DWORD asked = creationFlags;
    creationFlags |= CREATE_SUSPENDED;
    const BOOL ok = real(args...);
    const DWORD lastError = GetLastError();
    if (ok) {
        const DWORD injected = iolab::win::injectRecorder(info->hProcess, g_recorder.selfPath);
        if (injected != 0 && writer()) {
            char text[64];
            snprintf(text, sizeof text, "process %lu (error %lu)", info->dwProcessId, injected);
            writer()->note(tid(), trace::NoteKind::ChildNotRecorded, 1, sinceStart(monotonicNs()), text);
        }
        if (!(asked & CREATE_SUSPENDED))
            ResumeThread(info->hThread);
    }
    SetLastError(lastError);
    return ok;
}

BOOL WINAPI hookCreateProcessW(LPCWSTR application, LPWSTR commandLine, LPSECURITY_ATTRIBUTES processSecurity,
                               LPSECURITY_ATTRIBUTES threadSecurity, BOOL inherit, DWORD flags,
                               LPVOID environment, LPCWSTR folder, LPSTARTUPINFOW startup,
                               LPPROCESS_INFORMATION info)
{
    DWORD creation = flags;
    auto call = [&]() {
        return real_CreateProcessW(application, commandLine, processSecurity, threadSecurity, inherit,
                                   creation, environment, folder, startup, info);
    };
    return startChild(call, creation, info);
}

BOOL WINAPI hookCreateProcessA(LPCSTR application, LPSTR commandLine, LPSECURITY_ATTRIBUTES processSecurity,
                               LPSECURITY_ATTRIBUTES threadSecurity, BOOL inherit, DWORD flags,
                               LPVOID environment, LPCSTR folder, LPSTARTUPINFOA startup,
                               LPPROCESS_INFORMATION info)
{
    DWORD creation = flags;
    auto call = [&]() {
        return real_CreateProcessA(application, commandLine, processSecurity, threadSecurity, inherit,
                                   creation, environment, folder, startup, info);
    };
    return startChild(call, creation, info);
}

// A library loaded later gets its tables patched as it arrives (with whatever it brought along).
template <typename Real, typename... Args> HMODULE loadAndPatch(Real real, Args... args)
{
    HMODULE module = real(args...);
    const DWORD lastError = GetLastError();
    if (module && writer())
        patchProcess();
    SetLastError(lastError);
    return module;
}

HMODULE WINAPI hookLoadLibraryW(LPCWSTR name)
{
    return loadAndPatch(real_LoadLibraryW, name);
}

HMODULE WINAPI hookLoadLibraryA(LPCSTR name)
{
    return loadAndPatch(real_LoadLibraryA, name);
}

HMODULE WINAPI hookLoadLibraryExW(LPCWSTR name, HANDLE file, DWORD flags)
{
    return loadAndPatch(real_LoadLibraryExW, name, file, flags);
}

HMODULE WINAPI hookLoadLibraryExA(LPCSTR name, HANDLE file, DWORD flags)
{
    return loadAndPatch(real_LoadLibraryExA, name, file, flags);
}

void recordExit(int status)
{
    PartWriter* part = writer();
    if (!part || g_recorder.exitRecorded)
        return;
    g_recorder.exitRecorded = true;
    part->exit(tid(), status, sinceStart(monotonicNs()));
}

void WINAPI hookExitProcess(UINT status)
{
    recordExit(static_cast<int>(status));
    real_ExitProcess(status);
}

// ---- the C runtime's stdio ------------------------------------------------------------------------------

IOLAB_REAL(fopen);
IOLAB_REAL(_wfopen);
IOLAB_REAL(fclose);
IOLAB_REAL(setvbuf);
IOLAB_REAL(setbuf);
IOLAB_REAL(fwrite);
// msvcrt.dll has the _nolock calls (the Universal C runtime too); the MinGW headers for msvcrt do not declare
// them.
using WriteItems = size_t(__cdecl*)(const void*, size_t, size_t, FILE*);
using ReadItems = size_t(__cdecl*)(void*, size_t, size_t, FILE*);
using PutOne = int(__cdecl*)(int, FILE*);
WriteItems real__fwrite_nolock = nullptr;
IOLAB_REAL(fputc);
IOLAB_REAL(putc);
PutOne real__fputc_nolock = nullptr;
PutOne real__putc_nolock = nullptr;
IOLAB_REAL(putchar);
IOLAB_REAL(fputs);
IOLAB_REAL(puts);
IOLAB_REAL(vfprintf);
IOLAB_REAL(vprintf);
IOLAB_REAL(fflush);
IOLAB_REAL(fread);
ReadItems real__fread_nolock = nullptr;
IOLAB_REAL(fgetc);
IOLAB_REAL(getc);
IOLAB_REAL(fgets);
IOLAB_REAL(fseek);
IOLAB_REAL(_fseeki64);
IOLAB_REAL(exit);
IOLAB_REAL(_exit);
void* real_fprintf = nullptr;
void* real_printf = nullptr;

// msvcrt's own vfprintf, for the fprintf and printf hooks (a program that calls fprintf need not import it).
decltype(&::vfprintf) crtVfprintf()
{
    if (real_vfprintf)
        return real_vfprintf;
    static decltype(&::vfprintf) found = nullptr;
    if (!found)
        found = reinterpret_cast<decltype(&::vfprintf)>(
            reinterpret_cast<void*>(GetProcAddress(GetModuleHandleW(L"msvcrt.dll"), "vfprintf")));
    return found;
}

FILE* standardStream(int which)
{
    return which == 0 ? stdin : which == 1 ? stdout : stderr;
}

bool putFits(FILE* stream, std::size_t bytes)
{
#ifndef _UCRT
    return g_msvcrtStreams && stream && stream->_base && (stream->_flag & _IOWRT) && stream->_cnt > 0 &&
           static_cast<std::size_t>(stream->_cnt) > bytes;
#else
    (void)stream;
    (void)bytes;
    return false;
#endif
}

bool getFits(FILE* stream, std::size_t bytes)
{
#ifndef _UCRT
    return g_msvcrtStreams && stream && stream->_base && (stream->_flag & _IOREAD) && bytes > 0 &&
           stream->_cnt > 0 && static_cast<std::size_t>(stream->_cnt) >= bytes;
#else
    (void)stream;
    (void)bytes;
    return false;
#endif
}

// A stdio call that only touches the stream's buffer: counted into the thread's last record when it continues
// it, else recorded with one clock read.
template <typename Real, typename Shape, typename... Args>
auto stdioCall(bool fits, trace::Call kind, FILE* stream, Shape&& shape, Real real, Args... args)
{
    using Result = decltype(real(args...));
    if (!fits)
        return timed(kind, streamKey(stream), shape, real, args...);
    PartWriter* part = writer();
    if (!part)
        return real(args...);
    const Result result = real(args...);
    const DWORD lastError = GetLastError();
    const int error = errno;
    iolab::recorder::Call call{kind};
    call.handle = streamKey(stream);
    shape(call, result, lastError, error);
    if (!part->extendUntimed(call)) {
        call.startNs = call.endNs = sinceStart(monotonicNs());
        part->record(tid(), call);
    }
    errno = error;
    SetLastError(lastError);
    return result;
}

auto itemsTransfer(std::size_t size, std::size_t count)
{
    return [=](iolab::recorder::Call& call, std::size_t items, DWORD, int error) {
        call.bytes = size * count;
        call.result = static_cast<std::int64_t>(size * items);
        call.error = items < count ? error : 0;
    };
}

auto onePut()
{
    return [](iolab::recorder::Call& call, int result, DWORD, int error) {
        call.bytes = 1;
        call.result = result == EOF ? -1 : 1;
        call.error = result == EOF ? error : 0;
    };
}

auto streamTransfer(std::uint64_t bytes)
{
    return [=](iolab::recorder::Call& call, int result, DWORD, int error) {
        call.bytes = bytes;
        call.result = result < 0 ? -1 : static_cast<std::int64_t>(bytes);
        call.error = result < 0 ? error : 0;
    };
}

auto printed()
{
    return [](iolab::recorder::Call& call, int result, DWORD, int error) {
        call.bytes = result > 0 ? static_cast<std::uint64_t>(result) : 0;
        call.result = result;
        call.error = result < 0 ? error : 0;
    };
}

auto streamStatus()
{
    return [](iolab::recorder::Call& call, int result, DWORD, int error) {
        call.result = result;
        call.error = result != 0 ? error : 0;
    };
}

FILE* openStream(FILE* stream, int error, const wchar_t* path, std::uint32_t flags, std::uint64_t start,
                 std::uint64_t end)
{
    const Utf8Path absolute(path);
    iolab::recorder::Call call{trace::Call::FOpen};
    call.handle = streamKey(stream);
    call.flags = flags;
    call.offset = stream ? _fileno(stream) : -1;
    call.result = stream ? 0 : -1;
    call.error = stream ? 0 : error;
    call.startNs = sinceStart(start);
    call.endNs = sinceStart(end);
    call.path = absolute.view();
    put(call);
    errno = error;
    return stream;
}

FILE* __cdecl hook_fopen(const char* path, const char* mode)
{
    if (!writer())
        return real_fopen(path, mode);
    const std::uint64_t start = monotonicNs();
    FILE* stream = real_fopen(path, mode);
    const int error = errno;
    const std::uint64_t end = monotonicNs();
    const WidePath wide(path);
    return openStream(stream, error, wide.get(), streamFlagsOfMode(mode), start, end);
}

FILE* __cdecl hook_wfopen(const wchar_t* path, const wchar_t* mode)
{
    if (!writer())
        return real__wfopen(path, mode);
    const std::uint64_t start = monotonicNs();
    FILE* stream = real__wfopen(path, mode);
    const int error = errno;
    return openStream(stream, error, path, openFlagsOfWideMode(mode), start, monotonicNs());
}

int __cdecl hook_fclose(FILE* stream)
{
    return timed(trace::Call::FClose, streamKey(stream), streamStatus(), real_fclose, stream);
}

std::uint32_t bufferModeOf(int mode)
{
    return static_cast<std::uint32_t>(mode == _IONBF   ? trace::BufferMode::None
                                      : mode == _IOLBF ? trace::BufferMode::Line
                                                       : trace::BufferMode::Full);
}

int __cdecl hook_setvbuf(FILE* stream, char* buffer, int mode, size_t bytes)
{
    return timed(
        trace::Call::SetVBuf, streamKey(stream),
        [=](iolab::recorder::Call& call, int result, DWORD, int error) {
            call.bytes = mode == _IONBF ? 0 : bytes;
            call.flags = bufferModeOf(mode);
            call.result = result;
            call.error = result != 0 ? error : 0;
        },
        real_setvbuf, stream, buffer, mode, bytes);
}

void __cdecl hook_setbuf(FILE* stream, char* buffer)
{
    if (!writer()) {
        real_setbuf(stream, buffer);
        return;
    }
    const std::uint64_t start = monotonicNs();
    real_setbuf(stream, buffer);
    iolab::recorder::Call call{trace::Call::SetVBuf};
    call.handle = streamKey(stream);
    call.bytes = buffer ? BUFSIZ : 0;
    call.flags = bufferModeOf(buffer ? _IOFBF : _IONBF);
    call.startNs = sinceStart(start);
    call.endNs = sinceStart(monotonicNs());
    put(call);
}

size_t __cdecl hook_fwrite(const void* data, size_t size, size_t count, FILE* stream)
{
    return stdioCall(putFits(stream, size * count), trace::Call::FWrite, stream, itemsTransfer(size, count),
                     real_fwrite, data, size, count, stream);
}

size_t __cdecl hook_fwrite_nolock(const void* data, size_t size, size_t count, FILE* stream)
{
    return stdioCall(putFits(stream, size * count), trace::Call::FWrite, stream, itemsTransfer(size, count),
                     real__fwrite_nolock, data, size, count, stream);
}

int __cdecl hook_fputc(int c, FILE* stream)
{
    return stdioCall(putFits(stream, 1), trace::Call::FPutc, stream, onePut(), real_fputc, c, stream);
}

int __cdecl hook_putc(int c, FILE* stream)
{
    return stdioCall(putFits(stream, 1), trace::Call::FPutc, stream, onePut(), real_putc, c, stream);
}

int __cdecl hook_fputc_nolock(int c, FILE* stream)
{
    return stdioCall(putFits(stream, 1), trace::Call::FPutc, stream, onePut(), real__fputc_nolock, c, stream);
}

int __cdecl hook_putc_nolock(int c, FILE* stream)
{
    return stdioCall(putFits(stream, 1), trace::Call::FPutc, stream, onePut(), real__putc_nolock, c, stream);
}

int __cdecl hook_putchar(int c)
{
    FILE* out = standardStream(1);
    return stdioCall(putFits(out, 1), trace::Call::FPutc, out, onePut(), real_putchar, c);
}

int __cdecl hook_fputs(const char* text, FILE* stream)
{
    const std::size_t bytes = strlen(text);
    return stdioCall(putFits(stream, bytes), trace::Call::FPuts, stream, streamTransfer(bytes), real_fputs,
                     text, stream);
}

int __cdecl hook_puts(const char* text)
{
    FILE* out = standardStream(1);
    const std::size_t bytes = strlen(text) + 1;
    return stdioCall(putFits(out, bytes), trace::Call::FPuts, out, streamTransfer(bytes), real_puts, text);
}

int __cdecl hook_vfprintf(FILE* stream, const char* format, va_list list)
{
    return timed(trace::Call::FPrintf, streamKey(stream), printed(), crtVfprintf(), stream, format, list);
}

int __cdecl hook_vprintf(const char* format, va_list list)
{
    FILE* out = standardStream(1);
    return timed(trace::Call::FPrintf, streamKey(out), printed(), crtVfprintf(), out, format, list);
}

int __cdecl hook_fprintf(FILE* stream, const char* format, ...)
{
    va_list list;
    va_start(list, format);
    const int result = hook_vfprintf(stream, format, list);
    va_end(list);
    return result;
}

int __cdecl hook_printf(const char* format, ...)
{
    va_list list;
    va_start(list, format);
    const int result = hook_vprintf(format, list);
    va_end(list);
    return result;
}

int __cdecl hook_fflush(FILE* stream)
{
    return timed(trace::Call::FFlush, streamKey(stream), streamStatus(), real_fflush, stream);
}

size_t __cdecl hook_fread(void* data, size_t size, size_t count, FILE* stream)
{
    return stdioCall(getFits(stream, size * count), trace::Call::FRead, stream, itemsTransfer(size, count),
                     real_fread, data, size, count, stream);
}

size_t __cdecl hook_fread_nolock(void* data, size_t size, size_t count, FILE* stream)
{
    return stdioCall(getFits(stream, size * count), trace::Call::FRead, stream, itemsTransfer(size, count),
                     real__fread_nolock, data, size, count, stream);
}

auto oneGet()
{
    return [](iolab::recorder::Call& call, int result, DWORD, int error) {
        call.bytes = 1;
        call.result = result == EOF ? 0 : 1;
        call.error = result == EOF ? error : 0;
    };
}

int __cdecl hook_fgetc(FILE* stream)
{
    return stdioCall(getFits(stream, 1), trace::Call::FGetc, stream, oneGet(), real_fgetc, stream);
}

int __cdecl hook_getc(FILE* stream)
{
    return stdioCall(getFits(stream, 1), trace::Call::FGetc, stream, oneGet(), real_getc, stream);
}

char* __cdecl hook_fgets(char* text, int size, FILE* stream)
{
    return timed(
        trace::Call::FGets, streamKey(stream),
        [=](iolab::recorder::Call& call, char* result, DWORD, int) {
            call.bytes = size > 0 ? static_cast<std::uint64_t>(size) : 0;
            call.result = result ? static_cast<std::int64_t>(strlen(result)) : 0;
        },
        real_fgets, text, size, stream);
}

auto seekShape(std::int64_t offset, int whence)
{
    return [=](iolab::recorder::Call& call, int result, DWORD, int error) {
        call.offset = offset;
        call.flags = static_cast<std::uint32_t>(whence);
        call.result = result;
        call.error = result != 0 ? error : 0;
    };
}

int __cdecl hook_fseek(FILE* stream, long offset, int whence)
{
    return timed(trace::Call::FSeek, streamKey(stream), seekShape(offset, whence), real_fseek, stream, offset,
                 whence);
}

int __cdecl hook_fseeki64(FILE* stream, __int64 offset, int whence)
{
    return timed(trace::Call::FSeek, streamKey(stream), seekShape(offset, whence), real__fseeki64, stream,
                 offset, whence);
}

void __cdecl hook_exit(int status)
{
    recordExit(status);
    real_exit(status);
}

void __cdecl hook__exit(int status)
{
    recordExit(status);
    real__exit(status);
}

#define IOLAB_KERNEL_HOOK(name)                                                                              \
    Hook                                                                                                     \
    {                                                                                                        \
#name, reinterpret_cast < void*>(&hook##name), reinterpret_cast < void**>(&real_##name),             \
            Source::Kernel                                                                                   \
    }
#define IOLAB_CRT_HOOK(name, hook)                                                                           \
    Hook                                                                                                     \
    {                                                                                                        \
#name, reinterpret_cast < void*>(&hook), reinterpret_cast < void**>(&real_##name), Source::Crt       \
    }

Hook* hooks(std::size_t& count)
{
    static Hook table[] = {
        IOLAB_KERNEL_HOOK(CreateFileW),
        IOLAB_KERNEL_HOOK(CreateFileA),
        IOLAB_KERNEL_HOOK(WriteFile),
        IOLAB_KERNEL_HOOK(WriteFileEx),
        IOLAB_KERNEL_HOOK(ReadFile),
        IOLAB_KERNEL_HOOK(ReadFileEx),
        IOLAB_KERNEL_HOOK(FlushFileBuffers),
        IOLAB_KERNEL_HOOK(SetFilePointerEx),
        IOLAB_KERNEL_HOOK(SetFilePointer),
        IOLAB_KERNEL_HOOK(SetEndOfFile),
        IOLAB_KERNEL_HOOK(SetFileInformationByHandle),
        IOLAB_KERNEL_HOOK(CloseHandle),
        IOLAB_KERNEL_HOOK(DeleteFileW),
        IOLAB_KERNEL_HOOK(DeleteFileA),
        IOLAB_KERNEL_HOOK(MoveFileExW),
        IOLAB_KERNEL_HOOK(MoveFileExA),
        IOLAB_KERNEL_HOOK(MoveFileW),
        IOLAB_KERNEL_HOOK(MoveFileA),
        IOLAB_KERNEL_HOOK(CreateProcessW),
        IOLAB_KERNEL_HOOK(CreateProcessA),
        IOLAB_KERNEL_HOOK(LoadLibraryW),
        IOLAB_KERNEL_HOOK(LoadLibraryA),
        IOLAB_KERNEL_HOOK(LoadLibraryExW),
        IOLAB_KERNEL_HOOK(LoadLibraryExA),
        IOLAB_KERNEL_HOOK(ExitProcess),
        IOLAB_CRT_HOOK(fopen, hook_fopen),
        IOLAB_CRT_HOOK(_wfopen, hook_wfopen),
        IOLAB_CRT_HOOK(fclose, hook_fclose),
        IOLAB_CRT_HOOK(setvbuf, hook_setvbuf),
        IOLAB_CRT_HOOK(setbuf, hook_setbuf),
        IOLAB_CRT_HOOK(fwrite, hook_fwrite),
        IOLAB_CRT_HOOK(_fwrite_nolock, hook_fwrite_nolock),
        IOLAB_CRT_HOOK(fputc, hook_fputc),
        IOLAB_CRT_HOOK(putc, hook_putc),
        IOLAB_CRT_HOOK(_fputc_nolock, hook_fputc_nolock),
        IOLAB_CRT_HOOK(_putc_nolock, hook_putc_nolock),
        IOLAB_CRT_HOOK(putchar, hook_putchar),
        IOLAB_CRT_HOOK(fputs, hook_fputs),
        IOLAB_CRT_HOOK(puts, hook_puts),
        IOLAB_CRT_HOOK(vfprintf, hook_vfprintf),
        IOLAB_CRT_HOOK(vprintf, hook_vprintf),
        IOLAB_CRT_HOOK(fprintf, hook_fprintf),
        IOLAB_CRT_HOOK(printf, hook_printf),
        IOLAB_CRT_HOOK(fflush, hook_fflush),
        IOLAB_CRT_HOOK(fread, hook_fread),
        IOLAB_CRT_HOOK(_fread_nolock, hook_fread_nolock),
        IOLAB_CRT_HOOK(fgetc, hook_fgetc),
        IOLAB_CRT_HOOK(getc, hook_getc),
        IOLAB_CRT_HOOK(fgets, hook_fgets),
        IOLAB_CRT_HOOK(fseek, hook_fseek),
        IOLAB_CRT_HOOK(_fseeki64, hook_fseeki64),
        IOLAB_CRT_HOOK(exit, hook_exit),
        IOLAB_CRT_HOOK(_exit, hook__exit),
    };
    count = sizeof table / sizeof table[0];
    return table;
}

// ---- the process's part ---------------------------------------------------------------------------------

// Appends `wide` as UTF-8 and a NUL to `text`.
void appendUtf8(char* text, std::size_t capacity, std::size_t& used, const wchar_t* wide, int wideLength)
{
    if (used + 1 >= capacity)
        return;
    const int n = wideLength == 0
                      ? 0
                      : WideCharToMultiByte(CP_UTF8, 0, wide, wideLength, text + used,
                                            static_cast<int>(capacity - used - 1), nullptr, nullptr);
    used += n > 0 ? static_cast<std::size_t>(n) : 0;
    text[used++] = '\0';
}

// The program's executable, its arguments (the command line split as the C runtime splits it) and its working
// folder, for the Process record.
void recordProcess(PartWriter& part)
{
    static char text[16384];
    std::size_t used = 0;
    wchar_t buffer[4096];
    const DWORD exeLength = GetModuleFileNameW(nullptr, buffer, 4096);
    appendUtf8(text, sizeof text, used, buffer, static_cast<int>(exeLength < 4096 ? exeLength : 0));
    std::uint16_t arguments = 0;
    const wchar_t* line = GetCommandLineW();
    wchar_t argument[4096];
    while (line && *line) {
        while (*line == L' ' || *line == L'\t')
            ++line;
        if (!*line)
            break;
        std::size_t length = 0;
        bool quoted = false;
        for (; *line && (quoted || (*line != L' ' && *line != L'\t')); ++line) {
            std::size_t slashes = 0;
            while (*line == L'\\') {
                ++slashes;
                ++line;
            }
            if (*line == L'"') {
                for (std::size_t i = 0; i < slashes / 2 && length < 4095; ++i)
                    argument[length++] = L'\\';
                if (slashes % 2) {
                    if (length < 4095)
                        argument[length++] = L'"';
                } else {
                    quoted = !quoted;
                }
                continue;
            }
            for (std::size_t i = 0; i < slashes && length < 4095; ++i)
                argument[length++] = L'\\';
            if (!*line)
                break;
            if (quoted || (*line != L' ' && *line != L'\t')) {
                if (length < 4095)
                    argument[length++] = *line;
            } else {
                break;
            }
        }
        appendUtf8(text, sizeof text, used, argument, static_cast<int>(length));
        ++arguments;
    }
    if (used < sizeof text)
        text[used++] = '\0';
    const DWORD folderLength = GetCurrentDirectoryW(4096, buffer);
    if (folderLength > 0 && folderLength < 4096) {
        const int n = WideCharToMultiByte(CP_UTF8, 0, buffer, static_cast<int>(folderLength), text + used,
                                          static_cast<int>(sizeof text - used), nullptr, nullptr);
        used += n > 0 ? static_cast<std::size_t>(n) : 0;
    }
    part.process(tid(), std::string_view(text, used), arguments);
}

// What a standard handle is: a file's path, the console, or a pipe.
std::size_t describeHandle(HANDLE handle, char* out, std::size_t capacity)
{
    switch (GetFileType(handle)) {
    case FILE_TYPE_DISK: {
        wchar_t path[4096];
        if (!pathOfHandle(handle, path, 4096))
            break;
        const int n =
            WideCharToMultiByte(CP_UTF8, 0, path, -1, out, static_cast<int>(capacity), nullptr, nullptr);
        return n > 0 ? static_cast<std::size_t>(n - 1) : 0;
    }
    case FILE_TYPE_CHAR:
        return static_cast<std::size_t>(snprintf(out, capacity, "\\\\.\\CON"));
    case FILE_TYPE_PIPE:
        return static_cast<std::size_t>(
            snprintf(out, capacity, "pipe:[%llu]", static_cast<unsigned long long>(handleKey(handle))));
    default:
        break;
    }
    return 0;
}

// The standard handles and streams the program was given, recorded as opens marked inherited, so that the
// profile can name what a write to them reached.
void recordInherited(PartWriter& part)
{
    const std::uint64_t at = sinceStart(monotonicNs());
    const DWORD which[3] = {STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE};
    for (int i = 0; i < 3; ++i) {
        HANDLE handle = GetStdHandle(which[i]);
        if (handle == nullptr || handle == INVALID_HANDLE_VALUE)
            continue;
        char path[8192];
        const std::size_t length = describeHandle(handle, path, sizeof path);
        iolab::recorder::Call call{trace::Call::Open};
        call.handle = handleKey(handle);
        call.result = static_cast<std::int64_t>(handleKey(handle));
        call.flags = (i == 0 ? trace::OpenRead : trace::OpenWrite) | trace::OpenInherited;
        call.startNs = call.endNs = at;
        call.path = std::string_view(path, length);
        part.record(tid(), call);
        // The C runtime's descriptor over it, which the stream's record names.
        call.handle = static_cast<std::uint64_t>(i);
        call.result = i;
        part.record(tid(), call);
        iolab::recorder::Call stream{trace::Call::FOpen};
        stream.handle = streamKey(standardStream(i));
        stream.offset = i;
        stream.flags = (i == 0 ? trace::OpenRead : trace::OpenWrite) | trace::OpenInherited;
        stream.startNs = stream.endNs = at;
        part.record(tid(), stream);
    }
}

// The process that started this one, as the system's process list says (0 when it cannot say).
std::uint32_t parentPid(DWORD pid)
{
    HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snapshot == INVALID_HANDLE_VALUE)
        return 0;
    PROCESSENTRY32W entry{};
    entry.dwSize = sizeof entry;
    std::uint32_t parent = 0;
    for (BOOL more = Process32FirstW(snapshot, &entry); more; more = Process32NextW(snapshot, &entry)) {
        if (entry.th32ProcessID == pid) {
            parent = entry.th32ParentProcessID;
            break;
        }
    }
    CloseHandle(snapshot);
    return parent;
}

void start()
{
    wchar_t folder[MAX_PATH * 2];
    const DWORD folderLength = GetEnvironmentVariableW(L"IOLAB_RECORD_DIR", folder, MAX_PATH * 2);
    if (folderLength == 0 || folderLength >= MAX_PATH * 2)
        return;
    LARGE_INTEGER frequency;
    QueryPerformanceFrequency(&frequency);
    g_frequency = frequency.QuadPart > 0 ? static_cast<std::uint64_t>(frequency.QuadPart) : 1;
    g_recorder.startMonotonicNs = monotonicNs();
    GetModuleFileNameW(g_recorder.self, g_recorder.selfPath, MAX_PATH * 2);
    GetSystemDirectoryW(g_recorder.systemFolder, MAX_PATH);
    GetWindowsDirectoryW(g_recorder.windowsFolder, MAX_PATH);
    const DWORD pid = GetCurrentProcessId();
    // <pid>-<clock ns>.part, as the Linux recorder names its parts.
    wchar_t path[MAX_PATH * 3];
    swprintf(path, MAX_PATH * 3, L"%ls\\%lu-%llu.part", folder, pid,
             static_cast<unsigned long long>(g_recorder.startMonotonicNs));
    g_recorder.file = new (g_recorder.fileStorage) WindowsPartFile;
    if (!g_recorder.file->open(path))
        return;
    auto* part = new (g_recorder.writerStorage)
        PartWriter(*g_recorder.file, trace::System::Windows, static_cast<std::uint32_t>(pid), parentPid(pid),
                   realtimeNs(), g_recorder.startMonotonicNs);
    if (!part->ready())
        return;
    recordProcess(*part);
    recordInherited(*part);
    patchProcess();
    g_recorder.writer.store(part, std::memory_order_release);
}

void finish()
{
    PartWriter* part = writer();
    if (!part)
        return;
    const std::uint64_t at = sinceStart(monotonicNs());
    if (const std::uint64_t lost = part->dropped()) {
        char text[96];
        const int n =
            snprintf(text, sizeof text, "%llu calls were not recorded: the trace file could not grow",
                     static_cast<unsigned long long>(lost));
        part->note(tid(), trace::NoteKind::BufferLost, static_cast<std::uint32_t>(lost), at,
                   std::string_view(text, n > 0 ? static_cast<std::size_t>(n) : 0));
    }
    if (!g_recorder.exitRecorded) {
        g_recorder.exitRecorded = true;
        part->exit(tid(), trace::kExitStatusUnknown, at);
    }
    g_recorder.writer.store(nullptr, std::memory_order_release);
    g_recorder.file->finish(part->usedBytes());
}

} // namespace

extern "C" BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    switch (reason) {
    case DLL_PROCESS_ATTACH:
        g_recorder.self = instance;
        DisableThreadLibraryCalls(instance);
        start();
        break;
    case DLL_PROCESS_DETACH:
        // At the process's end (reserved non-null) every other thread is gone: the part can be closed. A
        // FreeLibrary of the recorder (nothing does that) would leave the tables pointing here: stay.
        if (reserved)
            finish();
        break;
    default:
        break;
    }
    return TRUE;
}
