// SPDX-License-Identifier: MIT
#include "core/analysis/warnings.h"

#include "core/base/stats.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

namespace {

CaseResult caseWith(double apparentMedian, double cv, double durableMedian, double seconds)
{
    CaseResult c;
    c.testCase.target = TargetKind::Directory;
    c.apparentMBps.count = 3;
    c.apparentMBps.median = apparentMedian;
    c.apparentMBps.cv = cv;
    c.durableMBps.count = 3;
    c.durableMBps.median = durableMedian;
    c.durableMBps.cv = cv;
    for (std::uint32_t i = 0; i < 4; ++i) {
        RepetitionResult r;
        r.index = i;
        r.warmup = i == 0;
        r.returnSeconds = i == 0 ? 0.001 : seconds; // a short warm-up does not count
        r.durableSeconds = r.returnSeconds;
        c.repetitions.push_back(r);
    }
    return c;
}

} // namespace

TEST(Warnings, QuietCaseHasNone)
{
    EXPECT_THAT(caseWarnings(caseWith(500, 0.01, 450, 1.0)), IsEmpty());
}

TEST(Warnings, NoiseShortRunsAndDurableGapAreNamedWithNumbers)
{
    const auto w = caseWarnings(caseWith(2100, 0.239, 310, 0.05));
    ASSERT_THAT(w, SizeIs(3));
    EXPECT_THAT(w[0], HasSubstr("23.9%"));
    EXPECT_THAT(w[1], HasSubstr("50 ms"));
    EXPECT_THAT(w[2], HasSubstr("returned at 2.10 GB/s"));
    EXPECT_THAT(w[2], HasSubstr("310.0 MB/s"));
}

TEST(Warnings, ThresholdsAreExclusive)
{
    EXPECT_THAT(caseWarnings(caseWith(200, kNoisyCv, 100, kShortRepetitionSeconds)), IsEmpty());
}

TEST(Warnings, ShortIsJudgedOnTheTimeOfTheRankedRate)
{
    // A buffered write whose calls returned in 0.1 s and whose data was durable after 0.6 s: ranked by what
    // reached the disk, its repetition lasted 0.6 s, which is long enough.
    auto buffered = caseWith(1000, 0.01, 900, 0.1);
    for (auto& r : buffered.repetitions)
        r.durableSeconds = r.warmup ? 0.002 : 0.6;
    EXPECT_THAT(caseWarnings(buffered, nullptr, Ranking::Durable), IsEmpty());
    EXPECT_DOUBLE_EQ(rankedRepetitionSeconds(buffered, Ranking::Durable), 0.6);
    // Ranked by the moment the calls returned, the same case is timed on 0.1 s, and that is short.
    const auto apparent = caseWarnings(buffered, nullptr, Ranking::Apparent);
    ASSERT_THAT(apparent, SizeIs(1));
    EXPECT_THAT(apparent[0], HasSubstr("short: a repetition took 100 ms"));

    // A pipe has one time, whatever the ranking: until its last call returned.
    auto pipe = buffered;
    pipe.testCase.target = TargetKind::Pipe;
    EXPECT_DOUBLE_EQ(rankedRepetitionSeconds(pipe, Ranking::Durable), 0.1);
    EXPECT_THAT(caseWarnings(pipe, nullptr, Ranking::Durable), SizeIs(1));

    // A case with no successful repetition has no time, and is not called short.
    auto none = caseWith(1000, 0.01, 900, 1.0);
    for (auto& r : none.repetitions)
        r.outcome = {Status::Failed, 5, "write", "write failed"};
    EXPECT_DOUBLE_EQ(rankedRepetitionSeconds(none), 0.0);
    EXPECT_FALSE(isShort(rankedRepetitionSeconds(none)));
}

