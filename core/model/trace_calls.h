// SPDX-License-Identifier: MIT
// What a trace holds (a recorded program's calls on files, iolab-cli record): the calls, their flags and the
// notes a recorder leaves, as the reader (core/model/trace_reader.h) gives them and the profile reads them.
// The numbers are part of the trace format (core/model/trace_format.h): add at the end, never renumber.
#pragma once

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iolab::trace {

// Which system wrote the part: errors are that system's numbers (errno, GetLastError()).
enum class System : std::uint16_t
{
    Linux = 1,
    Windows = 2,
};

// The calls a recorder sees. Numbers are part of the format: add at the end, never renumber.
enum class Call : std::uint16_t
{
    // descriptor layer (Linux) and handle layer (Windows)
    Open = 1,    // open/openat/creat (and 64 forms), CreateFileW; handle = the new descriptor or handle
    Close = 2,   // close, CloseHandle
    Write = 3,   // write, WriteFile at the file's position; offset -1
    PWrite = 4,  // pwrite, WriteFile with an OVERLAPPED offset
    WriteV = 5,  // writev: bytes is the sum of its buffers, flags its buffer count
    PWriteV = 6, // pwritev/pwritev2 (flags: WriteFlag)
    Read = 7,
    PRead = 8,
    ReadV = 9,
    PReadV = 10,
    Seek = 11,  // lseek, SetFilePointerEx: offset the argument, result the new position, flags the whence
    Fsync = 12, // fsync, FlushFileBuffers
    Fdatasync = 13,
    SyncFileRange = 14, // offset and bytes its range, flags its SYNC_FILE_RANGE bits
    Syncfs = 15,
    Fallocate = 16,     // fallocate, posix_fallocate: offset, bytes; flags its mode (FallocKeepSize)
    Ftruncate = 17,     // ftruncate, SetEndOfFile: bytes the new length
    Mmap = 18,          // of a file: offset, bytes, flags (MapFlag); result the address
    Msync = 19,         // handle the address, bytes the length, flags (MapFlag)
    Munmap = 20,        // handle the address, bytes the length
    Rename = 21,        // rename/renameat/renameat2, MoveFileEx: path, then path2 (the new name)
    Unlink = 22,        // unlink/unlinkat, DeleteFileW
    Dup = 23,           // dup/dup2/dup3, fcntl(F_DUPFD): handle the old, result the new
    SetFlags = 24,      // fcntl(F_SETFL): flags the new OpenFlag bits (Append, Direct, ...)
    Sync = 25,          // sync(): every file system
    CopyFileRange = 26, // copy_file_range: handle the output, flags the input descriptor, offset the output's
    SendFile = 27,      // sendfile: handle the output, flags the input descriptor
                        // stdio layer: handle is the stream (its FILE*)
    FOpen = 40,         // fopen/fdopen/freopen: flags OpenFlag, offset the descriptor under it (-1 unknown)
    FClose = 41,
    SetVBuf = 42, // setvbuf/setbuf: bytes the buffer size, flags its mode (BufferMode)
    FWrite = 43,  // fwrite/fwrite_unlocked: bytes per call (size x count asked)
    FPutc = 44,   // fputc/putc/putc_unlocked/fputc_unlocked/putchar
    FPuts = 45,   // fputs: bytes the string's length
    FPrintf = 46, // fprintf/vfprintf/printf: bytes from the return
    FFlush = 47,
    FRead = 48, // fread/fread_unlocked
    FGetc = 49, // fgetc/getc/getc_unlocked
    FGets = 50,
    FSeek = 51,       // fseek/fseeko/rewind: offset the argument, flags the whence
    StreamSpill = 52, // the stream's buffer filled by puts compiled into the program (putc_unlocked is a
                      // macro), or emptied by gets: the C library's __overflow/__uflow, which reach the
                      // system the process
    Fork = 60,        // result the child's pid
    Exec = 61,        // path the program; result -1 when it failed
};

// Open flags, the same bits whatever system wrote them (each recorder maps its own in one function).
enum OpenFlag : std::uint32_t
{
    OpenRead = 1u << 0,
    OpenWrite = 1u << 1,
    OpenCreate = 1u << 2,
    OpenTruncate = 1u << 3,
    OpenExclusive = 1u << 4,
    OpenAppend = 1u << 5,
    OpenDirect = 1u << 6,       // O_DIRECT, FILE_FLAG_NO_BUFFERING
    OpenSync = 1u << 7,         // O_SYNC
    OpenDSync = 1u << 8,        // O_DSYNC
    OpenWriteThrough = 1u << 9, // FILE_FLAG_WRITE_THROUGH
    OpenTmpfile = 1u << 10,     // O_TMPFILE, FILE_FLAG_DELETE_ON_CLOSE
    OpenDirectory = 1u << 11,
    OpenSequential = 1u << 12, // FILE_FLAG_SEQUENTIAL_SCAN
    OpenRandom = 1u << 13,     // FILE_FLAG_RANDOM_ACCESS
    OpenOverlapped = 1u << 14, // FILE_FLAG_OVERLAPPED
    OpenInherited = 1u << 15,  // open before the recorder started (given by the parent): a descriptor's path
};

// pwritev2's flags and the like, for the call itself.
// A Fallocate's flags: FALLOC_FL_KEEP_SIZE's bit, Linux's own value (the end of the file stays; Windows'
// FileAllocationInfo never moves it).
inline constexpr std::uint32_t FallocKeepSize = 0x01;

enum WriteFlag : std::uint32_t
{
    WriteDSync = 1u << 0,  // RWF_DSYNC
    WriteSync = 1u << 1,   // RWF_SYNC
    WriteAppend = 1u << 2, // RWF_APPEND
    WriteNoWait = 1u << 3, // RWF_NOWAIT
    WriteHiPri = 1u << 4,  // RWF_HIPRI
};

enum MapFlag : std::uint32_t
{
    MapShared = 1u << 0,
    MapWrite = 1u << 1, // PROT_WRITE
    MapRead = 1u << 2,
    MapSyncWait = 1u << 3,  // msync(MS_SYNC)
    MapSyncAsync = 1u << 4, // msync(MS_ASYNC)
    MapInvalidate = 1u << 5,
};

enum class BufferMode : std::uint32_t
{
    Full = 0,
    Line = 1,
    None = 2,
};

// What a recorder saw but cannot follow, for the profile to say.
enum class NoteKind : std::uint16_t
{
    RawSyscall = 1,       // syscall() with a file-related number: text the call's name; count in `count`
    IoUring = 2,          // io_uring_setup: submissions bypass every call the recorder sees
    StaticExec = 3,       // an exec of a statically linked program, which the recorder cannot enter
    ChildNotRecorded = 4, // an exec with the recorder taken out of the environment
    BufferLost = 5,       // records dropped: the part was full (text says how many)
    Imported = 6,         // the trace was read from another tool's capture (text: which), not recorded
};

inline constexpr std::int32_t kExitStatusUnknown = INT32_MIN;

} // namespace iolab::trace

