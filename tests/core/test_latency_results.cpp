// SPDX-License-Identifier: MIT
// Per-call latency through the engine: the latency and queue-depth axes, what auto chooses and why, the
// runner's per-repetition and per-case histograms, and the result files (schema 2, and schema 1 still opens).
#include "core/base/error.h"
#include "core/engine/call_timing.h"
#include "core/engine/runner.h"
#include "core/formats/result_csv.h"
#include "core/formats/result_json.h"
#include "core/model/axes.h"
#include "core/model/matrix.h"
#include "tests/support/fakes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

StrategyInfo noSyncWriter(std::string id)
{
    StrategyInfo info;
    info.id = std::move(id);
    info.targets = {TargetKind::Directory};
    info.syncModes = {SyncMode::None};
    return info;
}

Case writeCase(std::string strategy, std::uint64_t chunk)
{
    Case c{std::move(strategy), Direction::Write, chunk, 1 << 20, {}, {}, 1, TargetKind::Directory};
    return c;
}

} // namespace

TEST(ChooseLatency, AutoTimesSystemCallsAndNotNanosecondCalls)
{
    Case c = writeCase("write", 4096);
    EXPECT_TRUE(chooseLatency(c, noSyncWriter("write")).record);
    EXPECT_THAT(chooseLatency(c, noSyncWriter("write")).why, HasSubstr("system call"));

    StrategyInfo stdio = noSyncWriter("stdio");
    stdio.usesStdioBuffer = true;
    c = writeCase("stdio", 1);
    c.buffer = {BufferMode::Default, 0};
    const LatencyChoice small = chooseLatency(c, stdio);
    EXPECT_FALSE(small.record);
    EXPECT_THAT(small.why, HasSubstr("a clock read per call would be the measurement"));
    c.chunkBytes = 4096;
    EXPECT_TRUE(chooseLatency(c, stdio).record);
    c.chunkBytes = 1;
    c.buffer = {BufferMode::None, 0};
    EXPECT_THAT(chooseLatency(c, stdio).why, HasSubstr("every call is a system call"));

    StrategyInfo mapped = noSyncWriter("mmap-window");
    mapped.memoryCopyCalls = true;
    c = writeCase("mmap-window", 4096 - 1);
    EXPECT_FALSE(chooseLatency(c, mapped).record);
    c.latency = LatencyMode::On;
    EXPECT_TRUE(chooseLatency(c, mapped).record);
    EXPECT_THAT(chooseLatency(c, mapped).why, HasSubstr("latency on"));

    StrategyInfo queued = noSyncWriter("uring-write");
    queued.maxQueueDepth = 4096;
    c = writeCase("uring-write", 4096);
    c.queueDepth = 32;
    EXPECT_THAT(chooseLatency(c, queued).why, HasSubstr("submission to its completion"));
    c.latency = LatencyMode::Off;
    EXPECT_FALSE(chooseLatency(c, queued).record);

    StrategyInfo files = noSyncWriter("files-pool");
    files.layout = DataLayout::FileSet;
    files.timesCalls = false;
    EXPECT_THAT(chooseLatency(c, files).why, HasSubstr("times each file"));
}

TEST(QueueDepthAxis, ParsesAndRefusesWithReasons)
{
    MatrixGroup g;
    const AxisSpec& depth = *findAxisByMatrixKey("queueDepths");
    depth.addGroupValue(g, "32", "--qd");
    EXPECT_EQ(g.queueDepths, std::vector<std::uint32_t>{32});
    EXPECT_THROW(depth.addGroupValue(g, "0", "--qd"), InputError);
    EXPECT_THROW(depth.addGroupValue(g, "4097", "--qd"), InputError);
    EXPECT_THROW(depth.addGroupValue(g, "x", "--qd"), InputError);

    const AxisRefusal& rule = depth.refusals.front();
    const StrategyInfo plain = noSyncWriter("write");
    Case c = writeCase("write", 4096);
    EXPECT_EQ(rule.reason(c, plain, {}), "");
    c.queueDepth = 8;
    EXPECT_THAT(rule.reason(c, plain, {}), HasSubstr("write has no queue"));
    StrategyInfo queued = noSyncWriter("uring-write");
    queued.maxQueueDepth = 64;
    c.strategy = "uring-write";
    EXPECT_EQ(rule.reason(c, queued, {}), "");
    c.queueDepth = 128;
    EXPECT_THAT(rule.reason(c, queued, {}), HasSubstr("above uring-write's limit of 64"));
    c.queueDepth = 0;
    EXPECT_THAT(rule.reason(c, queued, {}), HasSubstr("needs a queue depth"));
}

