// SPDX-License-Identifier: MIT
#include "core/engine/runner.h"
#include "core/version.h"
#include "tests/support/fakes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <thread>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

class Recorder final : public RunObserver
{
public:
    void caseStarted(const CaseStarted& s) override { add("started " + std::to_string(s.index)); }
    void sample(const Sample&) override { samples++; }
    void repetitionFinished(const RepetitionFinished& r) override
    {
        add("rep " + std::to_string(r.caseIndex) + "." + std::to_string(r.repetition.index));
    }
    void caseFinished(const CaseResult& c) override { add("finished " + std::to_string(c.index)); }
    void runFinished(const RunResult&) override { add("run finished"); }

    void add(std::string e)
    {
        std::lock_guard lock(mutex);
        events.push_back(std::move(e));
    }
    std::mutex mutex;
    std::vector<std::string> events;
    std::atomic<int> samples{0};
};

class RunnerTest : public ::testing::Test
{
protected:
    RunnerTest()
    {
        m_registry.add(std::make_unique<FakeStrategy>("fake", m_behaviour));
        m_registry.add(std::make_unique<FakeStrategy>("other", m_other));
    }

    ExpandedMatrix cases(std::vector<std::string> strategies, std::uint32_t threads = 1)
    {
        ExpandedMatrix e;
        for (auto& s : strategies)
            e.cases.push_back(
                Case{s, Direction::Write, 4096, 1 << 20, {}, {}, threads, TargetKind::Directory});
        return e;
    }

    RunResult run(const ExpandedMatrix& e, RunOptions options = {}, std::stop_token stop = {})
    {
        options.sampling = false;
        Runner runner(m_registry, m_workspace, m_probe);
        return runner.run(RunPlan{{}, {}, e}, options, stop, &m_recorder);
    }

    FakeBehaviour m_behaviour;
    FakeBehaviour m_other;
    Registry m_registry;
    FakeWorkspace m_workspace{TargetInfo{.path = "/fake", .device = "fakedev"}};
    FakeProbe m_probe;
    Recorder m_recorder;
};

} // namespace

TEST_F(RunnerTest, RunsWarmupsAndRepetitions)
{
    RunOptions options;
    options.repetitions = 4;
    options.warmups = 2;
    const auto result = run(cases({"fake"}), options);
    ASSERT_EQ(result.cases.size(), 1u);
    const auto& c = result.cases[0];
    EXPECT_EQ(c.status, Status::Ok);
    ASSERT_EQ(c.repetitions.size(), 6u);
    EXPECT_TRUE(c.repetitions[0].warmup);
    EXPECT_TRUE(c.repetitions[1].warmup);
    EXPECT_FALSE(c.repetitions[2].warmup);
    EXPECT_EQ(c.apparentMBps.count, 4u);
    EXPECT_EQ(m_behaviour.executions.load(), 6);
    EXPECT_EQ(m_behaviour.bytesSeen.load(), 6u << 20);
    for (const auto& rep : c.repetitions) {
        EXPECT_EQ(rep.bytes, 1u << 20);
        EXPECT_GE(rep.durableSeconds, rep.returnSeconds);
        EXPECT_TRUE(rep.deviceObserved);
    }
    EXPECT_EQ(m_workspace.durableCalls.size(), 6u);
    EXPECT_TRUE(m_workspace.live().empty());
    EXPECT_TRUE(m_workspace.closed);
    EXPECT_EQ(result.host.hostname, "testhost");
    EXPECT_EQ(result.toolVersion, IOLAB_VERSION); // what the JSON, CSV and PDF report name
}

