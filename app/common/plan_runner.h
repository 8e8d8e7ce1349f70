// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/runner.h"

#include <stop_token>

namespace iolab {

class Registry;

// Runs `plan` as both front ends do: a Runner over this OS's system probe, a workspace on the plan's target
// and the kill -9 probe's case-child launcher, all gone when it returns. Call it from the thread that should
// outlive the probe's children (they die with it, PR_SET_PDEATHSIG).
RunResult runPlanOnTarget(const Registry& registry, const RunPlan& plan, const RunOptions& options,
                          const std::stop_token& stop, RunObserver* observer);

} // namespace iolab
