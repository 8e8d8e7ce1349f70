// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/findings.h"
#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <optional>
#include <string>
#include <vector>

namespace iolab {

struct StrategyInfo;

// The "is this number real?" checks that rest on the system facts and on a case's samples and CPU time
// (issue 18). findings() calls them beside its own checks; each returns nothing when its evidence is missing.

// CPU-bound: user+system time at least this share of the cores the case kept busy (its threads, plus the
// reader of a pipe), over the repetition's whole time; a core that polls by design is left out of both.
inline constexpr double kCpuBoundShare = 0.9;
// A cache cliff: the rate of the first quarter of a long write at least this many times the last quarter's,
// with the drop happening once and holding.
inline constexpr double kCliffFactor = 2.5;
inline constexpr std::size_t kCliffMinSamples = 40; // 4 s at the sampler's 10 Hz

// The layers and mount options under the target that change what every figure means: dm-crypt, a loop file,
// FUSE, a network filesystem, memory; a sync mount, barriers off, data=journal, compression. One finding for
// the run, or none.
std::optional<Finding> storageFinding(const RunResult& result);

// The cores a case keeps busy: its threads, plus one for the reader of a pipe and one for io_uring's SQPOLL
// kernel thread (its CPU time counts in the process's).
double coresInUse(const Case& k, const HostInfo& host);
// The median over measured repetitions of (user + system CPU seconds) / (seconds x cores in use), of the
// cores that work: a spinning pipe reader and an SQPOLL thread poll on a core each by design, so their cores
// (a whole core's time each) are left out; nullopt without measured repetitions or CPU figures, or when the
// pollers take every core.
std::optional<double> cpuBusyShare(const CaseResult& c, const HostInfo& host);
// `info`, the case's strategy declaration where known, fits the advice to what costs the CPU there.
std::optional<Finding> cpuBoundFinding(const CaseResult& c, const HostInfo& host,
                                       const StrategyInfo* info = nullptr);
// What moves a CPU-bound case's figure, from its strategy's declaration and its chunk and threads.
std::string cpuBoundAdvice(const Case& c, const StrategyInfo* info);

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
// Compression or deduplication: a case that wrote (or read) zeros or compressible bytes against the same case
// with incompressible bytes (random, else IOLab's own pattern), by the rate the run ranks by. It fires when
// the compressible case is at least kCompressionFactor times faster and every one of its measured
// repetitions beat every one of the other's, so that noise cannot make the finding.
inline constexpr double kCompressionFactor = 1.5;
struct CompressionPair
{
    std::uint32_t compressible = 0;   // the zeros (or compressible:N%) case
    std::uint32_t incompressible = 0; // its random (or iolab) twin
    double compressibleMBps = 0;
    double incompressibleMBps = 0;
};
std::vector<CompressionPair> compressionPairs(const RunResult& result, Ranking ranking);
std::vector<Finding> compressionFindings(const RunResult& result, Ranking ranking);
// Whether a case's bytes compress: zeros or compressible:N%. Its rate is not a disk's to rank.
bool compressibleData(const Case& c);

std::optional<CacheCliff> findCacheCliff(const CaseResult& c, bool bypassesPageCache);
std::optional<Finding> cacheCliffFinding(const CaseResult& c, bool bypassesPageCache);

// Heat: a case whose rate fell by kHeatFall or more from its first measured repetition to its last while
// the drive's thermal counters rose between the readings before and after it (minutes above its warning
// temperature, throttling transitions or seconds), or its temperature reached its warning threshold. A fall
// without such evidence, or a temperature that only rose, accuses nothing.
inline constexpr double kHeatFall = 0.15;
std::optional<Finding> heatFinding(const CaseResult& c, Ranking ranking);

} // namespace iolab
