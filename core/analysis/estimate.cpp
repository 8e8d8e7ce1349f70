// SPDX-License-Identifier: MIT
#include "core/analysis/estimate.h"

#include "core/base/units.h"
#include "core/engine/crash_probe.h"
#include "core/engine/mapped_copy.h"

#include <algorithm>
#include <string>

namespace iolab {

namespace {

constexpr double kMemoryCopyBytesPerSecond = 2e9;
constexpr double kSyscallSeconds = 1.5e-6;
constexpr double kStdioCallSeconds = 8e-9;
constexpr double kDirectCallSeconds = 60e-6;
constexpr double kRepetitionOverheadSeconds = 0.05; // create, fsync of metadata, unlink, sampler
constexpr double kProbeKillOverheadSeconds = 0.1;   // start the child, wait for it ready, read the files back

double deviceBytesPerSecond(const TargetInfo& target)
{
    if (target.rotational.value_or(false))
        return 120e6;
    return 400e6;
}

double syncLatencySeconds(const TargetInfo& target)
{
    return target.rotational.value_or(false) ? 8e-3 : 0.5e-3;
}

bool sameButSize(const Case& a, const Case& b)
{
    return a.strategy == b.strategy && a.chunkBytes == b.chunkBytes && a.buffer == b.buffer &&
           a.sync == b.sync && a.threads == b.threads && a.target == b.target;
}

// A repetition's timed part ends at its size or its time limit, whichever comes first.
double timeLimited(const Case& c, double seconds)
{
    return c.timeLimitMs != 0 ? std::min(seconds, static_cast<double>(c.timeLimitMs) / 1e3) : seconds;
}

} // namespace

double guessRepetitionSeconds(const Case& c, const StrategyInfo& strategy, const TargetInfo& target)
{
    const double bytes = static_cast<double>(c.totalBytes);
    const double calls = c.chunkBytes == 0 ? 0 : bytes / static_cast<double>(c.chunkBytes);
    double seconds = bytes / kMemoryCopyBytesPerSecond;
    switch (strategy.callCost) {
    case CallCost::BufferedStdio:
        seconds += calls * kStdioCallSeconds;
        if (c.buffer.mode == BufferMode::None)
            seconds += calls * kSyscallSeconds;
        break;
    case CallCost::DirectWrite:
        seconds += calls * kDirectCallSeconds;
        break;
    case CallCost::Copy:
        seconds += calls * kStdioCallSeconds;
        break;
    case CallCost::MappedWindow:
        if (strategy.windowBytes > 0)
            seconds += bytes / static_cast<double>(strategy.windowBytes) * 4 * kSyscallSeconds;
        break;
    case CallCost::Syscall:
        seconds += calls * kSyscallSeconds;
        break;
    }
    if (c.target == TargetKind::Directory) {
        seconds += bytes / deviceBytesPerSecond(target);
        if (c.sync.mode == SyncMode::OSync || c.sync.mode == SyncMode::ODsync)
            seconds += calls * syncLatencySeconds(target);
        else if (c.sync.loopSyncEvery() > 0)
            seconds += calls / c.sync.everyWrites * syncLatencySeconds(target);
    }
    // Threads share the device and the page cache; assume half their count in useful parallelism.
    if (c.threads > 1 && c.target != TargetKind::Directory)
        seconds /= std::max(1.0, c.threads / 2.0);
    return timeLimited(c, seconds) + kRepetitionOverheadSeconds;
}

namespace {

template <class Guess>
DurationEstimate estimate(const std::vector<Case>& cases, const RunOptions& options,
                          const std::vector<CaseResult>& known, Guess&& guess)
{
    DurationEstimate estimate;
    const double repetitions = options.repetitions + options.warmups;
    for (const auto& c : cases) {
        double rateMBps = 0;
        for (const auto& k : known) {
            if (k.status != Status::Ok || !sameButSize(k.testCase, c))
                continue;
            rateMBps = k.durableMBps.count > 0 ? k.durableMBps.median : k.apparentMBps.median;
            if (rateMBps > 0)
                break;
        }
        double one = 0; // one repetition
        if (rateMBps > 0) {
            ++estimate.measuredCases;
            one = timeLimited(c, static_cast<double>(c.totalBytes) / (rateMBps * kBytesPerMB)) +
                  kRepetitionOverheadSeconds;
        } else {
            ++estimate.guessedCases;
            one = guess(c);
        }
        // The kill -9 probe's runs: each killed at 10-90% of a repetition, half of one on average, then
        // its files read back.
        const double kills = options.crashProbe != 0 && crashProbeRefusal(c).empty() ? options.crashProbe : 0;
        estimate.seconds += repetitions * one + kills * (one / 2 + kProbeKillOverheadSeconds);
    }
    return estimate;
}

} // namespace

DurationEstimate estimateDuration(const std::vector<Case>& cases, const RunOptions& options,
                                  const TargetInfo& target, const std::vector<CaseResult>& known,
                                  const Registry& registry)
{
    return estimate(cases, options, known, [&](const Case& c) {
        const Strategy* strategy = registry.find(c.strategy);
        return guessRepetitionSeconds(c, strategy != nullptr ? strategy->info() : StrategyInfo{}, target);
    });
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

} // namespace iolab
