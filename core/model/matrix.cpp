// SPDX-License-Identifier: MIT
#include "core/model/matrix.h"

#include "core/base/error.h"
#include "core/base/units.h"
#include "core/model/axes.h"
#include "core/model/memory_budget.h"
#include "core/model/replay.h"
#include "core/model/strategy_info.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
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
    // Appended, not inserted: GCC 12 warns of an overlapping memcpy inside std::string::insert at -O2 in the
    // unity build (a false positive of its -Wrestrict in std::string::replace).
    const std::string digits = std::to_string(n);
    std::string grouped;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            grouped += ',';
        grouped += digits[i];
    }
    return grouped;
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

// A group of replays alone: its cases take their size, chunk and threads from their traces
// (core/engine/replay_script.h's fitCaseToReplay), so it needs neither chunks nor sizes.
bool replaysOnly(const MatrixGroup& group)
{
    return !group.strategies.empty() &&
           std::all_of(group.strategies.begin(), group.strategies.end(),
                       [](const std::string& id) { return id == kReplayStrategy; });
}

void validate(const Matrix& matrix, const StrategyCatalog& registry)
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
        if (replaysOnly(group)) // a replay's chunk and size are its trace's
            continue;
        if (group.chunks.empty())
            throw InputError(fmt::format("{}: no chunk size given", at));
        bool needsSizes = false;
        bool needsFileSets = false;
        for (const auto& id : group.strategies) {
            const StrategyInfo* strategy = registry.findInfo(id);
            if (strategy == nullptr)
                throw InputError(
                    fmt::format("{}: unknown strategy '{}' (known: {})", at, id, registry.knownIds()));
            (strategy->layout == DataLayout::FileSet ? needsFileSets : needsSizes) = true;
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

namespace {

// "1 s", "1.5 s", "300 ms", "2 min": a time limit in a sentence.
std::string durationWords(std::uint64_t ms)
{
    if (ms >= 60'000 && ms % 60'000 == 0)
        return fmt::format("{} min", ms / 60'000);
    if (ms >= 1000 && ms % 1000 == 0)
        return fmt::format("{} s", ms / 1000);
    if (ms >= 1000)
        return fmt::format("{:.1f} s", static_cast<double>(ms) / 1e3);
    return fmt::format("{} ms", ms);
}

// "a", "a and b", "a, b and c".
std::string joinedWords(const std::vector<std::string>& items)
{
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

bool takesAxis(const StrategyCatalog& registry, const std::string& strategy, std::string_view matrixKey)
{
    const StrategyInfo* s = registry.findInfo(strategy);
    const AxisSpec* axis = findAxisByMatrixKey(matrixKey);
    return s == nullptr || axis == nullptr || axis->takenBy(*s);
}

} // namespace

void applyOverrides(Matrix& matrix, CaseOverrides overrides, const StrategyCatalog& registry)
{
    overrides.untouched.clear();
    const auto untouched = [&](const std::string& strategy, std::string_view key) {
        if (!takesAxis(registry, strategy, key) &&
            std::find(overrides.untouched.begin(), overrides.untouched.end(), strategy) ==
                overrides.untouched.end())
            overrides.untouched.push_back(strategy);
    };
    for (const auto& g : matrix.groups) {
        for (const auto& id : g.strategies) {
            if (!overrides.sizes.empty())
                untouched(id, "sizes");
            if (!overrides.timeLimitsMs.empty())
                untouched(id, "timeLimits");
        }
    }
    overrideSizes(matrix, overrides.sizes);
    if (!overrides.timeLimitsMs.empty()) {
        // A group's strategies that take a time limit get the new ones; a run of those that do not (file-set
        // readers) becomes a group of its own with its own lists, in the same place.
        std::vector<MatrixGroup> groups;
        for (const auto& g : matrix.groups) {
            std::size_t from = 0;
            while (from < g.strategies.size()) {
                const bool takes = takesAxis(registry, g.strategies[from], "timeLimits");
                std::size_t to = from;
                while (to < g.strategies.size() &&
                       takesAxis(registry, g.strategies[to], "timeLimits") == takes)
                    ++to;
                MatrixGroup part = g;
                part.strategies.assign(g.strategies.begin() + static_cast<std::ptrdiff_t>(from),
                                       g.strategies.begin() + static_cast<std::ptrdiff_t>(to));
                if (takes)
                    part.timeLimitsMs = overrides.timeLimitsMs;
                groups.push_back(std::move(part));
                from = to;
            }
            if (g.strategies.empty())
                groups.push_back(g); // validate() names it
        }
        matrix.groups = std::move(groups);
    }
    if (overrides.repetitions)
        matrix.repetitions = overrides.repetitions;
    matrix.overridden = std::move(overrides);
}

std::string overridesText(const Matrix& matrix)
{
    const CaseOverrides& o = matrix.overridden;
    std::vector<std::string> parts;
    if (!o.sizes.empty()) {
        std::vector<std::string> sizes;
        sizes.reserve(o.sizes.size());
        for (const std::uint64_t s : o.sizes)
            sizes.push_back(formatBytes(s));
        std::string text = fmt::format("size{} {}", sizes.size() == 1 ? "" : "s", joinedWords(sizes));
        std::vector<std::uint64_t> limits;
        for (const auto& g : matrix.groups) {
            for (const std::uint64_t limit : g.memoryLimitsBytes) {
                if (limit != 0 && std::find(limits.begin(), limits.end(), limit) == limits.end())
                    limits.push_back(limit);
            }
        }
        std::sort(limits.begin(), limits.end());
        std::vector<std::string> limitWords;
        limitWords.reserve(limits.size());
        for (const std::uint64_t limit : limits)
            limitWords.push_back(formatBytes(limit));
        if (!limitWords.empty())
            text += fmt::format(" (memory limit{} scaled with it to {})", limitWords.size() == 1 ? "" : "s",
                                joinedWords(limitWords));
        parts.push_back(std::move(text));
    }
    if (o.timeLimitsMs == std::vector<std::uint64_t>{0}) {
        parts.emplace_back("no time limit (each case runs to its size)");
    } else if (!o.timeLimitsMs.empty()) {
        std::vector<std::string> limits;
        limits.reserve(o.timeLimitsMs.size());
        for (const std::uint64_t ms : o.timeLimitsMs)
            limits.push_back(ms == 0 ? std::string("none") : durationWords(ms));
        parts.push_back(fmt::format("duration{} {}", limits.size() == 1 ? "" : "s", joinedWords(limits)));
    }
    if (o.repetitions)
        parts.push_back(fmt::format("{} repetition{}", *o.repetitions, *o.repetitions == 1 ? "" : "s"));
    std::string text;
    for (const auto& part : parts)
        text += (text.empty() ? "" : ", ") + part;
    if (!text.empty() && !o.untouched.empty() && (!o.sizes.empty() || !o.timeLimitsMs.empty()))
        text += fmt::format("; the file-set readers ({}) read every file of their sets as before",
                            joinedWords(o.untouched));
    return text;
}

std::string refusalReason(const Case& c, const StrategyCatalog& registry, const TargetInfo& target)
{
    const StrategyInfo* found = registry.findInfo(c.strategy);
    if (found == nullptr)
        return fmt::format("unknown strategy '{}'", c.strategy);
    const StrategyInfo& info = *found;
    if (info.unavailable)
        return *info.unavailable;
    for (const AxisRefusal* rule : refusalRulesInOrder()) {
        if (auto reason = rule->reason(c, info, target); !reason.empty())
            return reason;
    }
    // What the strategy needs of the case's geometry and of the target.
    if (info.layout == DataLayout::FileSet) {
        if (auto reason = registry.refusal(c.strategy, c, target))
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
    if (auto reason = registry.refusal(c.strategy, c, target))
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

std::uint64_t caseCount(const Matrix& matrix, const StrategyCatalog& registry)
{
    constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t total = 0;
    for (const auto& group : matrix.groups) {
        for (const auto& id : group.strategies) {
            const StrategyInfo* strategy = registry.findInfo(id);
            if (strategy == nullptr)
                continue;
            std::uint64_t n = 1;
            for (const auto& axis : valuesFor(group, *strategy)) {
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

ExpandedMatrix expand(const Matrix& matrix, const StrategyCatalog& registry, const TargetInfo& target)
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

    for (const auto& given : matrix.groups) {
        MatrixGroup group = given;
        if (replaysOnly(group)) { // one byte each until the trace is read (makeRunPlan)
            if (group.chunks.empty())
                group.chunks = {1};
            if (group.sizes.empty())
                group.sizes = {1};
        }
        for (const auto& id : group.strategies) {
            Case c;
            c.strategy = id;
            expandAxes(c, valuesFor(group, *registry.findInfo(id)), 0, add);
        }
    }
    return out;
}

std::string toString(const LatencyTarget& target)
{
    const double us = target.seconds * 1e6;
    const std::string value = us >= 1000 && std::fmod(us, 1000) < 1e-6 ? fmt::format("{:g}ms", us / 1000)
                                                                       : fmt::format("{:g}us", us);
    return fmt::format("{}@p{:g}", value, target.percentile);
}

LatencyTarget parseLatencyTarget(std::string_view text)
{
    const auto bad = [&] {
        return InputError(
            fmt::format("'{}' is not a latency target (use a time and a percentile, e.g. 1ms@p99, "
                        "500us@p99.9 or 2ms; percentiles: p50, p90, p99, p99.9, p99.99)",
                        text));
    };
    LatencyTarget target;
    std::string_view time = text;
    if (const auto at = text.find('@'); at != std::string_view::npos) {
        time = text.substr(0, at);
        const std::string_view p = text.substr(at + 1);
        if (p.size() < 2 || p.front() != 'p')
            throw bad();
        double value = 0;
        const auto [end, error] = std::from_chars(p.data() + 1, p.data() + p.size(), value);
        if (error != std::errc() || end != p.data() + p.size())
            throw bad();
        if (value != 50 && value != 90 && value != 99 && value != 99.9 && value != 99.99)
            throw bad();
        target.percentile = value;
    }
    double number = 0;
    const auto [end, error] = std::from_chars(time.data(), time.data() + time.size(), number);
    const std::string_view unit(end, static_cast<std::size_t>(time.data() + time.size() - end));
    if (error != std::errc() || number <= 0)
        throw bad();
    if (unit == "ms")
        target.seconds = number / 1e3;
    else if (unit == "us")
        target.seconds = number / 1e6;
    else if (unit == "s")
        target.seconds = number;
    else
        throw bad();
    return target;
}

} // namespace iolab
