// SPDX-License-Identifier: MIT
// The policy for other live IOLab runs on a run's target, written once for both front ends (app/common): what
// refuses a run and what its result states, in the sentences iolab-cli and the app both give.
#include "app/common/concurrent_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;

TEST(ConcurrentRuns, ARunInTheTargetRefusesUnlessAllowedAndIsThenStated)
{
    const OtherRuns others{{{"/t/iolab-run-20260101-000000-1", 41}}, {42}};
    const ConcurrentRuns refused = weighConcurrentRuns(others, false);
    ASSERT_TRUE(refused.refusedBy.has_value());
    EXPECT_EQ(refused.refusedBy->pid, 41);
    EXPECT_EQ(refused.refusedBy->folder, "/t/iolab-run-20260101-000000-1");
    EXPECT_TRUE(refused.warnings.empty()) << "a refused run has no result to state them in";

    const ConcurrentRuns allowed = weighConcurrentRuns(others, true);
    EXPECT_FALSE(allowed.refusedBy.has_value());
    EXPECT_EQ(
        allowed.warnings,
        (std::vector<std::string>{
            "another IOLab run (process 41, run folder /t/iolab-run-20260101-000000-1) was writing into the "
            "same target when this run started: the figures may measure both",
            "another IOLab run (process 42) was writing elsewhere on this target's filesystem when this run "
            "started: the figures may measure both"}));
}

TEST(ConcurrentRuns, RunsElsewhereOnTheFilesystemAreStatedNeverRefused)
{
    const ConcurrentRuns weighed = weighConcurrentRuns(OtherRuns{{}, {7, 8}}, false);
    EXPECT_FALSE(weighed.refusedBy.has_value());
    ASSERT_EQ(weighed.warnings.size(), 2u);
    EXPECT_THAT(weighed.warnings[1],
                ::testing::StartsWith("another IOLab run (process 8) was writing elsewhere"));
    EXPECT_TRUE(weighConcurrentRuns(OtherRuns{}, false).warnings.empty());
    EXPECT_FALSE(weighConcurrentRuns(OtherRuns{}, false).refusedBy.has_value());
}