TEST(Warnings, PipesHaveNoDurableGapAndFailedCasesNoWarnings)
{
    auto pipe = caseWith(2000, 0.0, 100, 1.0);
    pipe.testCase.target = TargetKind::Pipe;
    EXPECT_THAT(caseWarnings(pipe), IsEmpty());
    auto failed = caseWith(2000, 0.5, 100, 0.01);
    failed.status = Status::Failed;
    EXPECT_THAT(caseWarnings(failed), IsEmpty());
}

namespace {

// A case whose measured repetitions (after one warm-up) ran at `rates` MB/s, 1 s each.
CaseResult caseWithRates(const std::vector<double>& rates)
{
    std::vector<double> values = rates;
    CaseResult c = caseWith(0, 0, 0, 1.0);
    c.repetitions.resize(1);
    for (std::size_t i = 0; i < rates.size(); ++i) {
        RepetitionResult r;
        r.index = static_cast<std::uint32_t>(i + 1);
        r.returnSeconds = 1.0;
        r.apparentMBps = rates[i];
        r.durableMBps = rates[i];
        c.repetitions.push_back(r);
    }
    c.apparentMBps = summarize(values);
    c.durableMBps = c.apparentMBps;
    return c;
}

} // namespace

TEST(Warnings, FromFiveRepetitionsOneOutlierDoesNotMakeTheFigureNoisy)
{
    // One repetition slowed to 600 MB/s (the host took the CPU away): the median and the trimmed mean do not
    // move, so the row is not called noisy although the CV over all five is 19%.
    const auto outlier = caseWithRates({1000, 1010, 600, 990, 1005});
    ASSERT_GT(outlier.apparentMBps.cv, 0.15);
    EXPECT_THAT(caseWarnings(outlier), IsEmpty());
    const RepetitionSpread spread = repetitionSpread(outlier);
    EXPECT_EQ(spread.used, 3u);
    EXPECT_EQ(spread.count, 5u);
    EXPECT_LT(spread.cv, 0.01);

    // Spread through the middle: still noisy, and the text says which repetitions were judged.
    const auto spreadOut = caseWithRates({800, 900, 1000, 1100, 1200});
    const auto w = caseWarnings(spreadOut);
    ASSERT_THAT(w, SizeIs(1));
    EXPECT_THAT(w[0], HasSubstr("the middle 3 of 5 repetitions vary by 10.0%"));

    // Below five, every repetition counts, as before.
    const auto three = caseWithRates({1000, 1010, 600});
    EXPECT_THAT(caseWarnings(three), SizeIs(1));
    EXPECT_THAT(caseWarnings(three)[0], HasSubstr("(CV over 3)"));
    // A failed repetition is neither counted nor left out as an outlier.
    auto withFailure = caseWithRates({1000, 1010, 600, 990, 1005, 1000});
    withFailure.repetitions.back().outcome = {Status::Failed, 5, "write", "write failed"};
    EXPECT_EQ(repetitionSpread(withFailure).count, 5u);
}

TEST(Warnings, NoiseFollowsTheRateTheCaseIsRankedBy)
{
    // A write to a file whose calls returned at swinging rates but whose durable rate held: the figure the
    // answer quotes is steady, so no "noisy" unless the cases are ranked by the apparent rate.
    auto c = caseWithRates({2000, 2600, 3000, 3400, 4000});
    const std::vector<double> durable = {1960, 1990, 2000, 2010, 2040};
    for (std::size_t i = 0; i < durable.size(); ++i)
        c.repetitions[i + 1].durableMBps = durable[i];
    c.durableMBps = summarize(durable);
    EXPECT_THAT(caseWarnings(c), IsEmpty());
    EXPECT_LT(repetitionSpread(c).cv, 0.01);
    const auto w = caseWarnings(c, nullptr, Ranking::Apparent);
    ASSERT_THAT(w, SizeIs(1));
    EXPECT_THAT(w[0], HasSubstr("the middle 3 of 5 repetitions vary by 13.3%"));
    // A pipe has no durable figure: its one rate is judged whatever the ranking.
    c.testCase.target = TargetKind::Pipe;
    EXPECT_THAT(caseWarnings(c), SizeIs(1));
}
