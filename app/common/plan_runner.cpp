// SPDX-License-Identifier: MIT
#include "app/common/plan_runner.h"

#include "core/engine/run_plan.h"
#include "platform/platform.h"

namespace iolab {

RunResult runPlanOnTarget(const Registry& registry, const RunPlan& plan, const RunOptions& options,
                          const std::stop_token& stop, RunObserver* observer)
{
    auto probe = makeSystemProbe();
    auto workspace = makeWorkspace(plan.target);
    Runner runner(registry, *workspace, *probe);
    const auto launcher = makeCaseChildLauncher();
    runner.setCaseChildLauncher(launcher.get());
    return runner.run(plan, options, stop, observer);
}

} // namespace iolab
