// SPDX-License-Identifier: MIT
// The layout of a trace: what a recorded program did with files, call by call, at the stdio and system-call
// layer (iolab-cli record). The recorders in platform/ write it from inside the program and the reader in
// trace_reader.h reads it, so both include this file and nothing else defines a byte of it. The manual's
// traces.md documents it for users.
//
// A trace is a sequence of parts, one per recorded process. A part is a header, then chunks of chunkBytes,
// each owned by one thread of the process and filled by it alone with records (no lock, no system call per
// record: a thread takes a whole chunk with one atomic add). The recorder writes a part into a file mapping
// shared with the file, so a program killed at any point leaves every record it had finished: a record counts
// once its chunk's usedBytes covers it, and a chunk whose magic is 0 holds nothing (one taken by a thread
// that was killed before it wrote its header, or the unused end of the file). A part whose partBytes is 0
// runs to the end of the file (a part as a recorder left it); `iolab-cli record` merges the parts of a run
// into one file, compacted, with each part's true length.
//
// All fields are little-endian, every record 8-byte aligned. A reader refuses a version it does not know.
#pragma once

#include "core/model/trace_calls.h"

#include <cstdint>

namespace iolab::trace {

inline constexpr char kMagic[8] = {'I', 'O', 'L', 'A', 'B', 'T', 'R', 'C'};
inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::uint32_t kChunkMagic = 0x4B4E4843; // "CHNK"

struct PartHeader
{
    char magic[8];
    std::uint32_t version;
    std::uint32_t headerBytes; // where the first chunk starts
    std::uint32_t chunkBytes;
    std::uint16_t system;    // System
    std::uint16_t partFlags; // PartFlag
    std::uint64_t partBytes; // the whole part, header included; 0: to the end of the file
    std::uint32_t pid;
    std::uint32_t parentPid;        // 0 when the parent was not recorded
    std::uint64_t startRealtimeNs;  // the process's first record, as Unix time (the reader's wall clock)
    std::uint64_t startMonotonicNs; // the same moment on the clock every record's times count from
    std::uint64_t reserved1[2];
};
static_assert(sizeof(PartHeader) == 72);

enum PartFlag : std::uint16_t
{
    // Chunks back to back, each its header and usedBytes (rounded up to 8) long: a merged trace's parts.
    // Without it every chunk is chunkBytes long, as a recorder lays them out.
    PartCompact = 1u << 0,
};

struct ChunkHeader
{
    std::uint32_t magic; // kChunkMagic; 0 in a chunk nobody took
    std::uint32_t tid;
    std::uint32_t usedBytes; // of records after this header, written last (release) after each record
    std::uint32_t reserved;
};
static_assert(sizeof(ChunkHeader) == 16);

enum class RecordType : std::uint16_t
{
    Event = 1,   // a call (or a run of identical calls)
    Process = 2, // the program: its executable, arguments and working folder (text, NUL-separated)
    Note = 3,    // something the recorder saw but cannot follow (NoteKind), with a text
    Exit = 4,    // the process ended normally: exit status and time
};

struct RecordHeader
{
    std::uint16_t type;  // RecordType
    std::uint16_t bytes; // the whole record, header and text included, a multiple of 8
};

struct EventRecord
{
    std::uint16_t type;       // RecordType::Event
    std::uint16_t bytes;      // sizeof(EventRecord) + the paths, rounded up to 8
    std::uint16_t call;       // Call
    std::uint16_t pathBytes;  // a path (Open, FOpen, Rename, Unlink, Exec) after the record, no NUL
    std::uint16_t path2Bytes; // Rename's new name, after the first path
    std::uint16_t reserved;
    std::uint32_t tid;
    std::int32_t error; // the system's error number when the call failed, else 0
    std::uint32_t
        count; // identical consecutive calls kept as one record (same call, handle and size, contiguous)
    std::uint32_t flags; // call-specific (see Call)
    std::uint32_t reserved2;
    std::uint64_t handle;
    std::uint64_t bytes_;   // bytes asked per call
    std::int64_t offset;    // -1: at the file's position
    std::int64_t result;    // the last call's return
    std::uint64_t startNs;  // the first call's start, on the part's monotonic clock, from startMonotonicNs
    std::uint64_t endNs;    // the last call's end
    std::uint64_t insideNs; // the time inside the calls, summed over count
};
static_assert(sizeof(EventRecord) == 88);

struct NoteRecord
{
    std::uint16_t type; // RecordType::Note
    std::uint16_t bytes;
    std::uint16_t kind; // NoteKind
    std::uint16_t textBytes;
    std::uint32_t tid;
    std::uint32_t count;
    std::uint64_t atNs;
};
static_assert(sizeof(NoteRecord) == 24);

struct ProcessRecord
{
    std::uint16_t type; // RecordType::Process
    std::uint16_t bytes;
    std::uint16_t textBytes; // executable NUL argument NUL ... NUL NUL working folder
    std::uint16_t argumentCount;
};
static_assert(sizeof(ProcessRecord) == 8);

struct ExitRecord
{
    std::uint16_t type; // RecordType::Exit
    std::uint16_t bytes;
    std::int32_t
        status; // exit()'s argument; kExitStatusUnknown when the process ended by returning from main
    std::uint64_t atNs;
};
static_assert(sizeof(ExitRecord) == 16);

constexpr std::uint32_t roundUp8(std::uint32_t n)
{
    return (n + 7u) & ~7u;
}

} // namespace iolab::trace
