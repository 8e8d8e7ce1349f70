// SPDX-License-Identifier: MIT
#include "core/analysis/system_checks.h"

#include "core/analysis/sustained.h"

#include "core/analysis/significance.h"

#include "core/base/stats.h"
#include "core/base/units.h"
#include "core/base/words.h"
#include "core/engine/strategy.h"
#include "core/model/axes.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <span>

namespace iolab {

namespace {} // namespace

std::optional<Finding> storageFinding(const RunResult& result)
{
    const SystemFacts& facts = result.system;
    if (!facts.gathered)
        return std::nullopt;
    std::vector<std::string> parts;
    const std::string meaning = facts.valueOf("stack.meaning");
    if (!meaning.empty() && meaning != "none")
        parts.push_back(meaning);
    // The mount options as the collector read them (fs.sync, fs.barrier, fs.data_mode), not parsed again.
    if (facts.valueOf("fs.sync").starts_with("sync"))
        parts.emplace_back("the filesystem is mounted sync, so every write waits for the device");
    if (facts.valueOf("fs.barrier").starts_with("off"))
        parts.emplace_back(
            "write barriers are off (nobarrier), so a sync does not flush the drive's cache and "
            "durable rates are optimistic");
    if (facts.valueOf("fs.data_mode") == "journal")
        parts.emplace_back("data=journal writes every data block twice (journal, then place)");
    const std::string compression = facts.valueOf("fs.compression");
    if (!compression.empty() && compression != "off" && !compression.starts_with("none") &&
        !compression.starts_with("off "))
        parts.push_back(fmt::format("the filesystem compresses ({}), so data that compresses well writes "
                                    "faster than the device takes bytes",
                                    compression));
    if (parts.empty())
        return std::nullopt;
    std::string joined;
    for (std::size_t i = 0; i < parts.size(); ++i)
        joined += (i == 0 ? "" : "; ") + parts[i];
    return Finding{Finding::Kind::Storage, std::nullopt,
                   fmt::format("The target's storage is {}: {}. Every figure here includes that.",
                               describeStack(facts), joined)};
}

namespace {

bool readerSpins(const Case& k)
{
    return k.target == TargetKind::Pipe && extraAxisValue(k, "readerWaits", "block") == "spin";
}

// The cores among coresInUse() that a case keeps busy by design, polling rather than working: a pipe's reader
// told to spin (the reader wait axis) and io_uring's SQPOLL kernel thread, whose CPU time counts in the
// process's. Busy as they are, they are no sign that the case's own work ran out of CPU.
double pollingCores(const Case& k)
{
    return (readerSpins(k) ? 1.0 : 0.0) + (k.uring.sqPoll ? 1.0 : 0.0);
}

struct CpuUse
{
    double share = 0;     // of the working cores: the median over the measured repetitions
    double busyCores = 0; // user + system CPU over the seconds, all of the case's threads: the median
};

std::optional<CpuUse> cpuUse(const CaseResult& c, const HostInfo& host)
{
    // A process's CPU time is counted in clock ticks (Windows: 15.6 ms; wine: 10 ms; Linux: far finer): over
    // a repetition shorter than this one tick is more than a tenth of the share, and one of 10 ms reads as 0%
    // or 100% busy. Such repetitions are no evidence either way.
    constexpr double kShortestRepetitionSeconds = 0.1;
    const double cores = coresInUse(c.testCase, host);
    const double polling = pollingCores(c.testCase);
    if (cores - polling < 1)
        return std::nullopt; // the pollers take every core there is: nothing left to judge
    std::vector<double> shares;
    std::vector<double> busy;
    for (const auto& r : c.repetitions) {
        const double seconds = std::max(r.returnSeconds, r.durableSeconds);
        if (r.warmup || !r.outcome.ok() || seconds < kShortestRepetitionSeconds)
            continue;
        const double cpu = r.cpuUserSeconds + r.cpuSystemSeconds;
        if (cpu <= 0)
            continue;
        shares.push_back(std::max(0.0, cpu - polling * seconds) / (seconds * (cores - polling)));
        busy.push_back(cpu / seconds);
    }
    if (shares.empty())
        return std::nullopt;
    return CpuUse{median(shares), median(busy)};
}

std::string plural(double n, const char* one, const char* many)
{
    return n == 1 ? one : many;
}

} // namespace

double coresInUse(const Case& k, const HostInfo& host)
{
    double cores = std::max<std::uint32_t>(k.threads, 1);
    if (k.target == TargetKind::Pipe)
        cores += 1; // the reader draining the pipe
    if (k.uring.sqPoll)
        cores += 1; // the kernel thread polling the submission queue
    if (host.logicalCpus > 0)
        cores = std::min(cores, static_cast<double>(host.logicalCpus));
    return cores;
}

std::optional<double> cpuBusyShare(const CaseResult& c, const HostInfo& host)
{
    const auto use = cpuUse(c, host);
    return use ? std::optional<double>(use->share) : std::nullopt;
}

std::string cpuBoundAdvice(const Case& c, const StrategyInfo* info)
{
    constexpr std::uint64_t kSmallChunk = 64 * kKiB;
    const bool small = c.chunkBytes < kSmallChunk;
    const std::string fewerCalls =
        c.direction == Direction::Read ? "fewer, larger reads" : "fewer, larger writes";
    if (c.target == TargetKind::Pipe) {
        // No page cache and no disk behind a pipe: the copy into it and the hand-over to the reader are all.
        if (info != nullptr && info->ownsPipePages)
            return "vmsplice already hands the pipe the writer's pages without a copy: what is left is the "
                   "hand-over to the reader, which where the reader runs (the reader CPU axis) moves.";
        if (info != nullptr)
            return "Each write copies its bytes into the pipe: vmsplice (or splice from a file) hands the "
                   "pipe "
                   "pages instead of copying them, and where the reader runs (the reader CPU axis) sets what "
                   "each hand-over costs.";
        return "A pipe has no disk behind it: the copy into it (vmsplice avoids it) and where the reader "
               "runs "
               "(the reader CPU axis) set the figure.";
    }
    if (info != nullptr && info->usesStdioBuffer) {
        if (!info->lockFreeVariant.empty() && small)
            return fmt::format("Each locked stdio call costs more than its bytes: `{}` makes the same calls "
                               "without the lock, and larger pieces per call cost less still; a faster disk "
                               "would not move this figure.",
                               info->lockFreeVariant);
        return "The stdio calls cost more than the bytes: hand stdio larger pieces per call, and a larger "
               "buffer (setvbuf) makes fewer system calls; a faster disk would not move this figure.";
    }
    if (info != nullptr && info->callCost == CallCost::MappedWindow)
        return "A mapping pays a page fault per page and a map and unmap per window: write(2) in large "
               "chunks, "
               "or O_DIRECT, moves the same bytes with less CPU; a faster disk would not move this figure.";
    if (info != nullptr && info->callCost == CallCost::Copy)
        return "The copy into the batch buffer is the cost: write(2) or O_DIRECT straight from the program's "
               "own buffer saves it; a faster disk would not move this figure.";
    const bool queued = info != nullptr && info->maxQueueDepth > 0;
    if (small && queued && c.queueDepth > 1)
        return fmt::format("Each request moves only {}: {} cost less CPU per byte (the case already keeps {} "
                           "requests in flight{}); a faster disk would not move this figure.",
                           formatBytes(c.chunkBytes), fewerCalls, c.queueDepth,
                           c.uring.sqPoll ? ", submitted by the SQPOLL thread" : "");
    if (small && queued)
        return fmt::format(
            "Each call is a system call for {}: {}, or more requests kept in flight (the queue "
            "depth axis), cost less CPU per byte; a faster disk would not move this figure.",
            formatBytes(c.chunkBytes), fewerCalls);
    if (small)
        return fmt::format("Each call is a system call for {}: {} (or requests kept in flight with io_uring) "
                           "cost less CPU per byte; a faster disk would not move this figure.",
                           formatBytes(c.chunkBytes), fewerCalls);
    if (c.threads == 1 && info != nullptr && info->needsDirectIo)
        return "One thread is busy issuing the calls: more threads (the threads axis) can move more; a "
               "faster "
               "disk would not.";
    if (c.threads == 1)
        return "One thread is busy copying the data: more threads (the threads axis), or O_DIRECT, which "
               "skips the copy into the page cache, can move more; a faster disk would not.";
    return "The CPU, not the storage, limits this case: fewer, larger calls move the figure; a faster disk "
           "would not.";
}

std::optional<Finding> cpuBoundFinding(const CaseResult& c, const HostInfo& host, const StrategyInfo* info)
{
    const Case& k = c.testCase;
    if (k.target == TargetKind::Null)
        return std::nullopt; // nothing but the calls' CPU to measure: that is the point of the null device
    const auto use = cpuUse(c, host);
    if (!use || use->share < kCpuBoundShare)
        return std::nullopt;
    double user = 0;
    double system = 0;
    double seconds = 0;
    std::size_t n = 0;
    for (const auto& r : c.repetitions) {
        if (r.warmup || !r.outcome.ok())
            continue;
        user += r.cpuUserSeconds;
        system += r.cpuSystemSeconds;
        seconds += std::max(r.returnSeconds, r.durableSeconds);
        ++n;
    }
    const double cores = coresInUse(k, host);
    const double polling = pollingCores(k);
    const std::string times =
        fmt::format("{:.2f} s user and {:.2f} s system in {:.2f} s", user / static_cast<double>(n),
                    system / static_cast<double>(n), seconds / static_cast<double>(n));
    const std::string meaning =
        k.target == TargetKind::Pipe
            ? "a pipe has no storage behind it, so the figure is what moving the data "
              "through it costs the CPU."
            : "the figure measures the CPU as much as the storage.";
    std::string text;
    if (polling > 0) {
        const double working = cores - polling;
        std::vector<std::string> pollers;
        if (readerSpins(k))
            pollers.emplace_back("the reader, which spins waiting for data");
        if (k.uring.sqPoll)
            pollers.emplace_back("the SQPOLL kernel thread, which polls io_uring's submission queue");
        const std::string workers = k.target == TargetKind::Pipe
                                        ? (working == 1 ? std::string("the writer")
                                                        : fmt::format("the {:.0f} writer threads", working))
                                        : (working == 1 ? std::string("the case's thread")
                                                        : fmt::format("the case's {:.0f} threads", working));
        text = fmt::format(
            "{}: {} kept {} busy {:.0f}% of the time, beside {}, busy on {} by design ({:.2f} "
            "cores' worth of CPU in all in the median repetition; on average {} per repetition): "
            "{}",
            findingSubject(c), workers, working == 1 ? "its core" : "their cores",
            std::min(use->share, 1.0) * 100.0, joinWords(pollers),
            pollers.size() == 1 ? "a core of its own" : "cores of their own", use->busyCores, times, meaning);
    } else if (use->busyCores > cores * 1.05) {
        text =
            fmt::format("{}: the CPU was busy all of the time on the {} core{} the case kept busy, and more: "
                        "{:.2f} cores' worth of CPU in the median repetition (on average {} per "
                        "repetition): {}",
                        findingSubject(c), cores, plural(cores, "", "s"), use->busyCores, times, meaning);
    } else {
        text = fmt::format(
            "{}: the CPU was busy {:.0f}% of the time on the {} core{} the case kept busy ({}, per "
            "repetition): {}",
            findingSubject(c), std::min(use->share, 1.0) * 100.0, cores, plural(cores, "", "s"), times,
            meaning);
    }
    return Finding{Finding::Kind::CpuBound, c.index, std::move(text), cpuBoundAdvice(k, info)};
}

bool compressibleData(const Case& c)
{
    return c.pattern.kind == PatternKind::Zeros || c.pattern.kind == PatternKind::Compressible;
}

namespace {

// The measured repetitions' rates a case is ranked by.
std::vector<double> rankedRates(const CaseResult& c, Ranking ranking)
{
    const bool durable = ranksDurable(c.testCase, ranking);
    std::vector<double> rates;
    for (const auto& r : c.repetitions) {
        if (r.warmup || !r.outcome.ok())
            continue;
        const double mbps = durable ? r.durableMBps : r.apparentMBps;
        if (mbps > 0)
            rates.push_back(mbps);
    }
    return rates;
}

} // namespace

std::vector<CompressionPair> compressionPairs(const RunResult& result, Ranking ranking)
{
    std::vector<CompressionPair> out;
    for (const auto& c : result.cases) {
        if (!hasRate(c) || !compressibleData(c.testCase) || c.testCase.target != TargetKind::Directory)
            continue;
        // Its twin: the same case with random bytes, else with IOLab's own.
        const CaseResult* twin = nullptr;
        for (auto kind : {PatternKind::Random, PatternKind::Iolab}) {
            Case wanted = c.testCase;
            wanted.pattern = DataPattern{kind};
            const auto it = std::find_if(result.cases.begin(), result.cases.end(), [&](const CaseResult& o) {
                return hasRate(o) && o.testCase == wanted;
            });
            if (it != result.cases.end()) {
                twin = &*it;
                break;
            }
        }
        if (twin == nullptr)
            continue;
        const auto fast = rankedRates(c, ranking);
        const auto slow = rankedRates(*twin, ranking);
        if (fast.empty() || slow.empty())
            continue;
        out.push_back({c.index, twin->index, median(fast), median(slow)});
    }
    return out;
}

std::vector<Finding> compressionFindings(const RunResult& result, Ranking ranking)
{
    std::vector<Finding> out;
    for (const auto& pair : compressionPairs(result, ranking)) {
        const CaseResult& fast =
            *std::find_if(result.cases.begin(), result.cases.end(),
                          [&](const CaseResult& c) { return c.index == pair.compressible; });
        const CaseResult& slow =
            *std::find_if(result.cases.begin(), result.cases.end(),
                          [&](const CaseResult& c) { return c.index == pair.incompressible; });
        if (pair.compressibleMBps < kCompressionFactor * pair.incompressibleMBps)
            continue;
        // The noise rule every comparison of two cases follows (core/analysis/significance.h): a single
        // repetition on either side, or a gap within the spread, could be chance.
        const RateDifference difference =
            compareRates(rankedRates(fast, ranking), rankedRates(slow, ranking));
        if (difference.kind != RateDifference::Kind::Faster)
            continue;
        const Case& k = fast.testCase;
        const std::string compression = result.system.valueOf("fs.compression");
        const bool fsCompresses = !compression.empty() && compression != "off" &&
                                  !compression.starts_with("none") && !compression.starts_with("off ");
        const std::string where =
            fsCompresses ? fmt::format("the filesystem compresses ({})", compression)
                         : std::string("something below the program compresses or deduplicates the data "
                                       "(the filesystem, a virtual disk's host, or the drive's controller)");
        out.push_back(
            {Finding::Kind::Compression, fast.index,
             fmt::format("{}: {} {} at {}, the same case with {} at {} ({:.1f}x, beyond the noise: {}): "
                         "{}. Real data lands between the two, by how well it compresses; the rate of {} is "
                         "the one to judge the disk by.",
                         findingSubject(fast), patternWords(k.pattern),
                         k.direction == Direction::Read ? "read" : "wrote", formatMBps(pair.compressibleMBps),
                         patternWords(slow.testCase.pattern), formatMBps(pair.incompressibleMBps),
                         pair.compressibleMBps / pair.incompressibleMBps, describeTest(difference.test),
                         where, patternWords(slow.testCase.pattern))});
    }
    return out;
}

std::optional<CacheCliff> findCacheCliff(const CaseResult& c, bool bypassesPageCache)
{
    const Case& k = c.testCase;
    if (k.direction != Direction::Write || k.target != TargetKind::Directory)
        return std::nullopt;
    // A write until steady was watched for exactly this: its sustained figures are the one account of the
    // drop, so that the finding and the Summary's answer never give two sizes for one cache.
    if (k.steady.on()) {
        const auto f = sustainedFigures(c);
        if (!f || !f->cacheBytes)
            return std::nullopt;
        CacheCliff cliff;
        cliff.beforeMBps = f->fastMBps;
        cliff.afterMBps = f->afterMBps;
        cliff.deviceRate = f->deviceRate;
        cliff.secondsBefore = f->cacheSeconds;
        cliff.bytesBefore = *f->cacheBytes;
        return cliff;
    }
    // The longest measured repetition's samples.
    std::int32_t best = -1;
    std::size_t bestCount = 0;
    std::map<std::int32_t, std::size_t> counts;
    for (const auto& s : c.samples) {
        if (!s.warmup)
            ++counts[s.repetition];
    }
    for (const auto& [rep, count] : counts) {
        if (count > bestCount) {
            best = rep;
            bestCount = count;
        }
    }
    if (best < 0 || bestCount < kCliffMinSamples)
        return std::nullopt;
    std::vector<const Sample*> samples;
    bool deviceSeen = false;
    for (const auto& s : c.samples) {
        if (s.warmup || s.repetition != best)
            continue;
        samples.push_back(&s);
        deviceSeen = deviceSeen || s.deviceWriteMBps > 0;
    }
    if (!deviceSeen && !bypassesPageCache)
        return std::nullopt; // a buffered write's call rate falls when the page cache fills, not the device
    std::vector<double> rates;
    for (const auto* s : samples) {
        if (!deviceSeen && s->syncing)
            continue; // no calls while the final sync runs
        rates.push_back(deviceSeen ? s->deviceWriteMBps : s->intervalMBps);
    }
    if (rates.size() < kCliffMinSamples)
        return std::nullopt;
    const std::size_t quarter = rates.size() / 4;
    const std::span<const double> all(rates);
    const double head = median(all.first(quarter));
    const double tail = median(all.last(quarter));
    if (tail <= 0 || head < kCliffFactor * tail)
        return std::nullopt;
    // The drop: the first sample after which a five-sample median stays under the midpoint for good (four in
    // five of the rest under it), with a quarter of the samples before and after it at least.
    const double mid = (head + tail) / 2;
    for (std::size_t i = quarter; i + quarter <= rates.size(); ++i) {
        const std::size_t from = i >= 2 ? i - 2 : 0;
        const double local = median(all.subspan(from, std::min(rates.size(), i + 3) - from));
        if (local >= mid)
            continue;
        const auto below =
            static_cast<std::size_t>(std::count_if(rates.begin() + static_cast<std::ptrdiff_t>(i),
                                                   rates.end(), [mid](double r) { return r < mid; }));
        if (below * 5 < (rates.size() - i) * 4)
            return std::nullopt; // it went down and up again: noise, not a cache running full
        // Where the drop came, in the repetition's own samples (syncing ones included).
        std::size_t at = 0;
        std::size_t seen = 0;
        for (std::size_t j = 0; j < samples.size(); ++j) {
            if (!deviceSeen && samples[j]->syncing)
                continue;
            if (seen++ == i) {
                at = j;
                break;
            }
        }
        CacheCliff cliff;
        cliff.beforeMBps = head;
        cliff.afterMBps = tail;
        cliff.deviceRate = deviceSeen;
        cliff.secondsBefore = samples[at]->runSeconds - samples.front()->runSeconds;
        cliff.bytesBefore = samples[at]->bytesDone;
        return cliff;
    }
    return std::nullopt;
}

std::optional<Finding> cacheCliffFinding(const CaseResult& c, bool bypassesPageCache)
{
    const auto cliff = findCacheCliff(c, bypassesPageCache);
    if (!cliff)
        return std::nullopt;
    return Finding{
        Finding::Kind::CacheCliff, c.index,
        fmt::format("{}: the {} ran at {} for the first {} ({:.1f} s), then at {} to the end: a fast "
                    "cache in front of the medium filled up (an SSD's SLC cache, or the host's cache "
                    "under a virtual disk). {} is what a long write gets; a test shorter than {} would "
                    "have reported {}.",
                    findingSubject(c), cliff->deviceRate ? "device" : "writes", formatMBps(cliff->beforeMBps),
                    formatBytes(cliff->bytesBefore), cliff->secondsBefore, formatMBps(cliff->afterMBps),
                    formatMBps(cliff->afterMBps), formatBytes(cliff->bytesBefore),
                    formatMBps(cliff->beforeMBps))};
}

} // namespace iolab

