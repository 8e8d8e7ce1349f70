// SPDX-License-Identifier: MIT
// replay on Windows: a trace recorded on Windows (iolab-cli record's DLL, or Process Monitor's CSV imported)
// re-issued in the run folder (core/engine/replay_script.h decides what, in which order, on which files,
// with which bytes; platform/common/replay_job.h runs the threads and times the calls). This file makes one
// call of a step with kernel32 and the C runtime: CreateFileW with the recorded access, disposition and
// flags, WriteFile and ReadFile at the position or at an OVERLAPPED offset, FlushFileBuffers,
// SetFilePointerEx, SetFileInformationByHandle for a new end or allocation, MoveFileExW, DeleteFileW, and
// msvcrt's stdio on streams opened in binary mode (the pattern's bytes reach the file as they are).
//
// wine does not enforce FILE_FLAG_NO_BUFFERING's alignment, so each transfer on such a handle is checked
// here against the volume's sector size, as Windows would, and a misaligned one fails with the reason.
//
// The ways IOLab rewrites a program into (core/engine/replay_variants.h) take their Windows forms here: a
// direct batch (kDirectBatch) is one WriteFile of whole blocks from the thread's aligned buffer (or its batch
// mapped from a file of its own, kMappedBatch) to a NO_BUFFERING | WRITE_THROUGH handle, and the overlapped
// way's writes (kQueued) are in flight together on a FILE_FLAG_OVERLAPPED handle, each with its event, until
// the sync after them or any other call of the thread.
#include "core/engine/pattern.h"
#include "core/model/replay.h"
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/common/replay_job.h"
#include "platform/windows/win_io.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <io.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

// The C runtime's own fprintf, as the recorded program called it. Under MinGW, C++'s std::fprintf is MinGW's
// replacement (libstdc++ asks for it), which writes what it formats through fputc a character at a time: a
// replay of one fprintf would make as many fputc calls as it has bytes.
#if defined(__MINGW32__)
extern "C" int crtFprintf(FILE* stream, const char* format, ...) __asm__("fprintf");
#else
static int crtFprintf(FILE* stream, const char* format, ...)
{
    va_list list;
    va_start(list, format);
    const int printed = std::vfprintf(stream, format, list);
    va_end(list);
    return printed;
}
#endif

