// SPDX-License-Identifier: MIT
// A recorded program's calls on files turned into what a replay re-issues (iolab-cli run --replay): one list
// of steps per recorded thread, in the order that thread made them, with the recorded sizes, offsets, flags,
// sync points and file lives, on files renamed into the run folder. Built from a trace (core/formats/
// trace_reader.h) by core, so that each platform's replay job (platform/) only issues the calls.
//
// What the script decides, so that the replay is faithful and checkable:
//  - Files. Every regular file the program named becomes f<N>.dat in a folder d<N> of the replay's folder,
//    one folder per folder the program used (a directory it opened or fsynced is that folder), names the run
//    folder's cleaner knows. Terminals, pipes, sockets, /dev, /proc and /sys are left out, and so is every
//    call on them (counted, with the reason).
//  - Files that existed before the program ran (opened without creating them, read before written, renamed
//    or deleted before created) are written before the timed part, as large as the program's reads and
//    seeks show they were.
//  - Data. Each write's bytes are IOLab's pattern at the place in the file where they land (the script
//  follows
//    every descriptor's and stream's position, appends included), so every surviving file can be checked:
//    each byte is the pattern's byte at its offset, or zero where nothing was written (a hole).
//  - Handles. Each open, dup and stream is a slot; a forked child gets its own copies (dup'ed where the fork
//    happened), an exec keeps its process's descriptors.
//  - Order across threads. A step that touches a handle or a file another thread touched last waits until
//    that thread's step is done (at most two such waits per step: the most recent ones).
//  - Failed calls. A failed open is re-issued (it is a real system call: probing for a file that is not there
//    costs time); any other failed call is left out and counted.
#pragma once

#include "core/model/replay.h"
#include "core/model/trace_calls.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

class TraceReader;
struct CaseResult;
struct ReplayRecord;

inline constexpr std::uint32_t kNoReplaySlot = 0xFFFFFFFFu;
// A stdio stream's buffer on a file when the program set none: its block size, as the C library takes it.
inline constexpr std::uint64_t kDefaultStreamBuffer = 4096;
// The writes a replay's files are staged with before the timed part (the files the program found, the log
// segments the rewrite-segment way writes ahead), whatever the program's own calls' size. On Linux 6.x the
// page cache keeps a file in folios as large as the writes that made it, and later writes and syncs of it
// run at their speed: 4,096 overwrites of 4 KiB with an fdatasync every 16 took 53 ms on a file written
// ahead in 4 KiB writes and 40 ms on one written in 64 KiB writes (this VM, kernel 6.18, ext4; medians of 5,
// alternating), which made IOLab's rewrite-segment figure a third short of the program changed by hand. 64
// KiB is what the rewrite-segment snippet writes ahead with.
inline constexpr std::uint64_t kStagedWriteBytes = std::uint64_t{64} * 1024;
// fallocate's FALLOC_FL_KEEP_SIZE in a step's flags: the file's size stays.
inline constexpr std::uint32_t kFallocKeepSize = trace::FallocKeepSize;
// A stdio put's flags: made with the C library's unlocked call (fwrite_unlocked, fputc_unlocked; the
// stdio-unlocked variant).
inline constexpr std::uint32_t kStreamUnlocked = 0x02;
// The replay's own bits in a step's flags, above every bit a trace's flags use (WriteFlag, OpenFlag).
// A PWrite's flags (the direct-batch variant): the descriptor is O_DIRECT; the call writes the whole aligned
// blocks its bytes fall in, [dataAt rounded down, dataAt + bytes rounded up to kDirectBlockBytes), each byte
// the pattern's at its offset (the block's start rewritten as it was, its end padded: a later batch or the
// truncation at the file's close puts the end right).
inline constexpr std::uint32_t kDirectBatch = 1u << 24;
inline constexpr std::uint64_t kDirectBlockBytes = 4096;
// With kDirectBatch (the mmap-batch variant): the batch is gathered in the thread's mapped file (MAP_SHARED,
// made before the timed part and unlinked at once) instead of its buffer.
inline constexpr std::uint32_t kMappedBatch = 1u << 25;
// A descriptor write's or sync's flags (the io-uring variant): queued on the thread's io_uring ring, a write
// at the offset its bytes land (dataAt) without waiting; a sync queued after every request before it
// (IOSQE_IO_DRAIN), then everything submitted at once and waited for. Any other step of the thread first
// waits for what is queued. The ring has kUringDepth entries: at most kUringDepth - 1 requests in flight.
inline constexpr std::uint32_t kQueued = 1u << 26;
inline constexpr std::uint32_t kUringDepth = 64;

