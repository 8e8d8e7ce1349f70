// SPDX-License-Identifier: MIT
#include "core/engine/run_plan.h"

#include "core/base/error.h"
#include "core/base/units.h"
#include "core/engine/registry.h"
#include "core/engine/replay_variants.h"
#include "core/model/axes.h"
#include "core/model/replay.h"

#include <fmt/format.h>

#include <algorithm>

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
    // A write sized by a share of the free space: settled here, against the free space the target has now,
    // so that the plan shows the size the run will write (a whole number of chunks for every thread).
    for (auto it = cases.begin(); it != cases.end();) {
        if (it->freeSharePercent == 0) {
            ++it;
            continue;
        }
        if (target.freeBytes == 0) {
            plan->expanded.refused.push_back(
                {*it,
                 fmt::format("the target has no free space to take {}% of (or its free space could not be "
                             "read), so the write cannot be sized",
                             it->freeSharePercent)});
            it = cases.erase(it);
            continue;
        }
        const std::uint64_t share = target.freeBytes / 100 * it->freeSharePercent +
                                    target.freeBytes % 100 * it->freeSharePercent / 100;
        const std::uint64_t step = it->chunkBytes * std::max<std::uint32_t>(1, it->threads);
        const std::uint64_t fits = step == 0 ? share : share / step * step;
        if (fits == 0) {
            plan->expanded.refused.push_back(
                {*it, fmt::format("{}% of the free space ({}) is less than one {} chunk per thread",
                                  it->freeSharePercent, formatBytes(target.freeBytes),
                                  formatBytes(it->chunkBytes))});
            it = cases.erase(it);
            continue;
        }
        it->totalBytes = std::min(it->totalBytes, fits);
        ++it;
    }
    plan->matrix = std::move(matrix);
    plan->target = std::move(target);
    return plan;
}

} // namespace iolab
