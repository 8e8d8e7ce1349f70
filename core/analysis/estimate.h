// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/registry.h"
#include "core/engine/strategy.h"
#include "core/model/result.h"

#include <cstddef>
#include <vector>

namespace iolab {

struct DurationEstimate
{
    double seconds = 0;
    std::size_t measuredCases = 0; // timed from an earlier run of the same case
    std::size_t guessedCases = 0;  // from a rough model of call and device costs
};

// A rough time for one repetition of `c` with nothing known about it: the per-call cost `strategy` declares
// (StrategyInfo::callCost), memory copy, and the device write for data that must become durable. Within a
// factor of a few, no better.
double guessRepetitionSeconds(const Case& c, const StrategyInfo& strategy, const TargetInfo& target);

// The expected wall time of a run: warm-ups and repetitions of every case, using the measured durable rate of
// the same case (all axes but the total size equal) from `known` where there is one, and otherwise the costs
// its strategy in `registry` declares.
DurationEstimate estimateDuration(const std::vector<Case>& cases, const RunOptions& options,
                                  const TargetInfo& target, const std::vector<CaseResult>& known,
                                  const Registry& registry);

// Seconds left in a running plan. `caseSeconds` is each case's estimate (as estimateDuration gives for it
// alone); `finishedSeconds` the wall time each case before `current` really took; `currentSeconds` how long
// the running case has gone. The finished cases say how this machine compares with the estimates (the pace);
// the running case and every case not started yet are weighed by their own estimate at that pace. Progress
// within the running case is not used: its bytes reach the page cache long before its final fsync ends.
double estimateSecondsLeft(const std::vector<double>& caseSeconds, const std::vector<double>& finishedSeconds,
                           std::size_t current, double currentSeconds);

} // namespace iolab