TEST(QueueDepthAxis, QueuedStrategiesDefaultToOneAndOthersCarryNone)
{
    const AxisSpec& depth = *findAxisByMatrixKey("queueDepths");
    StrategyInfo queued = noSyncWriter("uring-write");
    queued.maxQueueDepth = 4096;
    MatrixGroup g;
    Case c;
    depth.values(g, queued).set(c, 0);
    EXPECT_EQ(c.queueDepth, 1u);
    Case other;
    other.queueDepth = 5;
    depth.values(g, noSyncWriter("write")).set(other, 0);
    EXPECT_EQ(other.queueDepth, 0u);
    EXPECT_EQ(c.label().find("qd=1") != std::string::npos, true);
}

TEST(LatencyAxis, OnIsRefusedWhereNoCallIsTimed)
{
    const AxisSpec& latency = *findAxisByMatrixKey("latencies");
    StrategyInfo files = noSyncWriter("files-pool");
    files.layout = DataLayout::FileSet;
    files.timesCalls = false;
    Case c = writeCase("files-pool", 4096);
    c.latency = LatencyMode::On;
    EXPECT_THAT(latency.refusals.front().reason(c, files, {}), HasSubstr("times each file"));
    c.latency = LatencyMode::Auto;
    EXPECT_EQ(latency.refusals.front().reason(c, files, {}), "");
    MatrixGroup g;
    EXPECT_THROW(latency.addGroupValue(g, "sometimes", "--latency"), InputError);
}

namespace {

class LatencyRunTest : public ::testing::Test
{
protected:
    LatencyRunTest()
    {
        auto fake = std::make_unique<FakeStrategy>("fake", m_behaviour);
        m_registry.add(std::move(fake));
    }

    RunResult run(LatencyMode mode, std::uint32_t threads = 2)
    {
        ExpandedMatrix e;
        Case c{"fake", Direction::Write, 4096, 1 << 20, {}, {}, threads, TargetKind::Directory};
        c.latency = mode;
        e.cases.push_back(c);
        RunOptions options;
        options.sampling = false;
        options.repetitions = 3;
        options.warmups = 1;
        Runner runner(m_registry, m_workspace, m_probe);
        return runner.run(RunPlan{{}, {}, e}, options, {});
    }

    FakeBehaviour m_behaviour;
    Registry m_registry;
    FakeWorkspace m_workspace{TargetInfo{.path = "/fake", .device = "fakedev"}};
    FakeProbe m_probe;
};

} // namespace

TEST_F(LatencyRunTest, EveryCallOfEveryThreadIsInTheRepetitionAndTheMeasuredOnesInTheCase)
{
    const RunResult r = run(LatencyMode::Auto);
    ASSERT_EQ(r.cases.size(), 1u);
    const CaseResult& c = r.cases.front();
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    EXPECT_THAT(c.latencyChoice, HasSubstr("recorded"));
    for (const auto& rep : c.repetitions) {
        ASSERT_TRUE(rep.callLatency);
        EXPECT_EQ(rep.callLatency->count, (1u << 20) / 4096) << "256 writes over two threads";
        EXPECT_LE(rep.callLatency->p50Ns, rep.callLatency->p99Ns);
        EXPECT_LE(rep.callLatency->p99Ns, rep.callLatency->maxNs);
        EXPECT_FALSE(rep.syncLatency);
    }
    ASSERT_TRUE(c.callLatency);
    EXPECT_EQ(c.callLatency->summary.count, 3u * 256) << "the three measured repetitions, not the warm-up";
    std::uint64_t inBuckets = 0;
    for (const auto& b : c.callLatency->buckets)
        inBuckets += b.count;
    EXPECT_EQ(inBuckets, 3u * 256);
}

