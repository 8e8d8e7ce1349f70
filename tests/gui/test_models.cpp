// SPDX-License-Identifier: MIT
// Every model of the GUI under QAbstractItemModelTester, fed the kinds of data it meets in use.
#include "app/gui/history.h"
#include "app/gui/log_model.h"
#include "app/gui/matrix_grid_model.h"
#include "app/gui/results_model.h"
#include "app/gui/target_model.h"
#include "core/base/units.h"
#include "core/formats/presets.h"
#include "platform/platform.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/qt_wait.h"
#include "tests/support/temp_dir.h"

#include <QAbstractItemModelTester>
#include <QTimer>

#include <spdlog/logger.h>

#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using namespace iolab::gui;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

CaseResult measuredCase(std::uint32_t index, const std::string& strategy, std::uint64_t chunk, double mbps)
{
    CaseResult c;
    c.index = index;
    c.testCase.strategy = strategy;
    c.testCase.chunkBytes = chunk;
    c.testCase.totalBytes = 64 * kMiB;
    c.apparentMBps.count = 3;
    c.apparentMBps.median = mbps;
    c.durableMBps.count = 3;
    c.durableMBps.median = mbps / 2;
    return c;
}

} // namespace

TEST(Models, TargetModelListsMountsThenPipeAndNull)
{
    TargetModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_EQ(model.rowCount(), 2) << "pipe and null are there before the scan";
    QSignalSpy scanned(&model, &TargetModel::scanFinished);
    model.rescan();
    ASSERT_TRUE(scanned.wait(10'000));
    ASSERT_GE(model.rowCount(), 2);
    EXPECT_EQ(model.entry(model.rowCount() - 2).key(), QStringLiteral("pipe:"));
    EXPECT_EQ(model.entry(model.rowCount() - 1).key(), QStringLiteral("null:"));

    TempDir dir;
    const int row = model.addFolder(QString::fromStdString(dir.path()));
    EXPECT_EQ(model.entry(row).problem, QString());
    EXPECT_EQ(model.rowForKey(QString::fromStdString(dir.path())), row);
    EXPECT_EQ(model.addFolder(QString::fromStdString(dir.path())), row) << "added once";
    model.probeRow(row);
    EXPECT_TRUE(model.entry(row).info.capabilitiesProbed);
    EXPECT_EQ(dir.entryCount(), 0u) << "the probe leaves nothing";
    for (int c = 0; c < model.columnCount(); ++c)
        EXPECT_TRUE(model.headerData(c, Qt::Horizontal).isValid());

    const int missing = model.addFolder(QString::fromStdString(dir / "missing"));
    EXPECT_THAT(model.entry(missing).problem.toStdString(), HasSubstr("does not exist"));
    EXPECT_EQ(model.index(missing, TargetModel::TypeColumn).data().toString(), QStringLiteral("unusable"));
    model.rescan();
    ASSERT_TRUE(scanned.wait(10'000));
    const int again = model.rowForKey(QString::fromStdString(dir.path()));
    ASSERT_GE(again, 0) << "chosen folders survive a rescan";
    EXPECT_TRUE(model.entry(again).info.capabilitiesProbed) << "and so does what the probe learned";
}

TEST(Models, MatrixGridTogglesChunksAndAddsColumns)
{
    MatrixGridModel model(builtinRegistry());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy changed(&model, &MatrixGridModel::draftChanged);
    const int column = model.columnForChunk(4 * kKiB);
    ASSERT_GT(column, 0);
    // The row of `write`, which every OS has (the third row, stdio-unlocked-call, is unavailable on Windows's
    // mingw build, and its cells refuse a tick).
    const auto& strategies = model.draft().strategies;
    const int row = static_cast<int>(std::find_if(strategies.begin(), strategies.end(),
                                                  [](const auto& s) { return s.strategy == "write"; }) -
                                     strategies.begin());
    ASSERT_LT(row, static_cast<int>(strategies.size()));
    EXPECT_TRUE(model.setData(model.index(row, column), Qt::Checked, Qt::CheckStateRole));
    EXPECT_EQ(model.draft().strategies[static_cast<std::size_t>(row)].chunks,
              std::vector<std::uint64_t>{4 * kKiB});
    EXPECT_EQ(changed.count(), 1);
    EXPECT_FALSE(
        model.setData(model.index(row, MatrixGridModel::StrategyColumn), Qt::Checked, Qt::CheckStateRole));
    model.addChunkColumn(3 * kKiB);
    EXPECT_EQ(model.columnForChunk(3 * kKiB), column) << "sorted in before 4K";
    EXPECT_EQ(model.columnForChunk(4 * kKiB), column + 1);
    model.setDraft(MatrixDraft::fromMatrix(*findPreset("stdio-per-byte"), builtinRegistry()));
    EXPECT_EQ(model.index(0, model.columnForChunk(1)).data(Qt::CheckStateRole).value<Qt::CheckState>(),
              Qt::Checked);
    EXPECT_THAT(model.index(0, model.axesColumn()).data().toString().toStdString(), HasSubstr("buffer none"));
}

TEST(Models, ResultsModelWithRefusedFailedAndBaseline)
{
    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    RunResult run;
    run.cases = {measuredCase(0, "stdio", 4096, 100), measuredCase(1, "write", 4096, 300)};
    run.cases[1].testCase.buffer = {};
    CaseResult failed = measuredCase(2, "direct", 4096, 0);
    failed.status = Status::Failed;
    failed.reason = "write: No space left on device";
    failed.apparentMBps = {};
    run.cases.push_back(failed);
    run.refused.push_back({run.cases[0].testCase, "duplicate of case 1"});
    model.setResult(run);
    ASSERT_EQ(model.rowCount(), 4);
    EXPECT_EQ(model.index(1, ResultsModel::SpeedupColumn).data().toString(), QStringLiteral("3.00x"));
    EXPECT_EQ(model.index(2, ResultsModel::StatusColumn).data().toString(), QStringLiteral("failed"));
    EXPECT_THAT(model.index(2, ResultsModel::ReasonColumn).data().toString().toStdString(),
                HasSubstr("No space"));
    EXPECT_EQ(model.index(3, ResultsModel::StatusColumn).data().toString(), QStringLiteral("refused"));
    model.updateCase(measuredCase(1, "write", 4096, 50));
    EXPECT_EQ(model.index(1, ResultsModel::SpeedupColumn).data().toString(), QStringLiteral("0.50x"));
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(Models, LogModelKeepsTheNewestLinesAndFiltersByLevel)
{
    LogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    LogFilterModel filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester filterTester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    spdlog::logger logger("test", model.sink());
    logger.set_level(spdlog::level::trace);
    logger.info("hello {}", 1);
    logger.warn("careful");
    std::thread([&] { logger.error("from a worker thread"); }).join();
    IOLAB_TRY_COMPARE(model.rowCount(), 3, 5000);
    EXPECT_EQ(model.index(2, LogModel::MessageColumn).data().toString(),
              QStringLiteral("from a worker thread"));
    EXPECT_EQ(model.index(1, LogModel::LevelColumn).data().toString(), QStringLiteral("warning"));
    filter.setMinimumLevel(spdlog::level::warn);
    EXPECT_EQ(filter.rowCount(), 2);
}

TEST(Models, LogModelIsBounded)
{
    LogModel model; // no tester here: it would check every one of the thousands of changes
    for (int i = 0; i < LogModel::kCapacity + 10; ++i)
        model.append(
            {QDateTime::currentDateTime(), spdlog::level::debug, QStringLiteral("t"), QString::number(i)});
    EXPECT_EQ(model.rowCount(), LogModel::kCapacity);
    EXPECT_EQ(model.index(0, LogModel::MessageColumn).data().toString(), QStringLiteral("10"));
    EXPECT_EQ(model.index(model.rowCount() - 1, LogModel::MessageColumn).data().toString(),
              QString::number(LogModel::kCapacity + 9));
}

TEST(Models, LogSinkOutlivingItsModelGoesQuiet)
{
    std::shared_ptr<spdlog::sinks::sink> sink;
    {
        LogModel model;
        sink = model.sink();
    }
    spdlog::logger logger("test", sink);
    logger.error("nobody listens"); // must not crash
    QCoreApplication::processEvents();
}

TEST(Models, HistoryAndCompareModels)
{
    HistoryModel history;
    QAbstractItemModelTester historyTester(&history, QAbstractItemModelTester::FailureReportingMode::Fatal);
    HistoryEntry ok;
    ok.path = QStringLiteral("/x/a.json");
    ok.cases = 2;
    ok.okCases = 2;
    HistoryEntry damaged;
    damaged.path = QStringLiteral("/x/b.json");
    damaged.problem = QStringLiteral("b.json: malformed JSON at line 1");
    history.setEntries({ok, damaged});
    EXPECT_EQ(history.index(0, HistoryModel::StatusColumn).data().toString(), QStringLiteral("ok"));
    EXPECT_THAT(history.index(1, HistoryModel::StatusColumn).data().toString().toStdString(),
                HasSubstr("damaged"));

    CompareModel compare;
    QAbstractItemModelTester compareTester(&compare, QAbstractItemModelTester::FailureReportingMode::Fatal);
    RunResult first;
    first.cases = {measuredCase(0, "stdio", 4096, 100), measuredCase(1, "write", 4096, 200)};
    RunResult second;
    second.cases = {measuredCase(0, "write", 4096, 500), measuredCase(1, "direct", 4096, 50)};
    compare.setRuns(first, second);
    ASSERT_EQ(compare.rowCount(), 3);
    EXPECT_FALSE(compare.ratio(0).has_value()) << "stdio is only in the first run";
    EXPECT_DOUBLE_EQ(*compare.ratio(1), 2.5);
    EXPECT_EQ(compare.index(2, CompareModel::FirstColumn).data().toString(),
              QStringLiteral("not in this run"));
    compare.clear();
    EXPECT_EQ(compare.rowCount(), 0);
}
