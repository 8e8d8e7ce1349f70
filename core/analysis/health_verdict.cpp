// SPDX-License-Identifier: MIT
#include "core/analysis/health_verdict.h"

#include "core/analysis/system_checks.h"
#include "core/base/units.h"
#include "core/base/words.h"
#include "core/engine/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

namespace iolab {

namespace {

// Chunks at or above this are sequential transfers in the typical ranges' sense (CrystalDiskMark's SEQ1M, a
// copy's large blocks); at or below kRandomChunkBytes, random ones (RND4K).
constexpr std::uint64_t kSequentialRangeChunkBytes = 128 * kKiB;
constexpr std::uint64_t kRandomChunkBytes = 16 * kKiB;
// Requests in flight (queue depth times threads) from which a random case measures "at depth".
constexpr std::uint32_t kDeepRequests = 8;
// A log disk's sync rule: etcd warns when the 99th percentile of its WAL's fdatasync exceeds 10 ms.
constexpr double kEtcdSyncP99Seconds = 10e-3;
// No spinning disk stores data in under 2 ms (a 15,000 rpm platter turns in 4 ms); no flash programs a page
// in under 20 us. A sync with data to store that returns faster was acknowledged by a cache.
constexpr double kRotationalFloorSeconds = 2e-3;
constexpr double kFlashFloorSeconds = 20e-6;
// The longest write that can say anything about a cache that fills: a drive's SLC cache holds gigabytes.
constexpr std::uint64_t kCliffMinBytes = 1 * kGiB;

struct ClassRanges
{
    // MB/s for the rates; the sync latency's median in milliseconds.
    std::array<std::optional<HealthRange>, 8> ranges;
    const char* source;
};

// Typical figures of common drives of each class, labelled "typical" wherever they are shown: a range, not a
// promise about this drive. Rates are MB/s (10^6 bytes/s); random ones are 4 KiB transfers; "deep" is
// CrystalDiskMark's Q32T1 for random and Q8T1 for sequential. Sync: the median of an fdatasync or fsync after
// each 4 KiB write, a drive honouring the flush (a power-protected cache makes it far faster).
const ClassRanges* classRanges(const SystemFacts& facts)
{
    static const ClassRanges kNvme{
        {HealthRange{1500, 7000}, HealthRange{1000, 5000}, HealthRange{30, 90}, HealthRange{300, 1000},
         HealthRange{80, 250}, HealthRange{250, 800}, HealthRange{0.02, 2.0}, std::nullopt},
        "data sheets of PCIe 3.0 and 4.0 NVMe drives (Samsung 970 EVO Plus: 3,500/3,300 MB/s sequential, "
        "19K/60K IOPS random 4 KiB at QD1; WD_BLACK SN770: 5,150/4,900 MB/s) and reviews' CrystalDiskMark "
        "RND4K Q32T1 figures (about 400-900 MB/s); syncs: consumer drives flushing a volatile cache take "
        "0.3-2 ms, drives with power-loss protection 20-100 us"};
    static const ClassRanges kSataSsd{
        {HealthRange{400, 560}, HealthRange{200, 530}, HealthRange{20, 55}, HealthRange{200, 400},
         HealthRange{50, 150}, HealthRange{150, 370}, HealthRange{0.05, 3.0}, std::nullopt},
        "SATA III's 6 Gbit/s link (about 550 MB/s) and SATA SSD data sheets (Samsung 870 EVO: 560/530 MB/s "
        "sequential; 13K/36K IOPS random 4 KiB at QD1, 98K/88K at QD32)"};
    static const ClassRanges kHdd{
        {HealthRange{80, 250}, HealthRange{80, 250}, HealthRange{0.3, 1.0}, HealthRange{0.6, 2.0},
         HealthRange{0.3, 2.0}, HealthRange{0.5, 3.0}, HealthRange{2.0, 25.0}, std::nullopt},
        "hard disk data sheets (3.5-inch 7,200 rpm drives: about 200-270 MB/s on the outer tracks, half on "
        "the inner ones; 75-200 random IOPS at QD1, a seek plus half a turn each) and the 4.2-8.3 ms a "
        "7,200 rpm platter takes to come round for a flush"};
    static const ClassRanges kUsb3{
        {HealthRange{40, 450}, HealthRange{20, 400}, HealthRange{2, 30}, HealthRange{2, 60},
         HealthRange{0.01, 10}, HealthRange{0.01, 20}, HealthRange{0.5, 30}, std::nullopt},
        "makers' figures and reviews of USB 3 sticks and USB SSDs (sticks: 40-450 MB/s sequential reads, "
        "random 4 KiB writes often under 1 MB/s)"};
    static const ClassRanges kUsb2{
        {HealthRange{15, 40}, HealthRange{5, 30}, HealthRange{1, 10}, HealthRange{1, 15},
         HealthRange{0.01, 5}, HealthRange{0.01, 8}, HealthRange{0.5, 30}, std::nullopt},
        "the roughly 40 MB/s that USB 2's 480 Mbit/s link carries; USB 2 sticks write 5-30 MB/s"};
    static const ClassRanges kSd{
        {HealthRange{10, 100}, HealthRange{10, 90}, HealthRange{1, 16}, HealthRange{1, 20},
         HealthRange{0.1, 8}, HealthRange{0.1, 10}, HealthRange{1, 50}, std::nullopt},
        "the SD Association's speed and application classes (UHS-I: up to 104 MB/s; V30: 30 MB/s sustained "
        "writes; A1: 1,500/500 random read/write IOPS, A2: 4,000/2,000)"};
    switch (facts.deviceClass) {
    case DeviceClass::NvmeSsd:
        return &kNvme;
    case DeviceClass::SataSsd:
        return &kSataSsd;
    case DeviceClass::SataHdd:
        return &kHdd;
    case DeviceClass::UsbDrive: {
        const std::string link = facts.valueOf("device.link");
        return link.find("(USB 2)") != std::string::npos || link.find("(USB 1)") != std::string::npos
                   ? &kUsb2
                   : &kUsb3;
    }
    case DeviceClass::SdCard:
        return &kSd;
    default:
        return nullptr;
    }
}

std::string rangeText(HealthDimension d, const HealthRange& r)
{
    if (d == HealthDimension::SyncLatency)
        return fmt::format("{}-{}", formatLatency(r.low * 1e-3), formatLatency(r.high * 1e-3));
    const auto number = [](double mbps) {
        return mbps >= 1000 ? fmt::format("{:.1f} GB/s", mbps / 1000)
               : mbps >= 10 ? fmt::format("{:.0f}", mbps)
               : mbps >= 1  ? fmt::format("{:.1f}", mbps)
                            : fmt::format("{:.2g}", mbps);
    };
    if (r.high >= 1000 && r.low >= 1000)
        return fmt::format("{:.1f}-{:.1f} GB/s", r.low / 1000, r.high / 1000);
    if (r.high >= 1000)
        return fmt::format("{} MB/s-{}", number(r.low), number(r.high));
    return fmt::format("{}-{} MB/s", number(r.low), number(r.high));
}

bool perWriteSync(const Case& c, const StrategyInfo* info)
{
    return (c.sync.loopSyncEvery() == 1) || c.sync.mode == SyncMode::OSync ||
           c.sync.mode == SyncMode::ODsync || (info != nullptr && info->durableEachWrite);
}

// How good the figure is for its dimension: higher rates are better, a lower sync latency is.
double figureOf(const CaseResult& c, HealthDimension d)
{
    switch (d) {
    case HealthDimension::SyncLatency:
        return c.syncLatency ? static_cast<double>(c.syncLatency->summary.p50Ns) * 1e-6 : 0; // ms
    case HealthDimension::SmallFiles:
        return c.filesPerSecond.median;
    case HealthDimension::SequentialWrite:
    case HealthDimension::RandomWriteQd1:
    case HealthDimension::RandomWriteDeep:
        return c.durableMBps.median;
    default:
        return c.apparentMBps.median;
    }
}

bool better(HealthDimension d, double a, double b)
{
    return d == HealthDimension::SyncLatency ? a < b : a > b;
}

// "1 MiB, QD8", "4 KiB, 16 threads": what sets the case's shape apart.
std::string shape(const Case& c)
{
    std::string text = formatBytes(c.chunkBytes);
    if (c.queueDepth > 1)
        text += fmt::format(", QD{}", c.queueDepth);
    else if (c.queueDepth == 1)
        text += ", QD1";
    if (c.threads > 1)
        text += fmt::format(", {} threads", c.threads);
    return text;
}

HealthWord judge(HealthDimension d, double figure, const std::optional<HealthRange>& range)
{
    if (!range)
        return HealthWord::NoRange;
    if (d == HealthDimension::SyncLatency) {
        if (figure <= range->high)
            return HealthWord::InRange;
        return figure > 2 * range->high ? HealthWord::FarBelow : HealthWord::Below;
    }
    if (figure > range->high)
        return HealthWord::Above;
    if (figure >= range->low)
        return HealthWord::InRange;
    return figure < range->low / 2 ? HealthWord::FarBelow : HealthWord::Below;
}

std::string lowerFirst(std::string text)
{
    if (!text.empty() && !(text.size() > 1 && std::isupper(static_cast<unsigned char>(text[1]))))
        text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    return text;
}

// The sync case's checks: etcd's rule on its p99, and its median against what a medium honouring flushes
// allows (or the flush-honesty finding where one was made).
void syncChecks(const CaseResult& c, const std::vector<Finding>& found, std::vector<std::string>& checks)
{
    if (!c.syncLatency || c.syncLatency->summary.count == 0)
        return;
    const LatencySummary& s = c.syncLatency->summary;
    const double p99 = static_cast<double>(s.p99Ns) * 1e-9;
    const double p50 = static_cast<double>(s.p50Ns) * 1e-9;
    checks.push_back(
        p99 <= kEtcdSyncP99Seconds
            ? fmt::format("Sync latency meets etcd's rule for a log disk: p99 {} of {} syncs, under "
                          "10 ms.",
                          formatLatency(p99), s.count)
            : fmt::format("Sync latency fails etcd's rule for a log disk: p99 {} of {} syncs, over "
                          "10 ms (etcd warns of slow fsyncs and may miss its heartbeats).",
                          formatLatency(p99), s.count));
    const bool judged = std::any_of(found.begin(), found.end(), [&](const Finding& f) {
        return f.kind == Finding::Kind::FlushHonesty && f.caseIndex == c.index;
    });
    if (judged)
        checks.push_back(
            fmt::format("The syncs took a median of {}: faster than the kind of medium the device "
                        "reports can store data, so a cache acknowledged them (see the flush-honesty "
                        "finding).",
                        formatLatency(p50)));
    else if (p50 >= kRotationalFloorSeconds)
        checks.push_back(
            fmt::format("The syncs took a median of {}: slow enough for any medium that honours "
                        "flushes, a spinning disk included; nothing says a cache answers for it.",
                        formatLatency(p50)));
    else if (p50 >= kFlashFloorSeconds)
        checks.push_back(fmt::format("The syncs took a median of {}: what flash that honours flushes can do, "
                                     "and faster than a spinning disk could.",
                                     formatLatency(p50)));
    else
        checks.push_back(fmt::format("The syncs took a median of {}, faster than any medium stores data: a "
                                     "cache acknowledged them.",
                                     formatLatency(p50)));
}

} // namespace

std::string describe(HealthDimension dimension)
{
    switch (dimension) {
    case HealthDimension::SequentialRead:
        return "Sequential reads";
    case HealthDimension::SequentialWrite:
        return "Sequential writes";
    case HealthDimension::RandomReadQd1:
        return "Random 4 KiB reads, one at a time";
    case HealthDimension::RandomReadDeep:
        return "Random 4 KiB reads, many in flight";
    case HealthDimension::RandomWriteQd1:
        return "Random 4 KiB writes, one at a time";
    case HealthDimension::RandomWriteDeep:
        return "Random 4 KiB writes, many in flight";
    case HealthDimension::SyncLatency:
        return "Sync latency";
    case HealthDimension::SmallFiles:
        return "Small files";
    }
    return "";
}

std::string toString(HealthWord word)
{
    switch (word) {
    case HealthWord::InRange:
        return "in range";
    case HealthWord::Above:
        return "above";
    case HealthWord::Below:
        return "below";
    case HealthWord::FarBelow:
        return "far below";
    case HealthWord::NoRange:
        return "no range";
    }
    return "";
}

std::optional<HealthDimension> healthDimension(const Case& c, const Registry* registry)
{
    const Strategy* strategy = registry != nullptr ? registry->find(c.strategy) : nullptr;
    const StrategyInfo* info = strategy != nullptr ? &strategy->info() : nullptr;
    // A read/write mix or a hot spot is not the pure, uniform transfer the typical ranges describe.
    if (c.target != TargetKind::Directory || c.memoryLimitBytes != 0 || compressibleData(c) || mixes(c) ||
        c.randomDist.hotSpot())
        return std::nullopt;
    const std::uint32_t inFlight = std::max(1u, c.queueDepth) * c.threads;
    const bool random = info != nullptr && info->randomOffsets;
    const bool direct = info != nullptr && info->needsDirectIo;
    if (c.direction == Direction::Read) {
        if (!c.fileSet.empty())
            return c.cache == CacheState::Warm ? std::nullopt : std::optional(HealthDimension::SmallFiles);
        if (c.cache == CacheState::Warm && !direct)
            return std::nullopt; // memory, not the device
        if (random && c.chunkBytes <= kRandomChunkBytes)
            return inFlight == 1               ? std::optional(HealthDimension::RandomReadQd1)
                   : inFlight >= kDeepRequests ? std::optional(HealthDimension::RandomReadDeep)
                                               : std::nullopt;
        if (!random && c.chunkBytes >= kSequentialRangeChunkBytes)
            return HealthDimension::SequentialRead;
        return std::nullopt;
    }
    if (perWriteSync(c, info))
        return c.chunkBytes <= kRandomChunkBytes && info != nullptr && info->notDurable.empty()
                   ? std::optional(HealthDimension::SyncLatency)
                   : std::nullopt;
    if (!ratesAsThroughput(c.preallocate))
        return std::nullopt;
    if (random && c.chunkBytes <= kRandomChunkBytes && direct)
        return inFlight == 1               ? std::optional(HealthDimension::RandomWriteQd1)
               : inFlight >= kDeepRequests ? std::optional(HealthDimension::RandomWriteDeep)
                                           : std::nullopt;
    if (!random && c.chunkBytes >= kSequentialRangeChunkBytes)
        return HealthDimension::SequentialWrite;
    return std::nullopt;
}

std::optional<HealthRange> typicalHealthRange(const SystemFacts& facts, HealthDimension dimension)
{
    const ClassRanges* ranges = classRanges(facts);
    if (ranges == nullptr)
        return std::nullopt;
    return ranges->ranges[static_cast<std::size_t>(dimension)];
}

std::string typicalRangesSource(DeviceClass kind)
{
    SystemFacts facts;
    facts.deviceClass = kind;
    const ClassRanges* ranges = classRanges(facts);
    return ranges == nullptr ? std::string() : std::string(ranges->source);
}

std::optional<HealthVerdict> healthVerdict(const RunResult& result, const Registry* registry,
                                           const std::vector<Finding>& found)
{
    // The best case of each dimension.
    std::map<HealthDimension, std::size_t> best;
    for (std::size_t i = 0; i < result.cases.size(); ++i) {
        const CaseResult& c = result.cases[i];
        if (!hasRate(c))
            continue;
        const auto d = healthDimension(c.testCase, registry);
        if (!d || figureOf(c, *d) <= 0)
            continue;
        const auto it = best.find(*d);
        if (it == best.end() || better(*d, figureOf(c, *d), figureOf(result.cases[it->second], *d)))
            best[*d] = i;
    }
    if (best.size() < kHealthMinDimensions)
        return std::nullopt;

    const SystemFacts& facts = result.system;
    HealthVerdict v;
    const std::string kind = facts.gathered ? describe(facts.deviceClass) : std::string("device");
    const std::string model = result.target.deviceModel;
    v.device = withArticle(kind) + (model.empty() ? "" : " (" + model + ")");
    const bool ranged = classRanges(facts) != nullptr;
    if (ranged)
        v.rangesSource = classRanges(facts)->source;

    std::vector<std::string> low;
    std::size_t judged = 0;
    for (const auto& [d, index] : best) {
        const CaseResult& c = result.cases[index];
        const Case& k = c.testCase;
        HealthLine line;
        line.dimension = d;
        line.caseIndex = c.index;
        line.what = describe(d);
        const double figure = figureOf(c, d);
        switch (d) {
        case HealthDimension::SyncLatency: {
            const LatencySummary& s = c.syncLatency->summary;
            const double opsPerSecond =
                c.durableMBps.median * kBytesPerMB / static_cast<double>(k.chunkBytes);
            const std::uint32_t every = std::max(1u, k.sync.loopSyncEvery());
            line.what +=
                fmt::format(" ({} writes, {})", formatBytes(k.chunkBytes),
                            k.sync.mode == SyncMode::None ? std::string("each durable") : toString(k.sync));
            line.figure = fmt::format("{:.0f} syncs/s, p50 {}, p99 {}", opsPerSecond / every,
                                      formatLatency(static_cast<double>(s.p50Ns) * 1e-9),
                                      formatLatency(static_cast<double>(s.p99Ns) * 1e-9));
            break;
        }
        case HealthDimension::SmallFiles:
            line.what += fmt::format(" ({} files, {}{})", k.fileSet.files, toString(k.fileSet),
                                     k.threads > 1 ? fmt::format(", {} threads", k.threads) : std::string());
            line.figure = fmt::format("{:.0f} files/s ({})", c.filesPerSecond.median,
                                      formatMBps(c.apparentMBps.median));
            break;
        case HealthDimension::RandomReadQd1:
        case HealthDimension::RandomReadDeep:
        case HealthDimension::RandomWriteQd1:
        case HealthDimension::RandomWriteDeep:
            line.what += fmt::format(" ({})", shape(k));
            line.figure = fmt::format("{} ({:.0f} IOPS)", formatMBps(figure),
                                      figure * kBytesPerMB / static_cast<double>(k.chunkBytes));
            break;
        default:
            line.what += fmt::format(" ({})", shape(k));
            line.figure = formatMBps(figure) + (k.direction == Direction::Write ? " durable" : "");
            break;
        }
        const auto range = typicalHealthRange(facts, d);
        line.word = judge(d, figure, range);
        if (range) {
            line.typical = rangeText(d, *range);
            ++judged;
        }
        if (line.word == HealthWord::Below || line.word == HealthWord::FarBelow) {
            low.push_back(fmt::format("{} ({}: {} against {} typical)", lowerFirst(describe(d)),
                                      toString(line.word), line.figure, line.typical));
        }
        v.lines.push_back(std::move(line));
    }

    if (!ranged) {
        const std::string why =
            facts.deviceClass == DeviceClass::VirtualDisk    ? "its speed is the host's storage and cache"
            : facts.deviceClass == DeviceClass::NetworkShare ? "its speed is the network's and "
                                                               "the server's"
            : facts.deviceClass == DeviceClass::Memory       ? "it lives in memory"
                                                             : "IOLab could not tell what kind of "
                                                               "device it is";
        v.overall =
            fmt::format("The target is {}: there is no typical range to compare it with ({}), so IOLab "
                        "judges what it can without one, below.",
                        v.device, why);
    } else if (low.empty()) {
        v.overall = fmt::format("Yes: the target is {}, and it is as fast as such devices typically are in "
                                "{} measure{}.",
                                v.device, judged == 1 ? "its one" : fmt::format("all {}", judged),
                                judged == 1 ? "" : "s");
    } else {
        v.overall =
            fmt::format("No: the target is {}, and it is below what such devices typically reach in {} "
                        "of {} measures: {}.",
                        v.device, low.size(), judged, joinWords(low));
    }

    // What is judged without a class range.
    if (const auto sync = best.find(HealthDimension::SyncLatency); sync != best.end())
        syncChecks(result.cases[sync->second], found, v.checks);
    std::uint64_t longest = 0;
    double longestSeconds = 0;
    for (const auto& c : result.cases) {
        if (c.testCase.direction != Direction::Write || c.testCase.target != TargetKind::Directory ||
            !hasRate(c))
            continue;
        for (const auto& r : c.repetitions) {
            if (r.outcome.ok() && r.bytes > longest) {
                longest = r.bytes;
                longestSeconds = r.durableSeconds;
            }
        }
    }
    std::vector<std::string> cliffs;
    std::vector<std::string> cpu;
    std::vector<std::string> compression;
    for (const auto& f : found) {
        const std::string subject = f.text.substr(0, f.text.find(": "));
        if (f.kind == Finding::Kind::CacheCliff)
            cliffs.push_back(f.text);
        else if (f.kind == Finding::Kind::CpuBound)
            cpu.push_back(subject);
        else if (f.kind == Finding::Kind::Compression)
            compression.push_back(subject);
    }
    if (!cliffs.empty())
        v.checks.push_back("A cache in front of the medium filled during a long write: " + cliffs.front());
    else if (longest >= kCliffMinBytes)
        v.checks.push_back(
            fmt::format("No cache cliff: the longest write, {} in {}, kept its rate to the end.",
                        formatBytes(longest), formatDuration(longestSeconds)));
    else if (longest > 0)
        v.checks.push_back(fmt::format("A cache cliff could not show: the longest write moved only {} (a "
                                       "drive's fast cache holds gigabytes).",
                                       formatBytes(longest)));
    v.checks.push_back(cpu.empty()
                           ? std::string("No case was CPU-bound: the figures are the storage's.")
                           : fmt::format("{} kept the CPU busy: {} measure{} the CPU as much as the storage.",
                                         joinWords(cpu), cpu.size() == 1 ? "its figure" : "their figures",
                                         cpu.size() == 1 ? "s" : ""));
    const bool patterns = std::any_of(result.cases.begin(), result.cases.end(),
                                      [](const CaseResult& c) { return compressibleData(c.testCase); });
    if (!compression.empty())
        v.checks.push_back(
            fmt::format("Something below the program compresses or deduplicates: {} wrote zeros "
                        "far faster than random bytes (see the findings).",
                        joinWords(compression)));
    else if (patterns && !compressionPairs(result, Ranking::Durable).empty())
        v.checks.emplace_back(
            "Nothing below the program compresses the writes: zeros were no faster than random "
            "bytes beyond the noise.");
    return v;
}

namespace {

void wrapInto(std::string& out, const std::string& text, const std::string& first, const std::string& rest,
              std::size_t width)
{
    std::string line = first;
    bool empty = true;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto end = text.find(' ', pos);
        const std::string word = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        pos = end == std::string::npos ? text.size() : end + 1;
        if (word.empty())
            continue;
        if (!empty && line.size() + 1 + word.size() > width) {
            out += line + "\n";
            line = rest;
            empty = true;
        }
        line += (empty ? "" : " ") + word;
        empty = false;
    }
    out += line + "\n";
}

} // namespace

