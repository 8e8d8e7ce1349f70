// SPDX-License-Identifier: MIT
#include "core/model/matrix.h"

#include "core/base/error.h"
#include "core/base/units.h"
#include "core/engine/registry.h"
#include "core/model/axes.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <unordered_map>

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

// The declared extra axes: a value for a strategy that does not take the axis, or one the axis refuses.
std::string extraAxesProblem(const Case& c, const StrategyInfo& info)
{
    for (const auto& axis : caseAxes()) {
        if (!axis.extra())
            continue;
        const auto it = c.extraAxes.find(axis.matrixKey);
        if (it == c.extraAxes.end())
            continue;
        if (!axis.appliesTo(info))
            return fmt::format("{} takes no {} ({})", c.strategy, axis.name, it->second);
        if (axis.refusal)
            if (auto reason = axis.refusal(c, info); !reason.empty())
                return reason;
    }
    return {};
}

// 10000000 -> "10,000,000"; the largest value reads "more than 18 quintillion".
std::string groupedCount(std::uint64_t n)
{
    if (n == std::numeric_limits<std::uint64_t>::max())
        return "more than 18,000,000,000,000,000,000";
    std::string digits = std::to_string(n);
    for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0; at -= 3)
        digits.insert(static_cast<std::size_t>(at), ",");
    return digits;
}

// The preallocate axis: a file written by a strategy that takes it, on a filesystem that can.
std::string preallocateProblem(const Case& c, const StrategyInfo& info, const TargetInfo& target)
{
    if (c.preallocate == Preallocate::None)
        return {};
    if (c.target != TargetKind::Directory)
        return fmt::format("preallocate {} needs a file; a {} target has nothing to preallocate",
                           toString(c.preallocate), toString(c.target));
    if (std::find(info.preallocations.begin(), info.preallocations.end(), c.preallocate) ==
        info.preallocations.end())
        return fmt::format("{} does not take preallocate {}: {}", c.strategy, toString(c.preallocate),
                           info.preallocateRefusal);
    if (c.preallocate == Preallocate::Fallocate && info.needsFallocate)
        return fmt::format(
            "{} always reserves its file's space with fallocate (a store into a hole on a full "
            "disk would be a crash, not an error): preallocate none already does that",
            c.strategy);
    if (c.preallocate == Preallocate::Fallocate && !target.fallocateProblem.empty())
        return fmt::format("preallocate fallocate: {}", target.fallocateProblem);
    return {};
}

} // namespace