namespace iolab {

std::optional<Finding> heatFinding(const CaseResult& c, Ranking ranking)
{
    if (c.status != Status::Ok || !c.thermalBefore || !c.thermalAfter)
        return std::nullopt;
    const bool durable = ranksDurable(c.testCase, ranking);
    std::vector<double> rates;
    for (const auto& r : c.repetitions)
        if (!r.warmup && r.outcome.ok())
            rates.push_back(durable ? r.durableMBps : r.apparentMBps);
    if (rates.size() < 2 || rates.front() <= 0 || rates.back() > rates.front() * (1 - kHeatFall))
        return std::nullopt;
    const ThermalReading& before = *c.thermalBefore;
    const ThermalReading& after = *c.thermalAfter;
    const ThermalChange change = thermalChange(before, after);
    const bool hot = after.celsius && after.warningCelsius && *after.celsius >= *after.warningCelsius;
    if (!change.rose() && !hot)
        return std::nullopt;
    std::vector<std::string> evidence;
    if (const std::string temperature = temperatureText(before, after); !temperature.empty())
        evidence.push_back(hot ? fmt::format("{}, at or above its warning temperature of {:.0f} °C",
                                             temperature, *after.warningCelsius)
                               : temperature);
    if (change.throttleTransitions > 0)
        evidence.push_back(fmt::format("{} throttling transition{}", change.throttleTransitions,
                                       change.throttleTransitions == 1 ? "" : "s"));
    if (change.throttleSeconds > 0)
        evidence.push_back(fmt::format("{} s throttled", change.throttleSeconds));
    if (change.warningMinutes > 0)
        evidence.push_back(fmt::format("{} min above its warning temperature", change.warningMinutes));
    if (change.criticalMinutes > 0)
        evidence.push_back(fmt::format("{} min above its critical temperature", change.criticalMinutes));
    std::string joined;
    for (std::size_t i = 0; i < evidence.size(); ++i)
        joined += (i == 0 ? "" : i + 1 == evidence.size() ? " and " : ", ") + evidence[i];
    return Finding{Finding::Kind::Heat, c.index,
                   fmt::format("{}: its rate fell from {} in its first measured repetition to {} in its last "
                               "({:.0f}% slower) while the drive ran hot: {} (read from {}). A drive slows "
                               "itself down to cool: these figures hold for this drive this hot, not for a "
                               "cool one.",
                               findingSubject(c), formatMBps(rates.front()), formatMBps(rates.back()),
                               (1 - rates.back() / rates.front()) * 100, joined,
                               after.source.empty() ? std::string("the drive") : after.source)};
}

} // namespace iolab
