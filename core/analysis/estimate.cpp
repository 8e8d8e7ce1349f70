// SPDX-License-Identifier: MIT
#include "core/analysis/estimate.h"

#include "core/analysis/findings.h"
#include "core/base/units.h"
#include "core/engine/crash_probe.h"
#include "core/model/strategy_methods.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <tuple>

namespace iolab {

namespace {

// What the model needs of the machine besides the target: the CPU's cost of a call and of a copy. Measured on
// this project's 2-vCPU VM (tests/perf: plain loops); a faster machine is faster, which the estimate, a few
// tens of percent high there, can bear.
constexpr double kSyscallSeconds = 1.2e-6;        // a small write(2) or read(2) into the page cache
constexpr double kLockedStdioCallSeconds = 17e-9; // fwrite of one byte into a FILE's buffer, with its lock
constexpr double kStdioCallSeconds = 6e-9;        // the same without the lock (fwrite_unlocked)
constexpr double kMemoryCopyBytesPerSecond = 6e9;
constexpr double kPageFaultSeconds = 0.5e-6; // a mapped page's first touch
constexpr double kPipeBytesPerSecond = 4e9;  // into a pipe and out of it to a reader
constexpr std::uint64_t kPageBytes = 4096;
// Requests in flight beyond this add nothing to a device's rate (a common SSD's queue saturates around
// 16-32).
constexpr double kUsefulRequestsInFlight = 16;
// What the calibration writes or reads per case.
constexpr std::uint64_t kCalibrationBytes = 32 * kMiB;
// Removing what a repetition wrote, on a filesystem mounted with online discard (`discard`): unlink sends the
// device a discard for every extent it frees, and waits for them. On this project's VM (ext4 on virtio) a
// 1 GiB file took 0.45 s to remove, and a 256 MiB file after a second of random 4 KiB direct writes (about
// 11,000 scattered blocks) 1.1-2.3 s, 120-250 us an extent. Without online discard a removal costs a few
// milliseconds, in kRepetitionOverheadSeconds.
constexpr double kDiscardBytesPerSecond = 2.4e9;
constexpr double kDiscardExtentSeconds = 150e-6;
// Per repetition: create the files, their fsync of metadata, unlink, the counters and the sampler's wake-ups.
constexpr double kRepetitionOverheadSeconds = 0.03;
// Per case: the plan's book-keeping, the data set's look-up, the result's summary.
constexpr double kCaseOverheadSeconds = 0.02;
// A file of a set: create it when the set is written, open and close it when it is read or evicted.
constexpr double kFileCreateSeconds = 150e-6;
constexpr double kFileOpenSeconds = 40e-6;
// A case in a child process (a memory limit): the process's start and its cgroup.
constexpr double kChildStartSeconds = 0.05;
constexpr double kProbeKillOverheadSeconds = 0.1; // start the child, wait for it ready, read the files back

// Typical figures of a common SSD, used where the target was not calibrated.
DeviceCalibration typicalCalibration()
{
    return {.pageCacheWriteBytesPerSecond = 2e9,
            .bufferedDurableBytesPerSecond = 400e6,
            .deviceWriteBytesPerSecond = 400e6,
            .directReturnedBytesPerSecond = 400e6,
            .deviceReadBytesPerSecond = 500e6,
            .syncSeconds = 1e-3,
            .directWriteSeconds = 100e-6,
            .directReadSeconds = 150e-6};
}

// The calibration's figures, each one it could not measure taken from the typical ones; a rotational target
// without a calibration is priced as a hard disk, unless it is a virtual machine's disk, whose rotational
// flag describes the emulation (virtio says 1 whatever the host keeps it on) and which is priced as an SSD.
DeviceCalibration costsOf(const TargetInfo& target)
{
    DeviceCalibration typical = typicalCalibration();
    if (target.rotational.value_or(false) && !looksVirtual(target) && !target.calibration) {
        typical.bufferedDurableBytesPerSecond = typical.deviceWriteBytesPerSecond = 120e6;
        typical.directReturnedBytesPerSecond = 120e6;
        typical.deviceReadBytesPerSecond = 120e6;
        typical.syncSeconds = 8e-3;
        typical.directWriteSeconds = typical.directReadSeconds = 8e-3;
    }
    if (!target.calibration)
        return typical;
    DeviceCalibration c = *target.calibration;
    const auto orTypical = [](double& value, double fallback) {
        if (!(value > 0))
            value = fallback;
    };
    orTypical(c.pageCacheWriteBytesPerSecond, typical.pageCacheWriteBytesPerSecond);
    orTypical(c.bufferedDurableBytesPerSecond, typical.bufferedDurableBytesPerSecond);
    orTypical(c.deviceWriteBytesPerSecond, c.bufferedDurableBytesPerSecond);
    // A calibration stored before it was measured: the calls returned when the data was durable.
    orTypical(c.directReturnedBytesPerSecond, c.deviceWriteBytesPerSecond);
    orTypical(c.deviceReadBytesPerSecond, typical.deviceReadBytesPerSecond);
    orTypical(c.syncSeconds, typical.syncSeconds);
    orTypical(c.directWriteSeconds, typical.directWriteSeconds);
    orTypical(c.directReadSeconds, typical.directReadSeconds);
    return c;
}

bool sameButSize(const Case& a, const Case& b)
{
    Case x = a;
    x.totalBytes = b.totalBytes;
    if (x.fileSet.files != 0)
        x.fileSet = b.fileSet;
    return x == b;
}

// The CPU's part of a repetition: the calls themselves, and the copies they make.
double cpuSeconds(const Case& c, const StrategyInfo& s)
{
    const double bytes = static_cast<double>(c.totalBytes);
    const double calls = c.chunkBytes == 0 ? 0 : bytes / static_cast<double>(c.chunkBytes);
    switch (s.callCost) {
    case CallCost::BufferedStdio: {
        double seconds = calls * (s.lockFreeVariant.empty() ? kStdioCallSeconds : kLockedStdioCallSeconds);
        if (c.buffer.mode == BufferMode::None)
            seconds += calls * kSyscallSeconds; // every call reaches the system
        else if (c.buffer.mode == BufferMode::Bytes && c.buffer.bytes > 0)
            seconds += bytes / static_cast<double>(std::max(c.buffer.bytes, c.chunkBytes)) * kSyscallSeconds;
        else
            seconds += bytes / static_cast<double>(std::max<std::uint64_t>(kPageBytes, c.chunkBytes)) *
                       kSyscallSeconds;
        return seconds + bytes / kMemoryCopyBytesPerSecond;
    }
    case CallCost::Copy:
        return calls * kStdioCallSeconds + bytes / kMemoryCopyBytesPerSecond;
    case CallCost::MappedWindow: {
        const double windows =
            s.windowBytes > 0 ? bytes / static_cast<double>(std::max(s.windowBytes, c.chunkBytes)) : calls;
        return bytes / kPageBytes * kPageFaultSeconds + windows * 4 * kSyscallSeconds +
               bytes / kMemoryCopyBytesPerSecond;
    }
    case CallCost::DirectWrite:
    case CallCost::Syscall:
        return calls * kSyscallSeconds;
    }
    return calls * kSyscallSeconds;
}

// The requests a case keeps in flight: its queue depth times its threads.
double inFlight(const Case& c)
{
    return std::min(kUsefulRequestsInFlight, std::max(1.0, static_cast<double>(c.queueDepth)) * c.threads);
}

// A transfer of `chunk` bytes to or from the device, one at a time, between the calibration's two points: a
// 4 KiB transfer's latency and a 1 MiB one's (at the device's rate), linear in between; at the rate above.
double deviceOpSeconds(std::uint64_t chunk, double smallOpSeconds, double bytesPerSecond)
{
    constexpr double kLarge = 1 << 20;
    const double bytes = static_cast<double>(chunk);
    const double large = kLarge / bytesPerSecond;
    if (bytes >= kLarge || large <= smallOpSeconds)
        return std::max(smallOpSeconds, bytes / bytesPerSecond);
    const double share = std::max(0.0, bytes - kPageBytes) / (kLarge - kPageBytes);
    return smallOpSeconds + share * (large - smallOpSeconds);
}

double readSeconds(const Case& c, const StrategyInfo& s, const DeviceCalibration& d)
{
    const double bytes = static_cast<double>(c.totalBytes);
    const double calls = c.chunkBytes == 0 ? 0 : bytes / static_cast<double>(c.chunkBytes);
    if (!c.fileSet.empty()) {
        const double perFile = kFileOpenSeconds + (c.cache == CacheState::Warm ? 0 : d.directReadSeconds);
        const double parallel = std::min(static_cast<double>(c.threads), kUsefulRequestsInFlight / 2);
        const double data = c.cache == CacheState::Warm ? bytes / kMemoryCopyBytesPerSecond
                                                        : bytes / d.deviceReadBytesPerSecond;
        return c.fileSet.files * perFile / std::max(1.0, parallel) + data + calls * kSyscallSeconds;
    }
    if (c.cache == CacheState::Warm && !s.needsDirectIo)
        return bytes / kMemoryCopyBytesPerSecond + cpuSeconds(c, s);
    if (s.randomOffsets) {
        const double op = deviceOpSeconds(c.chunkBytes, d.directReadSeconds, d.deviceReadBytesPerSecond);
        return std::max(calls * op / inFlight(c), bytes / d.deviceReadBytesPerSecond) + cpuSeconds(c, s);
    }
    // In order: read-ahead (or a queue) keeps the device busy; small direct reads wait for each.
    const double device = bytes / d.deviceReadBytesPerSecond;
    if (s.needsDirectIo)
        return std::max(
            device, calls * deviceOpSeconds(c.chunkBytes, d.directReadSeconds, d.deviceReadBytesPerSecond) /
                        inFlight(c));
    return std::max(device, cpuSeconds(c, s) + bytes / kMemoryCopyBytesPerSecond);
}

struct WriteTime
{
    double returned = 0; // until the last call returned
    double durable = 0;  // until the data was on the device
};

WriteTime writeSeconds(const Case& c, const StrategyInfo& s, const DeviceCalibration& d)
{
    const double bytes = static_cast<double>(c.totalBytes);
    const double calls = c.chunkBytes == 0 ? 0 : bytes / static_cast<double>(c.chunkBytes);
    const double cpu = cpuSeconds(c, s);
    WriteTime t;
    if (s.needsDirectIo) {
        const double op = deviceOpSeconds(c.chunkBytes, d.directWriteSeconds, d.directReturnedBytesPerSecond);
        // The calls return once the device has the data; the final fsync then flushes what its volatile
        // cache holds (on a virtual disk, the host's page cache), which the durable rate includes.
        t.returned = std::max(calls * op / inFlight(c), bytes / d.directReturnedBytesPerSecond) + cpu;
        t.durable = std::max(t.returned, bytes / d.deviceWriteBytesPerSecond + cpu);
    } else {
        t.returned = cpu + bytes / d.pageCacheWriteBytesPerSecond;
        t.durable = std::max(t.returned, bytes / d.bufferedDurableBytesPerSecond);
    }
    // The syncs the loop makes: each one waits for the device.
    double syncs = 0;
    if (c.sync.mode == SyncMode::OSync || c.sync.mode == SyncMode::ODsync || s.durableEachWrite)
        syncs = calls;
    else if (c.sync.loopSyncEvery() > 0)
        syncs = calls / c.sync.loopSyncEvery();
    if (syncs > 0) {
        const double each = d.syncSeconds / std::max(1.0, static_cast<double>(c.threads) / 2);
        t.returned += syncs * each;
        t.durable = std::max(t.durable, t.returned);
    }
    return t;
}

bool discardsOnRemoval(const TargetInfo& target)
{
    return hasMountOption(target.mountOptions, "discard");
}

// The time to remove a repetition's file of which `writtenBytes` were written, where removal discards.
// Written in order (or preallocated by writing it whole), a file is a few long extents, discarded at the
// device's rate. Written at random offsets into a sparse file, each run of adjacent blocks is an extent: of n
// random writes into B blocks, B(1 - e^(-n/B)) blocks are distinct, and a share (1 - distinct/B) of those
// starts a run.
double removalSeconds(const Case& c, const StrategyInfo& s, double writtenBytes)
{
    if (c.direction != Direction::Write || c.target != TargetKind::Directory || c.chunkBytes == 0)
        return 0;
    if (c.preallocate == Preallocate::Rewrite)
        return 0; // one block
    if (!s.randomOffsets || c.preallocate == Preallocate::Overwrite) {
        const double fileBytes =
            c.preallocate == Preallocate::Overwrite ? static_cast<double>(c.totalBytes) : writtenBytes;
        return fileBytes / kDiscardBytesPerSecond;
    }
    const double blocks =
        std::max(1.0, static_cast<double>(c.totalBytes) / static_cast<double>(c.chunkBytes));
    const double writes = writtenBytes / static_cast<double>(c.chunkBytes);
    const double distinct = blocks * (1 - std::exp(-writes / blocks));
    const double extents = distinct * (1 - distinct / blocks);
    return extents * kDiscardExtentSeconds +
           distinct * static_cast<double>(c.chunkBytes) / kDiscardBytesPerSecond;
}

// One repetition, its time limit applied: the timed part ends at the limit, and a buffered write's final
// fsync still has to store what the page cache took by then. With `discards`, removing its file too.
double repetitionSeconds(const Case& c, const StrategyInfo& s, const DeviceCalibration& d, bool discards)
{
    const double limit = c.timeLimitMs != 0 ? static_cast<double>(c.timeLimitMs) / 1e3 : 0;
    if (c.target != TargetKind::Directory) {
        const double streamed =
            cpuSeconds(c, s) +
            (c.target == TargetKind::Pipe ? static_cast<double>(c.totalBytes) / kPipeBytesPerSecond : 0);
        return limit > 0 ? std::min(limit, streamed) : streamed;
    }
    if (c.direction == Direction::Read) {
        const double read = readSeconds(c, s, d);
        return limit > 0 ? std::min(limit, read) : read;
    }
    const WriteTime t = writeSeconds(c, s, d);
    // Cut at the limit: the share written by then, and its flush.
    const double share = limit <= 0 || t.returned <= limit ? 1.0 : limit / t.returned;
    const double timed = share < 1 ? std::max(limit, t.durable * share) : t.durable;
    return timed + (discards ? removalSeconds(c, s, share * static_cast<double>(c.totalBytes)) : 0);
}

// What a case costs besides its repetitions: its data set written first (a read's file or file set, once per
// set in a run), a preallocation per repetition, a child process per repetition.
struct CaseExtras
{
    double once = 0;
    double perRepetition = kRepetitionOverheadSeconds;
};

CaseExtras extrasOf(const Case& c, const DeviceCalibration& d,
                    std::set<std::tuple<std::uint64_t, std::string, std::string>>& dataSets)
{
    CaseExtras extras;
    extras.once = kCaseOverheadSeconds;
    if (c.direction == Direction::Read && c.target == TargetKind::Directory) {
        const auto key = std::tuple{c.totalBytes, toString(c.fileSet), toString(c.pattern)};
        if (dataSets.insert(key).second)
            extras.once += static_cast<double>(c.totalBytes) / d.bufferedDurableBytesPerSecond +
                           c.fileSet.files * kFileCreateSeconds;
        if (c.cache == CacheState::Cold) // evicted before each repetition: a pass over every file
            extras.perRepetition += std::max(1u, c.fileSet.files) * kFileOpenSeconds;
    }
    if (c.direction == Direction::Write && c.target == TargetKind::Directory &&
        c.preallocate == Preallocate::Overwrite)
        extras.perRepetition += static_cast<double>(c.totalBytes) / d.bufferedDurableBytesPerSecond;
    if (c.memoryLimitBytes != 0)
        extras.perRepetition += kChildStartSeconds;
    return extras;
}

} // namespace

Matrix calibrationMatrix()
{
    const auto group = [](std::string strategy, std::uint64_t chunk, std::uint64_t size,
                          std::uint64_t limitMs) {
        MatrixGroup g;
        g.strategies = {std::move(strategy)};
        g.chunks = {chunk};
        g.sizes = {size};
        if (limitMs != 0)
            g.timeLimitsMs = {limitMs};
        return g;
    };
    Matrix m{
        "calibration", "About a second of IOLab's own I/O on the target, for the duration estimate.", {}};
    m.groups.push_back(group("write", 1 * kMiB, kCalibrationBytes, 0));
    m.groups.push_back(group("direct", 1 * kMiB, kCalibrationBytes, 0));
    auto sync = group("write", 4 * kKiB, 8 * kMiB, 100);
    sync.syncs = {SyncPolicy{SyncMode::FdatasyncEvery, 1}};
    sync.latencies = {LatencyMode::On};
    m.groups.push_back(std::move(sync));
    auto randomWrite = group("direct-random", 4 * kKiB, kCalibrationBytes, 100);
    randomWrite.latencies = {LatencyMode::On};
    m.groups.push_back(std::move(randomWrite));
    auto randomRead = group("read-random-direct", 4 * kKiB, kCalibrationBytes, 100);
    randomRead.latencies = {LatencyMode::On};
    m.groups.push_back(std::move(randomRead));
    m.groups.push_back(group("read-direct", 1 * kMiB, kCalibrationBytes, 0));
    // One warm-up each, as a run has: on a machine that hands idle memory back (a VM), the first buffered
    // write after a pause runs several times slower than the next, and would price the whole run by it.
    m.repetitions = 1;
    return m;
}

DeviceCalibration calibrationFrom(const RunResult& result)
{
    DeviceCalibration d;
    d.measuredAt = result.startedAt;
    const auto medianLatency = [](const std::optional<LatencyDistribution>& l) {
        return l && l->summary.count > 0 ? static_cast<double>(l->summary.p50Ns) * 1e-9 : 0.0;
    };
    for (const auto& c : result.cases) {
        if (!hasRate(c))
            continue;
        const Case& k = c.testCase;
        d.tookSeconds += c.wallSeconds.value_or(0);
        const double apparent = c.apparentMBps.median * kBytesPerMB;
        const double durable = c.durableMBps.median * kBytesPerMB;
        // The calibration's plain writers and readers, told apart by what they do.
        const StrategyMethod* method = strategyMethod(k.strategy);
        if (method == nullptr || method->method != IoMethod::Plain)
            continue;
        const bool write = k.direction == Direction::Write;
        if (write && !method->direct && !method->random) {
            if (k.sync.mode == SyncMode::None) {
                d.pageCacheWriteBytesPerSecond = apparent;
                d.bufferedDurableBytesPerSecond = durable;
            } else {
                d.syncSeconds = medianLatency(c.syncLatency);
            }
        } else if (write && method->direct) {
            if (method->random) {
                d.directWriteSeconds = medianLatency(c.callLatency);
            } else {
                d.deviceWriteBytesPerSecond = durable;
                d.directReturnedBytesPerSecond = apparent;
            }
        } else if (!write && method->direct) {
            if (method->random)
                d.directReadSeconds = medianLatency(c.callLatency);
            else
                d.deviceReadBytesPerSecond = apparent;
        }
    }
    return d;
}

double guessRepetitionSeconds(const Case& c, const StrategyInfo& strategy, const TargetInfo& target)
{
    return repetitionSeconds(c, strategy, costsOf(target), discardsOnRemoval(target)) +
           kRepetitionOverheadSeconds;
}

DurationEstimate estimateDuration(const std::vector<Case>& cases, const RunOptions& options,
                                  const TargetInfo& target, const std::vector<CaseResult>& known,
                                  const Registry& registry)
{
    DurationEstimate estimate;
    estimate.calibrated = target.calibration.has_value();
    const DeviceCalibration d = costsOf(target);
    std::set<std::tuple<std::uint64_t, std::string, std::string>> dataSets;
    for (const auto& c : cases) {
        const Strategy* strategy = registry.find(c.strategy);
        const StrategyInfo info = strategy != nullptr ? strategy->info() : StrategyInfo{};
        const CaseExtras extras = extrasOf(c, d, dataSets);
        const double repetitions = options.repetitions + warmupsFor(c, options.warmups);
        // A twin timed before: its wall time per repetition, scaled to this case's size where the size is
        // what bounded it; else its rate.
        double one = 0;
        for (const auto& k : known) {
            if (k.status != Status::Ok || !sameButSize(k.testCase, c) || k.repetitions.empty())
                continue;
            const double size = static_cast<double>(c.totalBytes) /
                                static_cast<double>(std::max<std::uint64_t>(1, k.testCase.totalBytes));
            if (k.wallSeconds && *k.wallSeconds > 0) {
                const double perRepetition = *k.wallSeconds / static_cast<double>(k.repetitions.size());
                const bool timeBound =
                    std::any_of(k.repetitions.begin(), k.repetitions.end(),
                                [](const RepetitionResult& r) { return r.timeLimitReached; });
                one = timeBound ? perRepetition : perRepetition * size;
            } else {
                const double rateMBps =
                    k.durableMBps.count > 0 ? k.durableMBps.median : k.apparentMBps.median;
                if (rateMBps > 0)
                    one = static_cast<double>(c.totalBytes) / (rateMBps * kBytesPerMB) + extras.perRepetition;
            }
            if (c.timeLimitMs != 0)
                one = std::min(one, static_cast<double>(c.timeLimitMs) / 1e3 * 1.5 + extras.perRepetition);
            if (one > 0)
                break;
        }
        if (one > 0) {
            ++estimate.measuredCases;
        } else {
            ++estimate.guessedCases;
            one = repetitionSeconds(c, info, d, discardsOnRemoval(target)) + extras.perRepetition;
        }
        // The kill -9 probe's runs: each killed part-way through a repetition, half of one on average, then
        // its files read back.
        const double kills = options.crashProbe != 0 && crashProbeRefusal(c).empty() ? options.crashProbe : 0;
        const double seconds =
            extras.once + repetitions * one + kills * (one / 2 + kProbeKillOverheadSeconds);
        estimate.caseSeconds.push_back(seconds);
        estimate.seconds += seconds;
    }
    return estimate;
}

std::string describeEstimate(const DurationEstimate& estimate)
{
    return "about " + formatDuration(estimate.seconds);
}

double estimateSecondsLeft(const std::vector<double>& caseSeconds, const std::vector<double>& finishedSeconds,
                           std::size_t current, double currentSeconds)
{
    if (current >= caseSeconds.size())
        return 0;
    double estimatedDone = 0;
    double actualDone = 0;
    for (std::size_t i = 0; i < current && i < finishedSeconds.size(); ++i) {
        estimatedDone += caseSeconds[i];
        actualDone += finishedSeconds[i];
    }
    // One odd case must not swing every estimate by more than tenfold either way.
    const double pace =
        estimatedDone > 0 && actualDone > 0 ? std::clamp(actualDone / estimatedDone, 0.1, 10.0) : 1.0;
    double left = std::max(0.0, caseSeconds[current] * pace - currentSeconds);
    for (std::size_t i = current + 1; i < caseSeconds.size(); ++i)
        left += caseSeconds[i] * pace;
    return left;
}

double estimateSecondsLeftInTurns(const std::vector<double>& caseSeconds,
                                  const std::vector<double>& shareDone, double elapsedSeconds)
{
    double estimatedDone = 0;
    double estimatedLeft = 0;
    for (std::size_t i = 0; i < caseSeconds.size(); ++i) {
        const double share = i < shareDone.size() ? std::clamp(shareDone[i], 0.0, 1.0) : 0.0;
        estimatedDone += caseSeconds[i] * share;
        estimatedLeft += caseSeconds[i] * (1 - share);
    }
    // As in order: one odd stretch must not swing the estimate by more than tenfold either way.
    const double pace =
        estimatedDone > 0 && elapsedSeconds > 0 ? std::clamp(elapsedSeconds / estimatedDone, 0.1, 10.0) : 1.0;
    return estimatedLeft * pace;
}

} // namespace iolab
