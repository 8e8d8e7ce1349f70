// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <string>
#include <vector>

namespace iolab {

inline constexpr double kNoisyCv = 0.05;               // CV above this: the spread says more than the median
inline constexpr double kShortRepetitionSeconds = 0.2; // below this, timer and scheduler noise dominate
inline constexpr double kDurableGapFactor = 2.0; // apparent over durable above this: the fsync is the story

inline constexpr double kColdCachedFraction =
    0.10; // cold reads with more of the set cached: memory, not device

// Plain-language warnings where a case's figures should not be taken at face value, each with its numbers.
// `host` (its RAM) lets cold reads whose eviction cannot be checked say whether the set fit in memory.
std::vector<std::string> caseWarnings(const CaseResult& result, const HostInfo* host = nullptr);

} // namespace iolab
