// SPDX-License-Identifier: MIT
// replay on Windows: not yet. A trace (recorded on Linux, or imported from Process Monitor's CSV) is read and
// profiled here like anywhere; re-issuing its calls through the Win32 API is the part still to come, so the
// case is refused with that reason rather than run some other way.
#include "core/engine/replay_script.h"
#include "core/model/replay.h"
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"

namespace iolab::windows_backend {

namespace {

constexpr const char* kNotYet =
    "replaying a trace runs on Linux in this version of IOLab; on Windows, iolab-cli profile TRACE reads "
    "what the program did";

class ReplayStrategy final : public BasicStrategy
{
public:
    ReplayStrategy() : BasicStrategy(replayStrategyInfo()) {}

    std::optional<std::string> refusal(const Case&, const TargetInfo&) const override { return kNotYet; }

    std::unique_ptr<Job> prepare(const JobSpec&, Outcome& outcome) const override
    {
        outcome = {Status::Refused, 0, "prepare", kNotYet};
        return nullptr;
    }
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeReplayStrategy()
{
    return std::make_unique<windows_backend::ReplayStrategy>();
}

} // namespace iolab
