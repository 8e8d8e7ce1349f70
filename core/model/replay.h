// SPDX-License-Identifier: MIT
// The replay of a recorded program (iolab-cli run --replay TRACE): the strategy's name and declaration, and
// how its calls are spaced. The script it re-issues is core/engine/replay_script.h's.
#pragma once

#include "core/model/strategy_info.h"

#include <string>
#include <string_view>

namespace iolab {

inline constexpr std::string_view kReplayStrategy = "replay";

// Think time between calls: left out (the default: the calls back to back, as a benchmark times them) or kept
// as recorded (each thread waits as long before each call as the program did).
enum class ReplayTiming
{
    BackToBack,
    AsRecorded
};
std::string toString(ReplayTiming timing); // "back-to-back", "as-recorded"
ReplayTiming parseReplayTiming(std::string_view text);

// The replay strategy's declaration: a writer to a directory whose size, chunk and threads come from its
// trace, whose threads run inside one job (threadsShareOneFile), with the program's own sync points (no sync
// policy of IOLab's).
StrategyInfo replayStrategyInfo();

} // namespace iolab