namespace iolab::windows_backend {

namespace {

// The C runtime's stdio calls a replay step makes: the Universal CRT's _fwrite_nolock and _fputc_nolock where
// it is the runtime; msvcrt.dll has none (the stdio-unlocked way is Linux's on this build).
#if defined(_MSC_VER) || defined(_UCRT)
const StreamCalls kStreamCalls{&crtFprintf, &::_fwrite_nolock, &::_fputc_nolock};
#else
const StreamCalls kStreamCalls{&crtFprintf, nullptr, nullptr};
#endif

using trace::Call;

DWORD accessOf(std::uint32_t flags)
{
    DWORD access = 0;
    if ((flags & trace::OpenRead) != 0)
        access |= GENERIC_READ;
    if ((flags & trace::OpenWrite) != 0)
        access |= (flags & trace::OpenAppend) != 0 ? FILE_APPEND_DATA | SYNCHRONIZE : GENERIC_WRITE;
    if ((flags & trace::OpenTmpfile) != 0)
        access |= DELETE;
    return access;
}

DWORD dispositionOf(std::uint32_t flags)
{
    const bool create = (flags & trace::OpenCreate) != 0;
    const bool truncate = (flags & trace::OpenTruncate) != 0;
    if (create && (flags & trace::OpenExclusive) != 0)
        return CREATE_NEW;
    if (create)
        return truncate ? CREATE_ALWAYS : OPEN_ALWAYS;
    return truncate ? TRUNCATE_EXISTING : OPEN_EXISTING;
}

DWORD attributesOf(std::uint32_t flags)
{
    DWORD attributes = FILE_ATTRIBUTE_NORMAL;
    if ((flags & kQueued) != 0) // the overlapped way's handle (a program's own overlapped handle is not:
        attributes |= FILE_FLAG_OVERLAPPED; // the replay makes each of its calls and waits for it)
    if ((flags & (trace::OpenWriteThrough | trace::OpenSync | trace::OpenDSync)) != 0)
        attributes |= FILE_FLAG_WRITE_THROUGH;
    if ((flags & trace::OpenDirect) != 0)
        attributes |= FILE_FLAG_NO_BUFFERING;
    if ((flags & trace::OpenTmpfile) != 0)
        attributes |= FILE_FLAG_DELETE_ON_CLOSE;
    if ((flags & trace::OpenSequential) != 0)
        attributes |= FILE_FLAG_SEQUENTIAL_SCAN;
    if ((flags & trace::OpenRandom) != 0)
        attributes |= FILE_FLAG_RANDOM_ACCESS;
    if ((flags & trace::OpenDirectory) != 0)
        attributes |= FILE_FLAG_BACKUP_SEMANTICS;
    return attributes;
}

// _wfopen's mode for the open flags the recorder kept, always binary.
const wchar_t* streamMode(std::uint32_t flags)
{
    const bool reads = (flags & trace::OpenRead) != 0;
    const bool writes = (flags & trace::OpenWrite) != 0;
    const bool append = (flags & trace::OpenAppend) != 0;
    const bool truncate = (flags & trace::OpenTruncate) != 0;
    if (reads && writes)
        return append ? L"a+b" : truncate ? L"w+b" : L"r+b";
    if (writes)
        return append ? L"ab" : L"wb";
    return L"rb";
}

enum class SlotKind : std::uint8_t
{
    None,
    File,
    Stream,
    Mapping
};

struct Handle
{
    SlotKind kind = SlotKind::None;
    HANDLE file = INVALID_HANDLE_VALUE;
    bool direct = false;     // FILE_FLAG_NO_BUFFERING: every transfer aligned to the sector
    bool overlapped = false; // FILE_FLAG_OVERLAPPED (the overlapped way's): only its queued writes go to it
    FILE* stream = nullptr;
    HANDLE mapping = nullptr;
    void* address = nullptr;
    std::uint64_t mappedBytes = 0;
    std::uint32_t fileSlot = kNoReplaySlot; // a mapping's or a stream's file slot
};

// How the last failed call on this thread failed: a Win32 error, or the C runtime's errno.
struct Failure
{
    DWORD win32 = 0;
    int crt = 0;
    std::string why; // a check of IOLab's own (NO_BUFFERING's alignment)
};
thread_local Failure t_failure;

std::int64_t win32Failed()
{
    t_failure = Failure{::GetLastError(), 0, {}};
    return -1;
}

std::int64_t crtFailed()
{
    t_failure = Failure{0, errno != 0 ? errno : EIO, {}};
    return -1;
}

// The writes a thread has in flight (the overlapped way): at most kUringDepth - 1, as on io_uring, each with
// its OVERLAPPED and a manual-reset event of its own.
struct InFlight
{
    struct Write
    {
        OVERLAPPED overlapped{};
        HANDLE file = INVALID_HANDLE_VALUE;
        std::uint64_t offset = 0;
        std::uint64_t bytes = 0;
    };
    std::vector<Write> writes;
    std::size_t used = 0;

    ~InFlight()
    {
        for (Write& w : writes)
            if (w.overlapped.hEvent != nullptr)
                ::CloseHandle(w.overlapped.hEvent);
    }
};

// A thread's batch mapped from a file of its own (mmap-batch), deleted when its handle closes.
struct MappedBatch
{
    HANDLE file = INVALID_HANDLE_VALUE;
    HANDLE mapping = nullptr;
    void* address = nullptr;

    ~MappedBatch()
    {
        if (address != nullptr)
            ::UnmapViewOfFile(address);
        if (mapping != nullptr)
            ::CloseHandle(mapping);
        if (file != INVALID_HANDLE_VALUE)
            ::CloseHandle(file); // FILE_FLAG_DELETE_ON_CLOSE: the file goes with it
    }
};

class ReplayJob final : public ReplayJobBase
{
public:
    ReplayJob(const JobSpec& spec, ReplayTiming timing)
        : ReplayJobBase(spec, timing), m_handles(m_script.slots), m_sectorBytes(spec.target.logicalBlockBytes)
    {}

