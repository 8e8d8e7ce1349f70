// SPDX-License-Identifier: MIT
#include "core/analysis/findings.h"

#include "core/analysis/significance.h"
#include "core/analysis/system_checks.h"
#include "core/analysis/warnings.h"
#include "core/base/error.h"
#include "core/base/stats.h"
#include "core/base/units.h"
#include "core/engine/registry.h"
#include "core/model/axes.h"
#include "core/model/replay.h"
#include "core/model/strategy_methods.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <map>
#include <string_view>
#include <tuple>

namespace iolab {

namespace {

// Device-observed bytes below this share of the bytes written, after the final fsync, mean something other
// than the device absorbed the writes.
constexpr double kDeviceShortfall = 0.5;
// A direct-I/O case whose final fsync took this share of its time gets a word on what that fsync did.
constexpr double kDirectFlushShare = 0.3;
// Evidence that direct writes went through the page cache: this share of the bytes written was in the cache
// after the timed part, or the system's Dirty + Writeback grew by this share of them.
constexpr double kCachedShare = 0.1;
constexpr double kDirtyRiseShare = 0.5;
// A latency tail worth a word: p99.9 (p99 under 1,000 calls) this many times the median.
constexpr double kTailFactor = 20.0;
constexpr std::uint64_t kTailMinCalls = 200;
constexpr std::uint64_t kTailMinSyncs = 20;
// A queue-depth sweep: the rate within this share of the best is "flat"; the best this many times the
// shallowest is "helps".
constexpr double kQueueDepthPlateau = 0.9;
constexpr double kQueueDepthHelps = 1.2;
// Flush honesty. A spinning disk stores new data no faster than its platter brings the sectors under the
// head: a sync with data to store waits about a revolution, 8.3 ms at 7,200 rpm and 4 ms at 15,000 rpm (the
// fastest disks made). A median sync under 2 ms is faster than any platter.
constexpr std::uint64_t kRotationalSyncFloorNs = 2'000'000;
// Flash stores a page in 20 us at the very least (a NAND page program; far longer on TLC): a synchronous
// write of a page or less that returned sooner was acknowledged by a cache, not by the medium.
constexpr std::uint64_t kFlashWriteFloorNs = 20'000;
constexpr std::uint64_t kFlashPageBytes = 4 * kKiB;
// The fewest sync calls or writes whose median is taken as evidence.
constexpr std::uint64_t kFlushMinCalls = 3;

bool bypassesPageCache(const Registry* registry, const std::string& strategy)
{
    if (registry == nullptr)
        return false;
    const Strategy* s = registry->find(strategy);
    return s != nullptr && s->info().needsDirectIo;
}

// "write to a file", "cold read": what the fastest case of a group is the fastest of.
std::string fastestWhat(ComparisonGroup group, const Case& k)
{
    switch (group) {
    case ComparisonGroup::FileWrites:
        return "write to a file";
    case ComparisonGroup::StreamWrites:
        return k.target == TargetKind::Pipe ? "write into a pipe" : "write to the null device";
    case ComparisonGroup::ColdReads:
        return "cold read";
    case ComparisonGroup::WarmReads:
        return "warm read";
    }
    return "";
}

std::string caseName(const CaseResult& c)
{
    return findingSubject(c);
}

} // namespace

// "case 3 (write 64 KiB, O_DSYNC, 4 threads)": what tells the case apart, without the defaults.
std::string findingSubject(const CaseResult& c)
{
    const Case& k = c.testCase;
    if (k.strategy == kReplayStrategy) // its chunk and size are the trace's: the trace names it
        return fmt::format("case {} ({})", c.index + 1, k.label());
    std::string name = fmt::format("case {} ({} {}", c.index + 1, k.strategy, formatBytes(k.chunkBytes));
    if (k.buffer.mode != BufferMode::NotApplicable && k.buffer.mode != BufferMode::Default)
        name += ", buffer " + toString(k.buffer);
    if (k.sync.mode != SyncMode::None)
        name += ", " + toString(k.sync);
    if (k.threads > 1)
        name += fmt::format(", {} threads", k.threads);
    if (k.queueDepth > 1)
        name += fmt::format(", QD {}", k.queueDepth);
    if (k.target != TargetKind::Directory)
        name += ", " + toString(k.target);
    if (const std::string reader = readerCpuWords(k); !reader.empty())
        name += ", " + reader;
    if (k.pattern != DataPattern{})
        name += ", " + patternWords(k.pattern);
    if (k.readPercent)
        name += fmt::format(", {}% reads", *k.readPercent);
    if (k.randomDist.hotSpot())
        name += ", " + toString(k.randomDist);
    for (const AxisSpec& axis : caseAxes()) {
        if (!axis.words)
            continue;
        if (const std::string words = axis.words(k); !words.empty())
            name += ", " + words;
    }
    return name + ")";
}

bool hasRate(const CaseResult& c)
{
    return c.status == Status::Ok && c.apparentMBps.count > 0 && c.apparentMBps.median > 0;
}

namespace {

// The role the case's baseline strategy plays.
BaselineRole baselineRole(const Case& c)
{
    if (c.direction == Direction::Write && c.target == TargetKind::Pipe)
        return BaselineRole::PipeWrites;
    if (!c.fileSet.empty())
        return BaselineRole::FileSets;
    return c.direction == Direction::Read ? BaselineRole::Reads : BaselineRole::Writes;
}

} // namespace

std::string baselineStrategy(Direction direction)
{
    return baselineOf(direction == Direction::Read ? BaselineRole::Reads : BaselineRole::Writes);
}

std::string baselineStrategy(const Case& c)
{
    return baselineOf(baselineRole(c));
}

bool canBeBaselineOf(const Case& candidate, const Case& c)
{
    return candidate.strategy == baselineStrategy(c) && candidate.fileSet == c.fileSet &&
           candidate.chunkBytes == c.chunkBytes && candidate.target == c.target &&
           candidate.cache == c.cache && sameArrangement(candidate, c);
}

bool isPreferredBaselineOf(const Case& candidate, const Case& c)
{
    if (c.direction == Direction::Read)
        return candidate.hint == ReadHint::Normal && candidate.threads == c.threads;
    if (candidate.buffer.mode == BufferMode::NotApplicable) // no buffer axis: the same threads
        return candidate.threads == c.threads;
    return candidate.buffer.mode == BufferMode::Default;
}

std::optional<std::size_t> baselineCase(const RunResult& result, std::size_t caseIndex)
{
    const Case& c = result.cases[caseIndex].testCase;
    if (!ratesAsThroughput(c.preallocate))
        return std::nullopt; // ops on one rewritten chunk: no speed-up over writes that fill a file
    std::optional<std::size_t> any;
    for (std::size_t i = 0; i < result.cases.size(); ++i) {
        const CaseResult& b = result.cases[i];
        if (!canBeBaselineOf(b.testCase, c) || !hasRate(b))
            continue;
        if (isPreferredBaselineOf(b.testCase, c))
            return i;
        if (!any)
            any = i;
    }
    return any;
}

namespace {

// Cold reads the device did not deliver: the data came from a cache after all.
// A hot spot reads its hot chunks again and again: through the page cache, every read after a chunk's first
// is rightly a memory read, and the device delivers a fraction of the bytes. Not a failed eviction: no
// finding.
void readFindings(const CaseResult& c, std::vector<Finding>& out)
{
    if (c.testCase.cache != CacheState::Cold || c.testCase.randomDist.hotSpot())
        return;
    std::uint64_t read = 0;
    std::uint64_t delivered = 0;
    bool observed = false;
    for (const auto& r : c.repetitions) {
        if (r.warmup || !r.outcome.ok())
            continue;
        read += r.mix ? r.mix->reads.bytes : r.bytes; // a mix's writes deliver nothing
        if (r.deviceObserved) {
            observed = true;
            delivered += r.deviceReadBytes;
        }
    }
    if (observed && read > 0 && static_cast<double>(delivered) < kDeviceShortfall * static_cast<double>(read))
        out.push_back(
            {Finding::Kind::CacheIllusion, c.index,
             fmt::format("{}: the device delivered {} for the {} the case read from a cold cache; the "
                         "rest came from memory (the eviction did not take, or a cache below the "
                         "filesystem answered).",
                         caseName(c), formatBytes(delivered), formatBytes(read))});
}

// What a direct-I/O write case's evidence says: the page cache held its data (an in-memory filesystem, or
// pages of the file cached after the writes), or, when its final fsync still took long, what that fsync did.
// The file's own residency decides where it is known: pages written through the cache stay resident at least
// until they are written back, so none cached means none went through it. Dirty + Writeback is system-wide
// (any process's writes move it), so it only counts where residency is unknown, and only when it grew by
// about the bytes written in every repetition.
void directFindings(const CaseResult& c, const TargetInfo& target, std::vector<Finding>& out)
{
    if (target.livesInMemory()) {
        out.push_back({Finding::Kind::DirectIgnored, c.index,
                       fmt::format("{}: {} accepts O_DIRECT, but its data lives in memory; these figures "
                                   "say nothing about a device.",
                                   findingSubject(c), target.fsType)});
        return;
    }
    std::uint64_t written = 0;
    std::size_t repetitions = 0;
    double returnSeconds = 0;
    double durableSeconds = 0;
    std::optional<std::uint64_t> cached;    // summed over the repetitions that know it
    std::uint64_t cachedOf = 0;             // bytes written by those repetitions
    std::optional<double> dirtyShare;       // the smallest rise of Dirty + Writeback over the bytes written
    std::optional<std::uint64_t> dirtyRise; // that repetition's rise
    for (const auto& r : c.repetitions) {
        if (r.warmup || !r.outcome.ok())
            continue;
        written += r.bytes;
        ++repetitions;
        returnSeconds += r.returnSeconds;
        durableSeconds += r.durableSeconds;
        if (r.cachedAfterBytes) {
            cached = cached.value_or(0) + *r.cachedAfterBytes;
            cachedOf += r.bytes;
        }
        if (r.dirtyBeforeBytes && r.dirtyAfterBytes && r.bytes > 0) {
            const std::uint64_t rise =
                *r.dirtyAfterBytes > *r.dirtyBeforeBytes ? *r.dirtyAfterBytes - *r.dirtyBeforeBytes : 0;
            const double share = static_cast<double>(rise) / static_cast<double>(r.bytes);
            if (!dirtyShare || share < *dirtyShare) {
                dirtyShare = share;
                dirtyRise = rise;
            }
        }
    }
    if (written == 0)
        return;
    const auto repetitionBytes = written / repetitions;
    if (cached && cachedOf > 0 &&
        static_cast<double>(*cached) >= kCachedShare * static_cast<double>(cachedOf)) {
        out.push_back({Finding::Kind::DirectIgnored, c.index,
                       fmt::format("{}: O_DIRECT was accepted but the page cache held the data: {} of the {} "
                                   "written was in the page cache after the writes. The figures measure the "
                                   "cache, not direct transfers to the device.",
                                   findingSubject(c), formatBytes(*cached), formatBytes(cachedOf))});
        return;
    }
    if (!cached && dirtyShare && *dirtyShare >= kDirtyRiseShare) {
        out.push_back(
            {Finding::Kind::DirectIgnored, c.index,
             fmt::format(
                 "{}: O_DIRECT was accepted but the page cache seems to have held the data: the "
                 "system's unwritten data (Dirty + Writeback) grew by at least {} in every repetition "
                 "of {}. The figures likely measure the cache, not direct transfers to the device.",
                 findingSubject(c), formatBytes(*dirtyRise), formatBytes(repetitionBytes))});
        return;
    }
    const double flushSeconds = durableSeconds - returnSeconds;
    if (durableSeconds <= 0 || flushSeconds <= kDirectFlushShare * durableSeconds)
        return;
    const auto perRepetition = static_cast<double>(repetitions);
    const std::string share =
        fmt::format("{}: the final fsync took {:.0f}% of the time ({} of {} a repetition)", findingSubject(c),
                    100.0 * flushSeconds / durableSeconds, formatDuration(flushSeconds / perRepetition),
                    formatDuration(durableSeconds / perRepetition));
    if (!cached && !dirtyShare) {
        out.push_back({Finding::Kind::FinalFlush, c.index,
                       share + ". Whether the page cache held any of the data could not be checked on this "
                               "system, so this says nothing either way about O_DIRECT."});
        return;
    }
    const std::string checked =
        cached ? fmt::format("{} of the data was in the page cache after the writes", formatBytes(*cached))
               : fmt::format("the system's unwritten data grew by only {}", formatBytes(*dirtyRise));
    out.push_back(
        {Finding::Kind::FinalFlush, c.index,
         fmt::format("{}: the device's write cache and the file's new blocks were flushed; the data "
                     "itself went past the page cache ({}).",
                     share, checked)});
}

// A replay made a way that keeps fewer durability points than the program (sync-at-close): shown apart by the
// advice, never the fastest way of doing what the program did.
bool weakerReplayWay(const Case& k)
{
    const std::string variant = extraAxisValue(k, "replay-variant", std::string(kRecordedCalls));
    if (variant == kRecordedCalls)
        return false;
    try {
        return parseReplayVariant(variant).weakens();
    } catch (const InputError&) {
        return false; // a way a newer IOLab made: ranked as any case
    }
}

// Fastest per comparison group and chunk size, in chunk order: writes to a file, writes into a pipe or the
// null device, cold reads, warm reads (never compared with each other). The ways a replay made one trace's
// calls are compared together, whatever their largest call (a coalesced way's is larger): they are one
// program's. File writes rank by `ranking`; the others have one rate.
void fastestFindings(const RunResult& result, Ranking ranking, std::vector<Finding>& out)
{
    const auto ranked = [&](std::size_t i) {
        return rankedRate(result.cases[i], ranking).median;
    };
    // (group, chunk, trace, arrangement): a replay's chunk is 0, its trace named. Each arrangement (a
    // read/write mix, a hot spot, where a pipe's reader ran) is ranked apart, as the Summary ranks it.
    std::map<std::tuple<ComparisonGroup, std::uint64_t, std::string, std::string>, std::vector<std::size_t>>
        byChunk;
    for (std::size_t i = 0; i < result.cases.size(); ++i) {
        const Case& k = result.cases[i].testCase;
        if (!hasRate(result.cases[i]) || ranked(i) <= 0 || weakerReplayWay(k))
            continue;
        if (k.strategy == kReplayStrategy)
            byChunk[{comparisonGroup(k), 0, extraAxisValue(k, "replay", std::string()), arrangementText(k)}]
                .push_back(i);
        else
            byChunk[{comparisonGroup(k), k.chunkBytes, std::string(), arrangementText(k)}].push_back(i);
    }
    for (const auto& [key, indices] : byChunk) {
        const ComparisonGroup group = std::get<0>(key);
        const std::uint64_t chunk = std::get<1>(key);
        const std::string& trace = std::get<2>(key);
        const std::string& arrangement = std::get<3>(key);
        const std::string where = (trace.empty() ? fmt::format("At {} per call", formatBytes(chunk))
                                                 : fmt::format("Of the ways the replay made {}'s calls",
                                                               trace.substr(trace.find_last_of("/\\") + 1))) +
                                  (arrangement.empty() ? std::string() : fmt::format(" ({})", arrangement));
        const std::string plain =
            fmt::format("plain {}", baselineStrategy(result.cases[indices.front()].testCase));
        const Lead lead = leadOf(result, indices, ranking);
        const std::size_t best = lead.top;
        const CaseResult& c = result.cases[best];
        const auto twin = [&](const CaseResult& r) -> std::string {
            if (group != ComparisonGroup::FileWrites)
                return {};
            return ranksDurable(r.testCase, ranking)
                       ? fmt::format(" durable ({} apparent)", formatMBps(r.apparentMBps.median))
                       : fmt::format(" apparent ({} durable)", formatMBps(r.durableMBps.median));
        };
        std::string text;
        if (lead.tied.empty()) {
            text = fmt::format("{}, the fastest {}{} is {} at {}{}", where, fastestWhat(group, c.testCase),
                               lead.noisierMeasuredHigher ? " steady enough to rank" : "", caseName(c),
                               formatMBps(ranked(best)), twin(c));
        } else {
            std::string names = caseName(c);
            for (std::size_t i = 0; i < lead.tied.size(); ++i)
                names += (i + 1 == lead.tied.size() ? " and " : ", ") + caseName(result.cases[lead.tied[i]]);
            text = fmt::format("{}, no {} is fastest beyond the noise: {} cannot be told apart "
                               "(the highest, {} at {}{}, is {:.2f}x the next; {})",
                               where, fastestWhat(group, c.testCase), names, caseName(c),
                               formatMBps(ranked(best)), twin(c), lead.closest.ratio,
                               describeTest(lead.closest.test));
        }
        const auto base = baselineCase(result, best);
        const std::string baseline = !base || isPreferredBaselineOf(result.cases[*base].testCase, c.testCase)
                                         ? plain
                                         : fmt::format("{}, standing in for {}, which did not run,",
                                                       caseName(result.cases[*base]), plain);
        if (base && *base != best && ranked(*base) > 0) {
            const RateDifference d = compareCases(c, result.cases[*base], ranking);
            if (d.holds())
                text += fmt::format(", {:.2f}x {} ({})", d.ratio, baseline, formatMBps(ranked(*base)));
            else
                text += fmt::format(", {:.2f}x {} ({}), which is {}", d.ratio, baseline,
                                    formatMBps(ranked(*base)),
                                    d.kind == RateDifference::Kind::Untestable
                                        ? "not a finding with a single repetition"
                                        : "within the noise (" + describeTest(d.test) + ")");
        } else if (base && *base == best) {
            text += isPreferredBaselineOf(c.testCase, c.testCase)
                        ? fmt::format(", and it is the {} baseline itself", plain)
                        : fmt::format(
                              ", and it is the speed-ups' baseline, standing in for {}, which did not run",
                              plain);
        } else if (indices.size() > lead.tooNoisy.size() + 1 && lead.tied.empty()) {
            std::vector<std::size_t> steady; // the slowest quoted is one steady enough to rank
            for (std::size_t i : indices)
                if (std::find(lead.tooNoisy.begin(), lead.tooNoisy.end(), i) == lead.tooNoisy.end())
                    steady.push_back(i);
            const std::size_t slowest = *std::min_element(
                steady.begin(), steady.end(), [&](auto a, auto b) { return ranked(a) < ranked(b); });
            text += fmt::format(", {:.2f}x the slowest there, {}", ranked(best) / ranked(slowest),
                                caseName(result.cases[slowest]));
        }
        if (indices.size() == 1)
            text += " (the only case of its kind at this size)";
        const std::string setAside = tooNoisyToRankText(result, lead.tooNoisy, ranking, caseName);
        out.push_back(
            {Finding::Kind::Fastest, c.index, text + "." + (setAside.empty() ? "" : " " + setAside)});
    }
}

// A case that failed or was refused; true when it was one (nothing else is said of it).
bool failedFinding(const CaseResult& c, std::vector<Finding>& out)
{
    if (c.status != Status::Failed && c.status != Status::Refused)
        return false;
    out.push_back({Finding::Kind::Failed, c.index,
                   fmt::format("{} {}: {}", caseName(c), toString(c.status), c.reason)});
    return true;
}

// Writes that returned more than kDurableGapFactor times faster than they became durable: a cache illusion
// when all of it fit in the page cache, else the plain gap.
void durableGapFinding(const CaseResult& c, const HostInfo& host, bool direct, std::vector<Finding>& out)
{
    const Case& k = c.testCase;
    const double apparent = c.apparentMBps.median;
    const double durable = c.durableMBps.median;
    if (k.target != TargetKind::Directory || durable <= 0 || apparent <= kDurableGapFactor * durable)
        return;
    const bool fitsInRam =
        !direct && k.sync.mode == SyncMode::None && host.ramBytes > 0 && k.totalBytes * 2 < host.ramBytes;
    if (fitsInRam)
        out.push_back(
            {Finding::Kind::CacheIllusion, c.index,
             fmt::format("{}: the writes returned at {} but reached the device at {}; {:.0f}% of the "
                         "time went into the final fsync. All {} fit in the page cache ({} of RAM), "
                         "so the apparent rate measures memory copies.",
                         caseName(c), formatMBps(apparent), formatMBps(durable),
                         100.0 * (1.0 - durable / apparent), formatBytes(k.totalBytes),
                         formatBytes(host.ramBytes))});
    else
        out.push_back({Finding::Kind::DurableGap, c.index,
                       fmt::format("{}: the writes returned at {} but reached the device at {}; {:.0f}% of "
                                   "the time went into the final fsync.",
                                   caseName(c), formatMBps(apparent), formatMBps(durable),
                                   100.0 * (1.0 - durable / apparent))});
}

void noiseFinding(const CaseResult& c, Ranking ranking, std::vector<Finding>& out)
{
    const RepetitionSpread spread = repetitionSpread(c, ranking);
    const Summary& ranked = rankedRate(c, ranking);
    if (!spread.noisy())
        return;
    // With few repetitions the interval can reach below zero (Student's t is 12.7 for two): a rate cannot,
    // and "0.0 kB/s to ..." would read as a measured figure.
    const std::string interval =
        ranked.ciLow > 0
            ? fmt::format("the 95% CI is {} to {}", formatMBps(ranked.ciLow), formatMBps(ranked.ciHigh))
            : fmt::format(
                  "the 95% CI of {} repetitions reaches down to zero (its top is {}): more repetitions "
                  "would narrow it",
                  ranked.count, formatMBps(ranked.ciHigh));
    out.push_back({Finding::Kind::Noise, c.index,
                   fmt::format("{}: {}, so differences smaller than that mean nothing; {}.", caseName(c),
                               describeSpread(spread), interval)});
}

// A file write the device saw much less of than was written, fsync included.
void deviceShortfallFinding(const CaseResult& c, std::vector<Finding>& out)
{
    std::uint64_t written = 0;
    std::uint64_t seen = 0;
    bool observed = false;
    for (const auto& r : c.repetitions) {
        if (r.warmup || !r.outcome.ok())
            continue;
        written += r.bytes;
        if (r.deviceObserved) {
            observed = true;
            seen += r.deviceWrittenBytes;
        }
    }
    if (observed && written > 0 &&
        static_cast<double>(seen) < kDeviceShortfall * static_cast<double>(written))
        out.push_back({Finding::Kind::CacheIllusion, c.index,
                       fmt::format("{}: the device saw {} written for {} written by the case, fsync "
                                   "included; something between (a cache, compression, another layer) "
                                   "absorbed the rest.",
                                   caseName(c), formatBytes(seen), formatBytes(written))});
}

// One finding for all short cases: the same advice, said once.
void shortFinding(const RunResult& result, const std::vector<std::pair<std::uint32_t, double>>& shortCases,
                  std::vector<Finding>& out)
{
    if (shortCases.size() == 1) {
        out.push_back(
            {Finding::Kind::Short, shortCases[0].first,
             fmt::format("{}: a repetition took {}, so timer and scheduler noise weigh heavily; a larger "
                         "size would measure it better.",
                         caseName(result.cases[shortCases[0].first]), formatDuration(shortCases[0].second))});
        return;
    }
    if (shortCases.empty())
        return;
    std::string list;
    double shortest = shortCases[0].second;
    double longest = shortCases[0].second;
    for (const auto& [index, seconds] : shortCases) {
        list += (list.empty() ? "" : ", ") + std::to_string(index + 1);
        shortest = std::min(shortest, seconds);
        longest = std::max(longest, seconds);
    }
    out.push_back(
        {Finding::Kind::Short, std::nullopt,
         fmt::format("cases {}: a repetition took only {} to {}, so timer and scheduler noise weigh "
                     "heavily; a larger size would measure them better.",
                     list, formatDuration(shortest), formatDuration(longest))});
}

// How many of a distribution's calls took at least `ns` (whole buckets at or above it).
std::uint64_t callsAtLeast(const LatencyDistribution& d, std::uint64_t ns)
{
    std::uint64_t count = 0;
    for (const auto& b : d.buckets) {
        if (b.lowNs >= ns)
            count += b.count;
    }
    return count;
}

// The slowest 0.1% of calls (or of sync calls) took kTailFactor times the median or more: said with the
// numbers, and with how many calls waited ten times the median, which is what a reader acts on.
void tailFinding(const CaseResult& c, const std::optional<LatencyDistribution>& d, const char* calls,
                 std::uint64_t minCount, std::vector<Finding>& out)
{
    if (!d || d->summary.count < minCount || d->summary.p50Ns == 0)
        return;
    const LatencySummary& s = d->summary;
    const bool deepTail = s.count >= 1000;
    const std::uint64_t tail = deepTail ? s.p999Ns : s.p99Ns;
    const double factor = static_cast<double>(tail) / static_cast<double>(s.p50Ns);
    if (factor < kTailFactor)
        return;
    const std::uint64_t slow = callsAtLeast(*d, 10 * s.p50Ns);
    out.push_back(
        {Finding::Kind::Tail, c.index,
         fmt::format(
             "{}: p{} of its {} is {:.0f}x the median ({} against {}); {} of {} {} ({:.2g}%) took 10x "
             "the median or more, the slowest {}.",
             caseName(c), deepTail ? "99.9" : "99", calls, factor,
             formatLatency(static_cast<double>(tail) * 1e-9),
             formatLatency(static_cast<double>(s.p50Ns) * 1e-9), slow, s.count, calls,
             100.0 * static_cast<double>(slow) / static_cast<double>(s.count),
             formatLatency(static_cast<double>(s.maxNs) * 1e-9))});
}

// Cases that differ only in their queue depth, three depths or more: how the rate grew with the depth and
// where it stopped growing. Said once per such sweep, about its deepest case.
void queueDepthFindings(const RunResult& result, Ranking ranking, std::vector<Finding>& out)
{
    std::vector<bool> seen(result.cases.size(), false);
    for (std::size_t i = 0; i < result.cases.size(); ++i) {
        const CaseResult& first = result.cases[i];
        if (seen[i] || first.testCase.queueDepth == 0 || !hasRate(first))
            continue;
        std::vector<const CaseResult*> sweep;
        for (std::size_t j = i; j < result.cases.size(); ++j) {
            Case other = result.cases[j].testCase;
            if (other.queueDepth == 0 || !hasRate(result.cases[j]))
                continue;
            other.queueDepth = first.testCase.queueDepth;
            if (other == first.testCase) {
                seen[j] = true;
                sweep.push_back(&result.cases[j]);
            }
        }
        if (sweep.size() < 3)
            continue;
        std::sort(sweep.begin(), sweep.end(), [](const CaseResult* a, const CaseResult* b) {
            return a->testCase.queueDepth < b->testCase.queueDepth;
        });
        const auto rateOf = [ranking](const CaseResult* c) {
            return rankedRate(*c, ranking).median;
        };
        const CaseResult* best = *std::max_element(sweep.begin(), sweep.end(),
                                                   [&](auto* a, auto* b) { return rateOf(a) < rateOf(b); });
        const CaseResult* shallow = sweep.front();
        const CaseResult* deepest = sweep.back();
        // The shallowest depth within 10% of the best: where more requests in flight stopped paying.
        const CaseResult* enough = *std::find_if(sweep.begin(), sweep.end(), [&](auto* c) {
            return rateOf(c) >= kQueueDepthPlateau * rateOf(best);
        });
        const double gain = rateOf(best) / rateOf(shallow);
        const std::string what =
            fmt::format("{} {}", first.testCase.strategy, formatBytesCompact(first.testCase.chunkBytes));
        // "Helps" is a comparison of two cases: it holds only beyond the noise (significance.h).
        const RateDifference gainHolds = compareCases(*best, *shallow, ranking);
        std::string text;
        if (gain >= kQueueDepthHelps && !gainHolds.holds())
            text = fmt::format(
                "{}: queue depth may help ({} at QD{}, {} at QD{}, {:.1f}x), but that gain is {} ({}).", what,
                formatMBps(rateOf(shallow)), shallow->testCase.queueDepth, formatMBps(rateOf(best)),
                best->testCase.queueDepth, gain,
                gainHolds.kind == RateDifference::Kind::Untestable ? "not a finding with a single "
                                                                     "repetition"
                                                                   : "within the noise",
                describeTest(gainHolds.test));
        else if (gain < kQueueDepthHelps)
            text = fmt::format(
                "{}: queue depth did not help: {} at QD{} and {} at QD{} (at best {} at QD{}).", what,
                formatMBps(rateOf(shallow)), shallow->testCase.queueDepth, formatMBps(rateOf(deepest)),
                deepest->testCase.queueDepth, formatMBps(rateOf(best)), best->testCase.queueDepth);
        else if (enough == deepest)
            text = fmt::format(
                "{}: queue depth helps all the way: {} at QD{}, {} at QD{} ({:.1f}x); a deeper "
                "queue may help more.",
                what, formatMBps(rateOf(shallow)), shallow->testCase.queueDepth, formatMBps(rateOf(deepest)),
                deepest->testCase.queueDepth, rateOf(deepest) / rateOf(shallow));
        else
            text = fmt::format(
                "{}: queue depth helps up to QD{}, then flat: {} at QD{}, {} at QD{} ({:.1f}x), and "
                "within 10% of that beyond (QD{}: {}).",
                what, enough->testCase.queueDepth, formatMBps(rateOf(shallow)), shallow->testCase.queueDepth,
                formatMBps(rateOf(enough)), enough->testCase.queueDepth, rateOf(enough) / rateOf(shallow),
                deepest->testCase.queueDepth, formatMBps(rateOf(deepest)));
        out.push_back({Finding::Kind::QueueDepth, deepest->index, std::move(text)});
    }
}

// Whether each write call of a case returns only once its data is durable: O_SYNC and O_DSYNC, and the
// strategies that declare it of every call without a sync axis to say so (StrategyInfo::durableEachWrite:
// pwritev2 with RWF_DSYNC).
bool eachWriteSynchronous(const Case& k, const Registry* registry)
{
    const Strategy* s = registry != nullptr ? registry->find(k.strategy) : nullptr;
    return k.sync.mode == SyncMode::OSync || k.sync.mode == SyncMode::ODsync ||
           (s != nullptr && s->info().durableEachWrite);
}

std::string latencyText(std::uint64_t ns)
{
    return formatLatency(static_cast<double>(ns) * 1e-9);
}

// What a flush-honesty finding judged by: "vda (QEMU HARDDISK), rotational, write cache: write back, FUA:
// no".
std::string deviceFacts(const TargetInfo& t)
{
    std::string name = !t.device.empty()        ? t.device
                       : !t.mountSource.empty() ? t.mountSource
                                                : std::string("no block device");
    if (!t.deviceModel.empty())
        name += " (" + t.deviceModel + ")";
    const char* media = !t.rotational ? "rotational: unknown" : *t.rotational ? "rotational" : "solid state";
    return fmt::format("{}, {}, write cache: {}", name, media, describeWriteCache(t));
}

// Who acknowledged a flush too fast for the medium, and what that risks, as far as the device says.
std::string cacheAcknowledged(const TargetInfo& t)
{
    const std::string cache = looksVirtual(t)
                                  ? "the host's cache (this is a virtual machine's disk)"
                                  : "the drive's write cache or, on a virtual machine, the host's";
    if (t.powerProtected.has_value() && !*t.powerProtected)
        return fmt::format(
            "{}, which the device reports is not power-protected, so data reported durable may "
            "be lost on a power cut",
            cache);
    return fmt::format("{}; unless that cache is power-protected (a RAID controller's battery, an enterprise "
                       "drive's capacitors, which the system does not report), data reported durable may be "
                       "lost on a power cut",
                       cache);
}

struct FlushJudgement
{
    bool accuses = false; // false: IOLab says it cannot tell
    std::string text;
};

// A case's sync calls against what a rotational disk can do. Only where each sync had data of its own to
// store: the case wrote through the page cache, or directly into a write-back cache that the flush must
// empty (direct writes into a device without one are on the medium already, and their sync has little to do).
std::optional<FlushJudgement> syncJudgement(const CaseResult& c, const TargetInfo& t, bool direct)
{
    const auto& d = c.syncLatency;
    if (!d || d->summary.count < kFlushMinCalls || d->summary.p50Ns >= kRotationalSyncFloorNs)
        return std::nullopt;
    if (direct && t.writeCache != "write back")
        return std::nullopt;
    const std::string median = latencyText(d->summary.p50Ns);
    const std::string floor = latencyText(kRotationalSyncFloorNs);
    if (!t.rotational) {
        const std::string which =
            t.device.empty()
                ? fmt::format("the device is rotational (there is no single block device under this {} "
                              "filesystem to ask)",
                              t.fsType.empty() ? std::string("target's") : t.fsType)
                : fmt::format("{} is rotational", t.device);
        return FlushJudgement{
            false,
            fmt::format("{}: its sync calls took a median of {}. IOLab cannot tell whether the flush "
                        "reached stable media: the system did not report whether {}, and under {} is "
                        "too fast for a spinning disk but not for a solid-state one. Device facts: {}.",
                        findingSubject(c), median, which, floor, deviceFacts(t))};
    }
    if (!*t.rotational)
        return std::nullopt;
    if (looksVirtual(t))
        return FlushJudgement{
            false, fmt::format(
                       "{}: its sync calls took a median of {}, under the {} below which no spinning disk "
                       "stores data, but {} is a virtual disk, which may say it is rotational whatever the "
                       "host keeps it on. The host acknowledged the flush, from fast storage or from its own "
                       "cache (then data reported durable may be lost if the host loses power); IOLab cannot "
                       "tell which from inside the virtual machine. Device facts: {}.",
                       findingSubject(c), median, floor, t.device.empty() ? t.deviceModel : t.device,
                       deviceFacts(t))};
    return FlushJudgement{
        true,
        fmt::format("{}: its sync calls took a median of {}, under the {} below which no spinning disk "
                    "stores data (a 7,200 rpm disk turns once in 8.3 ms, a 15,000 rpm one in 4 ms). A "
                    "cache acknowledged the flush, not the platter: {}. This holds if the "
                    "device is really rotational, as it says: some USB bridges and SAN volumes say so of "
                    "any disk. Device facts: {}.",
                    findingSubject(c), median, floor, cacheAcknowledged(t), deviceFacts(t))};
}

// A case whose every write is synchronous, a flash page or less each, against what flash can do.
std::optional<FlushJudgement> writeJudgement(const CaseResult& c, const TargetInfo& t,
                                             const Registry* registry)
{
    const auto& d = c.callLatency;
    if (!eachWriteSynchronous(c.testCase, registry) || c.testCase.chunkBytes > kFlashPageBytes || !d ||
        d->summary.count < kFlushMinCalls || d->summary.p50Ns >= kFlashWriteFloorNs)
        return std::nullopt;
    const std::string measured =
        fmt::format("{}: its synchronous writes took a median of {}, under the {} a flash page program takes "
                    "at the least",
                    findingSubject(c), latencyText(d->summary.p50Ns), latencyText(kFlashWriteFloorNs));
    if (t.writeCache == "write back")
        return FlushJudgement{true,
                              fmt::format("{}. A cache acknowledged the writes, not the medium: {}. Device "
                                          "facts: {}.",
                                          measured, cacheAcknowledged(t), deviceFacts(t))};
    if (t.writeCache == "write through")
        return FlushJudgement{
            false,
            fmt::format("{}. The device reports no volatile write cache, so either it stores data that "
                        "fast (persistent memory, a RAM disk, a power-protected cache) or it hides a "
                        "volatile cache; IOLab cannot tell which. Device facts: {}.",
                        measured, deviceFacts(t))};
    return FlushJudgement{false,
                          fmt::format("{}. IOLab cannot tell whether a volatile cache acknowledged them: the "
                                      "system did not report the device's write cache. Device facts: {}.",
                                      measured, deviceFacts(t))};
}

// Syncs or synchronous writes that returned faster than the medium can store data: a cache acknowledged them.
// Said once per case, an accusation before an "IOLab cannot tell"; nothing where the data lives in memory or
// the device reports a power-protected cache (a fast flush is what it is for).
std::optional<FlushJudgement> flushJudgement(const CaseResult& c, const TargetInfo& target, bool direct,
                                             const Registry* registry)
{
    if (target.livesInMemory() || target.powerProtected.value_or(false))
        return std::nullopt;
    auto bySync = syncJudgement(c, target, direct);
    auto byWrite = writeJudgement(c, target, registry);
    std::optional<FlushJudgement> chosen = std::move(bySync);
    if (byWrite && (!chosen || (byWrite->accuses && !chosen->accuses)))
        chosen = std::move(byWrite);
    return chosen;
}

void flushHonestyFinding(const CaseResult& c, const TargetInfo& target, bool direct, const Registry* registry,
                         std::vector<Finding>& out)
{
    if (auto chosen = flushJudgement(c, target, direct, registry))
        out.push_back({Finding::Kind::FlushHonesty, c.index, std::move(chosen->text)});
}

void cancelledFinding(const RunResult& result, std::vector<Finding>& out)
{
    if (!result.cancelled)
        return;
    // The result lists every planned case; the count is of those that ran to their end.
    const std::size_t ran = casesRunToEnd(result);
    const auto stopped = std::find_if(result.cases.begin(), result.cases.end(),
                                      [](const CaseResult& c) { return c.status == Status::Cancelled; });
    std::string text;
    if (stopped == result.cases.end())
        text = fmt::format("The run was stopped as its last case ended; all {} case{} ran.", ran,
                           ran == 1 ? "" : "s");
    else if (ran == 0)
        text = fmt::format("The run was stopped at case {} of {}, before any case ran to its end.",
                           stopped->index + 1, result.cases.size());
    else
        text = fmt::format("The run was stopped at case {} of {}, so this report covers the {} case{} that "
                           "ran.",
                           stopped->index + 1, result.cases.size(), ran, ran == 1 ? "" : "s");
    out.push_back({Finding::Kind::Cancelled, std::nullopt, std::move(text)});
}

} // namespace

std::vector<Finding> findings(const RunResult& result, const Registry* registry, Ranking ranking)
{
    std::vector<Finding> out;
    fastestFindings(result, ranking, out);
    queueDepthFindings(result, ranking, out);
    if (auto storage = storageFinding(result))
        out.push_back(std::move(*storage));
    for (auto& compression : compressionFindings(result, ranking))
        out.push_back(std::move(compression));
    std::vector<std::pair<std::uint32_t, double>> shortCases; // case index, median repetition seconds
    for (const auto& c : result.cases) {
        if (failedFinding(c, out) || !hasRate(c))
            continue;
        const Case& k = c.testCase;
        const bool direct = bypassesPageCache(registry, k.strategy);
        durableGapFinding(c, result.host, direct, out);
        if (const double seconds = rankedRepetitionSeconds(c, ranking); isShort(seconds))
            shortCases.emplace_back(c.index, seconds);
        noiseFinding(c, ranking, out);
        tailFinding(c, c.callLatency, "calls", kTailMinCalls, out);
        tailFinding(c, c.syncLatency, "sync calls", kTailMinSyncs, out);
        const Strategy* strategy = registry != nullptr ? registry->find(k.strategy) : nullptr;
        if (auto cpu = cpuBoundFinding(c, result.host, strategy != nullptr ? &strategy->info() : nullptr))
            out.push_back(std::move(*cpu));
        if (k.target != TargetKind::Directory)
            continue;
        if (auto heat = heatFinding(c, ranking))
            out.push_back(std::move(*heat));
        if (k.direction == Direction::Read) {
            readFindings(c, out);
        } else {
            deviceShortfallFinding(c, out);
            if (auto cliff = cacheCliffFinding(c, direct))
                out.push_back(std::move(*cliff));
            if (direct)
                directFindings(c, result.target, out);
            flushHonestyFinding(c, result.target, direct, registry, out);
        }
    }
    shortFinding(result, shortCases, out);
    cancelledFinding(result, out);
    return out;
}

std::vector<std::uint32_t> flushDistrustedCases(const RunResult& result, const Registry* registry)
{
    std::vector<std::uint32_t> out;
    for (const auto& c : result.cases) {
        const Case& k = c.testCase;
        if (!hasRate(c) || k.target != TargetKind::Directory || k.direction != Direction::Write)
            continue;
        const auto judgement =
            flushJudgement(c, result.target, bypassesPageCache(registry, k.strategy), registry);
        if (judgement && judgement->accuses)
            out.push_back(c.index);
    }
    return out;
}

} // namespace iolab
