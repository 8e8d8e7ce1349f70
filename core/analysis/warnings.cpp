// SPDX-License-Identifier: MIT
#include "core/analysis/warnings.h"

#include "core/base/stats.h"
#include "core/base/units.h"

#include <fmt/format.h>

#include <algorithm>

namespace iolab {

namespace {

// Cold reads: the share of the data set that was cached when the timed part began, or why that is unknown.
void cacheWarnings(const CaseResult& result, const HostInfo* host, std::vector<std::string>& warnings)
{
    if (result.testCase.cache != CacheState::Cold || result.dataSetBytes == 0)
        return;
    std::uint64_t worst = 0;
    bool unknown = false;
    for (const auto& rep : result.repetitions) {
        if (rep.warmup || !rep.outcome.ok())
            continue;
        if (!rep.cachedBytes)
            unknown = true;
        else
            worst = std::max(worst, *rep.cachedBytes);
    }
    const double fraction = static_cast<double>(worst) / static_cast<double>(result.dataSetBytes);
    if (fraction > kColdCachedFraction)
        warnings.push_back(fmt::format(
            "cache: {:.0f}% of the data set ({} of {}) was still in the page cache when the timed reads "
            "began, "
            "although it was evicted ({}); the filesystem keeps it in memory (tmpfs?) or something read it "
            "again, so these are memory reads, not device reads",
            fraction * 100, formatBytes(worst), formatBytes(result.dataSetBytes), result.cacheMethod));
    else if (unknown && host != nullptr && host->ramBytes > 0 && result.dataSetBytes < host->ramBytes)
        warnings.push_back(fmt::format(
            "cache: this system cannot show whether the eviction ({}) worked, and the data set ({}) fits in "
            "RAM ({}); part of the reads may have come from memory",
            result.cacheMethod, formatBytes(result.dataSetBytes), formatBytes(host->ramBytes)));
}

} // namespace

RepetitionSpread repetitionSpread(const CaseResult& result, Ranking ranking)
{
    const Summary& ranked = rankedRate(result, ranking);
    if (ranked.count < kTrimmedMeanMinCount)
        return {ranked.cv, ranked.count, ranked.count};
    const bool durable = ranksDurable(result.testCase, ranking);
    std::vector<double> rates;
    for (const auto& rep : result.repetitions) {
        if (!rep.warmup && rep.outcome.ok())
            rates.push_back(durable ? rep.durableMBps : rep.apparentMBps);
    }
    RepetitionSpread spread;
    spread.count = rates.size();
    std::sort(rates.begin(), rates.end());
    if (rates.size() >= kTrimmedMeanMinCount) {
        rates.pop_back();
        rates.erase(rates.begin());
    }
    spread.used = rates.size();
    const Summary summary = summarize(rates);
    spread.cv = summary.cv;
    return spread;
}

double rankedRepetitionSeconds(const CaseResult& result, Ranking ranking)
{
    const bool durable = ranksDurable(result.testCase, ranking);
    std::vector<double> seconds;
    for (const auto& rep : result.repetitions) {
        if (!rep.warmup && rep.outcome.ok())
            seconds.push_back(durable ? rep.durableSeconds : rep.returnSeconds);
    }
    return seconds.empty() ? 0.0 : median(seconds);
}

bool isShort(double repetitionSeconds) noexcept
{
    return repetitionSeconds > 0 && repetitionSeconds < kShortRepetitionSeconds;
}

std::string describeSpread(const RepetitionSpread& spread)
{
    if (spread.used < spread.count)
        return fmt::format("the middle {} of {} repetitions vary by {:.1f}% (CV; the lowest and the highest "
                           "are left out, as for the trimmed mean)",
                           spread.used, spread.count, spread.cv * 100);
    return fmt::format("the repetitions vary by {:.1f}% (CV over {})", spread.cv * 100, spread.count);
}

std::vector<std::string> caseWarnings(const CaseResult& result, const HostInfo* host, Ranking ranking)
{
    std::vector<std::string> warnings;
    if (result.status != Status::Ok || result.apparentMBps.count == 0)
        return warnings;
    const auto& apparent = result.apparentMBps;
    const bool fileSet = !result.testCase.fileSet.empty();
    if (const RepetitionSpread spread = repetitionSpread(result, ranking); spread.noisy())
        warnings.push_back(fmt::format("noisy: {}, above {:.0f}%; use more --reps or {}",
                                       describeSpread(spread), kNoisyCv * 100,
                                       fileSet ? "more files" : "a larger --size"));
    if (const double typical = rankedRepetitionSeconds(result, ranking); isShort(typical))
        warnings.push_back(
            fmt::format("short: a repetition took {}, so timer and scheduler noise weigh heavily; "
                        "use {}",
                        formatDuration(typical), fileSet ? "more files" : "a larger --size"));
    cacheWarnings(result, host, warnings);
    const double durable = result.durableMBps.median;
    if (result.testCase.direction == Direction::Write && result.testCase.target == TargetKind::Directory &&
        durable > 0 && apparent.median > kDurableGapFactor * durable)
        warnings.push_back(
            fmt::format("apparent vs durable: the writes returned at {} but the data was durable "
                        "only at {}; most of the time went into the final fsync",
                        formatRate(apparent.median * kBytesPerMB), formatRate(durable * kBytesPerMB)));
    return warnings;
}

} // namespace iolab
