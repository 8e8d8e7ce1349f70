// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/findings.h"
#include "core/base/units.h"
#include "core/model/result.h"
#include "core/model/system_facts.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

class Registry;

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

// The typical ranges are sequential write rates with large blocks (data sheets measure 128 KiB blocks at
// queue depth 32; CrystalDiskMark's SEQ1M writes 1 MiB blocks), so only a case that writes that way can show
// where the device stands: one stream in order (no random offsets, one thread), at least
// kSequentialChunkBytes per call, no sync after each write (a final fsync or fdatasync only), no memory
// limit, incompressible bytes, a file filled rather than one chunk rewritten, and repetitions long enough: at
// least kSequentialMinChunks chunks and kShortRepetitionSeconds each, and kSequentialLongSeconds or
// kSequentialLongBytes. What the strategy declares (random offsets, a durable or not-durable write) comes
// from `registry`; without one, the case's axes alone decide.
inline constexpr std::uint64_t kSequentialChunkBytes = kMiB;
inline constexpr std::uint64_t kSequentialMinChunks = 8;
inline constexpr double kSequentialLongSeconds = 1.0;
inline constexpr std::uint64_t kSequentialLongBytes = 256 * kMiB;
bool showsSequentialWriteRate(const CaseResult& c, const Registry* registry);

// A likely cause of a figure, from the facts and the checks, with its evidence and what to change.
struct LikelyCause
{
    std::string what;     // "The drive's write cache is off"
    std::string evidence; // "/sys/block/sda/queue/write_cache says write through"
    std::string change;   // what to do about it
};

// The Summary's part about the machine (issue 18): the best durable rate of the cases that can show the
// device's sequential write rate (showsSequentialWriteRate) against the device class's typical range, the
// likely causes ranked from the facts and findings, and what could not be checked (among it the comparison
// itself, when no case could show that rate).
struct MachineVerdict
{
    std::string comparison;          // "" without facts, a range, or a case that shows the sequential rate
    bool belowTypical = false;       // the comparison found the rate under the class's range
    std::vector<LikelyCause> causes; // most likely first
    std::vector<std::string> unchecked;
};
MachineVerdict machineVerdict(const RunResult& result, const std::vector<Finding>& found,
                              const Registry* registry = nullptr);

} // namespace iolab
