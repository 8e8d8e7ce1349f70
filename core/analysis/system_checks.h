// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/findings.h"
#include "core/model/result.h"

#include <optional>
#include <string>
#include <vector>

namespace iolab {

// The "is this number real?" checks that rest on the system facts and on a case's samples and CPU time
// (issue 18). findings() calls them beside its own checks; each returns nothing when its evidence is missing.

// CPU-bound: user+system time at least this share of the cores the case kept busy (its threads, plus the
// reader of a pipe), over the repetition's whole time.
inline constexpr double kCpuBoundShare = 0.9;
// A cache cliff: the rate of the first quarter of a long write at least this many times the last quarter's,
// with the drop happening once and holding.
inline constexpr double kCliffFactor = 2.5;
inline constexpr std::size_t kCliffMinSamples = 40; // 4 s at the sampler's 10 Hz

// The layers and mount options under the target that change what every figure means: dm-crypt, a loop file,
// FUSE, a network filesystem, memory; a sync mount, barriers off, data=journal, compression. One finding for
// the run, or none.
std::optional<Finding> storageFinding(const RunResult& result);

// The cores a case keeps busy: its threads, plus one for the reader of a pipe.
double coresInUse(const Case& k, const HostInfo& host);
// The median over measured repetitions of (user + system CPU seconds) / (seconds x cores in use); nullopt
// without measured repetitions or CPU figures.
std::optional<double> cpuBusyShare(const CaseResult& c, const HostInfo& host);
std::optional<Finding> cpuBoundFinding(const CaseResult& c, const HostInfo& host);

// Where a long write's rate fell once and stayed down: the rate before and after, the bytes and seconds
// before the drop. From the device's own rate where the sampler saw it, else (for writes that bypass the
// page cache) the rate of the calls; a buffered write's call rate falls when the page cache fills, which is
// not the device.
struct CacheCliff
{
    double beforeMBps = 0;
    double afterMBps = 0;
    std::uint64_t bytesBefore = 0;
    double secondsBefore = 0;
    bool deviceRate = false; // the device's own rate (else the calls')
};
std::optional<CacheCliff> findCacheCliff(const CaseResult& c, bool bypassesPageCache);
std::optional<Finding> cacheCliffFinding(const CaseResult& c, bool bypassesPageCache);

} // namespace iolab
