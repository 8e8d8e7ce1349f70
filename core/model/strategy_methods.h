// SPDX-License-Identifier: MIT
// How each strategy of either OS does its I/O, in terms other tools and IOLab's own analyses know: what the
// fio and DiskSpd exports map it to, the sync-lab method it stands for, the plain case it is the baseline
// of. A result travels between OSes (a Windows result is opened, compared and exported on Linux), so these
// are declared here, OS-free, for every strategy of both, one row each; the exports, the sync lab and the
// findings read them and compare no strategy names. tests/platform/test_strategy_declarations.cpp checks
// every registered strategy has a row that agrees with its declaration (direct I/O, random offsets), and a
// fio, a DiskSpd and a C mapping or a stated reason it has none.
#pragma once

#include "core/model/strategy_info.h"

#include <span>
#include <string>
#include <string_view>

namespace iolab {

// The family of calls a strategy makes; the exports and the sync lab switch on it.
enum class IoMethod
{
    StdioChunk,      // a stdio call per chunk into a FILE's buffer (fwrite, fread and their unlocked forms)
    StdioByte,       // a stdio call per byte (putc, fputc)
    Plain,           // a read or write system call per chunk, in order or at random offsets
    MmapWindow,      // copies into a mapped window of the file, remapped as it fills
    MmapRead,        // copies out of a mapping of the whole file
    MmapBatchDirect, // copies into a mapped batch buffer, written out with direct writes
    Pwritev2Dsync,   // pwritev2 with RWF_DSYNC: each write durable as it returns
    SyncFileRange,   // write, then sync_file_range over it: written out, not durable
    UringLinkedSync, // an io_uring write linked to its fdatasync
    UringQueue,      // io_uring with a queue of requests in flight
    OverlappedQueue, // Windows overlapped I/O with a queue of requests in flight
    FileSet,         // opening, reading and closing a set of many small files
    Pipe,            // writes into a pipe a reader drains
    GroupCommit      // threads appending to one file, one sync committing the writes of several
};

// The plain case a strategy is the baseline of: the speed-ups of other cases are quoted against it.
enum class BaselineRole
{
    None,
    Writes,     // fwrite with the C library's default buffer: what most programs do
    Reads,      // read() with no access hint
    PipeWrites, // write() straight into a pipe
    FileSets    // the files read one after another by one thread
};

// The way to make a write durable that a strategy stands for in the sync lab (pg_test_fsync's methods and
// IOLab's own): what the lab's rows call it.
enum class SyncLabMethod
{
    None,            // not one of the lab's methods
    Write,           // write(2), then the case's sync policy (fsync, fdatasync, none)
    DirectWrite,     // an O_DIRECT write, with the case's sync policy (O_SYNC, O_DSYNC: open_sync, ...)
    Pwritev2Dsync,   // pwritev2 with RWF_DSYNC
    UringLinkedSync, // an io_uring write linked to its sync
    SyncFileRange    // write, then sync_file_range (not durable)
};

struct StrategyMethod
{
    std::string_view id;
    IoMethod method = IoMethod::Plain;
    bool direct = false;     // opens unbuffered (O_DIRECT, FILE_FLAG_NO_BUFFERING)
    bool random = false;     // its calls go to random chunk-aligned offsets
    bool sharedFile = false; // its threads share one file: the random readers, group commit
    BaselineRole baseline = BaselineRole::None;
    SyncLabMethod syncLab = SyncLabMethod::None;
    // How many threads a file-set reader runs (IoMethod::FileSet): one, a pool of the threads axis, or one
    // per file.
    Parallelism fileSetThreads = Parallelism::Threads;
};

// Every strategy of both OSes, in the order the registries list them.
std::span<const StrategyMethod> strategyMethods();

// The row of strategy `id`; nullptr when IOLab knows no such strategy (a result written by another version).
const StrategyMethod* strategyMethod(std::string_view id);

// The strategy that is the baseline of `role` ("stdio", "read", "pipe-write", "files-serial").
std::string baselineOf(BaselineRole role);

} // namespace iolab
