// SPDX-License-Identifier: MIT
// iolab-cli's progress: the share of the planned work done, which its bar and ETA show, counts the kill -9
// probe's runs (half a repetition each) and moves on through them.
#include "app/cli/console_observer.h"
#include "core/base/units.h"

#include <gtest/gtest.h>

using namespace iolab;

TEST(ConsoleObserver, TheProgressCountsTheKill9ProbesRuns)
{
    ExpandedMatrix expanded;
    Case write;
    write.strategy = "write";
    write.chunkBytes = 4 * kKiB;
    write.totalBytes = 100 * kMiB;
    Case pipe = write;
    pipe.target = TargetKind::Pipe; // the probe refuses pipes: no runs of it planned
    expanded.cases = {write, pipe};
    RunOptions options;
    options.repetitions = 2;
    options.warmups = 0;
    options.crashProbe = 4;
    cli::ConsoleObserver observer(expanded, options, false, true);
    // Planned: the write's 2 repetitions and 4 half-repetition kills (400 MiB), the pipe's 2 (200 MiB).
    CaseStarted started{0, 2, write};
    observer.caseStarted(started);
    RepetitionFinished rep;
    rep.caseIndex = 0;
    rep.repetition.bytes = write.totalBytes;
    observer.repetitionFinished(rep);
    observer.repetitionFinished(rep);
    EXPECT_DOUBLE_EQ(observer.fraction(), 200.0 / 600.0);
    observer.probeKillStarted({0, 1, 4});
    EXPECT_DOUBLE_EQ(observer.fraction(), 200.0 / 600.0) << "the first kill has only started";
    observer.probeKillStarted({0, 3, 4});
    EXPECT_DOUBLE_EQ(observer.fraction(), 300.0 / 600.0) << "two kills done, 50 MiB each";
    CaseResult done;
    done.index = 0;
    done.testCase = write;
    observer.caseFinished(done);
    EXPECT_DOUBLE_EQ(observer.fraction(), 400.0 / 600.0) << "the case's whole plan, once it ends";
}

// Cases that take turns: each repetition counts for its own case, whichever case started last, and a case
// that ends early (a failed repetition) counts its whole plan from then on, never twice.
TEST(ConsoleObserver, CasesTakingTurnsCountEachRepetitionForItsOwnCase)
{
    ExpandedMatrix expanded;
    Case write;
    write.strategy = "write";
    write.chunkBytes = 4 * kKiB;
    write.totalBytes = 100 * kMiB;
    expanded.cases = {write, write};
    RunOptions options;
    options.repetitions = 3;
    options.warmups = 0;
    options.alternate = true;
    cli::ConsoleObserver observer(expanded, options, false, true);
    observer.setCaseEstimates({3, 3});
    RepetitionFinished rep;
    rep.repetition.bytes = write.totalBytes;
    for (std::uint32_t r = 0; r < 2; ++r) {
        for (std::uint32_t i = 0; i < 2; ++i) {
            observer.caseStarted({i, 2, write, true, r, 3});
            rep.caseIndex = i;
            observer.repetitionFinished(rep);
        }
    }
    EXPECT_DOUBLE_EQ(observer.fraction(), 400.0 / 600.0);
    ASSERT_TRUE(observer.secondsLeft().has_value());
    // Case 1's third repetition fails: none of its repetitions is left to wait for, now or when it finishes.
    observer.caseStarted({0, 2, write, true, 2, 3});
    RepetitionFinished failedRep;
    failedRep.caseIndex = 0;
    failedRep.repetition.outcome = {Status::Failed, 5, "write", "EIO"};
    observer.repetitionFinished(failedRep);
    EXPECT_DOUBLE_EQ(observer.fraction(), 500.0 / 600.0);
    CaseResult failed;
    failed.index = 0;
    failed.testCase = write;
    observer.caseFinished(failed);
    EXPECT_DOUBLE_EQ(observer.fraction(), 500.0 / 600.0);
    observer.caseStarted({1, 2, write, true, 2, 3});
    rep.caseIndex = 1;
    observer.repetitionFinished(rep);
    CaseResult done;
    done.index = 1;
    done.testCase = write;
    observer.caseFinished(done);
    EXPECT_DOUBLE_EQ(observer.fraction(), 1.0);
}

// A finished case's progress line: a durable figure only where there is one. A pipe, the null device or a
// pure read has nothing to sync; a write to a file and a read/write mix do.
TEST(ConsoleObserver, OnlyWritesToAFileAndMixesPrintADurableFigure)
{
    CaseResult c;
    c.status = Status::Ok;
    c.testCase.strategy = "pipe-write";
    c.testCase.chunkBytes = 64 * kKiB;
    c.apparentMBps.median = 920;
    c.durableMBps.median = 920;
    c.testCase.target = TargetKind::Pipe;
    EXPECT_EQ(cli::finishedCaseFigure(c), "920.0 MB/s");
    c.testCase.target = TargetKind::Null;
    EXPECT_EQ(cli::finishedCaseFigure(c), "920.0 MB/s");
    c.testCase.target = TargetKind::Directory;
    c.durableMBps.median = 400;
    EXPECT_EQ(cli::finishedCaseFigure(c), "920.0 MB/s (durable 400.0 MB/s)");
    c.testCase.direction = Direction::Read;
    EXPECT_EQ(cli::finishedCaseFigure(c), "920.0 MB/s");
    c.testCase.readPercent = 70;
    EXPECT_EQ(cli::finishedCaseFigure(c), "920.0 MB/s (durable 400.0 MB/s)");
    c.testCase.readPercent = 100;
    EXPECT_EQ(cli::finishedCaseFigure(c), "920.0 MB/s");
}