std::string healthText(const HealthVerdict& health, const std::vector<std::string>& causes, std::size_t width)
{
    std::string out = "Health check: is this storage as fast as its kind of device should be?\n";
    std::size_t whatWidth = 0;
    std::size_t figureWidth = 0;
    for (const auto& l : health.lines) {
        whatWidth = std::max(whatWidth, l.what.size());
        figureWidth = std::max(figureWidth, l.figure.size());
    }
    // One line per dimension where the table fits the width; otherwise the judgement goes under the figure,
    // for every line alike.
    const auto judgement = [](const HealthLine& l) {
        return l.typical.empty() ? std::string(toString(l.word))
                                 : fmt::format("{} (typical {})", toString(l.word), l.typical);
    };
    std::size_t widest = 0;
    for (const auto& l : health.lines)
        widest = std::max(widest, 2 + whatWidth + 2 + figureWidth + 2 + judgement(l).size());
    for (const auto& l : health.lines) {
        if (widest <= width)
            out +=
                fmt::format("  {:<{}}  {:<{}}  {}\n", l.what, whatWidth, l.figure, figureWidth, judgement(l));
        else
            out += fmt::format("  {:<{}}  {}\n  {:<{}}  {}\n", l.what, whatWidth, l.figure, "", whatWidth,
                               judgement(l));
    }
    wrapInto(out, health.overall, "Overall: ", "         ", width);
    if (!causes.empty()) {
        out += "Likely causes, most likely first:\n";
        for (std::size_t i = 0; i < causes.size(); ++i)
            wrapInto(out, causes[i], fmt::format("  {}. ", i + 1), "     ", width);
    }
    if (!health.checks.empty()) {
        out += "Also checked:\n";
        for (const auto& c : health.checks)
            wrapInto(out, c, "  - ", "    ", width);
    }
    if (!health.rangesSource.empty())
        wrapInto(out, "Typical ranges from " + health.rangesSource + ".", "", "", width);
    return out;
}

} // namespace iolab
