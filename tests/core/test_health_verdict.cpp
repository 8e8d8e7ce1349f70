// SPDX-License-Identifier: MIT
// The health check answers its own question (issue 34): a line per dimension with its figure, the class's
// typical range and a word, the overall answer, and what is judged without a range. The device facts are
// made up here (this VM has no NVMe or SATA disk); the ranges are the ones the source code cites.
#include "core/analysis/health_verdict.h"
#include "core/analysis/verdict.h"
#include "tests/support/fakes.h"

#include <gtest/gtest.h>

#include <memory>

namespace iolab {
namespace {

using test::FakeBehaviour;
using test::FakeStrategy;

// Fakes declared as the real strategies are, in what the health verdict reads of them.
struct Strategies
{
    FakeBehaviour behaviour;
    Registry registry;

    Strategies()
    {
        const auto add = [&](const char* id, bool direct, bool random, Direction direction) {
            auto s = std::make_unique<FakeStrategy>(id, behaviour);
            s->mutableInfo().needsDirectIo = direct;
            s->mutableInfo().randomOffsets = random;
            s->mutableInfo().direction = direction;
            registry.add(std::move(s));
        };
        add("stdio", false, false, Direction::Write);
        add("write", false, false, Direction::Write);
        add("direct", true, false, Direction::Write);
        add("uring-write-direct", true, false, Direction::Write);
        add("uring-random-write-direct", true, true, Direction::Write);
        add("read", false, false, Direction::Read);
        add("uring-read-direct", true, false, Direction::Read);
        add("uring-random-read-direct", true, true, Direction::Read);
        add("files-serial", false, false, Direction::Read);
    }
};

// A case that ran three repetitions at `mbps` (durable and apparent alike).
CaseResult ran(std::uint32_t index, Case k, double mbps)
{
    CaseResult c;
    c.index = index;
    c.testCase = std::move(k);
    for (std::uint32_t r = 1; r <= 3; ++r) {
        RepetitionResult rep;
        rep.index = r;
        rep.bytes = 64 << 20;
        rep.apparentMBps = rep.durableMBps = mbps;
        rep.returnSeconds = rep.durableSeconds = 1.0;
        c.repetitions.push_back(rep);
    }
    const std::vector<double> rates(3, mbps);
    c.apparentMBps = c.durableMBps = summarize(rates);
    return c;
}

Case shape(const char* strategy, Direction direction, std::uint64_t chunk, std::uint32_t qd)
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

LatencyDistribution syncs(std::uint64_t count, double p50Ms, double p99Ms)
{
    LatencyDistribution d;
    d.summary.count = count;
    d.summary.p50Ns = static_cast<std::uint64_t>(p50Ms * 1e6);
    d.summary.p99Ns = static_cast<std::uint64_t>(p99Ms * 1e6);
    d.summary.maxNs = d.summary.p99Ns;
    return d;
}

// A health-check-shaped run: SEQ1M and RND4K at QD1 and at depth, reads and writes, the sync latency of a
// 4 KiB write with fsync after each (about 260 syncs/s: 1.06 MB/s), small files.
RunResult healthRun(DeviceClass kind, double randomWriteQd1MBps, double syncP99Ms)
{
    RunResult r;
    r.system.gathered = true;
    r.system.deviceClass = kind;
    r.target.deviceModel = kind == DeviceClass::VirtualDisk ? "QEMU HARDDISK" : "Samsung SSD 870 EVO 1TB";
    r.options.repetitions = 3;
    std::uint32_t i = 0;
    r.cases.push_back(ran(i++, shape("uring-write-direct", Direction::Write, 1 << 20, 8), 480));
    r.cases.push_back(ran(i++, shape("uring-read-direct", Direction::Read, 1 << 20, 8), 530));
    r.cases.push_back(ran(i++, shape("uring-random-read-direct", Direction::Read, 4096, 1), 38));
    r.cases.push_back(ran(i++, shape("uring-random-read-direct", Direction::Read, 4096, 32), 310));
    r.cases.push_back(
        ran(i++, shape("uring-random-write-direct", Direction::Write, 4096, 1), randomWriteQd1MBps));
    r.cases.push_back(ran(i++, shape("uring-random-write-direct", Direction::Write, 4096, 32), 250));
    Case sync = shape("write", Direction::Write, 4096, 0);
    sync.sync = {SyncMode::FsyncEvery, 1};
    CaseResult s = ran(i++, sync, 260.0 * 4096 / 1e6);
    s.syncLatency = syncs(780, 3.97, syncP99Ms);
    r.cases.push_back(s);
    Case files = shape("files-serial", Direction::Read, 64 << 10, 0);
    files.fileSet = {1000, SizeMix::Article, 10000, 62000000, 205000, "article-10k"};
    CaseResult f = ran(i++, files, 180);
    f.filesPerSecond = summarize(std::vector<double>(3, 850.0));
    r.cases.push_back(f);
    // A baseline, which measures no dimension of the device.
    r.cases.push_back(ran(i++, shape("stdio", Direction::Write, 4096, 0), 900));
    return r;
}

const HealthLine* lineOf(const HealthVerdict& h, HealthDimension d)
{
    for (const auto& l : h.lines) {
        if (l.dimension == d)
            return &l;
    }
    return nullptr;
}

TEST(HealthVerdict, ASataSsdWithSlowRandomWritesIsBelowInThatOneMeasure)
{
    Strategies s;
    const RunResult r = healthRun(DeviceClass::SataSsd, 8, 5.5);
    const auto h = healthVerdict(r, &s.registry, {});
    ASSERT_TRUE(h);
    ASSERT_EQ(h->lines.size(), 8u) << "every dimension, the baseline in none";
    EXPECT_EQ(lineOf(*h, HealthDimension::SequentialWrite)->word, HealthWord::InRange);
    EXPECT_EQ(lineOf(*h, HealthDimension::SequentialWrite)->typical, "200-530 MB/s");
    EXPECT_EQ(lineOf(*h, HealthDimension::RandomReadQd1)->word, HealthWord::InRange);
    EXPECT_EQ(lineOf(*h, HealthDimension::RandomReadDeep)->word, HealthWord::InRange);
    // 8 MB/s against 50-150 typical: under half the low end.
    EXPECT_EQ(lineOf(*h, HealthDimension::RandomWriteQd1)->word, HealthWord::FarBelow);
    EXPECT_EQ(lineOf(*h, HealthDimension::RandomWriteQd1)->figure, "8.0 MB/s (1953 IOPS)");
    // 3.97 ms median sync: above the 3 ms a flush-honest SATA SSD typically needs at most.
    EXPECT_EQ(lineOf(*h, HealthDimension::SyncLatency)->word, HealthWord::Below);
    EXPECT_EQ(lineOf(*h, HealthDimension::SmallFiles)->word, HealthWord::NoRange);
    EXPECT_TRUE(h->overall.starts_with("No: the target is a SATA SSD (Samsung SSD 870 EVO 1TB)"))
        << h->overall;
    EXPECT_NE(h->overall.find("in 2 of 7 measures"), std::string::npos) << h->overall;
    EXPECT_NE(h->overall.find("random 4 KiB writes, one at a time (far below"), std::string::npos)
        << h->overall;
    EXPECT_FALSE(h->rangesSource.empty());
}

// The sync row shows the sync's own latency: syncs per second, its p50 and p99, not the write call's.
TEST(HealthVerdict, TheSyncLineIsTheSyncsLatency)
{
    Strategies s;
    const RunResult r = healthRun(DeviceClass::VirtualDisk, 100, 5.5);
    const auto h = healthVerdict(r, &s.registry, {});
    ASSERT_TRUE(h);
    const HealthLine* sync = lineOf(*h, HealthDimension::SyncLatency);
    ASSERT_NE(sync, nullptr);
    EXPECT_EQ(sync->figure, "260 syncs/s, p50 3.97 ms, p99 5.50 ms");
    EXPECT_EQ(sync->what, "Sync latency (4 KiB writes, fsync-every:1)");
}

// A virtual disk has no class range: every line says so, the overall answer says why, and what can be
// judged without one is: etcd's rule, the sync against a flush-honest medium, the cliff, the CPU.
TEST(HealthVerdict, AVirtualDiskIsJudgedWithoutARange)
{
    Strategies s;
    const RunResult r = healthRun(DeviceClass::VirtualDisk, 100, 5.5);
    const auto h = healthVerdict(r, &s.registry, {});
    ASSERT_TRUE(h);
    for (const auto& l : h->lines) {
        EXPECT_EQ(l.word, HealthWord::NoRange) << l.what;
        EXPECT_TRUE(l.typical.empty());
    }
    EXPECT_NE(h->overall.find("no typical range"), std::string::npos) << h->overall;
    EXPECT_NE(h->overall.find("the host's storage and cache"), std::string::npos) << h->overall;
    ASSERT_GE(h->checks.size(), 3u);
    EXPECT_EQ(h->checks[0],
              "Sync latency meets etcd's rule for a log disk: p99 5.50 ms of 780 syncs, under 10 ms.");
    EXPECT_NE(h->checks[1].find("slow enough for any medium that honours flushes"), std::string::npos)
        << h->checks[1];
    EXPECT_NE(std::find(h->checks.begin(), h->checks.end(),
                        "No case was CPU-bound: the figures are the storage's."),
              h->checks.end());
}

TEST(HealthVerdict, ASlowSyncTailFailsEtcdsRule)
{
    Strategies s;
    const auto h = healthVerdict(healthRun(DeviceClass::VirtualDisk, 100, 12.0), &s.registry, {});
    ASSERT_TRUE(h);
    EXPECT_TRUE(h->checks[0].starts_with("Sync latency fails etcd's rule for a log disk: p99 12.0 ms"))
        << h->checks[0];
}

// Must not fire: runs that measure the device in fewer than four dimensions get no health verdict (the sync
// lab, a per-byte stdio run, the quick preset).
TEST(HealthVerdict, NoVerdictForRunsThatDoNotMeasureTheDevice)
{
    Strategies s;
    RunResult r = healthRun(DeviceClass::SataSsd, 100, 5.5);
    // Without the sequential write and read and the random reads: random writes, the sync and small files.
    r.cases.erase(r.cases.begin(), r.cases.begin() + 5);
    EXPECT_FALSE(healthVerdict(r, &s.registry, {})) << "three dimensions are not a health check";

    RunResult perByte;
    perByte.system.gathered = true;
    perByte.system.deviceClass = DeviceClass::SataSsd;
    for (std::uint32_t i = 0; i < 6; ++i)
        perByte.cases.push_back(ran(i, shape("stdio", Direction::Write, 1, 0), 50));
    EXPECT_FALSE(healthVerdict(perByte, &s.registry, {}));
}

// Zeros, a memory cap or a warm cache measure something else than the device: no dimension.
TEST(HealthVerdict, CasesThatDoNotShowTheDeviceMeasureNoDimension)
{
    Strategies s;
    Case zeros = shape("direct", Direction::Write, 1 << 20, 0);
    zeros.pattern = {PatternKind::Zeros, 0};
    EXPECT_FALSE(healthDimension(zeros, &s.registry));
    Case capped = shape("write", Direction::Write, 1 << 20, 0);
    capped.memoryLimitBytes = 64 << 20;
    EXPECT_FALSE(healthDimension(capped, &s.registry));
    Case warm = shape("read", Direction::Read, 1 << 20, 0);
    warm.cache = CacheState::Warm;
    EXPECT_FALSE(healthDimension(warm, &s.registry));
    EXPECT_EQ(healthDimension(shape("direct", Direction::Write, 1 << 20, 0), &s.registry),
              HealthDimension::SequentialWrite);
    EXPECT_EQ(healthDimension(shape("uring-random-read-direct", Direction::Read, 4096, 32), &s.registry),
              HealthDimension::RandomReadDeep);
}

// A read/write mix's combined rate or a hot spot's is not the random read rate the typical ranges describe;
// a 100% read share at uniform offsets is.
TEST(HealthVerdict, AMixOrAHotSpotIsNoRandomReadDimension)
{
    Strategies s;
    Case mix = shape("uring-random-read-direct", Direction::Read, 4096, 1);
    mix.randomDist = {RandomDistKind::Uniform, 0};
    mix.readPercent = 70;
    EXPECT_FALSE(healthDimension(mix, &s.registry));
    Case hot = shape("uring-random-read-direct", Direction::Read, 4096, 32);
    hot.randomDist = {RandomDistKind::Zipf, 1.2};
    EXPECT_FALSE(healthDimension(hot, &s.registry));
    Case pure = shape("uring-random-read-direct", Direction::Read, 4096, 1);
    pure.randomDist = {RandomDistKind::Uniform, 0};
    pure.readPercent = 100;
    EXPECT_EQ(healthDimension(pure, &s.registry), HealthDimension::RandomReadQd1);
}

// First in the Summary, the CLI's text included; the strategy ranking follows it.
TEST(HealthVerdict, LeadsTheSummaryAndItsText)
{
    Strategies s;
    const RunResult r = healthRun(DeviceClass::SataSsd, 8, 5.5);
    const Verdict v = verdict(r, &s.registry);
    ASSERT_TRUE(v.health);
    const auto lines = verdictLines(v);
    ASSERT_GE(lines.size(), 3u);
    EXPECT_EQ(lines[1], "Health check: is this storage as fast as its kind of device should be?");
    std::size_t health = 0;
    std::size_t ways = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].starts_with("Overall: No: the target is a SATA SSD"))
            health = i;
        if (lines[i] == "Ways of doing the I/O, compared:")
            ways = i;
    }
    EXPECT_GT(health, 0u);
    EXPECT_GT(ways, health);
    const std::string text = healthText(*v.health, causeSentences(v));
    EXPECT_NE(text.find("Random 4 KiB writes, one at a time (4 KiB, QD1)"), std::string::npos) << text;
    EXPECT_NE(text.find("far below (typical 50-150 MB/s)"), std::string::npos) << text;
}

} // namespace
} // namespace iolab
