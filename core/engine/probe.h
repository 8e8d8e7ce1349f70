// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/system_facts.h"
#include "core/model/target.h"
#include "core/model/thermal.h"

#include <cstdint>
#include <optional>
#include <string>

namespace iolab {

struct ProcessCounters
{
    double userSeconds = 0;
    double systemSeconds = 0;
    std::uint64_t rssBytes = 0;
};

struct MemoryCounters
{
    std::uint64_t dirtyBytes = 0;
    std::uint64_t writebackBytes = 0;
};

struct DeviceCounters
{
    std::uint64_t readBytes = 0;
    std::uint64_t writtenBytes = 0;
};

// What the sampler and runner ask of the operating system; the platform layer implements it. Calls are cheap
// (a few /proc reads) and are made at most ~10 times a second, never from a hot loop.
class SystemProbe
{
public:
    virtual ~SystemProbe() = default;
    virtual ProcessCounters process() = 0;
    virtual MemoryCounters memory() = 0;
    // The system's Dirty and Writeback bytes, as evidence of whether a write went through the page cache;
    // nullopt where the OS does not count both (Windows) or they cannot be read.
    virtual std::optional<MemoryCounters> writeBacklog() = 0;
    // Counters of the block device named as in TargetInfo::device; nullopt when it has none or cannot be
    // read.
    virtual std::optional<DeviceCounters> device(const std::string& name) = 0;
    virtual HostInfo host() = 0;
    // The storage stack under the target and the machine's I/O settings, read once as a run begins; a probe
    // that cannot tell returns facts with `gathered` false.
    virtual SystemFacts systemFacts(const TargetInfo& /*target*/) { return {}; }
    // What the target's drive (TargetInfo::device) says of its heat now: its temperature and, where it keeps
    // them, its thermal throttling counters (core/model/thermal.h); nullopt where it says nothing.
    virtual std::optional<ThermalReading> thermal(const std::string& /*device*/) { return std::nullopt; }
};

} // namespace iolab