    ~ReplayJob() override { closeEverything(); }

private:
    bool prepareSystem(Outcome& outcome) override;
    std::int64_t issue(const ReplayStep& step, std::uint32_t i, std::size_t thread) override;
    Outcome failure(const ReplayStep& step) override;
    Outcome closeEverything() override;

    // One WriteFile of a direct batch's whole blocks at their offset: the step's bytes when it wrote them.
    std::int64_t directBatch(const Handle& h, const ReplayStep& step, std::byte* into);
    // A queued write put in flight (its bytes), or after a queued sync, 0 once every write before it
    // completed and FlushFileBuffers returned; -1 when one failed.
    std::int64_t queue(const ReplayStep& step, std::uint32_t i, std::size_t thread, const Handle& h);
    // Waits for every write the thread has in flight; false when one failed (t_failure says which).
    bool completeQueued(std::size_t thread);

    std::wstring widePath(std::uint32_t file) const { return win::widen(pathOf(file)); }
    // NO_BUFFERING's rule for one transfer; -1 with the reason when it breaks it.
    bool aligned(const Handle& h, std::int64_t offset, std::uint64_t bytes, const void* address);
    std::int64_t transfer(bool write, const Handle& h, const void* data, std::uint64_t bytes,
                          std::int64_t offset);

