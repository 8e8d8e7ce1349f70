// SPDX-License-Identifier: MIT
#include "core/matrix.h"

#include "core/error.h"
#include "core/registry.h"
#include "core/units.h"

#include <fmt/format.h>

#include <algorithm>

namespace iolab {

namespace {

bool supportsSync(const StrategyInfo& info, SyncMode mode)
{
    return std::find(info.syncModes.begin(), info.syncModes.end(), mode) != info.syncModes.end();
}

bool supportsTarget(const StrategyInfo& info, TargetKind kind)
{
    return std::find(info.targets.begin(), info.targets.end(), kind) != info.targets.end();
}

std::string targetList(const StrategyInfo& info)
{
    std::string list;
    for (auto kind : info.targets) {
        if (!list.empty())
            list += " or ";
        list += toString(kind);
    }
    return list;
}

bool contains(const std::vector<ReadHint>& hints, ReadHint hint)
{
    return std::find(hints.begin(), hints.end(), hint) != hints.end();
}

// The axes only reads have (hint, cache state, file set) against what the strategy is.
std::string readAxesProblem(const Case& c, const StrategyInfo& info)
{
    const bool reads = info.direction == Direction::Read;
    if (c.direction != info.direction)
        return fmt::format("{} {}s; the case says {}", c.strategy, toString(info.direction),
                           toString(c.direction));
    if (!reads) {
        if (c.hint != ReadHint::NotApplicable)
            return fmt::format("the read hint axis ({}) applies only to reads; {} writes", toString(c.hint),
                               c.strategy);
        if (c.cache != CacheState::NotApplicable)
            return fmt::format("the cache axis ({}) applies only to reads; {} writes", toString(c.cache),
                               c.strategy);
        if (!c.fileSet.empty())
            return fmt::format("{} writes; a file set is read by files-serial, files-pool and "
                               "files-per-thread",
                               c.strategy);
        return {};
    }
    if (c.sync.mode != SyncMode::None)
        return fmt::format("{} reads; sync policy {} applies to writes", c.strategy, toString(c.sync));
    if (c.cache == CacheState::NotApplicable)
        return fmt::format("{} needs a cache state (cold or warm)", c.strategy);
    if (info.hints.empty() && c.hint != ReadHint::NotApplicable)
        return fmt::format("{} takes no read hint ({}): {}", c.strategy, toString(c.hint), info.hintRefusal);
    if (!info.hints.empty() && !contains(info.hints, c.hint))
        return fmt::format("{} does not take read hint {}: {}", c.strategy, toString(c.hint),
                           info.hintRefusal);
    if ((info.layout == DataLayout::FileSet) != !c.fileSet.empty())
        return info.layout == DataLayout::FileSet
                   ? fmt::format("{} reads a generated file set; the case names none", c.strategy)
                   : fmt::format("{} reads one large file per thread; a file set is for files-serial, "
                                 "files-pool and files-per-thread",
                                 c.strategy);
    if (info.parallelism == Parallelism::Single && c.threads != 1)
        return fmt::format("{} reads in one thread, in order; for {} threads use files-pool", c.strategy,
                           c.threads);
    if (info.parallelism == Parallelism::PerFile && c.threads != c.fileSet.files)
        return fmt::format("{} starts one thread per file ({}), not {}", c.strategy, c.fileSet.files,
                           c.threads);
    return {};
}

} // namespace

void validate(const Matrix& matrix, const Registry& registry)
{
    const std::string where =
        matrix.name.empty() ? std::string("matrix") : fmt::format("matrix '{}'", matrix.name);
    if (matrix.groups.empty())
        throw InputError(fmt::format("{}: it has no cases (no strategies, chunks and sizes given)", where));
    for (std::size_t g = 0; g < matrix.groups.size(); ++g) {
        const auto& group = matrix.groups[g];
        const std::string at = matrix.groups.size() == 1 ? where : fmt::format("{}, group {}", where, g + 1);
        if (group.strategies.empty())
            throw InputError(fmt::format("{}: no strategy given (known: {})", at, registry.knownIds()));
        if (group.chunks.empty())
            throw InputError(fmt::format("{}: no chunk size given", at));
        bool needsSizes = false;
        bool needsFileSets = false;
        for (const auto& id : group.strategies) {
            const Strategy* strategy = registry.find(id);
            if (strategy == nullptr)
                throw InputError(
                    fmt::format("{}: unknown strategy '{}' (known: {})", at, id, registry.knownIds()));
            (strategy->info().layout == DataLayout::FileSet ? needsFileSets : needsSizes) = true;
        }
        if (needsSizes && group.sizes.empty())
            throw InputError(fmt::format("{}: no total size given", at));
        if (needsFileSets && group.fileSets.empty())
            throw InputError(fmt::format(
                "{}: no file set given for the file-set readers (e.g. 2000x4K or 2000xarticle-2b)", at));
        for (const auto& set : group.fileSets) {
            if (set.empty() || set.mix == SizeMix::None)
                throw InputError(fmt::format("{}: a file set needs a file count and sizes", at));
        }
        for (auto chunk : group.chunks) {
            if (chunk == 0)
                throw InputError(fmt::format("{}: a chunk of 0 bytes writes nothing", at));
            if (chunk > kMaxChunkBytes)
                throw InputError(fmt::format("{}: chunk {} is larger than the {} limit", at,
                                             formatBytes(chunk), formatBytes(kMaxChunkBytes)));
        }
        for (auto size : group.sizes) {
            if (size == 0)
                throw InputError(fmt::format("{}: a total size of 0 bytes writes nothing", at));
            if (size > kMaxTotalBytes)
                throw InputError(fmt::format("{}: total size {} is larger than the {} limit", at,
                                             formatBytes(size), formatBytes(kMaxTotalBytes)));
        }
        for (auto threads : group.threads) {
            if (threads == 0 || threads > kMaxThreads)
                throw InputError(fmt::format("{}: {} threads is outside the allowed range 1 to {}", at,
                                             threads, kMaxThreads));
        }
        for (const auto& buffer : group.buffers) {
            if (buffer.mode == BufferMode::Bytes && (buffer.bytes == 0 || buffer.bytes > kMaxChunkBytes))
                throw InputError(fmt::format("{}: stdio buffer {} is outside 1 B to {}", at,
                                             formatBytes(buffer.bytes), formatBytes(kMaxChunkBytes)));
        }
    }
}

std::string refusalReason(const Case& c, const Registry& registry, const TargetInfo& target)
{
    const Strategy* strategy = registry.find(c.strategy);
    if (strategy == nullptr)
        return fmt::format("unknown strategy '{}'", c.strategy);
    const StrategyInfo& info = strategy->info();
    if (info.unavailable)
        return *info.unavailable;
    if (!supportsTarget(info, c.target))
        return fmt::format("{} writes to a {} target, not to {}", c.strategy, targetList(info),
                           toString(c.target));
    if (c.buffer.mode != BufferMode::NotApplicable && !info.usesStdioBuffer)
        return fmt::format(
            "the stdio buffer axis ({}) applies only to stdio strategies; {} has no stdio buffer",
            toString(c.buffer), c.strategy);
    if (c.buffer.mode == BufferMode::NotApplicable && info.usesStdioBuffer)
        return fmt::format("{} needs a stdio buffer setting (none, default or a size)", c.strategy);
    if (auto reason = readAxesProblem(c, info); !reason.empty())
        return reason;
    if (c.target != TargetKind::Directory && c.sync.mode != SyncMode::None)
        return fmt::format("sync policy {} needs a file; a {} target has nothing to sync", toString(c.sync),
                           toString(c.target));
    if (!supportsSync(info, c.sync.mode))
        return fmt::format("{} does not take sync policy {}: {}", c.strategy, toString(c.sync),
                           info.syncRefusal);
    if (info.layout == DataLayout::FileSet) {
        if (c.threads > kMaxThreads)
            return fmt::format("{} would start {} threads at once, over the limit of {}; use files-pool or "
                               "a set of at most {} files",
                               c.strategy, c.threads, kMaxThreads, kMaxThreads);
        if (auto reason = strategy->refusal(c, target))
            return *reason;
        return {};
    }
    const std::uint64_t share = c.totalBytes / c.threads;
    if (share == 0)
        return fmt::format("{} threads cannot share {} (less than one byte each)", c.threads,
                           formatBytes(c.totalBytes));
    if (c.chunkBytes > share)
        return fmt::format("chunk {} is larger than each thread's share of the total ({})",
                           formatBytes(c.chunkBytes), formatBytes(share));
    if (c.target == TargetKind::Directory && info.needsDirectIo && !target.directIoProblem.empty())
        return target.directIoProblem;
    if (c.target == TargetKind::Directory && info.needsFallocate && !target.fallocateProblem.empty())
        return target.fallocateProblem;
    if (info.needsBlockAlignedChunks && c.target == TargetKind::Directory) {
        const std::uint64_t block = target.logicalBlockBytes;
        if (c.chunkBytes % block != 0)
            return fmt::format(
                "chunk {} is not a multiple of the target's logical block size ({}), which {} requires",
                formatBytes(c.chunkBytes), formatBytes(block), c.strategy);
        for (std::uint32_t t = 0; t < c.threads; ++t) {
            if (c.bytesForThread(t) % block != 0)
                return fmt::format(
                    "each thread's share ({}) must be a multiple of the logical block size ({}) for {}",
                    formatBytes(c.bytesForThread(t)), formatBytes(block), c.strategy);
        }
    }
    if (auto reason = strategy->refusal(c, target))
        return *reason;
    return {};
}

ExpandedMatrix expand(const Matrix& matrix, const Registry& registry, const TargetInfo& target)
{
    validate(matrix, registry);
    ExpandedMatrix out;
    const auto add = [&](Case c) {
        const auto duplicate = std::find(out.cases.begin(), out.cases.end(), c);
        if (duplicate != out.cases.end()) {
            out.refused.push_back(
                {c, fmt::format("duplicate of case {}", duplicate - out.cases.begin() + 1)});
            return;
        }
        auto reason = refusalReason(c, registry, target);
        if (reason.empty())
            out.cases.push_back(std::move(c));
        else
            out.refused.push_back({std::move(c), std::move(reason)});
    };

    for (const auto& group : matrix.groups) {
        const auto syncs = group.syncs.empty() ? std::vector<SyncPolicy>{SyncPolicy{}} : group.syncs;
        const auto threads = group.threads.empty() ? std::vector<std::uint32_t>{1} : group.threads;
        for (const auto& id : group.strategies) {
            const StrategyInfo& info = registry.find(id)->info();
            const bool reads = info.direction == Direction::Read;
            std::vector<StdioBuffer> buffers = group.buffers;
            if (buffers.empty())
                buffers = {info.usesStdioBuffer ? StdioBuffer{BufferMode::Default, 0} : StdioBuffer{}};
            std::vector<TargetKind> targets = group.targets;
            if (targets.empty())
                targets = {info.targets.empty() ? TargetKind::Directory : info.targets.front()};
            std::vector<ReadHint> hints = group.hints;
            if (hints.empty())
                hints = {info.hints.empty() ? ReadHint::NotApplicable : info.hints.front()};
            std::vector<CacheState> caches = group.caches;
            if (caches.empty())
                caches = {reads ? CacheState::Cold : CacheState::NotApplicable};
            // Each strategy's own amount of work: a file set or a size.
            std::vector<std::pair<std::uint64_t, FileSetSpec>> amounts;
            if (info.layout == DataLayout::FileSet) {
                for (const auto& set : group.fileSets)
                    amounts.emplace_back(fileSetBytes(set), set);
            } else {
                for (auto size : group.sizes)
                    amounts.emplace_back(size, FileSetSpec{});
            }
            std::vector<std::uint32_t> threadCounts = threads;
            if (info.parallelism == Parallelism::PerFile)
                threadCounts = {0}; // replaced by the set's file count below
            else if (info.parallelism == Parallelism::Single)
                threadCounts = {1}; // one thread whatever the group's axis says
            for (const auto& [size, set] : amounts)
                for (auto chunk : group.chunks)
                    for (const auto& buffer : buffers)
                        for (const auto& sync : syncs)
                            for (auto threadCount : threadCounts)
                                for (auto kind : targets)
                                    for (auto hint : hints)
                                        for (auto cache : caches) {
                                            Case c;
                                            c.strategy = id;
                                            c.direction = info.direction;
                                            c.chunkBytes = chunk;
                                            c.totalBytes = size;
                                            c.buffer = buffer;
                                            c.sync = sync;
                                            c.threads = threadCount == 0 ? set.files : threadCount;
                                            c.target = kind;
                                            c.hint = hint;
                                            c.cache = cache;
                                            c.fileSet = set;
                                            add(std::move(c));
                                        }
        }
    }
    return out;
}

} // namespace iolab
