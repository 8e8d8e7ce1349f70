// SPDX-License-Identifier: MIT
#include "core/model/matrix.h"

#include "core/base/error.h"
#include "core/base/units.h"
#include "core/engine/memory_budget.h"
#include "core/engine/registry.h"
#include "core/model/axes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace iolab {

namespace {

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

} // namespace

std::string toString(CrashProbeAt at)
{
    return at == CrashProbeAt::Time ? "time" : "ack";
}

CrashProbeAt parseCrashProbeAt(std::string_view text)
{
    for (auto at : {CrashProbeAt::Ack, CrashProbeAt::Time}) {
        if (text == toString(at))
            return at;
    }
    throw InputError(fmt::format("unknown kill -9 probe placement '{}' (use ack: right after the call that "
                                 "crosses a drawn count of acknowledged bytes, or time: at a drawn moment)",
                                 text));
}

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

void overrideSizes(Matrix& matrix, const std::vector<std::uint64_t>& sizes)
{
    if (sizes.empty())
        return;
    const std::uint64_t largest = *std::max_element(sizes.begin(), sizes.end());
    for (auto& g : matrix.groups) {
        const std::uint64_t was = g.sizes.empty() ? 0 : *std::max_element(g.sizes.begin(), g.sizes.end());
        g.sizes = sizes;
        if (was == 0)
            continue;
        for (auto& limit : g.memoryLimitsBytes) {
            if (limit == 0)
                continue;
            const double scaled =
                static_cast<double>(limit) * static_cast<double>(largest) / static_cast<double>(was);
            const auto mib = static_cast<std::uint64_t>(std::ceil(scaled / static_cast<double>(kMiB)));
            limit = std::max(mib * kMiB, kMinMemoryLimitBytes);
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
    for (const AxisRefusal* rule : refusalRulesInOrder()) {
        if (auto reason = rule->reason(c, info, target); !reason.empty())
            return reason;
    }
    // What the strategy needs of the case's geometry and of the target.
    if (info.layout == DataLayout::FileSet) {
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

// Every axis of a case, exactly: two cases have the same key when they are equal.
std::string caseKey(const Case& c)
{
    std::string key;
    for (const auto& axis : caseAxes()) {
        if (axis.extra()) {
            const auto it = c.extraAxes.find(axis.matrixKey);
            key += it == c.extraAxes.end() ? "|-" : "|=" + it->second;
        } else {
            key += "|" + axis.format(c);
        }
    }
    return key;
}

// Every axis's values for one strategy of a group, outermost first.
std::vector<AxisValues> valuesFor(const MatrixGroup& group, const StrategyInfo& info)
{
    std::vector<AxisValues> values;
    for (const AxisSpec* axis : axesInExpansionOrder())
        values.push_back(axis->values(group, info));
    return values;
}

// Calls `add` once per combination of `values` from `from` on, each set on a copy of `c`, in order.
template <class Add>
void expandAxes(const Case& c, const std::vector<AxisValues>& values, std::size_t from, Add& add)
{
    if (from == values.size()) {
        add(Case(c));
        return;
    }
    const AxisValues& axis = values[from];
    for (std::size_t i = 0; i < axis.count; ++i) {
        if (!axis.set) {
            expandAxes(c, values, from + 1, add);
            continue;
        }
        Case with = c;
        axis.set(with, i);
        expandAxes(with, values, from + 1, add);
    }
}

} // namespace

std::uint64_t caseCount(const Matrix& matrix, const Registry& registry)
{
    constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t total = 0;
    for (const auto& group : matrix.groups) {
        for (const auto& id : group.strategies) {
            const Strategy* strategy = registry.find(id);
            if (strategy == nullptr)
                continue;
            std::uint64_t n = 1;
            for (const auto& axis : valuesFor(group, strategy->info())) {
                if (axis.count != 0 && n > most / axis.count)
                    return most;
                n *= axis.count;
            }
            if (n > most - total)
                return most;
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
            Case c;
            c.strategy = id;
            expandAxes(c, valuesFor(group, registry.find(id)->info()), 0, add);
        }
    }
    return out;
}

} // namespace iolab
