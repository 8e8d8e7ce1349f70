// SPDX-License-Identifier: MIT
// The run controller's threads: each run's thread ends on its own after its last call, so the next run starts
// straight from the previous one's runFinished (nothing to join), and every signal belongs to the run it
// reports on.
#include "app/gui/run_controller.h"
#include "core/base/units.h"
#include "platform/platform.h"
#include "tests/support/qt_wait.h"
#include "tests/support/temp_dir.h"

#include <QSignalSpy>
#include <QTest>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using namespace iolab::test;

namespace {

std::shared_ptr<const RunPlan> smallPlanOn(const std::string& folder, std::uint64_t chunkBytes)
{
    MatrixGroup g;
    g.strategies = {"write"};
    g.chunks = {chunkBytes};
    g.sizes = {256 * kKiB};
    TargetInfo target = inspectTarget(folder);
    probeCapabilities(target);
    return makeRunPlan(Matrix{"threads test", "", {g}}, builtinRegistry(), target);
}

} // namespace

TEST(RunThreads, EachRunStartsFromThePreviousOnesEndAndReportsOnlyItself)
{
    TempDir target;
    gui::RunController controller(builtinRegistry());
    constexpr int kRuns = 6;
    std::vector<std::uint64_t> finishedChunks;
    std::vector<std::uint64_t> startedChunks;
    RunOptions options;
    options.repetitions = 1;
    options.warmups = 0;
    QObject::connect(
        &controller, &gui::RunController::caseStarted, &controller,
        [&](const CaseStarted& started) { startedChunks.push_back(started.testCase.chunkBytes); });
    QObject::connect(
        &controller, &gui::RunController::runFinished, &controller, [&](const RunResult& result) {
            EXPECT_FALSE(controller.isRunning());
            ASSERT_EQ(result.cases.size(), 1u);
            finishedChunks.push_back(result.cases[0].testCase.chunkBytes);
            if (finishedChunks.size() < kRuns) {
                QString why;
                // Straight from the finished signal: the previous thread may still be returning.
                EXPECT_TRUE(controller.start(smallPlanOn(target.path(), 4 * kKiB << finishedChunks.size()),
                                             options, &why))
                    << why.toStdString();
            }
        });
    ASSERT_TRUE(controller.start(smallPlanOn(target.path(), 4 * kKiB), options));
    IOLAB_TRY_COMPARE(static_cast<int>(finishedChunks.size()), kRuns, 60'000);
    EXPECT_FALSE(controller.isRunning());
    for (int i = 0; i < kRuns; ++i) {
        EXPECT_EQ(finishedChunks[static_cast<std::size_t>(i)], 4 * kKiB << i);
        EXPECT_EQ(startedChunks.at(static_cast<std::size_t>(i)), 4 * kKiB << i);
    }
    EXPECT_EQ(target.entryCount(), 0u);
}

// Stop, then at once a new run: the stopped run's thread may still be on its way out while the next one goes.
TEST(RunThreads, ARunStartedRightAfterAStoppedOneEndsNormally)
{
    TempDir target;
    gui::RunController controller(builtinRegistry());
    QSignalSpy cases(&controller, &gui::RunController::caseStarted);
    QSignalSpy finished(&controller, &gui::RunController::runFinished);
    MatrixGroup g;
    g.strategies = {"write"};
    g.chunks = {512};
    g.sizes = {1 * kGiB};
    g.syncs = {{SyncMode::ODsync, 0}};
    TargetInfo info = inspectTarget(target.path());
    probeCapabilities(info);
    ASSERT_TRUE(controller.start(makeRunPlan(Matrix{"long", "", {g}}, builtinRegistry(), info), {}));
    ASSERT_TRUE(cases.wait(20'000));
    controller.stop();
    ASSERT_TRUE(finished.wait(10'000));
    EXPECT_TRUE(finished.at(0).at(0).value<RunResult>().cancelled);
    RunOptions options;
    options.repetitions = 1;
    options.warmups = 0;
    ASSERT_TRUE(controller.start(smallPlanOn(target.path(), 64 * kKiB), options));
    ASSERT_TRUE(finished.wait(30'000));
    const auto result = finished.at(1).at(0).value<RunResult>();
    EXPECT_FALSE(result.cancelled);
    ASSERT_EQ(result.cases.size(), 1u);
    EXPECT_EQ(result.cases[0].status, Status::Ok) << result.cases[0].reason;
    EXPECT_EQ(target.entryCount(), 0u);
}
