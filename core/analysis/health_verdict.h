// SPDX-License-Identifier: MIT
// The health verdict (issue 34): "is this storage as fast as its kind of device should be, and if not, why?"
// answered first, one line per dimension the run measured (sequential reads and writes, random 4 KiB reads
// and writes with one request in flight and with many, the sync latency, small files), each with its figure,
// the device class's typical range where one is known and a plain word; then the overall answer, and what can
// be judged without a class range (etcd's sync rule, the sync against what a medium honouring flushes allows,
// a cache cliff, CPU-bound cases, compression).
#pragma once

#include "core/analysis/findings.h"
#include "core/analysis/ranking.h"
#include "core/model/result.h"
#include "core/model/system_facts.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

class Registry;

enum class HealthDimension
{
    SequentialRead,
    SequentialWrite,
    RandomReadQd1,
    RandomReadDeep,
    RandomWriteQd1,
    RandomWriteDeep,
    SyncLatency,
    SmallFiles
};
std::string describe(HealthDimension dimension); // "Sequential writes", "Random 4 KiB reads, QD1", ...

// The dimension a case measures, from its axes and its strategy's declaration; none when it measures none
// of them (a stdio baseline, a buffered read from a warm cache, a write of zeros, a case under a memory cap).
std::optional<HealthDimension> healthDimension(const Case& c, const Registry* registry);

enum class HealthWord
{
    InRange,
    Above,    // faster than the class typically is (a cache took part, or a better device than most)
    Below,    // slower than the low end of the range
    FarBelow, // under half the low end (for a latency: over twice the high end)
    NoRange   // no typical range for this kind of device
};
std::string toString(HealthWord word); // "in range", "above", "below", "far below", "no range"

// A class's typical range for a dimension: rates in MB/s, the sync latency's median in milliseconds (lower is
// better). None for a virtual disk, a network share, memory, an unknown device, and for small files.
struct HealthRange
{
    double low = 0;
    double high = 0;
};
std::optional<HealthRange> typicalHealthRange(const SystemFacts& facts, HealthDimension dimension);
std::string typicalRangesSource(DeviceClass kind); // where the class's ranges come from, one sentence

struct HealthLine
{
    HealthDimension dimension = HealthDimension::SequentialRead;
    std::string what;    // "Sequential writes (1 MiB, QD8)"
    std::string figure;  // "1.89 GB/s durable" / "260 syncs/s, p50 3.97 ms, p99 5.50 ms"
    std::string typical; // "200-530 MB/s", "" without a range
    HealthWord word = HealthWord::NoRange;
    std::uint32_t caseIndex = 0;
};

struct HealthVerdict
{
    std::string device;              // "a SATA SSD (Samsung SSD 870 EVO)", "a virtual disk (QEMU HARDDISK)"
    std::vector<HealthLine> lines;   // in the order of HealthDimension
    std::string overall;             // the answer, one or two sentences
    std::vector<std::string> checks; // judged without a class range, each one sentence with its figures
    std::string rangesSource;        // "" without ranges
};

// Said when the run measured at least kHealthMinDimensions of the dimensions (the health-check and cdm
// presets do); `found` are the run's findings (findings()).
inline constexpr std::size_t kHealthMinDimensions = 4;
std::optional<HealthVerdict> healthVerdict(const RunResult& result, const Registry* registry,
                                           const std::vector<Finding>& found);

// The verdict as ticket-ready plain text (a title line, then the lines, the overall answer and the checks),
// wrapped at `width` columns; `causes` follow the overall answer when given.
std::string healthText(const HealthVerdict& health, const std::vector<std::string>& causes,
                       std::size_t width = 100);

} // namespace iolab
