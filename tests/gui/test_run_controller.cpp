// SPDX-License-Identifier: MIT
// The controller that runs the engine off the GUI thread: a real run fills the results through queued
// signals, Stop ends a run within a second with nothing left behind, and problems arrive as messages.
#include "app/gui/run_controller.h"
#include "core/base/units.h"
#include "platform/platform.h"
#include "tests/support/temp_dir.h"

#include <filesystem>

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

// The plan a front end makes: the folder inspected and probed once, the matrix expanded once.
std::shared_ptr<const RunPlan> planOn(const Matrix& matrix, const std::string& folder)
{
    TargetInfo target = inspectTarget(folder);
    probeCapabilities(target);
    return makeRunPlan(matrix, builtinRegistry(), target);
}

template <class T> T argument(const QSignalSpy& spy, int index, int arg = 0)
{
    return spy.at(index).at(arg).value<T>();
}

} // namespace

TEST(RunController, ARealRunReportsEverythingThroughSignals)
{
    TempDir target;
    gui::RunController controller(builtinRegistry());
    QSignalSpy started(&controller, &gui::RunController::runStarted);
    QSignalSpy cases(&controller, &gui::RunController::caseStarted);
    QSignalSpy reps(&controller, &gui::RunController::repetitionFinished);
    QSignalSpy finishedCases(&controller, &gui::RunController::caseFinished);
    QSignalSpy finished(&controller, &gui::RunController::runFinished);
    RunOptions options;
    options.repetitions = 2;
    options.sampleIntervalMs = 10;
    ASSERT_TRUE(
        controller.start(planOn(matrixOf({"write", "stdio"}, 64 * kKiB, 8 * kMiB), target.path()), options));
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
    gui::RunController controller(builtinRegistry());
    QSignalSpy cases(&controller, &gui::RunController::caseStarted);
    QSignalSpy finished(&controller, &gui::RunController::runFinished);
    // 512-byte O_DSYNC writes of 1 GiB: it would run for minutes.
    ASSERT_TRUE(controller.start(
        planOn(matrixOf({"write"}, 512, 1 * kGiB, {{SyncMode::ODsync, 0}}), target.path()), RunOptions{}));
    ASSERT_TRUE(cases.wait(20'000));
    QTest::qWait(200);
    QString why;
    EXPECT_FALSE(controller.start(planOn(matrixOf({"write"}, 512, kMiB), target.path()), {}, &why));
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
    gui::RunController controller(builtinRegistry());
    QSignalSpy failed(&controller, &gui::RunController::runFailed);
    // The folder was there when the run was planned and is gone when it starts.
    std::filesystem::create_directory(target / "gone");
    const auto plan = planOn(matrixOf({"write"}, 4 * kKiB, kMiB), target / "gone");
    std::filesystem::remove(target / "gone");
    ASSERT_TRUE(controller.start(plan, {}));
    ASSERT_TRUE(failed.wait(10'000));
    EXPECT_THAT(failed.at(0).at(0).toString().toStdString(), HasSubstr("does not exist"));
    EXPECT_THAT(failed.at(0).at(0).toString().toStdString(), HasSubstr(target / "gone"));
    EXPECT_FALSE(controller.isRunning());
    QString why;
    EXPECT_FALSE(controller.start(planOn(matrixOf({"direct"}, 1000, kMiB), target.path()), {}, &why));
    EXPECT_THAT(why.toStdString(), HasSubstr("every case"));
    EXPECT_FALSE(controller.isRunning());
}

// The worker runs the plan it is given: it neither expands the matrix again nor probes the target again, so
// case i of the plan is case i of every signal (the GUI's progress weights are indexed by the plan).
TEST(RunController, RunsThePlanItIsGivenNotAFreshExpansion)
{
    TempDir folder;
    TargetInfo target = inspectTarget(folder.path());
    probeCapabilities(target);
    // A capability fact only the plan holds: a worker that probed again would run the direct case.
    target.directIoProblem = "the plan says this filesystem takes no O_DIRECT";
    const auto plan =
        makeRunPlan(matrixOf({"direct", "write", "stdio"}, 64 * kKiB, 4 * kMiB), builtinRegistry(), target);
    ASSERT_EQ(plan->cases().size(), 2u);
    ASSERT_EQ(plan->refused().size(), 1u);

    gui::RunController controller(builtinRegistry());
    QSignalSpy started(&controller, &gui::RunController::runStarted);
    QSignalSpy cases(&controller, &gui::RunController::caseStarted);
    QSignalSpy finished(&controller, &gui::RunController::runFinished);
    RunOptions options;
    options.repetitions = 1;
    options.warmups = 0;
    ASSERT_TRUE(controller.start(plan, options));
    ASSERT_TRUE(finished.wait(60'000));
    ASSERT_EQ(started.count(), 1);
    EXPECT_EQ(started.at(0).at(0).toInt(), 2);
    const auto refused = argument<std::vector<RefusedCase>>(started, 0, 1);
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_EQ(refused[0].reason, target.directIoProblem);
    ASSERT_EQ(cases.count(), 2);
    for (int i = 0; i < 2; ++i) {
        const auto c = argument<CaseStarted>(cases, i);
        EXPECT_EQ(c.index, static_cast<std::uint32_t>(i));
        EXPECT_EQ(c.testCase, plan->cases()[static_cast<std::size_t>(i)]);
    }
    const auto result = argument<RunResult>(finished, 0);
    EXPECT_EQ(result.refused, plan->refused());
    EXPECT_EQ(result.matrix, plan->matrix);
    EXPECT_EQ(folder.entryCount(), 0u);
}

TEST(RunController, DestroyingItMidRunStopsAndCleansUp)
{
    TempDir target;
    {
        gui::RunController controller(builtinRegistry());
        QSignalSpy cases(&controller, &gui::RunController::caseStarted);
        ASSERT_TRUE(controller.start(
            planOn(matrixOf({"write"}, 512, 1 * kGiB, {{SyncMode::ODsync, 0}}), target.path()),
            RunOptions{}));
        ASSERT_TRUE(cases.wait(20'000));
    }
    EXPECT_EQ(target.entryCount(), 0u);
}
