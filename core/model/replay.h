// SPDX-License-Identifier: MIT
// The replay of a recorded program (iolab-cli run --replay TRACE): the strategy's name and declaration, and
// how its calls are spaced. The script it re-issues is core/engine/replay_script.h's.
#pragma once

#include "core/model/strategy_info.h"
#include "core/model/trace_calls.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace iolab {

inline constexpr std::string_view kReplayStrategy = "replay";

// Think time between calls: left out (the default: the calls back to back, as a benchmark times them) or kept
// as recorded (each thread waits as long before each call as the program did).
enum class ReplayTiming
{
    BackToBack,
    AsRecorded
};
std::string toString(ReplayTiming timing); // "back-to-back", "as-recorded"
ReplayTiming parseReplayTiming(std::string_view text);

// The ways IOLab rewrites a recording (core/engine/replay_variants.h makes and checks them); the
// replay-variant axis names one, "recorded" (the default) for the program's own calls.
inline constexpr std::string_view kRecordedCalls = "recorded";
enum class VariantKind
{
    StdioBuffer, // every written stream gets a setvbuf(_IOFBF) buffer of `bytes`, flushed before a sync
    Coalesce,    // consecutive writes (or stdio puts) of one handle between sync points made as one call
    Fdatasync,   // fsync as fdatasync where the file's size is already there
    PreallocFdatasync, // each growing file preallocated to its final size, then fdatasync where allowed
    FlushAtSync, // a stream's fflush left out where the next call on it is another put (kept before a sync)
    SyncAtClose, // (weaker) only the last sync of each file kept
    SyncfsBatch, // files written then synced and renamed: all written and closed, one syncfs, then the
                 // renames
    GroupCommit, // threads syncing one file: one sync made for every thread waiting on it (Linux and Windows)
    StdioUnlocked,  // each stdio put made with the unlocked call (fwrite_unlocked, fputc_unlocked)
    WriterPool,     // files written, synced and renamed one after another: shared out over kWriterPoolThreads
    Gather,         // consecutive descriptor writes between sync points as one writev, each write a piece
    RewriteSegment, // each file the program creates written ahead to its final size (as a recycled log
                    // segment is), then overwritten in place; fdatasync where the size is there (Linux)
    DirectBatch,    // a file written through a descriptor: opened O_DIRECT | O_DSYNC, its writes between sync
                    // points gathered into aligned batches of at most 1 MiB, each written durable (Linux)
    MmapBatch,      // direct-batch with each batch gathered in a mapped file (MAP_SHARED), as the
                    // mmap-batch-direct strategy does (Linux)
    IoUring,        // the same file's writes between two syncs and the sync queued on io_uring and submitted
                    // at once, the sync drained after them (Linux)
    Overlapped,     // io-uring's Windows form: the file opened FILE_FLAG_OVERLAPPED, its writes between two
                    // syncs in flight together, FlushFileBuffers once they completed (Windows)
};
inline constexpr std::uint32_t kWriterPoolThreads = 4;
// Every kind, in the order the answer lists them (StdioBuffer stands for its sizes).
inline constexpr VariantKind kVariantKinds[] = {
    VariantKind::StdioBuffer,    VariantKind::StdioUnlocked, VariantKind::Coalesce,
    VariantKind::Gather,         VariantKind::Fdatasync,     VariantKind::PreallocFdatasync,
    VariantKind::RewriteSegment, VariantKind::DirectBatch,   VariantKind::MmapBatch,
    VariantKind::IoUring,        VariantKind::Overlapped,    VariantKind::FlushAtSync,
    VariantKind::SyncfsBatch,    VariantKind::WriterPool,    VariantKind::GroupCommit,
    VariantKind::SyncAtClose};

struct ReplayVariant
{
    VariantKind kind = VariantKind::Coalesce;
    std::uint64_t bytes = 0; // StdioBuffer's buffer

    std::string name() const; // "stdio-buffer-1M", "coalesce", "io-uring", ... (core/model/replay.cpp)
    bool weakens() const { return kind == VariantKind::SyncAtClose; }
    // Keeps every durability point with fewer sync calls: one syncfs for a batch, one sync for a group.
    bool fewerSyncCalls() const
    {
        return kind == VariantKind::SyncfsBatch || kind == VariantKind::GroupCommit;
    }
    // Whether a program on `system` can write this way. Only Linux has fdatasync apart from fsync,
    // preallocation that sets the size, syncfs, writev (WriteFileGather takes only unbuffered, aligned
    // pages), io_uring, and, in the C runtime this build links on Windows (msvcrt.dll, which has no
    // _fwrite_nolock: the Universal CRT's would do), the unlocked stdio calls. Only Windows has overlapped
    // WriteFile, the form io-uring takes there. O_DIRECT batches are NO_BUFFERING | WRITE_THROUGH handles on
    // Windows.
    bool runsOn(trace::System system) const
    {
        const bool linuxOnly = kind == VariantKind::Fdatasync || kind == VariantKind::PreallocFdatasync ||
                               kind == VariantKind::SyncfsBatch || kind == VariantKind::StdioUnlocked ||
                               kind == VariantKind::Gather || kind == VariantKind::IoUring;
        if (linuxOnly)
            return system == trace::System::Linux;
        return kind != VariantKind::Overlapped || system == trace::System::Windows;
    }
};

// A variant's name back (InputError for one IOLab does not know, naming those it does).
ReplayVariant parseReplayVariant(std::string_view name);

// The replay strategy's declaration: a writer to a directory whose size, chunk and threads come from its
// trace, whose threads run inside one job (threadsShareOneFile), with the program's own sync points (no sync
// policy of IOLab's).
StrategyInfo replayStrategyInfo();

} // namespace iolab
