// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/findings.h"
#include "core/model/result.h"
#include "core/model/system_facts.h"

#include <optional>
#include <string>
#include <vector>

namespace iolab {

// What a kind of device typically sustains writing sequentially, with where the range comes from. Labelled
// "typical" wherever it is shown: a range of common drives, not a promise about this one.
struct TypicalRange
{
    DeviceClass kind = DeviceClass::Unknown;
    double lowMBps = 0;
    double highMBps = 0;
    std::string source;
};
// The class's range; a USB drive's depends on its link (USB 2 carries far less). None for a virtual disk, a
// network share, memory or an unknown device: their speed is something else's.
std::optional<TypicalRange> typicalWriteRange(const SystemFacts& facts);

// A likely cause of a figure, from the facts and the checks, with its evidence and what to change.
struct LikelyCause
{
    std::string what;     // "The drive's write cache is off"
    std::string evidence; // "/sys/block/sda/queue/write_cache says write through"
    std::string change;   // what to do about it
};

// The Summary's part about the machine (issue 18): the best durable write rate against the device class's
// typical range, the likely causes ranked from the facts and findings, and what could not be checked.
struct MachineVerdict
{
    std::string comparison;          // "" when there is no file write to compare or no facts
    bool belowTypical = false;       // the comparison found the rate under the class's range
    std::vector<LikelyCause> causes; // most likely first
    std::vector<std::string> unchecked;
};
MachineVerdict machineVerdict(const RunResult& result, const std::vector<Finding>& found);

} // namespace iolab
