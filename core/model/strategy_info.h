// SPDX-License-Identifier: MIT
// What a strategy declares of itself: the facts the matrix, the axes, the estimate and the exports read,
// apart from its loop (core/engine/strategy.h). The model asks them of a StrategyCatalog, which the engine's
// Registry is.
#pragma once

#include "core/model/case.h"
#include "core/model/target.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

// How a read strategy lays out its data.
enum class DataLayout
{
    None,          // writes: the strategy creates its own files
    FilePerThread, // one file per thread, sized like a writer's share
    SharedFile,    // one file all threads read at random offsets
    FileSet        // a generated set of many files in nested folders
};

// How a C runtime buffers a FILE for a stdio writer, as each backend declares it: what decides how much of
// what fwrite has acknowledged is still only in the process's memory after a call returns (stdioHeldBytes,
// core/engine/crash_probe.h). Both runtimes copy a call into the buffer's free space first and, once the
// buffer is full, write whole buffer-sized blocks of a large call straight to the file.
struct StdioRuntime
{
    std::string name;                     // "glibc", "the Microsoft C runtime"
    std::uint64_t defaultBufferBytes = 0; // a FILE's buffer when setvbuf gave it none
    // glibc (libio/filedoalloc.c): the default is the file's st_blksize instead, when that is smaller
    // (TargetInfo::fileBlockBytes).
    bool defaultFromFileBlock = false;
    // A call that exactly fills the buffer's free space: glibc (libio/fileops.c, _IO_new_file_xsputn) keeps
    // the full buffer until the next call; the Microsoft C runtime (fwrite.c) writes a call of at least a
    // buffer's size straight to the file while its buffer is full or unused, so a chunk the size of the
    // buffer never waits there.
    bool keepsAFullBuffer = true;
    // glibc: with a buffer smaller than this, what does not fit in it goes straight to write(2), whole.
    std::uint64_t smallBufferBytes = 0;

    friend bool operator==(const StdioRuntime&, const StdioRuntime&) = default;
};

// How many threads a strategy runs for a case.
enum class Parallelism
{
    Threads, // the threads axis: that many threads
    Single,  // one thread, whatever the axis says (the axis must be 1)
    PerFile  // a new thread for every file of the set, all at once
};

// What one chunk costs a strategy in the duration estimate's rough model (core/analysis/estimate.cpp).
enum class CallCost
{
    Syscall,       // a system call per chunk
    BufferedStdio, // a stdio call into the FILE's buffer, and a system call too when the case has none
    Copy,          // a copy into a mapped buffer, written out a batch at a time
    DirectWrite,   // a direct (unbuffered) write per chunk, waiting for the device
    MappedWindow   // a copy into a mapped window, with map and unmap calls per window (windowBytes)
};

// The preallocations of a writer whose every call puts one chunk at a place of its choosing (write, direct,
// the sync lab's per-call writers): preallocate rewrite as well, every write at the file's start again.
inline std::vector<Preallocate> everyPreallocation()
{
    return {Preallocate::None, Preallocate::Fallocate, Preallocate::Overwrite, Preallocate::Rewrite};
}

