// SPDX-License-Identifier: MIT
// A latency target (issue 39, part 2), as fio's latency_target: the most load whose chosen percentile of the
// call latency stays under a target, per series of queued cases that differ only in their queue depth.
#include "core/analysis/latency_target.h"
#include "core/analysis/verdict.h"
#include "core/base/error.h"
#include "core/formats/matrix_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace iolab {
namespace {

using ::testing::HasSubstr;

TEST(LatencyTarget, SpellingsReadBackAndBadOnesAreRefused)
{
    EXPECT_EQ(parseLatencyTarget("1ms@p99"), (LatencyTarget{0.001, 99}));
    EXPECT_EQ(parseLatencyTarget("500us@p99.9"), (LatencyTarget{0.0005, 99.9}));
    EXPECT_EQ(parseLatencyTarget("2ms"), (LatencyTarget{0.002, 99}));
    EXPECT_EQ(parseLatencyTarget("0.5s@p50"), (LatencyTarget{0.5, 50}));
    for (const char* text : {"1ms@p99", "500us@p99.9", "2ms@p99.99", "250us@p50"})
        EXPECT_EQ(toString(parseLatencyTarget(text)), text);
    for (const char* bad : {"", "1", "1xs", "-1ms", "1ms@99", "1ms@p98", "1ms@p", "fast"})
        EXPECT_THROW((void)parseLatencyTarget(bad), InputError) << bad;
}

TEST(LatencyTarget, AMatrixFileKeepsIt)
{
    Matrix m;
    m.name = "m";
    MatrixGroup g;
    g.strategies = {"write"};
    g.chunks = {4096};
    g.sizes = {1 << 20};
    m.groups = {g};
    m.latencyTarget = LatencyTarget{0.001, 99.9};
    const Matrix back = parseMatrixJson(matrixToJson(m).dump(), "m.json");
    EXPECT_EQ(back.latencyTarget, m.latencyTarget);
    EXPECT_THROW((void)parseMatrixJson(R"({"latencyTarget": "soon", "groups": []})", "m.json"), InputError);
    EXPECT_THROW((void)parseMatrixJson(R"({"latencyTarget": 1, "groups": []})", "m.json"), InputError);
}

// 4 KiB random direct writes at QD 1 to 32, the p99 growing with the depth as a device's queue fills.
RunResult sweep()
{
    RunResult run;
    const std::vector<std::pair<std::uint32_t, std::pair<double, double>>> points{
        {1, {9'000, 0.00015}}, {2, {17'000, 0.0002}},   {4, {26'000, 0.0004}},
        {8, {33'000, 0.0006}}, {16, {38'000, 0.00095}}, {32, {41'000, 0.0023}}};
    for (const auto& [qd, figures] : points) {
        CaseResult c;
        c.index = static_cast<std::uint32_t>(run.cases.size());
        c.status = Status::Ok;
        c.testCase.strategy = "uring-random-write-direct";
        c.testCase.chunkBytes = 4096;
        c.testCase.totalBytes = 256ULL << 20;
        c.testCase.queueDepth = qd;
        const double mbps = figures.first * 4096 / 1e6;
        c.apparentMBps.count = c.durableMBps.count = 3;
        c.apparentMBps.median = c.durableMBps.median = mbps;
        LatencyDistribution d;
        d.summary.count = 10'000;
        d.summary.p50Ns = static_cast<std::uint64_t>(figures.second * 0.3e9);
        d.summary.p99Ns = static_cast<std::uint64_t>(figures.second * 1e9);
        d.summary.p999Ns = static_cast<std::uint64_t>(figures.second * 2e9);
        c.callLatency = d;
        run.cases.push_back(c);
    }
    return run;
}

TEST(LatencyTarget, TheMostLoadUnderTheTargetAndWhatTheNextDepthCosts)
{
    const auto answers = latencyTargetAnswers(sweep(), parseLatencyTarget("1ms@p99"));
    ASSERT_EQ(answers.size(), 1U);
    const auto& a = answers.front();
    ASSERT_TRUE(a.best && a.next);
    EXPECT_EQ(a.best->queueDepth, 16U);
    EXPECT_EQ(a.next->queueDepth, 32U);
    EXPECT_EQ(a.text, "Latency target, `uring-random-write-direct` with 4 KiB chunks: up to 38,000 IOPS "
                      "(155.6 MB/s) at QD 16 keep p99 under 1 ms (950 us); QD 32 gives 41,000 at 2.3 ms.");
    // A stricter percentile moves the answer down the queue.
    const auto strict = latencyTargetAnswers(sweep(), parseLatencyTarget("1ms@p99.9"));
    EXPECT_EQ(strict.front().best->queueDepth, 4U);
}

TEST(LatencyTarget, NoneOrEveryDepthUnderTheTarget)
{
    const auto none = latencyTargetAnswers(sweep(), parseLatencyTarget("100us@p99"));
    ASSERT_EQ(none.size(), 1U);
    EXPECT_FALSE(none.front().best);
    EXPECT_THAT(none.front().text,
                HasSubstr("no depth measured keeps p99 under 100 us; the lowest, 150 us at "
                          "QD 1 (9,000 IOPS), is already over it"));
    const auto every = latencyTargetAnswers(sweep(), parseLatencyTarget("10ms@p99"));
    EXPECT_THAT(every.front().text, HasSubstr("every depth measured keeps p99 under 10 ms; the most, 41,000 "
                                              "IOPS (167.9 MB/s) at QD 32 (2.3 ms)"));
    EXPECT_THAT(every.front().text, HasSubstr("a deeper queue may give more"));
    // One depth is no sweep; an untimed case has nothing to judge.
    RunResult one = sweep();
    one.cases.resize(1);
    EXPECT_TRUE(latencyTargetAnswers(one, parseLatencyTarget("1ms")).empty());
}

TEST(LatencyTarget, TheVerdictAnswersItFirst)
{
    RunResult run = sweep();
    run.matrix.latencyTarget = parseLatencyTarget("1ms@p99");
    const Verdict v = verdict(run, nullptr);
    ASSERT_FALSE(v.answers.empty());
    EXPECT_THAT(v.answers.front(), HasSubstr("up to 38,000 IOPS"));
}

} // namespace
} // namespace iolab
