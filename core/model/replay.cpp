// SPDX-License-Identifier: MIT
#include "core/model/replay.h"

#include "core/base/error.h"

#include <fmt/format.h>

namespace iolab {

std::string toString(ReplayTiming timing)
{
    return timing == ReplayTiming::AsRecorded ? "as-recorded" : "back-to-back";
}

ReplayTiming parseReplayTiming(std::string_view text)
{
    if (text == "back-to-back")
        return ReplayTiming::BackToBack;
    if (text == "as-recorded")
        return ReplayTiming::AsRecorded;
    throw InputError(fmt::format("replay timing '{}': use back-to-back (the calls one after another, the "
                                 "default) or as-recorded (the program's pauses between calls kept)",
                                 text));
}

StrategyInfo replayStrategyInfo()
{
    StrategyInfo info;
    info.id = std::string(kReplayStrategy);
    info.description = "a recorded program's calls on files re-issued in the run folder (iolab-cli record)";
    info.direction = Direction::Write;
    info.targets = {TargetKind::Directory};
    info.syncModes = {SyncMode::None};
    info.syncRefusal = "a replay makes the program's own syncs, where the program made them";
    info.preallocations = {Preallocate::None};
    info.preallocateRefusal = "a replay's files are the program's, as it made them";
    info.threadsShareOneFile = true; // its threads run inside one job
    return info;
}

} // namespace iolab