namespace iolab {

// What a path a recorder saw names.
enum class FileKind
{
    Regular,  // a path of a file system
    Terminal, // /dev/tty, /dev/pts/N
    Pipe,     // pipe:[N], socket:[N]
    Device,   // /dev/null and the like
};
FileKind fileKindOf(const std::string& path);

// One process of a trace. Times count from the trace's first process's start, in nanoseconds.
struct TraceProcess
{
    std::uint32_t pid = 0;
    std::uint32_t parentPid = 0;
    trace::System system = trace::System::Linux;
    std::uint64_t startRealtimeNs = 0; // Unix time
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0; // its last record
    std::string executable;
    std::vector<std::string> arguments;
    std::string workingFolder;
    std::optional<std::int32_t> exitStatus; // when it called exit() (not when main returned)
    bool ended = false;                     // an Exit record: the process ended, not killed
};

// A call, or a run of identical consecutive calls (count), of one thread.
struct TraceEvent
{
    trace::Call call = trace::Call::Open;
    std::uint32_t process = 0; // index into the trace's processes
    std::uint32_t tid = 0;
    std::int32_t error = 0;
    std::uint32_t count = 1;
    std::uint32_t flags = 0;
    std::uint64_t handle = 0;
    std::uint64_t bytes = 0;
    std::int64_t offset = -1;
    std::int64_t result = 0;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint64_t insideNs = 0;
    std::string path;
    std::string path2;
};

struct TraceNote
{
    trace::NoteKind kind = trace::NoteKind::RawSyscall;
    std::uint32_t process = 0;
    std::uint32_t tid = 0;
    std::uint32_t count = 0;
    std::uint64_t atNs = 0;
    std::string text;
};

} // namespace iolab
