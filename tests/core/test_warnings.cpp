// SPDX-License-Identifier: MIT
#include "core/analysis/warnings.h"

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
    c.durableMBps.median = durableMedian;
    for (std::uint32_t i = 0; i < 4; ++i) {
        RepetitionResult r;
        r.index = i;
        r.warmup = i == 0;
        r.returnSeconds = i == 0 ? 0.001 : seconds; // a short warm-up does not count
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

TEST(Warnings, PipesHaveNoDurableGapAndFailedCasesNoWarnings)
{
    auto pipe = caseWith(2000, 0.0, 100, 1.0);
    pipe.testCase.target = TargetKind::Pipe;
    EXPECT_THAT(caseWarnings(pipe), IsEmpty());
    auto failed = caseWith(2000, 0.5, 100, 0.01);
    failed.status = Status::Failed;
    EXPECT_THAT(caseWarnings(failed), IsEmpty());
}
