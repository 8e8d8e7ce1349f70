// SPDX-License-Identifier: MIT
#pragma once

#include "platform/platform.h"

#include <optional>
#include <string>
#include <vector>

namespace iolab {

// What a front end does about the other live IOLab runs on a run's target. One writing into the target
// itself measures against this run: it is refused unless the user allows it, and then stated in the result.
// One writing elsewhere on the same filesystem is stated in the result, not refused.
struct ConcurrentRuns
{
    // The run in the target that refuses this one; each front end says how to run anyway (a flag, a button).
    std::optional<LiveRun> refusedBy;
    // The sentences the result carries, for a run that starts.
    std::vector<std::string> warnings;
};

ConcurrentRuns weighConcurrentRuns(const OtherRuns& others, bool allowConcurrent);

} // namespace iolab