TEST_F(RunnerTest, ATimeLimitEndsEachRepetitionOkWithWhatItWroteByThen)
{
    m_behaviour.sleepPerWriteMs = 1; // 4 KiB a millisecond: 1 GiB would take three days
    auto e = cases({"fake"}, 2);
    e.cases[0].totalBytes = std::uint64_t{1} << 30;
    e.cases[0].timeLimitMs = 200;
    RunOptions options;
    options.repetitions = 2;
    options.warmups = 0;
    options.verifyFiles = true;
    const auto result = run(e, options);
    const auto& c = result.cases[0];
    EXPECT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_EQ(c.repetitions.size(), 2u);
    for (const auto& rep : c.repetitions) {
        EXPECT_TRUE(rep.outcome.ok()) << rep.outcome.message;
        EXPECT_TRUE(rep.timeLimitReached);
        EXPECT_GT(rep.bytes, 0u);
        EXPECT_LT(rep.bytes, std::uint64_t{1} << 30);
        EXPECT_GE(rep.returnSeconds, 0.2);
        EXPECT_LT(rep.returnSeconds, 1.0);
        EXPECT_TRUE(rep.verified) << "the bytes written by the limit are verified";
    }
    EXPECT_EQ(m_workspace.verifyCalls, 4) << "each thread's file, each repetition";
    EXPECT_EQ(m_workspace.durableCalls.size(), 4u) << "made durable as after a case that ran to its size";
    EXPECT_FALSE(result.cancelled);
}

// Until steady (issue 39, part 1): a flat rate ends the repetition once the window is steady, well before its
// size or time limit; ok, its bytes verified, the steady state recorded, not marked as cut by the limit.
TEST_F(RunnerTest, UntilSteadyEndsARepetitionOnceItsRateIsFlat)
{
    m_behaviour.sleepPerWriteMs = 1; // about 4 MB/s, flat
    // A direct writer: each write is on the disk when it returns, so the watch reads the calls' rate (the
    // fake device's counters never move).
    auto direct = std::make_unique<FakeStrategy>("fake-direct", m_behaviour);
    direct->mutableInfo().needsDirectIo = true;
    m_registry.add(std::move(direct));
    auto e = cases({"fake-direct"});
    e.cases[0].totalBytes = std::uint64_t{1} << 30;
    e.cases[0].timeLimitMs = 20'000;
    e.cases[0].steady = parseSteadyRule("1s");
    RunOptions options;
    options.repetitions = 1;
    options.warmups = 0;
    options.verifyFiles = true;
    const auto result = run(e, options);
    const auto& c = result.cases[0];
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_EQ(c.repetitions.size(), 1u);
    const auto& rep = c.repetitions[0];
    ASSERT_TRUE(rep.steady) << "a flat rate is steady after a ramp and a window (1.25 s)";
    EXPECT_FALSE(rep.timeLimitReached) << "the steady rate ended it, not the limit";
    EXPECT_GE(rep.steady->reachedSeconds, 1.25 - 0.05);
    EXPECT_LT(rep.returnSeconds, 10.0);
    EXPECT_FALSE(rep.steady->deviceRate);
    EXPECT_NEAR(rep.steady->mbps, static_cast<double>(rep.bytes) / rep.returnSeconds / 1e6,
                rep.steady->mbps * 0.3);
    EXPECT_TRUE(rep.verified);
}

// Past a cache: no warm-up, which would fill the cache the measured repetition is to find.
TEST_F(RunnerTest, PastACacheRunsNoWarmup)
{
    auto e = cases({"fake"});
    e.cases[0].steady = parseSteadyRule("past-cache:1s");
    RunOptions options;
    options.repetitions = 2;
    options.warmups = 2;
    for (const bool turns : {false, true}) {
        options.alternate = turns;
        const auto result = run(e, options);
        const auto& c = result.cases[0];
        EXPECT_EQ(c.status, Status::Ok) << c.reason;
        ASSERT_EQ(c.repetitions.size(), 2u) << (turns ? "taking turns" : "in order");
        for (const auto& rep : c.repetitions)
            EXPECT_FALSE(rep.warmup);
    }
}

// Heat (issue 39, part 4): the drive's reading before the case's first repetition and after its last, from
// the target's device.
TEST_F(RunnerTest, TheDrivesHeatIsReadBeforeTheFirstRepetitionAndAfterTheLast)
{
    for (int i = 0; i < 6; ++i) {
        ThermalReading t;
        t.celsius = 40.0 + i;
        t.source = "fake";
        m_probe.thermalReadings.push_back(t);
    }
    RunOptions options;
    options.repetitions = 2;
    options.warmups = 1;
    const auto result = run(cases({"fake"}), options);
    const auto& c = result.cases[0];
    ASSERT_TRUE(c.thermalBefore && c.thermalAfter);
    EXPECT_EQ(c.thermalBefore->celsius, 40.0);
    EXPECT_EQ(c.thermalAfter->celsius, 43.0) << "before, then after each of its three repetitions";
    EXPECT_EQ(m_probe.thermalDevices, std::vector<std::string>(4, "fakedev"));
    // A drive that says nothing leaves both unknown.
    m_probe.thermalReadings.clear();
    const auto silent = run(cases({"fake"}), options);
    EXPECT_FALSE(silent.cases[0].thermalBefore);
    EXPECT_FALSE(silent.cases[0].thermalAfter);
}

