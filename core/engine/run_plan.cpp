// SPDX-License-Identifier: MIT
#include "core/engine/run_plan.h"

#include "core/base/error.h"
#include "core/engine/registry.h"
#include "core/engine/replay_variants.h"
#include "core/model/axes.h"
#include "core/model/replay.h"

namespace iolab {

std::shared_ptr<const RunPlan> makeRunPlan(Matrix matrix, const Registry& registry, TargetInfo target)
{
    auto plan = std::make_shared<RunPlan>();
    plan->expanded = expand(matrix, registry, target);
    auto& cases = plan->expanded.cases;
    for (auto it = cases.begin(); it != cases.end();) {
        if (it->strategy != kReplayStrategy) {
            ++it;
            continue;
        }
        const std::string trace = extraAxisValue(*it, "replay", "");
        const std::string variant = extraAxisValue(*it, "replay-variant", std::string(kRecordedCalls));
        const std::string key = replayPlanKey(trace, variant);
        try {
            auto& script = plan->replays[key];
            if (!script) {
                auto& recorded = plan->replays[replayPlanKey(trace, kRecordedCalls)];
                if (!recorded)
                    recorded = std::make_shared<const ReplayScript>(loadReplayScript(trace));
                script = scriptForVariant(recorded, variant);
            }
            fitCaseToReplay(*it, *script);
            ++it;
        } catch (const InputError& e) {
            plan->replays.erase(key);
            if (const auto recorded = plan->replays.find(replayPlanKey(trace, kRecordedCalls));
                recorded != plan->replays.end() && !recorded->second)
                plan->replays.erase(recorded);
            plan->expanded.refused.push_back({*it, e.what()});
            it = cases.erase(it);
        }
    }
    plan->matrix = std::move(matrix);
    plan->target = std::move(target);
    return plan;
}

} // namespace iolab
