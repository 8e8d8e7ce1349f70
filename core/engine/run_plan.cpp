// SPDX-License-Identifier: MIT
#include "core/engine/run_plan.h"

#include "core/engine/registry.h"

namespace iolab {

std::shared_ptr<const RunPlan> makeRunPlan(Matrix matrix, const Registry& registry, TargetInfo target)
{
    auto plan = std::make_shared<RunPlan>();
    plan->expanded = expand(matrix, registry, target);
    plan->matrix = std::move(matrix);
    plan->target = std::move(target);
    return plan;
}

} // namespace iolab