struct StrategyInfo
{
    std::string id;
    std::string description; // one line
    Direction direction = Direction::Write;
    DataLayout layout = DataLayout::None; // reads: the files they need written first
    std::vector<ReadHint> hints;          // reads: accepted hints, the first the default; empty: none
    std::string hintRefusal;              // why the other hints do not apply
    Parallelism parallelism = Parallelism::Threads;
    bool usesStdioBuffer = false;
    bool needsBlockAlignedChunks = false; // O_DIRECT: chunk and per-thread size multiples of the block size
    bool needsDirectIo = false;           // opens with O_DIRECT / FILE_FLAG_NO_BUFFERING
    bool needsFallocate = false;          // reserves the file's space up front
    std::vector<TargetKind> targets;      // the first is where it runs when the matrix names none
    std::vector<SyncMode> syncModes;      // supported sync policies
    std::string syncRefusal;              // why other sync policies do not apply
    // Writers to a file: the preallocations it takes (None always); readers and pipes take None only.
    std::vector<Preallocate> preallocations{Preallocate::None, Preallocate::Fallocate,
                                            Preallocate::Overwrite};
    std::string preallocateRefusal;         // why the others do not apply
    std::optional<std::string> unavailable; // set when this OS or build cannot run it at all
    CallCost callCost = CallCost::Syscall;  // for the duration estimate
    std::uint64_t windowBytes = 0;          // CallCost::MappedWindow: the bytes mapped at a time
    // Queued strategies (io_uring, overlapped I/O): the deepest queue they take; 0: none, each call waits.
    std::uint32_t maxQueueDepth = 0;
    // Whether its loop times each call into a histogram when the case's latency axis asks for it
    // (core/engine/call_timing.h); a strategy that cannot refuses latency on.
    bool timesCalls = true;
    // Its calls are copies into or out of memory (a mapping) that take nanoseconds, as a stdio call into its
    // buffer does (usesStdioBuffer): latency auto leaves them untimed, since a clock read would be the cost.
    bool memoryCopyCalls = false;
    // Its threads (the threads axis) write one shared file, run inside one job that the runner gives the
    // case's whole size (group-commit).
    bool threadsShareOneFile = false;
    // Each of its writes returns only once its data is durable (pwritev2 with RWF_DSYNC, a write linked to
    // an fsync): a sync policy has nothing left to do.
    bool durableEachWrite = false;
    // Its sync calls are part of its write calls (an io_uring write linked to its sync): the call histogram
    // holds them, the sync histogram only the sync after the loop.
    bool syncInsideCalls = false;
    // Why what it calls a sync does not make the data durable ("" = it does, where the device honours
    // flushes): sync_file_range writes the pages out, but flushes neither the device's cache nor metadata.
    std::string notDurable;
    // Its progress counts a write only once a sync covering it has returned (group-commit counts a write when
    // its commit does): nothing it counts is ever waiting for a sync.
    bool countsCommittedWrites = false;
    // It holds what it has acknowledged in memory of its own, up to this many bytes per thread, before a
    // write to the file (mmap-batch-direct's mapped batch); 0: none, or the case's stdio buffer
    // (usesStdioBuffer).
    std::uint64_t holdsBackBytes = 0;
    // A strategy making the same calls without a per-call lock (stdio: stdio-unlocked, fwrite_unlocked),
    // which the advice for a CPU-bound case names; "" when there is none.
    std::string lockFreeVariant;
    // A stdio writer: how its C runtime sizes and fills the FILE's buffer (the buffer axis says which
    // buffer), from which the kill -9 probe knows what fwrite's acknowledged bytes can still be in it.
    std::optional<StdioRuntime> stdioRuntime;
    // Its calls go to random chunk-aligned offsets (read-random, write-random, the random queued ones), not
    // from the start of the file to its end.
    bool randomOffsets = false;
    // It keeps the batch it has not yet written out in a file-backed mapping of its scratch file (auxPath):
    // acknowledged bytes a killed process had not written to the data file survive there (mmap-batch-direct).
    bool keepsBatchInScratchFile = false;
    // It drives an io_uring queue that takes io_uring's own options (the --uring axis: registered buffers
    // and files, SQPOLL, IOPOLL): the uring-* queued strategies.
    bool takesUringOptions = false;
    // Pipe writers: why this backend cannot run the pipe's reader in a process of its own (the reader kind
    // axis), or as a busy-polling reader (the reader wait axis); "" = it can.
    std::string readerProcessRefusal;
    std::string readerSpinRefusal;
    // A pipe writer that hands the pipe pages of its own buffers (vmsplice): the buffers can be huge pages
    // (the pipe pages axis).
    bool ownsPipePages = false;
};

// A reader's declaration: it reads files in a directory and has no sync policy; `info` says the rest.
inline StrategyInfo readerInfo(StrategyInfo info)
{
    info.direction = Direction::Read;
    info.targets = {TargetKind::Directory};
    info.syncModes = {SyncMode::None};
    info.syncRefusal = "reads have no sync policy";
    info.preallocations = {Preallocate::None};
    info.preallocateRefusal = "reads read a data set written before the timed part";
    return info;
}

// A random reader of one shared file (read-random, uring-random-read, overlapped-random-read and their
// -direct forms): each request picks its own offset over a file that holds the data, so it takes a read/write
// mix (Case::readPercent) and a hot spot (Case::randomDist).
inline bool takesMix(const StrategyInfo& info)
{
    return info.direction == Direction::Read && info.randomOffsets && info.layout == DataLayout::SharedFile;
}

// The strategies a front end registered, as the model sees them: their declarations in order, and what a
// strategy refuses of a case beyond what its declaration says (core/engine/registry.h holds them).
class StrategyCatalog
{
public:
    virtual const StrategyInfo* findInfo(std::string_view id) const = 0;
    virtual std::vector<const StrategyInfo*> infos() const = 0; // in registration order
    // A reason the strategy `id` cannot run the (otherwise valid) case on this target; nullopt when it can or
    // when no such strategy is registered.
    virtual std::optional<std::string> refusal(std::string_view id, const Case& c,
                                               const TargetInfo& target) const = 0;
    std::string knownIds() const; // "stdio, stdio-unlocked, ..."

    virtual ~StrategyCatalog() = default;

protected:
    StrategyCatalog() = default;
    StrategyCatalog(const StrategyCatalog&) = default;
    StrategyCatalog& operator=(const StrategyCatalog&) = default;
    StrategyCatalog(StrategyCatalog&&) = default;
    StrategyCatalog& operator=(StrategyCatalog&&) = default;
};

} // namespace iolab