    std::vector<Handle> m_handles;
    std::uint32_t m_sectorBytes;
    std::vector<std::unique_ptr<InFlight>> m_inFlight;   // per recorded thread, only where it queues
    std::vector<std::unique_ptr<MappedBatch>> m_batches; // per recorded thread, only for mmap-batch
};

bool ReplayJob::prepareSystem(Outcome& outcome)
{
    if (anyStepWith(kDirectBatch | kMappedBatch)) {
        const std::size_t bytes = bufferBytes();
        for (std::size_t t = 0; t < threadCount(); ++t) {
            const std::string path = fmt::format("{}\\batch-{}.map", m_folder, t + 1);
            auto batch = std::make_unique<MappedBatch>();
            batch->file =
                ::CreateFileW(win::widen(path).c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                              FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
            if (batch->file == INVALID_HANDLE_VALUE) {
                outcome = win::errorOutcome(::GetLastError(), "CreateFileW (the mapped batch)", path);
                return false;
            }
            const auto size = static_cast<std::uint64_t>(bytes);
            batch->mapping =
                ::CreateFileMappingW(batch->file, nullptr, PAGE_READWRITE, static_cast<DWORD>(size >> 32),
                                     static_cast<DWORD>(size), nullptr);
            if (batch->mapping != nullptr)
                batch->address = ::MapViewOfFile(batch->mapping, FILE_MAP_WRITE, 0, 0, bytes);
            if (batch->address == nullptr) {
                outcome =
                    win::errorOutcome(::GetLastError(),
                                      batch->mapping == nullptr ? "CreateFileMappingW (the mapped batch)"
                                                                : "MapViewOfFile (the mapped batch)",
                                      path);
                return false;
            }
            m_batches.push_back(std::move(batch));
        }
    }
    if (!anyStepWith(kQueued))
        return true;
    m_inFlight.resize(threadCount());
    for (std::size_t t = 0; t < threadCount(); ++t) {
        if (!anyStepWith(kQueued, t))
            continue;
        auto queue = std::make_unique<InFlight>();
        queue->writes.resize(kUringDepth - 1);
        for (InFlight::Write& w : queue->writes) {
            w.overlapped.hEvent = ::CreateEventW(nullptr, TRUE, FALSE, nullptr);
            if (w.overlapped.hEvent == nullptr) {
                outcome = win::errorOutcome(::GetLastError(), "CreateEventW (the overlapped writes' events)",
                                            m_folder);
                return false;
            }
        }
        m_inFlight[t] = std::move(queue);
    }
    return true;
}

std::int64_t ReplayJob::directBatch(const Handle& h, const ReplayStep& step, std::byte* into)
{
    const DirectBlocks blocks = fillDirectBatch(step, into);
    const std::int64_t written =
        transfer(true, h, into, blocks.bytes, static_cast<std::int64_t>(blocks.from));
    if (written < 0)
        return -1;
    return directBatchResult(step, blocks, static_cast<std::uint64_t>(written));
}

std::int64_t ReplayJob::queue(const ReplayStep& step, std::uint32_t i, std::size_t thread, const Handle& h)
{
    InFlight& queue = *m_inFlight[thread];
    if (step.call == Call::Fsync || step.call == Call::Fdatasync) {
        if (!completeQueued(thread))
            return -1;
        return ::FlushFileBuffers(h.file) ? 0 : win32Failed(); // after every write before it
    }
    if (queue.used == queue.writes.size() && !completeQueued(thread))
        return -1;
    InFlight::Write& w = queue.writes[queue.used];
    const std::uint64_t dataAt = step.dataAt + std::uint64_t{i} * step.bytes;
    HANDLE event = w.overlapped.hEvent;
    w.overlapped = OVERLAPPED{};
    w.overlapped.hEvent = event;
    w.overlapped.Offset = static_cast<DWORD>(dataAt);
    w.overlapped.OffsetHigh = static_cast<DWORD>(dataAt >> 32);
    w.file = h.file;
    w.offset = dataAt;
    w.bytes = step.bytes;
    const auto size = static_cast<DWORD>(step.bytes);
    if (!::WriteFile(h.file, m_pattern.at(dataAt), size, nullptr, &w.overlapped) &&
        ::GetLastError() != ERROR_IO_PENDING) {
        const DWORD error = ::GetLastError();
        t_failure = Failure{error, 0, {}};
        return -1;
    }
    ++queue.used; // completed at once or pending (WriteFile reset its event): its result is taken later
    return static_cast<std::int64_t>(step.bytes);
}

bool ReplayJob::completeQueued(std::size_t thread)
{
    InFlight& queue = *m_inFlight[thread];
    bool ok = true;
    // Every write is waited for, a failed one's too: the system may still be writing the others.
    for (std::size_t k = 0; k < queue.used; ++k) {
        InFlight::Write& w = queue.writes[k];
        DWORD done = 0;
        const bool completed = ::GetOverlappedResult(w.file, &w.overlapped, &done, TRUE) != 0;
        if (!ok || (completed && done == w.bytes))
            continue;
        ok = false;
        const DWORD error = completed ? ERROR_WRITE_FAULT : ::GetLastError();
        t_failure = Failure{
            error, 0,
            completed ? fmt::format("a write of {} B at offset {} in flight (overlapped) wrote only {} B",
                                    w.bytes, w.offset, done)
                      : fmt::format("a write of {} B at offset {} in flight (overlapped) failed: {} ({})",
                                    w.bytes, w.offset, win::errorText(error), win::errorName(error))};
    }
    queue.used = 0;
    return ok;
}

bool ReplayJob::aligned(const Handle& h, std::int64_t offset, std::uint64_t bytes, const void* address)
{
    if (!h.direct)
        return true;
    const auto problem = win::noBufferingProblem(offset < 0 ? 0 : static_cast<std::uint64_t>(offset), bytes,
                                                 reinterpret_cast<std::uintptr_t>(address), m_sectorBytes);
    if (!problem)
        return true;
    t_failure = Failure{ERROR_INVALID_PARAMETER, 0, *problem};
    return false;
}

// WriteFile or ReadFile of `bytes`, at the file's position (offset < 0) or at `offset` (an OVERLAPPED one,
// as the program made it): the bytes moved, or -1.
std::int64_t ReplayJob::transfer(bool write, const Handle& h, const void* data, std::uint64_t bytes,
                                 std::int64_t offset)
{
    if (!aligned(h, offset, bytes, data))
        return -1;
    if (h.overlapped) { // a synchronous call here would return before the write was made
        t_failure = Failure{ERROR_INVALID_PARAMETER, 0,
                            "a transfer on a handle opened FILE_FLAG_OVERLAPPED that the overlapped way did "
                            "not queue"};
        return -1;
    }
    OVERLAPPED at{};
    if (offset >= 0) {
        at.Offset = static_cast<DWORD>(static_cast<std::uint64_t>(offset));
        at.OffsetHigh = static_cast<DWORD>(static_cast<std::uint64_t>(offset) >> 32);
    }
    DWORD done = 0;
    const auto size = static_cast<DWORD>(std::min<std::uint64_t>(bytes, 0xFFFFFFFFu));
    const BOOL ok =
        write ? ::WriteFile(h.file, data, size, &done, offset >= 0 ? &at : nullptr)
              : ::ReadFile(h.file, const_cast<void*>(data), size, &done, offset >= 0 ? &at : nullptr);
    if (!ok)
        return win32Failed();
    return done;
}

std::int64_t ReplayJob::issue(const ReplayStep& step, std::uint32_t i, std::size_t thread)
{
    std::byte* const scratch = buffer(thread);
    Handle* h = step.slot != kNoReplaySlot ? &m_handles[step.slot] : nullptr;
    if (thread < m_inFlight.size() && m_inFlight[thread]) {
        if (isQueued(step) && h != nullptr)
            return queue(step, i, thread, *h);
        // Any other call of the thread comes after what it has in flight, as the program's did.
        if (m_inFlight[thread]->used > 0 && !completeQueued(thread))
            return -1;
    }
    FILE* stream = h != nullptr ? h->stream : nullptr;
    const std::uint64_t dataAt = step.dataAt + std::uint64_t{i} * step.bytes;
    const auto bytes = static_cast<std::size_t>(step.bytes);
    const std::int64_t offset =
        step.offset < 0 ? -1 : step.offset + static_cast<std::int64_t>(std::uint64_t{i} * step.bytes);
    errno = 0;
    switch (step.call) {
    case Call::Open: {
        HANDLE opened = ::CreateFileW(widePath(step.file).c_str(), accessOf(step.flags),
                                      FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                      dispositionOf(step.flags), attributesOf(step.flags), nullptr);
        if (opened == INVALID_HANDLE_VALUE)
            return win32Failed();
        if (step.error != 0) { // the program's failed, the replay's did not: let it go
            ::CloseHandle(opened);
            return 0;
        }
        Handle made;
        made.kind = SlotKind::File;
        made.file = opened;
        made.direct = (step.flags & trace::OpenDirect) != 0;
        made.overlapped = (step.flags & kQueued) != 0;
        m_handles[step.slot2] = made;
        return 0;
    }
    case Call::FOpen: {
        FILE* opened = nullptr;
        if (step.file != kNoReplaySlot) {
            opened = ::_wfopen(widePath(step.file).c_str(), streamMode(step.flags));
            if (opened != nullptr && step.error != 0) {
                std::fclose(opened);
                return 0;
            }
        } else if (h != nullptr && h->file != INVALID_HANDLE_VALUE) {
            // A stream over a handle (the standard streams over inherited files): the C runtime's descriptor
            // takes a copy of it over, and fclose closes that copy.
            HANDLE copy = nullptr;
            if (!::DuplicateHandle(::GetCurrentProcess(), h->file, ::GetCurrentProcess(), &copy, 0, FALSE,
                                   DUPLICATE_SAME_ACCESS))
                return win32Failed();
            const int descriptor = ::_open_osfhandle(reinterpret_cast<intptr_t>(copy), _O_BINARY);
            if (descriptor < 0) {
                ::CloseHandle(copy);
                return crtFailed();
            }
            opened = ::_wfdopen(descriptor, streamMode(step.flags));
            if (opened == nullptr)
                ::_close(descriptor);
        }
        if (opened == nullptr)
            return crtFailed();
        Handle made;
        made.kind = SlotKind::Stream;
        made.stream = opened;
        m_handles[step.slot2] = made;
        return 0;
    }
    case Call::Close: {
        HANDLE file = h->file;
        *h = Handle{};
        return ::CloseHandle(file) ? 0 : win32Failed();
    }
    case Call::FClose: {
        *h = Handle{};
        return std::fclose(stream) == 0 ? 0 : crtFailed();
    }
    case Call::Dup: {
        HANDLE copy = nullptr;
        if (!::DuplicateHandle(::GetCurrentProcess(), h->file, ::GetCurrentProcess(), &copy, 0, FALSE,
                               DUPLICATE_SAME_ACCESS))
            return win32Failed();
        Handle made = *h;
        made.file = copy;
        m_handles[step.slot2] = made;
        return 0;
    }
    case Call::Write:
    case Call::WriteV: // a Windows trace has none; its bytes in one WriteFile if a trace did
        return transfer(true, *h, m_pattern.at(dataAt), bytes, -1);
    case Call::PWrite:
    case Call::PWriteV:
        if ((step.flags & kDirectBatch) != 0)
            return directBatch(*h, step,
                               (step.flags & kMappedBatch) != 0 && thread < m_batches.size()
                                   ? static_cast<std::byte*>(m_batches[thread]->address)
                                   : scratch);
        return transfer(true, *h, m_pattern.at(dataAt), bytes, offset);
    case Call::Read:
    case Call::ReadV:
        return transfer(false, *h, scratch, bytes, -1);
    case Call::PRead:
    case Call::PReadV:
        return transfer(false, *h, scratch, bytes, offset);
    case Call::Seek: {
        LARGE_INTEGER distance;
        distance.QuadPart = step.offset;
        LARGE_INTEGER position{};
        if (!::SetFilePointerEx(h->file, distance, &position, step.flags))
            return win32Failed();
        return position.QuadPart;
    }
    case Call::Fsync:
    case Call::Fdatasync:
    case Call::SyncFileRange:
    case Call::Syncfs:
        return ::FlushFileBuffers(h->file) ? 0 : win32Failed();
    case Call::Fallocate: {
        FILE_ALLOCATION_INFO allocation{};
        allocation.AllocationSize.QuadPart = static_cast<LONGLONG>(
            (step.offset > 0 ? static_cast<std::uint64_t>(step.offset) : 0) + step.bytes);
        return ::SetFileInformationByHandle(h->file, FileAllocationInfo, &allocation, sizeof allocation)
                   ? 0
                   : win32Failed();
    }
    case Call::Ftruncate: {
        FILE_END_OF_FILE_INFO end{};
        end.EndOfFile.QuadPart = static_cast<LONGLONG>(step.bytes);
        return ::SetFileInformationByHandle(h->file, FileEndOfFileInfo, &end, sizeof end) ? 0 : win32Failed();
    }
    case Call::Mmap: {
        const bool writes = (step.flags & trace::MapWrite) != 0;
        const std::uint64_t end =
            static_cast<std::uint64_t>(std::max<std::int64_t>(step.offset, 0)) + step.bytes;
        HANDLE mapping =
            ::CreateFileMappingW(h->file, nullptr, writes ? PAGE_READWRITE : PAGE_READONLY,
                                 static_cast<DWORD>(end >> 32), static_cast<DWORD>(end), nullptr);
        if (mapping == nullptr)
            return win32Failed();
        const auto from = static_cast<std::uint64_t>(std::max<std::int64_t>(step.offset, 0));
        void* address = ::MapViewOfFile(mapping, writes ? FILE_MAP_WRITE : FILE_MAP_READ,
                                        static_cast<DWORD>(from >> 32), static_cast<DWORD>(from), bytes);
        if (address == nullptr) {
            const std::int64_t failed = win32Failed();
            ::CloseHandle(mapping);
            return failed;
        }
        Handle made;
        made.kind = SlotKind::Mapping;
        made.mapping = mapping;
        made.address = address;
        made.mappedBytes = step.bytes;
        made.fileSlot = step.slot;
        m_handles[step.slot2] = made;
        return 0;
    }
    case Call::Msync: {
        if (!::FlushViewOfFile(h->address, static_cast<SIZE_T>(h->mappedBytes)))
            return win32Failed();
        // MS_SYNC: the view's pages handed to the file system, then the file made durable.
        if ((step.flags & trace::MapSyncWait) != 0 && h->fileSlot != kNoReplaySlot &&
            m_handles[h->fileSlot].file != INVALID_HANDLE_VALUE &&
            !::FlushFileBuffers(m_handles[h->fileSlot].file))
            return win32Failed();
        return 0;
    }
    case Call::Munmap: {
        const Handle mapped = *h;
        *h = Handle{};
        const BOOL unmapped = ::UnmapViewOfFile(mapped.address);
        ::CloseHandle(mapped.mapping);
        return unmapped ? 0 : win32Failed();
    }
    case Call::Rename:
        return ::MoveFileExW(widePath(step.file).c_str(), widePath(step.file2).c_str(),
                             MOVEFILE_REPLACE_EXISTING)
                   ? 0
                   : win32Failed();
    case Call::Unlink:
        return ::DeleteFileW(widePath(step.file).c_str()) ? 0 : win32Failed();
    case Call::SetVBuf: {
        const auto mode = static_cast<trace::BufferMode>(step.flags);
        const int how = mode == trace::BufferMode::None   ? _IONBF
                        : mode == trace::BufferMode::Line ? _IOLBF
                                                          : _IOFBF;
        // msvcrt refuses a buffer size below 2 bytes with a buffer asked for.
        const std::size_t size = how == _IONBF ? 0 : std::max<std::size_t>(bytes, 2);
        return std::setvbuf(stream, nullptr, how, size) == 0 ? 0 : crtFailed();
    }
    case Call::FSeek:
        return ::_fseeki64(stream, step.offset, static_cast<int>(step.flags)) == 0 ? 0 : crtFailed();
    default: {
        bool handled = false;
        const std::int64_t result =
            issueStreamStep(step, i, stream, m_pattern, scratch, kStreamCalls, handled);
        if (handled)
            return result < 0 ? crtFailed() : result;
        // Calls only Linux makes (fcntl's flags, sync(), copy_file_range, sendfile): a Windows trace has
        // none, and a Linux trace is refused before the run.
        ::SetLastError(ERROR_NOT_SUPPORTED);
        return win32Failed();
    }
    }
}

Outcome ReplayJob::failure(const ReplayStep& step)
{
    const Failure failed = t_failure;
    if (!failed.why.empty())
        return {Status::Failed, static_cast<int>(failed.win32), "run",
                fmt::format("{} in {}: {}", describe(step), m_folder, failed.why)};
    if (failed.crt != 0)
        return {Status::Failed, failed.crt, "run",
                fmt::format("{} in {} failed: {}", describe(step), m_folder, std::strerror(failed.crt))};
    return win::errorOutcome(failed.win32, describe(step), m_folder);
}

Outcome ReplayJob::closeEverything()
{
    Outcome outcome = Outcome::success();
    for (std::size_t t = 0; t < m_inFlight.size(); ++t)
        if (m_inFlight[t] && m_inFlight[t]->used > 0 && !completeQueued(t) && outcome.ok())
            outcome = {
                Status::Failed, static_cast<int>(t_failure.win32), "run",
                fmt::format("the writes in flight at the program's end in {}: {}", m_folder, t_failure.why)};
    m_batches.clear(); // each deleted as its handle closes
    for (Handle& h : m_handles) {
        if (h.kind == SlotKind::Stream) {
            if (std::fclose(h.stream) != 0 && outcome.ok())
                outcome = {Status::Failed, errno, "run",
                           fmt::format("fclose (at the program's end) in {} failed: {}", m_folder,
                                       std::strerror(errno))};
            h = Handle{};
        } else if (h.kind == SlotKind::Mapping) {
            ::UnmapViewOfFile(h.address);
            ::CloseHandle(h.mapping);
            h = Handle{};
        }
    }
    for (Handle& h : m_handles) {
        if (h.kind == SlotKind::File && h.file != INVALID_HANDLE_VALUE)
            ::CloseHandle(h.file);
        h = Handle{};
    }
    return outcome;
}

class ReplayStrategy final : public BasicStrategy
{
public:
    ReplayStrategy() : BasicStrategy(replayStrategyInfo()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return makeReplayJob<ReplayJob>(spec, trace::System::Windows, outcome);
    }
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeReplayStrategy()
{
    return std::make_unique<windows_backend::ReplayStrategy>();
}

} // namespace iolab
