// SPDX-License-Identifier: MIT
#include "platform/common/queued_strategies.h"

#include <fmt/format.h>

#include <string>

namespace iolab {

namespace {

enum class Access
{
    SequentialWrite,
    RandomWrite,
    SequentialRead,
    RandomRead
};

struct Family
{
    const char* prefix;     // "uring", "overlapped"
    const char* mechanism;  // in descriptions: "io_uring", "overlapped I/O on a completion port"
    const char* directFlag; // "O_DIRECT", "FILE_FLAG_NO_BUFFERING"
    std::string elsewhere;  // why the other OS cannot run it
    bool uringOptions;      // it takes io_uring's own options (the --uring axis)
};

std::string idOf(const Family& family, Access access, bool direct)
{
    const char* kind = "";
    switch (access) {
    case Access::SequentialWrite:
        kind = "write";
        break;
    case Access::RandomWrite:
        kind = "random-write";
        break;
    case Access::SequentialRead:
        kind = "read";
        break;
    case Access::RandomRead:
        kind = "random-read";
        break;
    }
    return fmt::format("{}-{}{}", family.prefix, kind, direct ? "-direct" : "");
}

std::string descriptionOf(const Family& family, Access access, bool direct)
{
    const std::string how =
        direct ? fmt::format(" with {}", family.directFlag) : std::string(" through the page cache");
    switch (access) {
    case Access::SequentialWrite:
        return fmt::format("{}: sequential writes of a file per thread, queue-depth requests in flight{}",
                           family.mechanism, how);
    case Access::RandomWrite:
        return fmt::format(
            "{}: every chunk of a file per thread written once at random chunk-aligned offsets, "
            "queue-depth requests in flight{}",
            family.mechanism, how);
    case Access::SequentialRead:
        return fmt::format("{}: sequential reads of a file per thread, queue-depth requests in flight{}",
                           family.mechanism, how);
    case Access::RandomRead:
        return fmt::format(
            "{}: reads at random chunk-aligned offsets of one shared file, queue-depth requests "
            "in flight{}",
            family.mechanism, how);
    }
    return {};
}

std::vector<OneOsStrategy> declare(const Family& family)
{
    std::vector<OneOsStrategy> out;
    for (const Access access :
         {Access::SequentialWrite, Access::RandomWrite, Access::SequentialRead, Access::RandomRead}) {
        for (const bool direct : {false, true}) {
            StrategyInfo info{.id = idOf(family, access, direct),
                              .description = descriptionOf(family, access, direct)};
            info.needsBlockAlignedChunks = direct;
            info.needsDirectIo = direct;
            info.maxQueueDepth = kQueuedStrategyMaxDepth;
            info.callCost = direct ? CallCost::DirectWrite : CallCost::Syscall;
            info.randomOffsets = access == Access::RandomWrite || access == Access::RandomRead;
            info.takesUringOptions = family.uringOptions;
            if (access == Access::SequentialWrite || access == Access::RandomWrite) {
                info.targets = {TargetKind::Directory};
                info.syncModes = {SyncMode::None,       SyncMode::FsyncEnd,       SyncMode::FdatasyncEnd,
                                  SyncMode::FsyncEvery, SyncMode::FdatasyncEvery, SyncMode::OSync,
                                  SyncMode::ODsync};
            } else {
                info.layout =
                    access == Access::RandomRead ? DataLayout::SharedFile : DataLayout::FilePerThread;
                if (direct)
                    info.hintRefusal = fmt::format(
                        "{} bypasses the page cache, so there is no readahead to advise", family.directFlag);
                info = readerInfo(std::move(info));
            }
            out.push_back({std::move(info), family.elsewhere});
        }
    }
    return out;
}

} // namespace

const std::vector<OneOsStrategy>& uringDeclarations()
{
    static const std::vector<OneOsStrategy> declarations =
        declare({"uring", "io_uring", "O_DIRECT",
                 "io_uring is Linux's asynchronous interface; on Windows the overlapped-* strategies keep "
                 "requests in flight",
                 true});
    return declarations;
}

const std::vector<OneOsStrategy>& overlappedDeclarations()
{
    static const std::vector<OneOsStrategy> declarations = declare(
        {"overlapped", "overlapped I/O on a completion port", "FILE_FLAG_NO_BUFFERING",
         "overlapped I/O on a completion port is Windows's asynchronous interface; on Linux the uring-* "
         "strategies keep requests in flight",
         false});
    return declarations;
}

} // namespace iolab