void validate(const Matrix& matrix, const Registry& registry)
{
    const std::string where =
        matrix.name.empty() ? std::string("matrix") : fmt::format("matrix '{}'", matrix.name);
    if (matrix.repetitions && (*matrix.repetitions < 1 || *matrix.repetitions > kMaxRepetitions))
        throw InputError(fmt::format("{}: {} measured repetitions asked; give 1 to {}", where,
                                     *matrix.repetitions, kMaxRepetitions));
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
            if (!totalSizeAllowed(size))
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
    if (const std::uint64_t cases = caseCount(matrix, registry); cases > kMaxCases)
        throw InputError(fmt::format("{}: its axes make {} cases, over the limit of {} cases in one run; "
                                     "split it into smaller matrices",
                                     where, groupedCount(cases), groupedCount(kMaxCases)));
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
    if (auto reason = extraAxesProblem(c, info); !reason.empty())
        return reason;
    if (c.target != TargetKind::Directory && c.sync.mode != SyncMode::None)
        return fmt::format("sync policy {} needs a file; a {} target has nothing to sync", toString(c.sync),
                           toString(c.target));
    if (!supportsSync(info, c.sync.mode))
        return fmt::format("{} does not take sync policy {}: {}", c.strategy, toString(c.sync),
                           info.syncRefusal);
    if (auto reason = preallocateProblem(c, info, target); !reason.empty())
        return reason;
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

namespace {

// The values a declared extra axis takes for one strategy of a group: the group's, else the default for a
// strategy that takes the axis, else none (the case carries no value).
std::vector<std::string> extraValues(const AxisSpec& axis, const MatrixGroup& group, const StrategyInfo& info)
{
    if (const auto it = group.extraAxes.find(axis.matrixKey);
        it != group.extraAxes.end() && !it->second.empty())
        return it->second;
    if (axis.appliesTo(info))
        return {axis.defaultValue};
    return {};
}

std::uint64_t extraCombinations(const MatrixGroup& group, const StrategyInfo& info)
{
    std::uint64_t product = 1;
    for (const auto& axis : caseAxes()) {
        if (!axis.extra())
            continue;
        const std::uint64_t n = std::max<std::size_t>(1, extraValues(axis, group, info).size());
        if (product > std::numeric_limits<std::uint64_t>::max() / n)
            return std::numeric_limits<std::uint64_t>::max();
        product *= n;
    }
    return product;
}

// Calls `add` once per combination of the extra axes' values, each set on a copy of `c`.
template <class Add>
void expandExtras(Case c, const MatrixGroup& group, const StrategyInfo& info, std::size_t from, Add&& add)
{
    const auto& axes = caseAxes();
    while (from < axes.size() && !axes[from].extra())
        ++from;
    if (from == axes.size()) {
        add(std::move(c));
        return;
    }
    const auto values = extraValues(axes[from], group, info);
    if (values.empty()) {
        expandExtras(std::move(c), group, info, from + 1, add);
        return;
    }
    for (const auto& value : values) {
        Case with = c;
        with.extraAxes[axes[from].matrixKey] = value;
        expandExtras(std::move(with), group, info, from + 1, add);
    }
}

// The values each axis takes for one strategy of a group, defaults filled in: what expand() iterates over.
struct StrategyAxes
{
    std::vector<StdioBuffer> buffers;
    std::vector<SyncPolicy> syncs;
    std::vector<std::uint32_t> threadCounts; // 0: the file set's file count
    std::vector<TargetKind> targets;
    std::vector<ReadHint> hints;
    std::vector<CacheState> caches;
    std::vector<Preallocate> preallocations;
    std::vector<std::pair<std::uint64_t, FileSetSpec>> amounts; // a size, or a file set and its bytes

    std::uint64_t combinations(std::size_t chunks) const
    {
        std::uint64_t product = 1;
        for (const std::size_t n : {amounts.size(), chunks, buffers.size(), syncs.size(), threadCounts.size(),
                                    targets.size(), hints.size(), caches.size(), preallocations.size()}) {
            if (n != 0 && product > std::numeric_limits<std::uint64_t>::max() / n)
                return std::numeric_limits<std::uint64_t>::max();
            product *= n;
        }
        return product;
    }
};

StrategyAxes axesFor(const MatrixGroup& group, const StrategyInfo& info)
{
    StrategyAxes axes;
    const bool reads = info.direction == Direction::Read;
    axes.syncs = group.syncs.empty() ? std::vector<SyncPolicy>{SyncPolicy{}} : group.syncs;
    axes.buffers = group.buffers;
    if (axes.buffers.empty())
        axes.buffers = {info.usesStdioBuffer ? StdioBuffer{BufferMode::Default, 0} : StdioBuffer{}};
    axes.targets = group.targets;
    if (axes.targets.empty())
        axes.targets = {info.targets.empty() ? TargetKind::Directory : info.targets.front()};
    axes.hints = group.hints;
    if (axes.hints.empty())
        axes.hints = {info.hints.empty() ? ReadHint::NotApplicable : info.hints.front()};
    axes.caches = group.caches;
    if (axes.caches.empty())
        axes.caches = {reads ? CacheState::Cold : CacheState::NotApplicable};
    axes.preallocations = group.preallocations;
    if (axes.preallocations.empty())
        axes.preallocations = {Preallocate::None};
    if (info.layout == DataLayout::FileSet) {
        for (const auto& set : group.fileSets)
            axes.amounts.emplace_back(fileSetBytes(set), set);
    } else {
        for (auto size : group.sizes)
            axes.amounts.emplace_back(size, FileSetSpec{});
    }
    if (info.parallelism == Parallelism::PerFile)
        axes.threadCounts = {0}; // replaced by the set's file count
    else if (info.parallelism == Parallelism::Single)
        axes.threadCounts = {1}; // one thread whatever the group's axis says
    else
        axes.threadCounts = group.threads.empty() ? std::vector<std::uint32_t>{1} : group.threads;
    return axes;
}

// Every field of a case, exactly: two cases have the same key when they are equal.
std::string caseKey(const Case& c)
{
    std::string extras;
    for (const auto& [key, value] : c.extraAxes)
        extras += fmt::format("|{}={}", key, value);
    return extras + fmt::format("{}|{}|{}|{}|{}:{}|{}:{}|{}|{}|{}|{}|{}:{}:{}:{}:{}:{}|{}", c.strategy,
                                static_cast<int>(c.direction), c.chunkBytes, c.totalBytes,
                                static_cast<int>(c.buffer.mode), c.buffer.bytes,
                                static_cast<int>(c.sync.mode), c.sync.everyWrites, c.threads,
                                static_cast<int>(c.target), static_cast<int>(c.hint),
                                static_cast<int>(c.cache), c.fileSet.files, static_cast<int>(c.fileSet.mix),
                                c.fileSet.minBytes, c.fileSet.maxBytes, c.fileSet.meanBytes, c.fileSet.name,
                                static_cast<int>(c.preallocate));
}

} // namespace

std::uint64_t caseCount(const Matrix& matrix, const Registry& registry)
{
    std::uint64_t total = 0;
    for (const auto& group : matrix.groups) {
        for (const auto& id : group.strategies) {
            const Strategy* strategy = registry.find(id);
            if (strategy == nullptr)
                continue;
            const std::uint64_t typed = axesFor(group, strategy->info()).combinations(group.chunks.size());
            const std::uint64_t extras = extraCombinations(group, strategy->info());
            const std::uint64_t n = typed != 0 && extras > std::numeric_limits<std::uint64_t>::max() / typed
                                        ? std::numeric_limits<std::uint64_t>::max()
                                        : typed * extras;
            if (n > std::numeric_limits<std::uint64_t>::max() - total)
                return std::numeric_limits<std::uint64_t>::max();
            total += n;
        }
    }
    return total;
}

ExpandedMatrix expand(const Matrix& matrix, const Registry& registry, const TargetInfo& target)
{
    validate(matrix, registry);
    ExpandedMatrix out;
    std::unordered_map<std::string, std::size_t> seen; // case key -> index in out.cases
    const auto add = [&](Case c) {
        std::string key = caseKey(c);
        if (const auto duplicate = seen.find(key); duplicate != seen.end()) {
            out.refused.push_back({c, fmt::format("duplicate of case {}", duplicate->second + 1)});
            return;
        }
        auto reason = refusalReason(c, registry, target);
        if (reason.empty()) {
            seen.emplace(std::move(key), out.cases.size());
            out.cases.push_back(std::move(c));
        } else {
            out.refused.push_back({std::move(c), std::move(reason)});
        }
    };

    for (const auto& group : matrix.groups) {
        for (const auto& id : group.strategies) {
            const StrategyInfo& info = registry.find(id)->info();
            const StrategyAxes axes = axesFor(group, info);
            for (const auto& [size, set] : axes.amounts)
                for (auto chunk : group.chunks)
                    for (const auto& buffer : axes.buffers)
                        for (const auto& sync : axes.syncs)
                            for (auto threadCount : axes.threadCounts)
                                for (auto kind : axes.targets)
                                    for (auto hint : axes.hints)
                                        for (auto cache : axes.caches)
                                            for (auto preallocate : axes.preallocations) {
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
                                                c.preallocate = preallocate;
                                                expandExtras(std::move(c), group, info, 0, add);
                                            }
        }
    }
    return out;
}

} // namespace iolab
