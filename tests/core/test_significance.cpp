// SPDX-License-Identifier: MIT
// No winner inside the noise (issue 34): the test every "fastest", speed-up, History comparison and two-case
// finding follows, and its must-not-fire and must-fire cases.
#include "core/analysis/findings.h"
#include "core/analysis/significance.h"
#include "core/analysis/verdict.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace iolab {
namespace {

// Two-sided p of Student's t against values integrated numerically outside IOLab (Simpson's rule over the t
// density, 200,000 steps, in Python): the published 95% points give 0.05.
TEST(Significance, StudentsTwoSidedPMatchesTheTablesAndAnIndependentIntegration)
{
    EXPECT_NEAR(studentTwoSidedP(2.776, 4), 0.050023, 1e-5);
    EXPECT_NEAR(studentTwoSidedP(12.706, 1), 0.050001, 1e-5);
    EXPECT_NEAR(studentTwoSidedP(2.228, 10), 0.050012, 1e-5);
    EXPECT_NEAR(studentTwoSidedP(-1.0, 3.5), 0.381337, 1e-5); // a fractional Welch df
    EXPECT_DOUBLE_EQ(studentTwoSidedP(0, 7), 1.0);
}

// Welch by hand: {10, 11, 12} against {13, 14, 15}: means 11 and 14, variances 1, squared standard error
// 1/3 + 1/3, t = -3 / sqrt(2/3) = -3.674, df = (2/3)^2 / (2 (1/3)^2 / 2) = 4, p = 0.02131 (integrated as
// above).
TEST(Significance, WelchByHand)
{
    const std::vector<double> a{10, 11, 12};
    const std::vector<double> b{13, 14, 15};
    const RateTest t = yuenWelch(a, b);
    ASSERT_TRUE(t.testable);
    EXPECT_NEAR(t.t, -3.674235, 1e-5);
    EXPECT_NEAR(t.df, 4.0, 1e-9);
    EXPECT_NEAR(t.p, 0.021312, 1e-5);
    EXPECT_TRUE(t.significant());
}

// Yuen by hand, five repetitions with one slowed by a hiccup: {100, 101, 102, 103, 200} against
// {110, ..., 114}. Trimmed means 102 and 112; winsorized variances 1 and 1; d = 4 * 1 / (3 * 2) = 2/3 each;
// t = -10 / sqrt(4/3) = -8.660, df = 4, p = 0.000978. Plain Welch over the raw values would be swayed by the
// 200.
TEST(Significance, YuenTrimsOneHiccupFromFiveRepetitions)
{
    const std::vector<double> a{100, 101, 200, 102, 103};
    const std::vector<double> b{114, 110, 111, 112, 113};
    const RateTest t = yuenWelch(a, b);
    ASSERT_TRUE(t.testable);
    EXPECT_NEAR(t.t, -8.660254, 1e-5);
    EXPECT_NEAR(t.df, 4.0, 1e-9);
    EXPECT_NEAR(t.p, 0.000978, 1e-5);
}

TEST(Significance, ASingleRepetitionIsUntestableAndIdenticalOnesAreEqual)
{
    EXPECT_FALSE(yuenWelch(std::vector<double>{5}, std::vector<double>{1, 2, 3}).testable);
    EXPECT_EQ(compareRates(std::vector<double>{500}, std::vector<double>{100}).kind,
              RateDifference::Kind::Untestable);
    const RateTest same = yuenWelch(std::vector<double>{7, 7, 7}, std::vector<double>{7, 7, 7});
    EXPECT_TRUE(same.testable);
    EXPECT_FALSE(same.significant());
    // No spread at all and different values: the difference is all there is.
    EXPECT_TRUE(yuenWelch(std::vector<double>{8, 8, 8}, std::vector<double>{7, 7, 7}).significant());
}

// Must not fire: the same repetitions in another order are never different, and two cases drawn from one
// distribution are called different at most as often as the 5% level allows (2,000 seeded pairs of five
// repetitions at a 10% spread; expected about 100).
TEST(Significance, NeverRanksTwoDrawsOfOneDistribution)
{
    const std::vector<double> a{980, 1010, 1150, 870, 1020};
    const std::vector<double> b{1150, 870, 1020, 980, 1010};
    EXPECT_EQ(compareRates(a, b).kind, RateDifference::Kind::Indistinguishable);

    std::mt19937_64 random(20261127);
    std::normal_distribution<double> rate(1000, 100);
    int called = 0;
    constexpr int kPairs = 2000;
    for (int i = 0; i < kPairs; ++i) {
        std::vector<double> x(5);
        std::vector<double> y(5);
        for (auto& v : x)
            v = rate(random);
        for (auto& v : y)
            v = rate(random);
        called += compareRates(x, y).holds() ? 1 : 0;
    }
    EXPECT_LE(called, kPairs * 6 / 100) << called << " of " << kPairs;
    EXPECT_GE(called, kPairs * 2 / 100) << "a test that never fires is no test: " << called;
}

// Must fire: a 1.5x gap with tight repetitions (3 of them, 2% spread) is always told apart.
TEST(Significance, AlwaysRanksAOneAndAHalfTimesGapWithTightRepetitions)
{
    std::mt19937_64 random(7);
    std::normal_distribution<double> slow(1000, 20);
    std::normal_distribution<double> fast(1500, 30);
    for (int i = 0; i < 500; ++i) {
        std::vector<double> x(3);
        std::vector<double> y(3);
        for (auto& v : x)
            v = fast(random);
        for (auto& v : y)
            v = slow(random);
        const RateDifference d = compareRates(x, y);
        ASSERT_EQ(d.kind, RateDifference::Kind::Faster) << "draw " << i << ", " << describeTest(d.test);
    }
}

// A result of file writes whose durable rates are the given repetitions.
CaseResult fileWrite(std::uint32_t index, std::string strategy, const std::vector<double>& durable)
{
    CaseResult c;
    c.index = index;
    c.testCase.strategy = std::move(strategy);
    c.testCase.chunkBytes = 64 * 1024;
    c.testCase.totalBytes = 1ULL << 30;
    if (c.testCase.strategy == "stdio")
        c.testCase.buffer = {BufferMode::Default, 0};
    std::vector<double> apparent;
    for (std::size_t i = 0; i < durable.size(); ++i) {
        RepetitionResult r;
        r.index = static_cast<std::uint32_t>(i + 1);
        r.bytes = c.testCase.totalBytes;
        r.durableMBps = durable[i];
        r.apparentMBps = durable[i] * 1.3;
        r.returnSeconds = static_cast<double>(r.bytes) / (r.apparentMBps * 1e6);
        r.durableSeconds = static_cast<double>(r.bytes) / (r.durableMBps * 1e6);
        apparent.push_back(r.apparentMBps);
        c.repetitions.push_back(r);
    }
    c.durableMBps = summarize(durable);
    c.apparentMBps = summarize(apparent);
    return c;
}

// The quick run: `write` at 1.22 GB/s and plain `stdio` at 1.02 GB/s, both noisy (CV about 10% and
// 12%), their CIs overlapping. The Summary must not call either fastest nor quote the 1.2x as a fact.
TEST(Significance, TheSummaryNamesNoWinnerInsideTheNoise)
{
    RunResult result;
    result.options.repetitions = 5;
    result.cases.push_back(fileWrite(0, "stdio", {1020, 880, 1180, 930, 1090}));
    result.cases.push_back(fileWrite(1, "write", {1220, 1050, 1400, 1130, 1310}));
    const Verdict v = verdict(result, nullptr);
    ASSERT_FALSE(v.answers.empty());
    const std::string& answer = v.answers.front();
    EXPECT_EQ(answer.find("` is fastest"), std::string::npos) << answer;
    EXPECT_NE(answer.find("no way is fastest beyond the noise"), std::string::npos) << answer;
    EXPECT_NE(answer.find("`write`"), std::string::npos) << answer;
    EXPECT_NE(answer.find("`stdio`"), std::string::npos) << answer;
    EXPECT_NE(answer.find("would separate them"), std::string::npos) << answer;
}

TEST(Significance, TheSummaryNamesAWinnerThatHolds)
{
    RunResult result;
    result.options.repetitions = 3;
    result.cases.push_back(fileWrite(0, "stdio", {1000, 1010, 990}));
    result.cases.push_back(fileWrite(1, "write", {1500, 1520, 1490}));
    const Verdict v = verdict(result, nullptr);
    ASSERT_FALSE(v.answers.empty());
    const std::string& answer = v.answers.front();
    EXPECT_NE(answer.find("`write` is fastest"), std::string::npos) << answer;
    EXPECT_NE(answer.find("1.5x plain `stdio`"), std::string::npos) << answer;
}

// One repetition each: the order is said as measured, never as a finding.
TEST(Significance, OneRepetitionEachIsAMeasurementNotAFinding)
{
    RunResult result;
    result.options.repetitions = 1;
    result.cases.push_back(fileWrite(0, "stdio", {1000}));
    result.cases.push_back(fileWrite(1, "write", {1400}));
    const Verdict v = verdict(result, nullptr);
    ASSERT_FALSE(v.answers.empty());
    const std::string& answer = v.answers.front();
    EXPECT_EQ(answer.find("` is fastest"), std::string::npos) << answer;
    EXPECT_NE(answer.find("measured highest"), std::string::npos) << answer;
    EXPECT_NE(answer.find("one repetition each"), std::string::npos) << answer;
}

// "`stdio` with a 1 MiB buffer is fastest... it is plain `stdio` itself" was false: plain stdio has the
// default buffer. A stand-in baseline is named as what it is.
TEST(Significance, AStandInBaselineIsNotCalledPlain)
{
    RunResult result;
    result.options.repetitions = 3;
    CaseResult big = fileWrite(0, "stdio", {1500, 1510, 1490});
    big.testCase.buffer = {BufferMode::Bytes, 1024 * 1024};
    result.cases.push_back(big);
    result.cases.push_back(fileWrite(1, "write", {1000, 1010, 990}));
    const Verdict v = verdict(result, nullptr);
    ASSERT_FALSE(v.answers.empty());
    const std::string& answer = v.answers.front();
    EXPECT_EQ(answer.find("it is plain `stdio` itself"), std::string::npos) << answer;
    EXPECT_NE(answer.find("standing in for plain `stdio`, which did not run"), std::string::npos) << answer;
}

// Two cases 2% apart with a 10% spread: it would take hundreds of repetitions to tell them apart, which is no
// advice to give; the text says how many it would take instead, and offers only what can help.
TEST(Significance, NoImpracticalRepetitionCountIsOfferedAsAWay)
{
    const CaseResult a = fileWrite(0, "write", {1000, 900, 1100});
    const CaseResult b = fileWrite(1, "pwrite", {1020, 920, 1120});
    const std::string ways = whatWouldSeparate(a, b, Ranking::Durable);
    EXPECT_EQ(ways.find("--reps"), std::string::npos) << ways;
    EXPECT_NE(ways.find("a quieter machine"), std::string::npos) << ways;
    // About 409 each: no count that high helps anyone; what lowers the spread does.
    EXPECT_EQ(ways.find("would take about"), std::string::npos) << ways;
    EXPECT_NE(ways.find("more repetitions will not settle it"), std::string::npos) << ways;
    EXPECT_NE(ways.find("a longer case (--size or --duration)"), std::string::npos) << ways;

    // 5% apart at a 10% spread: about 63 each, past a practical count but still a figure worth giving.
    const CaseResult e = fileWrite(4, "write", {1000, 900, 1100});
    const CaseResult f = fileWrite(5, "pwrite", {1052, 947, 1157});
    const std::string some = whatWouldSeparate(e, f, Ranking::Durable);
    EXPECT_NE(some.find("would separate them; more repetitions alone would take about 6"), std::string::npos)
        << some;

    // 10% apart at a 5% spread: a handful more repetitions is the way, with the flag to ask for them.
    const CaseResult c = fileWrite(2, "write", {1000, 950, 1050});
    const CaseResult d = fileWrite(3, "pwrite", {1100, 1045, 1155});
    const std::string more = whatWouldSeparate(c, d, Ranking::Durable);
    EXPECT_NE(more.find("more repetitions (about "), std::string::npos) << more;
    EXPECT_NE(more.find("--reps "), std::string::npos) << more;
    EXPECT_EQ(more.find("alone"), std::string::npos) << more;
}

// A pipe pair that repetitions will never separate (r3: "about 395157 each"): the reader pinned is a way too.
TEST(Significance, AnAbsurdRepetitionCountIsNeverQuoted)
{
    CaseResult a = fileWrite(0, "vmsplice", {7000, 6400, 7600});
    CaseResult b = fileWrite(1, "vmsplice", {7010, 6410, 7610});
    a.testCase.target = b.testCase.target = TargetKind::Pipe;
    const std::string ways = whatWouldSeparate(a, b, Ranking::Durable);
    EXPECT_EQ(ways.find("would take about"), std::string::npos) << ways;
    EXPECT_EQ(ways.find("millions"), std::string::npos) << ways;
    EXPECT_NE(ways.find("more repetitions will not settle it"), std::string::npos) << ways;
    EXPECT_NE(ways.find("the reader pinned (--reader-cpu)"), std::string::npos) << ways;
    b.testCase.readerCpu = a.testCase.readerCpu = ReaderCpu::Other;
    EXPECT_EQ(whatWouldSeparate(a, b, Ranking::Durable).find("--reader-cpu"), std::string::npos)
        << "already pinned";
}

// r3: one case whose interval reached zero (CV 56%) tied everything to itself, 920 MB/s and 7.13 GB/s "cannot
// be told apart". It is set aside and named as too noisy to rank; the rest are ranked among themselves.
TEST(Significance, ACaseTooNoisyToRankIsSetAsideNotTiedToEverything)
{
    RunResult result;
    result.options.repetitions = 3;
    result.cases.push_back(fileWrite(0, "stdio", {920, 870, 990}));
    result.cases.push_back(fileWrite(1, "write", {7130, 6900, 7400}));
    result.cases.push_back(fileWrite(2, "pwrite", {7160, 2500, 12000}));
    result.cases.push_back(fileWrite(3, "direct", {2035, 2010, 2060}));
    EXPECT_TRUE(tooNoisyToRank(result.cases[2], Ranking::Durable));
    EXPECT_FALSE(tooNoisyToRank(result.cases[0], Ranking::Durable));
    const Lead lead = leadOf(result, {0, 1, 2, 3}, Ranking::Durable);
    EXPECT_EQ(lead.top, 1u);
    EXPECT_TRUE(lead.tied.empty());
    ASSERT_EQ(lead.tooNoisy.size(), 1u);
    EXPECT_EQ(lead.tooNoisy.front(), 2u);
    const Verdict v = verdict(result, nullptr);
    ASSERT_FALSE(v.answers.empty());
    const std::string& answer = v.answers.front();
    EXPECT_NE(answer.find("`write` is fastest"), std::string::npos) << answer;
    EXPECT_EQ(answer.find("cannot be told apart"), std::string::npos) << answer;
    EXPECT_NE(answer.find("Too noisy to rank, so set aside: `pwrite`"), std::string::npos) << answer;
    // The findings say the same.
    const auto found = findings(result, nullptr);
    const auto fastest = std::find_if(found.begin(), found.end(),
                                      [](const Finding& f) { return f.kind == Finding::Kind::Fastest; });
    ASSERT_NE(fastest, found.end());
    EXPECT_EQ(fastest->text.find("cannot be told apart"), std::string::npos) << fastest->text;
    EXPECT_NE(fastest->text.find("Too noisy to rank, so set aside"), std::string::npos) << fastest->text;
    // The set-aside case measured higher (7.16 against 7.13 GB/s): the top leads only the steady ones, and
    // neither text calls it the fastest outright.
    EXPECT_TRUE(lead.noisierMeasuredHigher);
    EXPECT_NE(answer.find("of the cases steady enough to rank, `write` is fastest"), std::string::npos)
        << answer;
    EXPECT_NE(fastest->text.find("the fastest write to a file steady enough to rank is"), std::string::npos)
        << fastest->text;
    // The control: set aside below the top, the top is the fastest, said plainly.
    result.cases[2] = fileWrite(2, "pwrite", {3000, 1000, 6000});
    ASSERT_TRUE(tooNoisyToRank(result.cases[2], Ranking::Durable));
    EXPECT_FALSE(leadOf(result, {0, 1, 2, 3}, Ranking::Durable).noisierMeasuredHigher);
    const std::string plainAnswer = verdict(result, nullptr).answers.front();
    EXPECT_EQ(plainAnswer.find("steady enough"), std::string::npos) << plainAnswer;
    EXPECT_NE(plainAnswer.find("`write` is fastest"), std::string::npos) << plainAnswer;
}

// Two cases clearly apart are never "indistinguishable" through a third whose spread covers both: the top is
// within the noise of each, but the second beats the third beyond it, so the third is out of the lead.
TEST(Significance, CasesClearlyApartAreNeverTiedThroughAThird)
{
    RunResult result;
    result.options.repetitions = 3;
    result.cases.push_back(fileWrite(0, "write", {1000, 1250, 800}));
    result.cases.push_back(fileWrite(1, "pwrite", {950, 955, 945}));
    result.cases.push_back(fileWrite(2, "direct", {700, 705, 695}));
    ASSERT_FALSE(tooNoisyToRank(result.cases[0], Ranking::Durable));
    ASSERT_FALSE(compareCases(result.cases[0], result.cases[2], Ranking::Durable).holds());
    ASSERT_TRUE(compareCases(result.cases[1], result.cases[2], Ranking::Durable).holds());
    const Lead lead = leadOf(result, {0, 1, 2}, Ranking::Durable);
    EXPECT_EQ(lead.top, 0u);
    EXPECT_EQ(lead.tied, std::vector<std::size_t>{1});
    const Verdict v = verdict(result, nullptr);
    ASSERT_FALSE(v.answers.empty());
    EXPECT_EQ(v.answers.front().find("`direct`"), std::string::npos) << v.answers.front();
}

} // namespace
} // namespace iolab
