// SPDX-License-Identifier: MIT
// The controller that runs the engine off the GUI thread: a real run fills the results through queued
// signals, Stop ends a run within a second with nothing left behind, and problems arrive as messages.
#include "app/gui/run_controller.h"
#include "core/base/units.h"
#include "tests/support/temp_dir.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

Matrix matrixOf(std::vector<std::string> strategies, std::uint64_t chunk, std::uint64_t size,
                std::vector<SyncPolicy> syncs = {})
{
    MatrixGroup g;
    g.strategies = std::move(strategies);
    g.chunks = {chunk};
    g.sizes = {size};
    g.syncs = std::move(syncs);
    return Matrix{"gui test", "", {g}};
}

template <class T> T argument(const QSignalSpy& spy, int index, int arg = 0)
{
    return spy.at(index).at(arg).value<T>();
}

} // namespace

TEST(RunController, ARealRunReportsEverythingThroughSignals)
{
    TempDir target;
    gui::RunController controller;
    QSignalSpy started(&controller, &gui::RunController::runStarted);
    QSignalSpy cases(&controller, &gui::RunController::caseStarted);
    QSignalSpy reps(&controller, &gui::RunController::repetitionFinished);
    QSignalSpy finishedCases(&controller, &gui::RunController::caseFinished);
    QSignalSpy finished(&controller, &gui::RunController::runFinished);
    RunOptions options;
    options.repetitions = 2;
    options.sampleIntervalMs = 10;
    ASSERT_TRUE(controller.start(matrixOf({"write", "stdio"}, 64 * kKiB, 8 * kMiB),
                                 QString::fromStdString(target.path()), options));
    EXPECT_TRUE(controller.isRunning());
    ASSERT_TRUE(finished.wait(60'000));
    EXPECT_FALSE(controller.isRunning());
    ASSERT_EQ(started.count(), 1);
    EXPECT_EQ(started.at(0).at(0).toInt(), 2);
    EXPECT_TRUE(argument<std::vector<RefusedCase>>(started, 0, 1).empty());
    EXPECT_EQ(cases.count(), 2);
    EXPECT_EQ(reps.count(), 2 * 3);
    ASSERT_EQ(finishedCases.count(), 2);
    EXPECT_EQ(argument<CaseResult>(finishedCases, 1).testCase.strategy, "stdio");
    const auto result = argument<RunResult>(finished, 0);
    ASSERT_EQ(result.cases.size(), 2u);
    for (const auto& c : result.cases)
        EXPECT_EQ(c.status, Status::Ok) << c.reason;
    EXPECT_EQ(target.entryCount(), 0u);
}

TEST(RunController, StopEndsTheRunWithinASecondAndRemovesItsFiles)
{
    TempDir target;
    gui::RunController controller;
    QSignalSpy cases(&controller, &gui::RunController::caseStarted);
    QSignalSpy finished(&controller, &gui::RunController::runFinished);
    // 512-byte O_DSYNC writes of 1 GiB: it would run for minutes.
    ASSERT_TRUE(controller.start(matrixOf({"write"}, 512, 1 * kGiB, {{SyncMode::ODsync, 0}}),
                                 QString::fromStdString(target.path()), RunOptions{}));
    ASSERT_TRUE(cases.wait(20'000));
    QTest::qWait(200);
    QString why;
    EXPECT_FALSE(
        controller.start(matrixOf({"write"}, 512, kMiB), QString::fromStdString(target.path()), {}, &why));
    EXPECT_FALSE(why.isEmpty());
    QElapsedTimer timer;
    timer.start();
    controller.stop();
    ASSERT_TRUE(finished.wait(5'000));
    EXPECT_LT(timer.elapsed(), 1000);
    EXPECT_TRUE(argument<RunResult>(finished, 0).cancelled);
    EXPECT_EQ(target.entryCount(), 0u);
}

TEST(RunController, ProblemsArriveAsMessages)
{
    TempDir target;
    gui::RunController controller;
    QSignalSpy failed(&controller, &gui::RunController::runFailed);
    ASSERT_TRUE(controller.start(matrixOf({"write"}, 4 * kKiB, kMiB),
                                 QString::fromStdString(target / "missing"), {}));
    ASSERT_TRUE(failed.wait(10'000));
    EXPECT_THAT(failed.at(0).at(0).toString().toStdString(), HasSubstr("does not exist"));
    EXPECT_FALSE(controller.isRunning());
    ASSERT_TRUE(
        controller.start(matrixOf({"direct"}, 1000, kMiB), QString::fromStdString(target.path()), {}));
    ASSERT_TRUE(failed.wait(10'000));
    EXPECT_THAT(failed.at(1).at(0).toString().toStdString(), HasSubstr("every case"));
}

TEST(RunController, DestroyingItMidRunStopsAndCleansUp)
{
    TempDir target;
    {
        gui::RunController controller;
        QSignalSpy cases(&controller, &gui::RunController::caseStarted);
        ASSERT_TRUE(controller.start(matrixOf({"write"}, 512, 1 * kGiB, {{SyncMode::ODsync, 0}}),
                                     QString::fromStdString(target.path()), RunOptions{}));
        ASSERT_TRUE(cases.wait(20'000));
    }
    EXPECT_EQ(target.entryCount(), 0u);
}
