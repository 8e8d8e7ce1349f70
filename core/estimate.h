// SPDX-License-Identifier: MIT
#pragma once

#include "core/result.h"

#include <cstddef>
#include <vector>

namespace iolab {

struct DurationEstimate
{
    double seconds = 0;
    std::size_t measuredCases = 0; // timed from an earlier run of the same case
    std::size_t guessedCases = 0;  // from a rough model of call and device costs
};

// A rough time for one repetition of `c` with nothing known about it: per-call cost by strategy, memory copy,
// and the device write for data that must become durable. Within a factor of a few, no better.
double guessRepetitionSeconds(const Case& c, const TargetInfo& target);

// The expected wall time of a run: warm-ups and repetitions of every case, using the measured durable rate of
// the same case (all axes but the total size equal) from `known` where there is one.
DurationEstimate estimateDuration(const std::vector<Case>& cases, const RunOptions& options,
                                  const TargetInfo& target, const std::vector<CaseResult>& known);

} // namespace iolab