TEST_F(LatencyRunTest, OffRecordsNothingAndSaysSo)
{
    const RunResult r = run(LatencyMode::Off);
    const CaseResult& c = r.cases.front();
    EXPECT_EQ(c.latencyChoice, "not recorded: latency off");
    EXPECT_FALSE(c.callLatency);
    for (const auto& rep : c.repetitions)
        EXPECT_FALSE(rep.callLatency);
}

TEST_F(LatencyRunTest, LatencyRoundTripsThroughJsonAndFillsTheCsv)
{
    const RunResult r = run(LatencyMode::On, 1);
    const auto j = resultToJson(r);
    EXPECT_EQ(j["schema"], "iolab.result/2");
    const auto& jc = j["cases"][0];
    EXPECT_EQ(jc["case"]["latency"], "on");
    EXPECT_EQ(jc["case"]["queueDepth"], 0);
    EXPECT_TRUE(jc["callLatency"]["buckets"].is_array());
    EXPECT_TRUE(jc["repetitions"][1]["callLatency"].contains("p9999Ns"));
    const RunResult back = resultFromJson(j.dump(), "r.json");
    EXPECT_EQ(back.cases.front().callLatency, r.cases.front().callLatency);
    EXPECT_EQ(back.cases.front().repetitions, r.cases.front().repetitions);
    EXPECT_EQ(back.cases.front().latencyChoice, r.cases.front().latencyChoice);

    const auto summary = summaryRows(r);
    const auto& header = summary.front();
    const auto column = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    ASSERT_LT(column("lat_p99_us"), header.size());
    ASSERT_LT(column("iops"), header.size());
    EXPECT_FALSE(summary[1][column("lat_p99_us")].empty());
    EXPECT_FALSE(summary[1][column("iops")].empty());
    EXPECT_TRUE(summary[1][column("sync_p99_us")].empty()) << "no sync call was made";
    const auto reps = repetitionRows(r);
    EXPECT_EQ(reps.front().size(), reps[1].size());
    EXPECT_EQ(
        reps[2][std::find(reps.front().begin(), reps.front().end(), "lat_calls") - reps.front().begin()],
        "256");
}

TEST_F(LatencyRunTest, AVersionOneResultOpensWithoutLatency)
{
    const RunResult r = run(LatencyMode::On, 1);
    auto j = resultToJson(r);
    j["schema"] = "iolab.result/1";
    auto& c = j["cases"][0];
    c.erase("callLatency");
    c.erase("latencyChoice");
    c["case"].erase("latency");
    c["case"].erase("queueDepth");
    for (auto& rep : c["repetitions"])
        rep.erase("callLatency");
    const RunResult old = resultFromJson(j.dump(), "old.json");
    EXPECT_EQ(old.schema, "iolab.result/2");
    EXPECT_EQ(old.cases.front().testCase.latency, LatencyMode::Off) << "version 1 timed no call";
    EXPECT_EQ(old.cases.front().testCase.queueDepth, 0u);
    EXPECT_FALSE(old.cases.front().callLatency);
}

TEST_F(LatencyRunTest, DamagedBucketsAreAClearError)
{
    const RunResult r = run(LatencyMode::On, 1);
    auto j = resultToJson(r);
    j["cases"][0]["callLatency"]["buckets"][0][2] = 999'999;
    try {
        resultFromJson(j.dump(), "r.json");
        FAIL() << "accepted";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("r.json: damaged result file: latency buckets hold"));
    }
}
