// SPDX-License-Identifier: MIT
// A sync lab's case as a finished run holds it, for the tests of the lab's table, verdicts, chart and report.
#pragma once

#include "core/base/units.h"
#include "core/model/result.h"

#include <cstdint>
#include <string>

namespace iolab::test {

// An ok write case of `chunk` bytes per call at `opsPerSecond` calls a second (its apparent and durable
// rates), 5 s per repetition, whose timed calls (and syncs, where it syncs after every write) took a p50 of
// half `p99Ns`, a p99 of `p99Ns`, a p99.9 of twice and a maximum of three times it.
inline CaseResult syncMethodCase(std::uint32_t index, const std::string& strategy, SyncPolicy sync,
                                 double opsPerSecond, std::uint64_t p99Ns = 1'000'000,
                                 Preallocate preallocate = Preallocate::Overwrite,
                                 std::uint64_t chunk = 8 * kKiB)
{
    CaseResult c;
    c.index = index;
    c.testCase.strategy = strategy;
    c.testCase.chunkBytes = chunk;
    c.testCase.totalBytes = 64 * kMiB;
    c.testCase.sync = sync;
    c.testCase.preallocate = preallocate;
    c.testCase.timeLimitMs = 5000;
    c.apparentMBps.count = 1;
    c.apparentMBps.median = opsPerSecond * static_cast<double>(chunk) / kBytesPerMB;
    c.durableMBps = c.apparentMBps;
    LatencyDistribution d;
    d.summary.count = 1000;
    d.summary.p50Ns = p99Ns / 2;
    d.summary.p99Ns = p99Ns;
    d.summary.p999Ns = p99Ns * 2;
    d.summary.maxNs = p99Ns * 3;
    if (sync.loopSyncEvery() == 1)
        c.syncLatency = d;
    c.callLatency = d;
    return c;
}

} // namespace iolab::test
