// SPDX-License-Identifier: MIT
#include "core/model/strategy_methods.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace iolab {

namespace {

using enum IoMethod;

constexpr StrategyMethod stdioChunk(std::string_view id, BaselineRole baseline = BaselineRole::None)
{
    return {.id = id, .method = StdioChunk, .baseline = baseline};
}

constexpr StrategyMethod plain(std::string_view id, bool direct, bool random, bool sharedFile = false,
                               BaselineRole baseline = BaselineRole::None,
                               SyncLabMethod syncLab = SyncLabMethod::None)
{
    return {.id = id,
            .method = Plain,
            .direct = direct,
            .random = random,
            .sharedFile = sharedFile,
            .baseline = baseline,
            .syncLab = syncLab};
}

constexpr StrategyMethod queued(std::string_view id, IoMethod method, bool direct, bool random,
                                bool sharedFile = false)
{
    return {.id = id, .method = method, .direct = direct, .random = random, .sharedFile = sharedFile};
}

constexpr std::array kMethods{
    // Writes
    stdioChunk("stdio", BaselineRole::Writes),
    stdioChunk("stdio-unlocked"),
    stdioChunk("stdio-unlocked-call"),
    StrategyMethod{.id = "putc", .method = StdioByte},
    StrategyMethod{.id = "putc-unlocked", .method = StdioByte},
    StrategyMethod{.id = "fputc", .method = StdioByte},
    plain("write", false, false, false, BaselineRole::None, SyncLabMethod::Write),
    plain("direct", true, false, false, BaselineRole::None, SyncLabMethod::DirectWrite),
    plain("write-random", false, true),
    plain("direct-random", true, true),
    StrategyMethod{.id = "mmap-window", .method = MmapWindow},
    StrategyMethod{.id = "mmap-batch-direct", .method = MmapBatchDirect, .direct = true},
    StrategyMethod{.id = "group-commit", .method = GroupCommit, .sharedFile = true},
    StrategyMethod{.id = "pipe-write", .method = Pipe, .baseline = BaselineRole::PipeWrites},
    StrategyMethod{.id = "vmsplice", .method = Pipe},
    StrategyMethod{.id = "pwritev2-dsync", .method = Pwritev2Dsync, .syncLab = SyncLabMethod::Pwritev2Dsync},
    StrategyMethod{.id = "sync-file-range", .method = SyncFileRange, .syncLab = SyncLabMethod::SyncFileRange},
    StrategyMethod{
        .id = "uring-linked-sync", .method = UringLinkedSync, .syncLab = SyncLabMethod::UringLinkedSync},
    // Reads
    plain("read", false, false, false, BaselineRole::Reads),
    plain("read-direct", true, false),
    plain("read-random", false, true, true),
    plain("read-random-direct", true, true, true),
    stdioChunk("fread"),
    stdioChunk("fread-unlocked"),
    StrategyMethod{.id = "mmap-read", .method = MmapRead},
    StrategyMethod{.id = "files-serial",
                   .method = FileSet,
                   .baseline = BaselineRole::FileSets,
                   .fileSetThreads = Parallelism::Single},
    StrategyMethod{.id = "files-pool", .method = FileSet},
    StrategyMethod{.id = "files-per-thread", .method = FileSet, .fileSetThreads = Parallelism::PerFile},
    // Queued: io_uring (Linux) and overlapped I/O (Windows)
    queued("uring-write", UringQueue, false, false),
    queued("uring-write-direct", UringQueue, true, false),
    queued("uring-random-write", UringQueue, false, true),
    queued("uring-random-write-direct", UringQueue, true, true),
    queued("uring-read", UringQueue, false, false),
    queued("uring-read-direct", UringQueue, true, false),
    queued("uring-random-read", UringQueue, false, true, true),
    queued("uring-random-read-direct", UringQueue, true, true, true),
    queued("overlapped-write", OverlappedQueue, false, false),
    queued("overlapped-write-direct", OverlappedQueue, true, false),
    queued("overlapped-random-write", OverlappedQueue, false, true),
    queued("overlapped-random-write-direct", OverlappedQueue, true, true),
    queued("overlapped-read", OverlappedQueue, false, false),
    queued("overlapped-read-direct", OverlappedQueue, true, false),
    queued("overlapped-random-read", OverlappedQueue, false, true, true),
    queued("overlapped-random-read-direct", OverlappedQueue, true, true, true),
};

} // namespace

std::span<const StrategyMethod> strategyMethods()
{
    return kMethods;
}

const StrategyMethod* strategyMethod(std::string_view id)
{
    const auto it =
        std::find_if(kMethods.begin(), kMethods.end(), [id](const StrategyMethod& m) { return m.id == id; });
    return it == kMethods.end() ? nullptr : &*it;
}

std::string baselineOf(BaselineRole role)
{
    const auto it = std::find_if(kMethods.begin(), kMethods.end(),
                                 [role](const StrategyMethod& m) { return m.baseline == role; });
    if (role == BaselineRole::None || it == kMethods.end())
        throw std::logic_error("no strategy is the baseline of this role");
    return std::string(it->id);
}

} // namespace iolab