TEST_F(RunnerTest, ACaseThatFinishesBeforeItsTimeLimitIsNotMarkedAsCutShort)
{
    auto e = cases({"fake"});
    e.cases[0].timeLimitMs = 60'000;
    RunOptions options;
    options.repetitions = 1;
    options.warmups = 0;
    const auto result = run(e, options);
    ASSERT_EQ(result.cases[0].repetitions.size(), 1u);
    EXPECT_FALSE(result.cases[0].repetitions[0].timeLimitReached);
    EXPECT_EQ(result.cases[0].repetitions[0].bytes, 1u << 20);
    EXPECT_LT(result.cases[0].repetitions[0].returnSeconds, 10.0) << "the deadline's thread does not hold it";
}

TEST_F(RunnerTest, ThreadsEachGetTheirShare)
{
    RunOptions options;
    options.repetitions = 1;
    options.warmups = 0;
    const auto result = run(cases({"fake"}, 4), options);
    EXPECT_EQ(result.cases[0].status, Status::Ok);
    EXPECT_EQ(m_behaviour.executions.load(), 4);
    EXPECT_EQ(m_behaviour.bytesSeen.load(), 1u << 20);
    EXPECT_EQ(m_workspace.durableCalls.size(), 4u);
}

TEST_F(RunnerTest, ObserverSeesEventsInOrder)
{
    RunOptions options;
    options.repetitions = 1;
    options.warmups = 1;
    run(cases({"fake", "other"}), options);
    EXPECT_EQ(m_recorder.events,
              (std::vector<std::string>{"started 0", "rep 0.0", "rep 0.1", "finished 0", "started 1",
                                        "rep 1.0", "rep 1.1", "finished 1", "run finished"}));
}

// Cases that take turns: a round of one repetition of each, the order reversed every other round, each case
// finished after the last round; every case's repetitions are its own, warm-ups first, as in order.
TEST_F(RunnerTest, CasesThatTakeTurnsRunARoundOfEachTheOrderReversedEveryOtherRound)
{
    RunOptions options;
    options.repetitions = 3;
    options.warmups = 1;
    options.alternate = true;
    const auto result = run(cases({"fake", "other", "fake"}), options);
    EXPECT_EQ(m_recorder.events,
              (std::vector<std::string>{"started 0",  "rep 0.0",    "started 1",   "rep 1.0",   "started 2",
                                        "rep 2.0",    "started 2",  "rep 2.1",     "started 1", "rep 1.1",
                                        "started 0",  "rep 0.1",    "started 0",   "rep 0.2",   "started 1",
                                        "rep 1.2",    "started 2",  "rep 2.2",     "started 2", "rep 2.3",
                                        "started 1",  "rep 1.3",    "started 0",   "rep 0.3",   "finished 0",
                                        "finished 1", "finished 2", "run finished"}));
    ASSERT_EQ(result.cases.size(), 3u);
    for (std::uint32_t i = 0; i < 3; ++i) {
        const auto& c = result.cases[i];
        EXPECT_EQ(c.index, i);
        EXPECT_EQ(c.status, Status::Ok) << c.reason;
        ASSERT_EQ(c.repetitions.size(), 4u);
        for (std::uint32_t r = 0; r < 4; ++r) {
            EXPECT_EQ(c.repetitions[r].index, r);
            EXPECT_EQ(c.repetitions[r].warmup, r == 0);
        }
        EXPECT_EQ(c.apparentMBps.count, 3u);
        EXPECT_GT(c.wallSeconds, 0.0);
    }
    EXPECT_EQ(m_behaviour.executions.load(), 8);
    EXPECT_EQ(m_other.executions.load(), 4);
    EXPECT_TRUE(result.options.alternate) << "the result says how its cases ran";
    EXPECT_TRUE(m_workspace.live().empty());
    EXPECT_TRUE(m_workspace.closed);
}

