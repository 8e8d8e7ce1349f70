// SPDX-License-Identifier: MIT
#include "platform/strategy_declarations.h"

#include "core/engine/mapped_copy.h"

#include <algorithm>

#include <utility>

namespace iolab {

namespace {

// A fact the OSes word differently (a description naming write(2) or WriteFile): the declaration names both,
// and this build's OS reads its own. The one OS switch of the declarations.
template <class T> T onThisOs(T onLinux, T onWindows)
{
#ifdef _WIN32
    (void)onLinux;
    return onWindows;
#else
    (void)onWindows;
    return onLinux;
#endif
}

// What every writer through a FILE declares: the stdio buffer axis, a file or the null device, the sync
// policies this OS has and how its C runtime buffers a FILE.
StrategyInfo stdioWriter(StrategyInfo info)
{
    const OsTerms& os = osTerms();
    info.usesStdioBuffer = true;
    info.targets = {TargetKind::Directory, TargetKind::Null};
    info.syncModes = os.syncModes;
    info.syncRefusal = os.syncRefusal;
    info.stdioRuntime = os.stdioRuntime;
    return info;
}

// A plain writer to a file: every sync policy this OS has.
StrategyInfo fileWriter(StrategyInfo info)
{
    info.targets = info.targets.empty() ? std::vector<TargetKind>{TargetKind::Directory} : info.targets;
    info.syncModes = osTerms().syncModes;
    info.syncRefusal = osTerms().syncRefusal;
    return info;
}

// A reader through the cache: the hints this OS has.
StrategyInfo cachedReader(StrategyInfo info)
{
    info.hints = osTerms().readHints;
    info.hintRefusal = osTerms().hintRefusal;
    return readerInfo(std::move(info));
}

// A reader that bypasses the cache: aligned chunks, no hint.
StrategyInfo directReader(StrategyInfo info)
{
    info.hintRefusal = osTerms().directHintRefusal;
    info.needsBlockAlignedChunks = true;
    info.needsDirectIo = true;
    return readerInfo(std::move(info));
}

} // namespace

StrategyInfo stdioDeclaration()
{
    return stdioWriter(
        {.id = "stdio",
         .description = onThisOs("fwrite(3) per chunk through a FILE with setvbuf (none, default or N bytes)",
                                 "fwrite per chunk through a FILE with setvbuf (none, default or N bytes)"),
         .callCost = CallCost::BufferedStdio,
         .lockFreeVariant = "stdio-unlocked"});
}

StrategyInfo stdioUnlockedDeclaration()
{
    return stdioWriter(
        {.id = "stdio-unlocked",
         .description = onThisOs("fwrite_unlocked(3) per chunk: stdio without the per-call "
                                 "FILE lock; chunks of 1-8 bytes expand inline as glibc's "
                                 "<stdio.h> does for constant sizes",
                                 "_fwrite_nolock per chunk: stdio without the per-call FILE lock"),
         .callCost = CallCost::BufferedStdio});
}

StrategyInfo stdioUnlockedCallDeclaration()
{
    return stdioWriter(
        {.id = "stdio-unlocked-call",
         .description = onThisOs("fwrite_unlocked(3) per chunk, always called in the C library (never "
                                 "expanded inline): stdio-unlocked as a size known only at run time gets it",
                                 "_fwrite_nolock per chunk, always called in the C runtime (on Windows, the "
                                 "same loop as stdio-unlocked)")});
}

StrategyInfo putcDeclaration()
{
    return stdioWriter({.id = "putc",
                        .description = onThisOs(
                            "putc(3) per byte through a FILE with setvbuf: the per-character write "
                            "bonnie++ times, taking the FILE lock on every call",
                            "putc per byte through a FILE with setvbuf: the per-character write bonnie++ "
                            "times, taking the FILE lock on every call")});
}

StrategyInfo putcUnlockedDeclaration()
{
    return stdioWriter(
        {.id = "putc-unlocked",
         .description = onThisOs("putc_unlocked(3) per byte: the per-character write without the FILE lock, "
                                 "expanded inline by glibc's <stdio.h> (a library call only when the buffer "
                                 "is full)",
                                 "_putc_nolock per byte: the per-character write without the FILE lock (a "
                                 "call into the Universal CRT; inline on msvcrt.dll builds)")});
}

StrategyInfo fputcDeclaration()
{
    return stdioWriter({.id = "fputc",
                        .description = onThisOs(
                            "fputc(3) per byte through a FILE with setvbuf: as putc, a library call that "
                            "takes the FILE lock on every byte",
                            "fputc per byte through a FILE with setvbuf: as putc, a C runtime call that "
                            "locks the FILE on every byte")});
}

StrategyInfo writeDeclaration()
{
    return fileWriter({.id = "write",
                       .description = onThisOs("write(2) per chunk through the page cache",
                                               "WriteFile per chunk through the system cache"),
                       .targets = {TargetKind::Directory, TargetKind::Null},
                       .preallocations = everyPreallocation()});
}

StrategyInfo directDeclaration()
{
    return fileWriter({.id = "direct",
                       .description = onThisOs("write(2) per chunk with O_DIRECT, bypassing the page cache",
                                               "WriteFile per chunk with FILE_FLAG_NO_BUFFERING, bypassing "
                                               "the system cache"),
                       .needsBlockAlignedChunks = true,
                       .needsDirectIo = true,
                       .preallocations = everyPreallocation(),
                       .callCost = CallCost::DirectWrite});
}

StrategyInfo writeRandomDeclaration()
{
    return fileWriter(
        {.id = "write-random",
         .description = onThisOs("pwrite(2) of every chunk once at random chunk-aligned offsets "
                                 "through the page cache",
                                 "WriteFile of every chunk once at random offsets through the "
                                 "system cache"),
         .randomOffsets = true});
}

StrategyInfo directRandomDeclaration()
{
    return fileWriter(
        {.id = "direct-random",
         .description = onThisOs("pwrite(2) of every chunk once at random chunk-aligned offsets "
                                 "with O_DIRECT",
                                 "WriteFile of every chunk once at random offsets with "
                                 "FILE_FLAG_NO_BUFFERING"),
         .needsBlockAlignedChunks = true,
         .needsDirectIo = true,
         .callCost = CallCost::DirectWrite,
         .randomOffsets = true});
}

StrategyInfo mmapWindowDeclaration()
{
    return {
        .id = "mmap-window",
        .description = onThisOs("fallocate, then memcpy into a 16 KiB MAP_SHARED window remapped as it fills",
                                "size the file through CreateFileMapping, then memcpy into a 16 KiB "
                                "MapViewOfFile window remapped as it fills"),
        .needsFallocate = true,
        .targets = {TargetKind::Directory},
        // Windows has no fdatasync (the OS's sync policies say so); a mapping takes the end syncs only.
        .syncModes =
            onThisOs<std::vector<SyncMode>>({SyncMode::None, SyncMode::FsyncEnd, SyncMode::FdatasyncEnd},
                                            {SyncMode::None, SyncMode::FsyncEnd}),
        .syncRefusal = onThisOs("stores into a mapping bypass write(2), so O_SYNC, O_DSYNC and fsync-every "
                                "do not apply",
                                "stores into a mapped view bypass WriteFile, so o_dsync and fsync-every do "
                                "not apply (and Windows has no fdatasync or O_SYNC)"),
        .callCost = CallCost::MappedWindow,
        .windowBytes = kMmapWindowBytes,
        .memoryCopyCalls = true};
}

StrategyInfo mmapBatchDirectDeclaration()
{
    return {
        .id = "mmap-batch-direct",
        .description = onThisOs("memcpy into a 16 KiB mapped batch buffer, pwrite it to an O_DIRECT file "
                                "when full",
                                "memcpy into a 16 KiB mapped batch buffer, WriteFile it at its offset to a "
                                "FILE_FLAG_NO_BUFFERING file when full"),
        .needsDirectIo = true,
        .needsFallocate = true,
        .targets = {TargetKind::Directory},
        .syncModes = onThisOs<std::vector<SyncMode>>(
            {SyncMode::None, SyncMode::FsyncEnd, SyncMode::FdatasyncEnd, SyncMode::OSync, SyncMode::ODsync},
            {SyncMode::None, SyncMode::FsyncEnd, SyncMode::ODsync}),
        .syncRefusal =
            onThisOs("fsync-every counts write calls, and this strategy's chunks are copies into a "
                     "mapping",
                     "fsync-every counts write calls, and this strategy's chunks are copies into a "
                     "mapping (and Windows has no fdatasync or O_SYNC)"),
        .callCost = CallCost::Copy,
        .memoryCopyCalls = true,
        .holdsBackBytes = kMmapWindowBytes,
        .keepsBatchInScratchFile = true};
}

StrategyInfo groupCommitDeclaration()
{
    StrategyInfo info{.id = "group-commit",
                      .description = "the threads write one shared file, each write committed by a sync that "
                                     "began after it, shared: a writer that finds none running leads one for "
                                     "everyone who wrote before it, as a database's log writers do",
                      .targets = {TargetKind::Directory},
                      .syncRefusal =
                          "group-commit commits each write with a shared sync: fdatasync-every:1 or "
                          "fsync-every:1",
                      .threadsShareOneFile = true,
                      .countsCommittedWrites = true};
    const std::vector<SyncMode>& osModes = osTerms().syncModes;
    for (const SyncMode mode : {SyncMode::FdatasyncEvery, SyncMode::FsyncEvery}) {
        if (std::find(osModes.begin(), osModes.end(), mode) != osModes.end())
            info.syncModes.push_back(mode);
    }
    return info;
}

StrategyInfo pipeWriteDeclaration()
{
    return {.id = "pipe-write",
            .description = onThisOs("write(2) per chunk into a pipe drained by a reader thread",
                                    "WriteFile per chunk into an anonymous pipe drained by a reader thread"),
            .targets = {TargetKind::Pipe},
            .syncModes = {SyncMode::None},
            .syncRefusal = "a pipe has nothing to sync",
            .readerProcessRefusal =
                onThisOs(std::string(), std::string("the Windows backend runs a pipe's reader as a thread "
                                                    "only: Windows has no fork, and a reader process "
                                                    "would be a second program to start")),
            .readerSpinRefusal =
                onThisOs(std::string(), std::string("the Windows backend's pipe reader waits in ReadFile: an "
                                                    "anonymous pipe has no non-blocking read to spin on"))};
}

StrategyInfo readDeclaration()
{
    return cachedReader(
        {.id = "read",
         .description = onThisOs("read(2) per chunk through the page cache, posix_fadvise hint",
                                 "ReadFile per chunk through the cache, "
                                 "SEQUENTIAL_SCAN/RANDOM_ACCESS hint"),
         .layout = DataLayout::FilePerThread});
}

StrategyInfo freadDeclaration()
{
    return cachedReader({.id = "fread",
                         .description = onThisOs("fread(3) per chunk with the case's setvbuf buffer and "
                                                 "posix_fadvise hint",
                                                 "fread per chunk with the case's setvbuf buffer and hint"),
                         .layout = DataLayout::FilePerThread,
                         .usesStdioBuffer = true});
}

StrategyInfo freadUnlockedDeclaration()
{
    return cachedReader(
        {.id = "fread-unlocked",
         .description = onThisOs("fread_unlocked(3) per chunk: stdio reads without the per-call FILE lock",
                                 "_fread_nolock per chunk: stdio reads without the per-call FILE lock"),
         .layout = DataLayout::FilePerThread,
         .usesStdioBuffer = true});
}

StrategyInfo readDirectDeclaration()
{
    return directReader(
        {.id = "read-direct",
         .description = onThisOs("read(2) per chunk with O_DIRECT, aligned: straight from the "
                                 "device",
                                 "ReadFile per chunk with FILE_FLAG_NO_BUFFERING, sector aligned"),
         .layout = DataLayout::FilePerThread});
}

StrategyInfo mmapReadDeclaration()
{
    // madvise and the mapped section's read-ahead take the same three hints; neither has noreuse.
    return readerInfo(
        {.id = "mmap-read",
         .description = onThisOs("mmap(2) the file, madvise hint, copy each chunk out of the mapping",
                                 "MapViewOfFile of the whole file, each chunk copied out of the view"),
         .layout = DataLayout::FilePerThread,
         .hints = {ReadHint::Sequential, ReadHint::Normal, ReadHint::Random},
         .hintRefusal = onThisOs(std::string("madvise has sequential, random and normal, but no noreuse"),
                                 osTerms().hintRefusal),
         .memoryCopyCalls = true});
}

StrategyInfo readRandomDeclaration()
{
    StrategyInfo info =
        cachedReader({.id = "read-random",
                      .description = onThisOs("pread(2) at random chunk-aligned offsets of one "
                                              "shared file, posix_fadvise hint",
                                              "ReadFile at random chunk-aligned offsets of one "
                                              "shared file, with a hint"),
                      .layout = DataLayout::SharedFile});
    info.randomOffsets = true;
    return info;
}

StrategyInfo readRandomDirectDeclaration()
{
    StrategyInfo info =
        directReader({.id = "read-random-direct",
                      .description = onThisOs("pread(2) at random aligned offsets of one shared "
                                              "file with O_DIRECT",
                                              "ReadFile at random aligned offsets of one shared "
                                              "file, FILE_FLAG_NO_BUFFERING"),
                      .layout = DataLayout::SharedFile});
    info.randomOffsets = true;
    return info;
}

StrategyInfo filesDeclaration(Parallelism parallelism)
{
    const bool serial = parallelism == Parallelism::Single;
    const bool pool = parallelism == Parallelism::Threads;
    StrategyInfo info = cachedReader(
        {.id = serial ? "files-serial"
               : pool ? "files-pool"
                      : "files-per-thread",
         .description = serial ? "every file of the set, one after another, in one thread"
                        : pool ? "the set's files shared out to a pool of threads (the threads axis caps it)"
                               : "a new thread for every file of the set, all at once",
         .layout = DataLayout::FileSet,
         .parallelism = parallelism});
    info.timesCalls = false;
    return info;
}

} // namespace iolab