// Wait until thread `thread` of the script has done `steps` of its steps (with `begun`: has done
// `steps - 1` and begun the next, its own waits over: how a group commit's sync lets the calls after it
// go on).
struct ReplayWait
{
    std::uint32_t thread = kNoReplaySlot;
    std::uint32_t steps = 0;
    bool begun = false;
};

// One call to re-issue (or a run of `count` identical consecutive ones).
struct ReplayStep
{
    trace::Call call = trace::Call::Write;
    std::uint16_t synthetic = 0; // 1: not a recorded call (a forked child's copy of a handle): untimed
    std::int32_t error = 0;      // the recorded open's error: the replay expects the same failure
    std::uint32_t count = 1;
    std::uint32_t flags = 0;
    std::uint32_t slot = kNoReplaySlot;  // the handle it works on (descriptor, stream or mapping)
    std::uint32_t slot2 = kNoReplaySlot; // the handle it makes: Open, FOpen, Dup (and fdopen's descriptor in
                                         // `slot`); CopyFileRange/SendFile: the input descriptor
    std::uint32_t file = kNoReplaySlot;  // Open/FOpen/Rename's old name/Unlink: an index into files
    std::uint32_t file2 = kNoReplaySlot; // Rename's new name
    std::uint64_t bytes = 0;
    std::int64_t offset = -1;
    std::uint64_t dataAt = 0; // writes: where in the file the first call's bytes land (the pattern's offset)
    std::uint64_t gapNs = 0;  // since the thread's previous call ended (as-recorded timing)
    std::uint64_t recordedNs = 0; // the recorded time inside the call(s)
    ReplayWait waits[2];
    // Power-loss exposure: the file (an index into the script's contents, kNoReplaySlot for none) whose
    // not-yet-durable bytes this step changes, and how (ReplayRisk).
    std::uint32_t content = kNoReplaySlot;
    std::uint8_t risk = 0;
    // A sync of `content` made as a group commit (the group-commit variant): the thread waits for a sync of
    // the file begun after every write to it so far had returned, and makes one only when none is under way.
    std::uint8_t group = 0;
};

// How a step changes what is acknowledged but not yet durable (the replay's at-risk figure).
enum ReplayRisk : std::uint8_t
{
    RiskNone = 0,
    RiskWrite = 1,        // its bytes wait on `content` until a sync of it
    RiskBuffered = 2,     // a stdio put: its bytes wait in the stream's buffer, then on `content`
    RiskFlush = 3,        // the stream's buffer handed to the system (fflush, fclose, a spill)
    RiskSync = 4,         // `content` made durable (fsync, fdatasync, msync MS_SYNC)
    RiskSyncAll = 5,      // every file made durable (sync, syncfs)
    RiskGone = 6,         // `content` deleted: nothing of it left to lose
    RiskFlushDurable = 7, // the stream's buffer handed to a file opened O_SYNC/O_DSYNC: durable at once
};

struct ReplayThread
{
    std::uint32_t pid = 0;
    std::uint32_t tid = 0;
    std::uint64_t startNs = 0; // its first call, from the trace's start
    std::vector<ReplayStep> steps;
};

struct ReplayFile
{
    std::string recordedPath;
    std::string relativePath; // in the replay's folder: "d1/f000003.dat", or "d1" for a folder
    std::uint32_t folder = 0; // index into folders
    bool directory = false;
    bool staged = false;           // exists before the timed part
    std::uint64_t stagedBytes = 0; // its size then (the pattern from offset 0)
    // Staged only to be overwritten whole (the rewrite-segment variant): written with other bytes (the
    // pattern one byte on), so that verifying the file shows every write landed.
    bool overwritten = false;
};

// A file the replay leaves behind and its size: what the runner makes durable and verifies.
struct ReplayLeftFile
{
    std::uint32_t file = 0;
    std::uint64_t bytes = 0;
};

