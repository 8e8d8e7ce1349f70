// SPDX-License-Identifier: MIT
#include "platform/common/one_os_strategies.h"

#include "platform/basic_strategy.h"

namespace iolab {

namespace {

class UnavailableStrategy final : public BasicStrategy
{
public:
    explicit UnavailableStrategy(StrategyInfo info) : BasicStrategy(std::move(info)) {}

    std::unique_ptr<Job> prepare(const JobSpec&, Outcome& outcome) const override
    {
        outcome = {Status::Unsupported, 0, info().id, info().unavailable.value_or("")};
        return nullptr;
    }
};

} // namespace

const OneOsStrategy& vmspliceDeclaration()
{
    static const OneOsStrategy declaration{
        {.id = "vmsplice",
         .description =
             "memcpy into a ring of page-aligned buffers (double-buffered when the pipe is one chunk), "
             "vmsplice(2) each into a pipe sized to the chunk with F_SETPIPE_SZ, drained by a reader "
             "thread",
         .targets = {TargetKind::Pipe},
         .syncModes = {SyncMode::None},
         .syncRefusal = "a pipe has nothing to sync",
         .ownsPipePages = true},
        "vmsplice(2) is Linux-only: a Windows pipe cannot take a writer's pages; pipe-write is the Windows "
        "pipe "
        "case"};
    return declaration;
}

const OneOsStrategy& pwritev2DsyncDeclaration()
{
    static const OneOsStrategy declaration{
        {.id = "pwritev2-dsync",
         .description =
             "pwritev2(2) with RWF_DSYNC per chunk: each call returns once its data is durable, as "
             "O_DSYNC does, but chosen per call rather than for the whole file",
         .targets = {TargetKind::Directory},
         .syncModes = {SyncMode::None},
         .syncRefusal = "each pwritev2 with RWF_DSYNC is durable when it returns: no sync policy applies",
         .preallocations = everyPreallocation(),
         .durableEachWrite = true},
        "pwritev2(2) and RWF_DSYNC are Linux-only; on Windows, direct with O_DSYNC (FILE_FLAG_WRITE_THROUGH "
        "with NO_BUFFERING) is the write that returns durable"};
    return declaration;
}

const OneOsStrategy& syncFileRangeDeclaration()
{
    static const OneOsStrategy declaration{
        {.id = "sync-file-range",
         .description = "write(2), then sync_file_range(WAIT_BEFORE|WRITE|WAIT_AFTER) over the chunk: not "
                        "durable, data only, no flush",
         .targets = {TargetKind::Directory},
         .syncModes = {SyncMode::None},
         .syncRefusal = "sync-file-range's own call is the sync it measures: no other policy applies",
         .preallocations = everyPreallocation(),
         .notDurable = "sync_file_range writes the data out to the device but flushes neither the device's "
                       "write cache nor the file's metadata, so a power cut can still lose it"},
        "sync_file_range(2) is Linux-only, and Windows has no call that writes a range out without a flush"};
    return declaration;
}

const OneOsStrategy& uringLinkedSyncDeclaration()
{
    static const OneOsStrategy declaration{
        {.id = "uring-linked-sync",
         .description =
             "io_uring: each write linked (IOSQE_IO_LINK) to an fsync or fdatasync every N writes, "
             "one submission per write waiting for both, as a log writer that needs each record "
             "durable before the next",
         .targets = {TargetKind::Directory},
         .syncModes = {SyncMode::FdatasyncEvery, SyncMode::FsyncEvery},
         .syncRefusal = "uring-linked-sync links its writes to fsync-every:N or fdatasync-every:N",
         .preallocations = everyPreallocation(),
         .syncInsideCalls = true},
        "io_uring is Linux-only; on Windows, write with fsync-every:1 (FlushFileBuffers after each write) is "
        "the write followed by its sync"};
    return declaration;
}

std::unique_ptr<Strategy> makeUnavailableStrategy(const OneOsStrategy& declaration)
{
    StrategyInfo info = declaration.info;
    info.unavailable = declaration.elsewhere;
    return std::make_unique<UnavailableStrategy>(std::move(info));
}

} // namespace iolab
