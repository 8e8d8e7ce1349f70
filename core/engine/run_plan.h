// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/replay_script.h"
#include "core/model/matrix.h"
#include "core/model/target.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace iolab {

class Registry;

// What one run does, settled before it starts: the matrix as the user gave it, the target's facts and the
// capabilities its probe found, the cases that will run (in run order: a case's index is its position here)
// and those refused with the reason. Built once by makeRunPlan, then shared read-only from the front end down
// to Runner::run; nothing below the front end expands or probes again.
// A replay's script's key in RunPlan::replays: its trace's path and its variant ("recorded" for the program's
// own calls).
inline std::string replayPlanKey(std::string_view trace, std::string_view variant)
{
    return std::string(trace) + '\n' + std::string(variant);
}

struct RunPlan
{
    Matrix matrix;
    TargetInfo target;
    ExpandedMatrix expanded;
    // The replays' scripts, by trace path and variant (replayPlanKey), read once here: a replay case's size,
    // chunk and threads are its trace's (fitCaseToReplay), and a trace that cannot be read refuses its case
    // with the reason.
    std::map<std::string, std::shared_ptr<const ReplayScript>> replays;

    const std::vector<Case>& cases() const { return expanded.cases; }
    const std::vector<RefusedCase>& refused() const { return expanded.refused; }
};

// The one way a front end plans a run. `target` is as the platform layer inspected and probed it (the
// capability fields decide which cases are refused). Throws InputError for a matrix that is not valid,
// including one of more than kMaxCases combinations, counted before any is made.
std::shared_ptr<const RunPlan> makeRunPlan(Matrix matrix, const Registry& registry, TargetInfo target);

} // namespace iolab
