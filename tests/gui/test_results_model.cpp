// SPDX-License-Identifier: MIT
#include "app/gui/results_model.h"
#include "core/base/units.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using gui::ResultsModel;

namespace {

CaseResult measuredCase(std::uint32_t index, std::string strategy, std::uint64_t chunk, BufferMode buffer,
                        double median)
{
    CaseResult c;
    c.index = index;
    c.testCase = Case{std::move(strategy),  Direction::Write, chunk, 64 * kMiB, {buffer, 0}, {}, 1,
                      TargetKind::Directory};
    if (c.testCase.strategy == "write")
        c.testCase.buffer = {};
    c.apparentMBps.count = 3;
    c.apparentMBps.median = median;
    c.apparentMBps.ciLow = median - 10;
    c.apparentMBps.ciHigh = median + 10;
    c.apparentMBps.trimmedMean = median * 1.01;
    c.durableMBps.count = 3;
    c.durableMBps.median = median / 2;
    c.durableMBps.ciLow = median / 2 - 5;
    c.durableMBps.ciHigh = median / 2 + 5;
    c.peakRssBytes = 6 * kMiB;
    return c;
}

RunResult sampleRun()
{
    RunResult r;
    r.cases.push_back(measuredCase(0, "stdio", 1, BufferMode::None, 0.6));
    r.cases.push_back(measuredCase(1, "stdio", 1, BufferMode::Default, 55.0));
    r.cases.push_back(measuredCase(2, "stdio-unlocked", 1, BufferMode::Default, 165.0));
    r.cases.push_back(measuredCase(3, "write", 4096, BufferMode::NotApplicable, 1400.0));
    CaseResult failed = measuredCase(4, "direct", 4096, BufferMode::NotApplicable, 0);
    failed.testCase.buffer = {};
    failed.status = Status::Failed;
    failed.reason = "write failed: No space left on device (ENOSPC)";
    failed.apparentMBps = {};
    r.cases.push_back(failed);
    Case refused{"direct", Direction::Write, 1000, kMiB, {}, {}, 1, TargetKind::Directory};
    r.refused.push_back(
        {refused, "chunk 1000 B is not a multiple of the target's logical block size (512 B)"});
    return r;
}

QString text(const ResultsModel& m, int row, int column)
{
    return m.data(m.index(row, column)).toString();
}

} // namespace

TEST(ResultsModel, PassesTheModelTesterThroughResetsAndUpdates)
{
    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setResult(sampleRun());
    model.updateCase(measuredCase(3, "write", 4096, BufferMode::NotApplicable, 1500.0));
    model.updateCase(measuredCase(9, "write", 65536, BufferMode::NotApplicable, 6000.0));
    model.setBaselineRow(0);
    model.setBaselineRow(std::nullopt);
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(ResultsModel, ShowsFailedAndRefusedCasesWithTheirReasons)
{
    ResultsModel model;
    model.setResult(sampleRun());
    ASSERT_EQ(model.rowCount(), 6);
    EXPECT_EQ(text(model, 4, ResultsModel::StatusColumn), QStringLiteral("failed"));
    EXPECT_THAT(text(model, 4, ResultsModel::ReasonColumn).toStdString(), ::testing::HasSubstr("ENOSPC"));
    EXPECT_TRUE(text(model, 4, ResultsModel::MedianColumn).isEmpty());
    EXPECT_EQ(text(model, 5, ResultsModel::StatusColumn), QStringLiteral("refused"));
    EXPECT_EQ(text(model, 5, ResultsModel::CaseColumn), QStringLiteral("-"));
    EXPECT_THAT(text(model, 5, ResultsModel::ReasonColumn).toStdString(),
                ::testing::HasSubstr("logical block"));
}

TEST(ResultsModel, FormatsWithUnits)
{
    ResultsModel model;
    model.setResult(sampleRun());
    EXPECT_EQ(text(model, 3, ResultsModel::MedianColumn), QStringLiteral("1.40 GB/s"));
    EXPECT_EQ(text(model, 3, ResultsModel::TrimmedMeanColumn), QStringLiteral("1.41 GB/s"));
    EXPECT_TRUE(text(model, 4, ResultsModel::TrimmedMeanColumn).isEmpty()) << "a failed case has no figures";
    EXPECT_THAT(model.headerData(ResultsModel::TrimmedMeanColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .toStdString(),
                ::testing::HasSubstr("without the slowest and the fastest"));
    EXPECT_EQ(text(model, 3, ResultsModel::DurableColumn), QStringLiteral("700.0 MB/s"));
    EXPECT_EQ(text(model, 3, ResultsModel::CiColumn), QStringLiteral("695.0 - 705.0 MB/s"))
        << "the interval of the durable rate, which file writes are ranked by";
    model.setRanking(Ranking::Apparent);
    EXPECT_EQ(text(model, 3, ResultsModel::CiColumn), QStringLiteral("1390.0 - 1410.0 MB/s"));
    EXPECT_EQ(text(model, 3, ResultsModel::ChunkColumn), QStringLiteral("4 KiB"));
    EXPECT_EQ(text(model, 3, ResultsModel::RssColumn), QStringLiteral("6 MiB"));
}

TEST(ResultsModel, SpeedupAgainstPlainStdioAtTheSameChunkOrAChosenRow)
{
    ResultsModel model;
    model.setResult(sampleRun());
    // Default baseline: stdio with the default buffer at the same chunk (row 1, 55 MB/s).
    EXPECT_EQ(model.baselineFor(2), 1);
    EXPECT_EQ(text(model, 2, ResultsModel::SpeedupColumn), QStringLiteral("3.00x"));
    EXPECT_EQ(text(model, 0, ResultsModel::SpeedupColumn), QStringLiteral("0.01x"));
    // No stdio case at 4 KiB: no speed-up rather than a made-up one.
    EXPECT_TRUE(text(model, 3, ResultsModel::SpeedupColumn).isEmpty());
    model.setBaselineRow(0);
    EXPECT_EQ(text(model, 3, ResultsModel::SpeedupColumn), QStringLiteral("2333.33x"));
}

TEST(ResultsModel, SortsNumbersAsNumbers)
{
    ResultsModel model;
    model.setResult(sampleRun());
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(ResultsModel::SortRole);
    proxy.sort(ResultsModel::MedianColumn, Qt::DescendingOrder);
    // 1.40 GB/s sorts above 165.0 MB/s, though "1.40 GB/s" < "165.0 MB/s" as text.
    EXPECT_EQ(proxy.data(proxy.index(0, ResultsModel::StrategyColumn)).toString(), QStringLiteral("write"));
    EXPECT_EQ(proxy.data(proxy.index(1, ResultsModel::StrategyColumn)).toString(),
              QStringLiteral("stdio-unlocked"));
}
