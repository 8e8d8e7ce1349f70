// SPDX-License-Identifier: MIT
#include "core/engine/call_timing.h"

#include "core/base/units.h"
#include "core/engine/strategy.h"
#include "core/model/replay.h"

#include <fmt/format.h>

namespace iolab {

namespace {

constexpr std::uint64_t kSmallStdioCall = 4096;

} // namespace

LatencyChoice chooseLatency(const Case& c, const StrategyInfo& info)
{
    if (info.id == kReplayStrategy)
        return {c.latency != LatencyMode::Off,
                c.latency == LatencyMode::Off
                    ? "not recorded: latency off"
                    : "recorded: each replayed call (a run of identical calls as its calls' mean), which the "
                      "replay times anyway to compare with the program's own time inside its calls"};
    if (!info.timesCalls)
        return {false,
                info.layout == DataLayout::FileSet
                    ? fmt::format("not recorded: {} times each file instead (file p50 and p99)", c.strategy)
                    : fmt::format("not recorded: {} does not time single calls", c.strategy)};
    if (c.latency == LatencyMode::Off)
        return {false, "not recorded: latency off"};
    if (c.latency == LatencyMode::On)
        return {true, "recorded: latency on (one clock read per call, about 20 ns, counts towards the case)"};
    if (info.maxQueueDepth != 0)
        return {true, "recorded: each request from its submission to its completion"};
    const std::string chunk = formatBytesCompact(c.chunkBytes);
    if (info.usesStdioBuffer) {
        if (c.buffer.mode == BufferMode::None)
            return {true, "recorded: with no stdio buffer every call is a system call"};
        if (c.chunkBytes >= kSmallStdioCall)
            return {true, fmt::format("recorded: stdio calls of {} (4 KiB or more)", chunk)};
        return {false,
                fmt::format("not recorded: a stdio call of {} into its buffer takes nanoseconds, and a clock "
                            "read per call would be the measurement (latency on forces it)",
                            chunk)};
    }
    if (info.memoryCopyCalls && c.chunkBytes < kSmallStdioCall)
        return {false,
                fmt::format("not recorded: each {} call is a copy {} a mapping that takes nanoseconds, and a "
                            "clock read per call would be the measurement (latency on forces it)",
                            chunk, info.direction == Direction::Read ? "out of" : "into")};
    if (info.memoryCopyCalls)
        return {true, fmt::format("recorded: copies of {} {} a mapping (4 KiB or more)", chunk,
                                  info.direction == Direction::Read ? "out of" : "into")};
    if (info.needsDirectIo)
        return {true, "recorded: each call is a system call that waits for the device"};
    return {true, "recorded: each call is a system call"};
}

} // namespace iolab