struct ReplayScript
{
    std::string traceName;
    std::string program; // the first recorded process's command line
    trace::System system = trace::System::Linux;
    std::vector<ReplayThread> threads;
    std::vector<ReplayFile> files;
    std::vector<std::string> folders; // "d1", "d2", ...: created before the timed part
    std::vector<ReplayLeftFile> leftFiles;
    std::vector<std::uint32_t> contentFiles; // per content: the file it was first named as (into files)
    std::uint32_t slots = 0;
    std::uint32_t contents = 0;     // files as the replay's exposure counts them (a renamed file stays one)
    std::uint64_t bytesWritten = 0; // by the replayed write calls (as asked)
    std::uint64_t bytesRead = 0;    // asked by the replayed read calls
    std::uint64_t writeCalls = 0;   // counted call by call
    std::uint64_t syncCalls = 0;
    std::uint64_t calls = 0;
    std::uint64_t recordedInsideNs = 0; // the program's own time inside the calls the replay re-issues
    std::uint64_t largestCallBytes = 0;
    std::uint64_t stagedBytes = 0;
    std::uint64_t peakFileBytes = 0; // the files' sizes summed, at their largest (for the space check)
    std::map<std::string, std::uint64_t> leftOut; // calls not replayed, by reason, counted call by call

    // The size a replay case reports its rate by: the bytes written, or for a program that only reads, those
    // read.
    std::uint64_t caseBytes() const { return bytesWritten != 0 ? bytesWritten : bytesRead; }
    bool countsReads() const { return bytesWritten == 0; }
};

// A file's or folder's path in the replay's folder (`relative` is '/'-separated, as every API takes it).
inline std::string replayPath(const std::string& folder, const std::string& relative)
{
    return folder + "/" + relative;
}

// A replay case takes its size (the bytes written, or read), its largest call as its chunk (the pattern's
// window) and its threads from the script.
struct Case;
void fitCaseToReplay(Case& c, const ReplayScript& script);
// The free space a replay needs: its files at their largest, and a margin.
std::uint64_t replaySpaceNeeded(const ReplayScript& script);

// Builds the script from every call of the trace. Throws InputError naming `traceName` for a trace with no
// call the replay can re-issue (a program that did no file I/O). The system it was recorded on is the
// script's `system`: a platform replays only its own.
ReplayScript buildReplayScript(TraceReader& reader, const std::string& traceName);

// Reads the trace at `path` and builds its script (InputError for a trace that cannot be read).
ReplayScript loadReplayScript(const std::string& path);

// The recorded calls a replay step stands for and their kind, for the replay's own count: writes (write,
// pwrite, writev, the stdio puts), syncs (fsync, fdatasync, sync_file_range, syncfs, sync, msync(MS_SYNC)).
bool isReplayWrite(trace::Call call);
bool isReplaySync(const ReplayStep& step);
// A call that may run while another thread's sync of the same file is under way (a write, a read, another
// sync): it moves no handle and no file's end but by its own bytes. A close, a truncate, a rename may not.
bool mayRunBesideSync(const ReplayStep& step);
// Adds `step` to the script's counts: its calls, writes and syncs when it stands for recorded calls
// (`recorded`), and its size to the largest call (the pattern's window). The builder and every rewrite of a
// script (replay_variants.h) count with it.
void countReplayStep(ReplayScript& script, const ReplayStep& step, bool recorded);

// The replay's lines for the CLI: what is re-issued and what is left out, with reasons.
std::vector<std::string> describeReplayScript(const ReplayScript& script);

// How close a replay came to the program: the median over the measured, successful repetitions of the time
// inside the re-issued calls, against the program's own time inside them when it was recorded.
struct ReplayFidelity
{
    std::uint32_t repetitions = 0;
    double insideSeconds = 0; // the replay's, median
    double lowestSeconds = 0; // its range over the repetitions
    double highestSeconds = 0;
    double recordedSeconds = 0; // the program's
    double ratio = 0;           // insideSeconds / recordedSeconds
    std::uint64_t calls = 0;    // the replay made, per repetition
};
std::optional<ReplayFidelity> replayFidelity(const CaseResult& result, const ReplayScript& script);
// The script's lines, then the fidelity in words ("within 15%": the target a faithful replay meets).
std::vector<std::string> describeReplayResult(const CaseResult& result, const ReplayScript& script);
// What a result keeps of the script (CaseResult::replay).
ReplayRecord replayRecord(const ReplayScript& script);
inline constexpr double kReplayFidelityTolerance = 0.15;

} // namespace iolab
