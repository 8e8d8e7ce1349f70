// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <cstddef>
#include <string>
#include <vector>

namespace iolab {

inline constexpr double kNoisyCv = 0.05;               // CV above this: the spread says more than the median
inline constexpr double kShortRepetitionSeconds = 0.2; // below this, timer and scheduler noise dominate
inline constexpr double kDurableGapFactor = 2.0; // apparent over durable above this: the fsync is the story

inline constexpr double kColdCachedFraction =
    0.10; // cold reads with more of the set cached: memory, not device

// How much the repetitions behind a case's ranked rate vary (under `ranking`: a file write's durable MB/s by
// default, else the apparent MB/s, of the measured repetitions that succeeded; below kTrimmedMeanMinCount,
// that summary's CV). The noise that matters is the noise of the figure the answer quotes. From
// kTrimmedMeanMinCount repetitions on, the single lowest and highest are left out, as the trimmed mean leaves
// them out: one repetition hit by a hiccup of the host moves neither the median nor the trimmed mean, so it
// does not make the figure noisy. With fewer, every repetition counts.
struct RepetitionSpread
{
    double cv = 0;         // standard deviation over mean of the repetitions used
    std::size_t used = 0;  // how many repetitions that is
    std::size_t count = 0; // how many measured repetitions succeeded

    bool noisy() const noexcept { return used >= 2 && cv > kNoisyCv; }
};
RepetitionSpread repetitionSpread(const CaseResult& result, Ranking ranking = Ranking::Durable);
// The median time of the case's measured, successful repetitions, timed as the ranked rate is: a file write
// ranked by durable throughput until its data was durable (the final fsync included), anything else until its
// last call returned; 0 when no repetition succeeded. A buffered write whose calls return in 0.1 s and whose
// data reaches the disk in 0.6 s is not a short measurement of the durable figure it is ranked by.
double rankedRepetitionSeconds(const CaseResult& result, Ranking ranking = Ranking::Durable);
// Whether that time is below kShortRepetitionSeconds (a case with no successful repetition is not short).
bool isShort(double repetitionSeconds) noexcept;

// "the repetitions vary by 7.1% (CV over 3)" or "the middle 3 of 5 repetitions vary by 7.1% (CV)".
std::string describeSpread(const RepetitionSpread& spread);

// Plain-language warnings where a case's figures should not be taken at face value, each with its numbers.
// `host` (its RAM) lets cold reads whose eviction cannot be checked say whether the set fit in memory; the
// noise is judged on the rate `ranking` ranks the case by.
std::vector<std::string> caseWarnings(const CaseResult& result, const HostInfo* host = nullptr,
                                      Ranking ranking = Ranking::Durable);

} // namespace iolab