// A case whose repetition fails leaves the rounds; the others run theirs to the end. A case refused when its
// turn would come is settled before the first round.
TEST_F(RunnerTest, CasesThatTakeTurnsGoOnWithoutOneThatFailedOrWasRefused)
{
    m_behaviour.failOnRepetition = 1;
    m_workspace.free = 100 << 20;
    ExpandedMatrix e = cases({"fake", "other", "other"});
    e.cases[2].totalBytes = 200 << 20;
    RunOptions options;
    options.repetitions = 2;
    options.warmups = 1;
    options.alternate = true;
    const auto result = run(e, options);
    EXPECT_EQ(m_recorder.events,
              (std::vector<std::string>{"started 2", "finished 2", "started 0", "rep 0.0", "started 1",
                                        "rep 1.0", "started 1", "rep 1.1", "started 0", "rep 0.1",
                                        "started 1", "rep 1.2", "finished 0", "finished 1", "run finished"}));
    EXPECT_EQ(result.cases[0].status, Status::Failed);
    EXPECT_EQ(result.cases[0].reason, "fake failure");
    EXPECT_EQ(result.cases[0].repetitions.size(), 2u);
    EXPECT_EQ(result.cases[1].status, Status::Ok);
    EXPECT_EQ(result.cases[1].repetitions.size(), 3u);
    EXPECT_EQ(result.cases[2].status, Status::Refused);
    EXPECT_THAT(result.cases[2].reason, HasSubstr("free space"));
    EXPECT_TRUE(m_workspace.live().empty());
}

// Cases that take turns are made ready readers first: their data sets stay until the last round, so a
// writer's free space is checked with them on the target. Each refused case is settled at once, past its
// turns.
TEST_F(RunnerTest, CasesThatTakeTurnsAreMadeReadyReadersFirst)
{
    auto reader = std::make_unique<FakeStrategy>("reader", m_other);
    reader->mutableInfo().layout = DataLayout::FilePerThread;
    m_registry.add(std::move(reader));
    m_workspace.free = 100 << 20;
    ExpandedMatrix e = cases({"fake", "reader"});
    e.cases[0].totalBytes = 200 << 20; // the writer does not fit
    e.cases[1].direction = Direction::Read;
    e.cases[1].totalBytes = 200 << 20; // nor does the reader's data set
    RunOptions options;
    options.alternate = true;
    const auto result = run(e, options);
    EXPECT_EQ(m_recorder.events, (std::vector<std::string>{"started 1", "finished 1", "started 0",
                                                           "finished 0", "run finished"}));
    EXPECT_EQ(result.cases[0].status, Status::Refused);
    EXPECT_EQ(result.cases[1].status, Status::Refused);
    EXPECT_THAT(result.cases[1].reason, HasSubstr("data set"));
}

