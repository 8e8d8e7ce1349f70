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
