// SPDX-License-Identifier: MIT
// A run as a fleet's workstation reports it (issue 39, part 7): a health check on a SATA SSD that measured
// every dimension, each of the health verdict's words given by one, beside a write into a pipe, a replay, a
// failed and a cancelled case and one refused before the run; and fakes declared as the real strategies are,
// in what the health verdict reads of them. The Prometheus exporter's core and CLI tests use it.
#pragma once

#include "core/base/stats.h"
#include "core/model/result.h"
#include "tests/support/fakes.h"

#include <memory>
#include <vector>

namespace iolab::test {

namespace fleet {

inline CaseResult ran(std::uint32_t index, Case k, double mbps)
{
    CaseResult c;
    c.index = index;
    c.testCase = std::move(k);
    for (std::uint32_t r = 1; r <= 3; ++r) {
        RepetitionResult rep;
        rep.index = r;
        rep.bytes = 64 << 20;
        rep.apparentMBps = mbps;
        rep.durableMBps = mbps / 2;
        c.repetitions.push_back(rep);
    }
    c.apparentMBps = summarize(std::vector<double>(3, mbps));
    c.durableMBps = summarize(std::vector<double>(3, mbps / 2));
    return c;
}

inline Case shape(const char* strategy, Direction direction, std::uint64_t chunk, std::uint32_t qd)
{
    Case k;
    k.strategy = strategy;
    k.direction = direction;
    k.chunkBytes = chunk;
    k.totalBytes = 1ULL << 30;
    k.queueDepth = qd;
    if (direction == Direction::Read)
        k.cache = CacheState::Cold;
    return k;
}

inline LatencyDistribution latency(std::uint64_t count, std::uint64_t p50Ns, std::uint64_t p99Ns)
{
    LatencyDistribution d;
    d.summary.count = count;
    d.summary.meanNs = static_cast<double>(p50Ns);
    d.summary.p50Ns = p50Ns;
    d.summary.p90Ns = p50Ns;
    d.summary.p99Ns = p99Ns;
    d.summary.p999Ns = p99Ns;
    d.summary.maxNs = p99Ns;
    return d;
}

} // namespace fleet

struct FleetStrategies
{
    FakeBehaviour behaviour;
    Registry registry;

    FleetStrategies()
    {
        const auto add = [&](const char* id, bool direct, bool random, Direction direction,
                             std::vector<TargetKind> targets = {TargetKind::Directory}) {
            auto s = std::make_unique<FakeStrategy>(id, behaviour, std::move(targets));
            s->mutableInfo().needsDirectIo = direct;
            s->mutableInfo().randomOffsets = random;
            s->mutableInfo().direction = direction;
            registry.add(std::move(s));
        };
        add("stdio", false, false, Direction::Write);
        add("write", false, false, Direction::Write);
        add("uring-write-direct", true, false, Direction::Write);
        add("uring-random-write-direct", true, true, Direction::Write);
        add("read", false, false, Direction::Read);
        add("uring-read-direct", true, false, Direction::Read);
        add("uring-random-read-direct", true, true, Direction::Read);
        add("files-serial", false, false, Direction::Read);
        add("vmsplice", false, false, Direction::Write, {TargetKind::Pipe});
        add("replay", false, false, Direction::Write);
    }
};

// A health-check-shaped run on a SATA SSD (every dimension measured, each verdict's code given by one),
// beside a write into a pipe, a replay, a failed case and a cancelled one, with a case refused before the
// run.
inline RunResult fleetRun()
{
    RunResult r;
    r.toolVersion = "0.6.0";
    r.startedAt = "2026-11-30T10:00:00Z";
    r.finishedAt = "2026-11-30T10:01:05Z";
    r.host.hostname = "ws-17";
    r.target.path = "/srv/bench";
    r.matrix.name = "health-check";
    r.system.gathered = true;
    r.system.deviceClass = DeviceClass::SataSsd;
    r.target.deviceModel = "Samsung SSD 870 EVO 1TB";
    std::uint32_t i = 0;
    CaseResult seqWrite =
        fleet::ran(i++, fleet::shape("uring-write-direct", Direction::Write, 1 << 20, 8), 480);
    seqWrite.callLatency = fleet::latency(1024, 2'000'000, 4'500'000);
    r.cases.push_back(seqWrite);
    r.cases.push_back(fleet::ran(i++, fleet::shape("uring-read-direct", Direction::Read, 1 << 20, 8), 530));
    r.cases.push_back(
        fleet::ran(i++, fleet::shape("uring-random-read-direct", Direction::Read, 4096, 1), 38));
    // Deep random reads faster than SATA allows (a cache took part): above.
    r.cases.push_back(
        fleet::ran(i++, fleet::shape("uring-random-read-direct", Direction::Read, 4096, 32), 2000));
    // 8 MB/s where a SATA SSD typically writes 50-150: far below (4 durable).
    r.cases.push_back(
        fleet::ran(i++, fleet::shape("uring-random-write-direct", Direction::Write, 4096, 1), 8));
    r.cases.push_back(
        fleet::ran(i++, fleet::shape("uring-random-write-direct", Direction::Write, 4096, 32), 250));
    Case sync = fleet::shape("write", Direction::Write, 4096, 0);
    sync.sync = {SyncMode::FsyncEvery, 1};
    CaseResult synced = fleet::ran(i++, sync, 2.13);
    synced.syncLatency = fleet::latency(780, 3'970'000, 5'500'000);
    r.cases.push_back(synced);
    Case files = fleet::shape("files-serial", Direction::Read, 64 << 10, 0);
    files.fileSet = {1000, SizeMix::Article, 10000, 62000000, 205000, "article-10k"};
    CaseResult f = fleet::ran(i++, files, 180);
    f.filesPerSecond = summarize(std::vector<double>(3, 850.0));
    r.cases.push_back(f);
    Case pipe = fleet::shape("vmsplice", Direction::Write, 1 << 20, 0);
    pipe.target = TargetKind::Pipe;
    r.cases.push_back(fleet::ran(i++, pipe, 5400));
    Case replay = fleet::shape("replay", Direction::Write, 4096, 0);
    replay.extraAxes["replay"] = "/home/op/app.iolab-trace";
    r.cases.push_back(fleet::ran(i++, replay, 12));
    CaseResult failed = fleet::ran(i++, fleet::shape("stdio", Direction::Write, 4096, 0), 0);
    failed.status = Status::Failed;
    failed.reason = "write: No space left on device";
    failed.apparentMBps = failed.durableMBps = {};
    r.cases.push_back(failed);
    CaseResult cancelled;
    cancelled.index = i++;
    cancelled.testCase = fleet::shape("stdio", Direction::Write, 65536, 0);
    cancelled.status = Status::Cancelled;
    r.cases.push_back(cancelled);
    r.refused.push_back({fleet::shape("stdio", Direction::Write, 1000, 0), "refused for the test"});
    return r;
}

} // namespace iolab::test