// Stopped in the first round: the case running is cancelled by its repetition, the one that ran before it is
// cut short (saying how many of its repetitions ran), the one after it never started.
TEST_F(RunnerTest, CancellingCasesThatTakeTurnsSaysWhatEachRan)
{
    m_other.waitForStop = true;
    std::stop_source stop;
    std::jthread canceller([&] {
        while (m_other.executions.load() == 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        stop.request_stop();
    });
    RunOptions options;
    options.alternate = true;
    const auto result = run(cases({"fake", "other", "fake"}), options, stop.get_token());
    EXPECT_TRUE(result.cancelled);
    ASSERT_EQ(result.cases.size(), 3u);
    EXPECT_EQ(result.cases[0].status, Status::Cancelled);
    EXPECT_THAT(result.cases[0].reason, HasSubstr("after 1 of its 4 repetitions"));
    EXPECT_EQ(result.cases[0].repetitions.size(), 1u);
    EXPECT_EQ(result.cases[1].status, Status::Cancelled);
    EXPECT_EQ(result.cases[2].status, Status::Cancelled);
    EXPECT_THAT(result.cases[2].reason, HasSubstr("not run"));
    EXPECT_TRUE(result.cases[2].repetitions.empty());
    EXPECT_EQ(m_behaviour.executions.load(), 1) << "the third case never ran";
    EXPECT_EQ(casesRunToEnd(result), 0u);
    EXPECT_TRUE(m_workspace.live().empty());
    EXPECT_TRUE(m_workspace.closed);
}

TEST_F(RunnerTest, AFailingCaseDoesNotStopTheRun)
{
    m_behaviour.failOnRepetition = 1;
    m_behaviour.failErrno = 1; // EPERM
    const auto result = run(cases({"fake", "other"}));
    ASSERT_EQ(result.cases.size(), 2u);
    EXPECT_EQ(result.cases[0].status, Status::Failed);
    EXPECT_EQ(result.cases[0].reason, "fake failure");
    EXPECT_EQ(result.cases[0].repetitions.size(), 2u); // warm-up ok, first measured failed, no more
    EXPECT_EQ(result.cases[0].repetitions[1].outcome.errorCode, 1);
    EXPECT_EQ(result.cases[1].status, Status::Ok);
    EXPECT_FALSE(allCasesOk(result));
    EXPECT_TRUE(m_workspace.live().empty());
}

TEST_F(RunnerTest, CancelStopsTheRunningCaseAndSkipsTheRest)
{
    m_behaviour.waitForStop = true;
    std::stop_source stop;
    std::jthread canceller([&] {
        while (m_behaviour.executions.load() == 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        stop.request_stop();
    });
    const auto result = run(cases({"fake", "other"}), {}, stop.get_token());
    EXPECT_TRUE(result.cancelled);
    EXPECT_EQ(result.cases[0].status, Status::Cancelled);
    EXPECT_EQ(result.cases[1].status, Status::Cancelled);
    EXPECT_THAT(result.cases[1].reason, HasSubstr("not run"));
    EXPECT_EQ(m_other.executions.load(), 0);
    EXPECT_TRUE(m_workspace.live().empty());
    EXPECT_TRUE(m_workspace.closed);
}

TEST_F(RunnerTest, RefusesACaseThatDoesNotFit)
{
    m_workspace.free = 100 << 20;
    ExpandedMatrix e = cases({"fake", "other"});
    e.cases[0].totalBytes = 200 << 20;
    const auto result = run(e);
    EXPECT_EQ(result.cases[0].status, Status::Refused);
    EXPECT_THAT(result.cases[0].reason, HasSubstr("free space"));
    EXPECT_EQ(result.cases[1].status, Status::Ok);
    EXPECT_EQ(m_behaviour.executions.load(), 0);
}

TEST_F(RunnerTest, SamplerDeliversSamplesAndStability)
{
    m_behaviour.sleepPerWriteMs = 2;
    RunOptions options;
    options.repetitions = 1;
    options.warmups = 0;
    options.sampling = true;
    options.sampleIntervalMs = 5;
    ExpandedMatrix e = cases({"fake"});
    e.cases[0].totalBytes = 40 << 20; // 40 writes of 2 ms: 80 ms, sampled every 5 ms
    e.cases[0].chunkBytes = 1 << 20;
    Runner runner(m_registry, m_workspace, m_probe);
    const auto result = runner.run(RunPlan{{}, {}, e}, options, {}, &m_recorder);
    EXPECT_EQ(result.cases[0].status, Status::Ok);
    EXPECT_GE(result.cases[0].samples.size(), 2u);
    EXPECT_EQ(static_cast<std::size_t>(m_recorder.samples.load()), result.cases[0].samples.size());
    EXPECT_GT(result.cases[0].samples.back().bytesDone, 0u);
    for (const auto& s : result.cases[0].samples) {
        EXPECT_EQ(s.caseIndex, 0u);
        EXPECT_EQ(s.repetition, 0);
        EXPECT_FALSE(s.warmup);
        EXPECT_EQ(s.rssBytes, 10u << 20);
    }
}

// Cases that take turns: the sampler's one stream is told apart by case, each case keeping its own samples of
// each of its repetitions.
TEST_F(RunnerTest, CasesThatTakeTurnsEachKeepTheirOwnSamples)
{
    m_behaviour.sleepPerWriteMs = 2;
    m_other.sleepPerWriteMs = 2;
    RunOptions options;
    options.repetitions = 2;
    options.warmups = 0;
    options.sampling = true;
    options.sampleIntervalMs = 5;
    options.alternate = true;
    ExpandedMatrix e = cases({"fake", "other"});
    for (auto& c : e.cases) {
        c.totalBytes = 20 << 20; // 20 writes of 2 ms: 40 ms, sampled every 5 ms
        c.chunkBytes = 1 << 20;
    }
    Runner runner(m_registry, m_workspace, m_probe);
    const auto result = runner.run(RunPlan{{}, {}, e}, options, {}, &m_recorder);
    std::size_t kept = 0;
    for (std::uint32_t i = 0; i < 2; ++i) {
        const auto& c = result.cases[i];
        EXPECT_EQ(c.status, Status::Ok) << c.reason;
        std::set<std::int32_t> repetitions;
        for (const auto& s : c.samples) {
            EXPECT_EQ(s.caseIndex, i);
            repetitions.insert(s.repetition);
        }
        EXPECT_EQ(repetitions, (std::set<std::int32_t>{0, 1})) << "case " << i;
        kept += c.samples.size();
    }
    EXPECT_EQ(static_cast<std::size_t>(m_recorder.samples.load()), kept) << "every sample kept, once";
}

TEST(SummarizeCase, UsesMeasuredRepetitionsAndWritePhaseSamplesOnly)
{
    CaseResult c;
    auto rep = [](std::uint32_t index, bool warmup, double mbps, bool ok) {
        RepetitionResult r;
        r.index = index;
        r.warmup = warmup;
        r.apparentMBps = mbps;
        r.durableMBps = mbps / 2;
        r.bytes = 1ULL << 30;
        r.cpuUserSeconds = 0.5;
        r.cpuSystemSeconds = 0.25;
        r.peakRssBytes = 100 + index;
        if (!ok)
            r.outcome = {Status::Failed, 5, "write", "EIO"};
        return r;
    };
    c.repetitions = {rep(0, true, 1000, true), rep(1, false, 100, true), rep(2, false, 200, true),
                     rep(3, false, 300, true), rep(4, false, 9999, false)};
    auto sample = [](bool warmup, bool syncing, double mbps) {
        Sample s;
        s.warmup = warmup;
        s.syncing = syncing;
        s.intervalMBps = mbps;
        return s;
    };
    // Write-phase samples of measured repetitions: 10, 20, 30 -> sample stddev 10.
    c.samples = {sample(true, false, 5000), sample(false, false, 10), sample(false, false, 20),
                 sample(false, true, 0), sample(false, false, 30)};
    summarizeCase(c);
    EXPECT_EQ(c.apparentMBps.count, 3u);
    EXPECT_DOUBLE_EQ(c.apparentMBps.median, 200.0);
    EXPECT_DOUBLE_EQ(c.durableMBps.mean, 100.0);
    EXPECT_DOUBLE_EQ(c.cpuSecondsPerGiB, 0.75);
    EXPECT_EQ(c.peakRssBytes, 104u);
    EXPECT_DOUBLE_EQ(c.stabilityMBps, 10.0);
}

// Issue 14: file writes record the page-cache evidence the O_DIRECT finding is judged on; pipe writes and
// an OS that cannot tell leave it unknown.
TEST_F(RunnerTest, FileWritesRecordPageCacheEvidence)
{
    m_workspace.cached = 4096;
    m_probe.backlog = MemoryCounters{3 << 20, 1 << 20};
    auto result = run(cases({"fake"}));
    ASSERT_EQ(result.cases.size(), 1u);
    for (const auto& rep : result.cases[0].repetitions) {
        EXPECT_EQ(rep.cachedAfterBytes, std::optional<std::uint64_t>(4096));
        EXPECT_EQ(rep.dirtyBeforeBytes, std::optional<std::uint64_t>(4 << 20)) << "Dirty + Writeback";
        EXPECT_EQ(rep.dirtyAfterBytes, std::optional<std::uint64_t>(4 << 20));
    }

    m_workspace.cached = std::nullopt;
    m_probe.backlog = std::nullopt;
    result = run(cases({"fake"}));
    for (const auto& rep : result.cases[0].repetitions) {
        EXPECT_FALSE(rep.cachedAfterBytes.has_value());
        EXPECT_FALSE(rep.dirtyBeforeBytes.has_value());
    }
}
