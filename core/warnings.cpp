// SPDX-License-Identifier: MIT
#include "core/warnings.h"

#include "core/stats.h"
#include "core/units.h"

#include <fmt/format.h>

namespace iolab {

std::vector<std::string> caseWarnings(const CaseResult& result)
{
    std::vector<std::string> warnings;
    if (result.status != Status::Ok || result.apparentMBps.count == 0)
        return warnings;
    const auto& apparent = result.apparentMBps;
    if (apparent.count >= 2 && apparent.cv > kNoisyCv)
        warnings.push_back(fmt::format("noisy: the repetitions vary by {:.1f}% (CV over {}), above {:.0f}%; "
                                       "use more --reps or a larger --size",
                                       apparent.cv * 100, apparent.count, kNoisyCv * 100));
    std::vector<double> seconds;
    for (const auto& rep : result.repetitions) {
        if (!rep.warmup && rep.outcome.ok())
            seconds.push_back(rep.returnSeconds);
    }
    const double typical = median(seconds);
    if (typical < kShortRepetitionSeconds)
        warnings.push_back(
            fmt::format("short: a repetition took {}, so timer and scheduler noise weigh heavily; "
                        "use a larger --size",
                        formatDuration(typical)));
    const double durable = result.durableMBps.median;
    if (result.testCase.target == TargetKind::Directory && durable > 0 &&
        apparent.median > kDurableGapFactor * durable)
        warnings.push_back(
            fmt::format("apparent vs durable: the writes returned at {} but the data was durable "
                        "only at {}; most of the time went into the final fsync",
                        formatRate(apparent.median * kBytesPerMB), formatRate(durable * kBytesPerMB)));
    return warnings;
}

} // namespace iolab
