// SPDX-License-Identifier: MIT
#include "app/gui/results_model.h"
#include "app/gui/results_view.h"
#include "core/base/units.h"
#include "core/engine/file_set.h"

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

// Issue 17: "max at risk", the power-loss exposure, with its method and meaning in the cell's tooltip; empty
// where a case has none, unknown sorted as the most at risk.
TEST(ResultsModel, MaxAtRiskShowsTheBytesAndForHowLong)
{
    RunResult run = sampleRun();
    run.cases[3].atRisk = Exposure{.maxBytes = 64 * kMiB, .maxSeconds = 1.2, .method = "no sync"};
    run.cases[2].atRisk = Exposure{.maxBytes = 0, .maxSeconds = 0.0, .method = "each write returns durable"};
    run.cases[1].atRisk = Exposure{.maxBytes = std::nullopt,
                                   .maxSeconds = std::nullopt,
                                   .basis = ExposureBasis::AtMost,
                                   .method = "the stdio buffer"};
    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setResult(run);
    EXPECT_EQ(text(model, 3, ResultsModel::AtRiskColumn), QStringLiteral("64 MiB for 1.2 s"));
    EXPECT_EQ(text(model, 2, ResultsModel::AtRiskColumn), QStringLiteral("0 B"));
    EXPECT_EQ(text(model, 1, ResultsModel::AtRiskColumn), QStringLiteral("unknown"));
    EXPECT_TRUE(text(model, 0, ResultsModel::AtRiskColumn).isEmpty()) << "no exposure: nothing said";
    const QString tip = model.data(model.index(3, ResultsModel::AtRiskColumn), Qt::ToolTipRole).toString();
    EXPECT_THAT(tip.toStdString(), ::testing::HasSubstr("no sync"));
    EXPECT_THAT(tip.toStdString(), ::testing::HasSubstr("assuming the device honours flushes"));
    EXPECT_THAT(ResultsModel::columnToolTip(ResultsModel::AtRiskColumn).toStdString(),
                ::testing::HasSubstr("the page cache survives kill -9"));
    const auto sortOf = [&](int row) {
        return model.data(model.index(row, ResultsModel::AtRiskColumn), ResultsModel::SortRole).toDouble();
    };
    EXPECT_LT(sortOf(2), sortOf(3));
    EXPECT_LT(sortOf(3), sortOf(1)) << "unknown is never sorted as safe";
    EXPECT_EQ(ResultsModel::figureColumn(ResultsModel::AtRiskColumn), ResultsModel::AtRiskColumn);
    const auto hidden = gui::ResultsView::hiddenColumns(run.cases, run.refused);
    EXPECT_FALSE(std::binary_search(hidden.begin(), hidden.end(), int{ResultsModel::AtRiskColumn}))
        << "shown once a case has an exposure";
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

// The axis columns come from the axis declarations (core/model/axes.cpp); these pin what the user sees of the
// built-in ones: their place, headers, tooltips, cells, sorting and when the view hides them (issue 15 §1).
TEST(ResultsModel, BuiltInAxisColumnsAreTheDeclaredOnesInTheirPlaces)
{
    using M = ResultsModel;
    EXPECT_EQ(
        M::axisColumns(),
        (std::vector<int>{M::StrategyColumn, M::ChunkColumn, M::BufferColumn, M::SyncColumn, M::ReadColumn,
                          M::ReaderCpuColumn, M::MixColumn, M::PatternColumn, M::QueueDepthColumn,
                          M::UringColumn, M::ThreadsColumn, M::SizeColumn, M::FreeShareColumn,
                          M::TimeLimitColumn, M::SteadyColumn, M::MemoryLimitColumn, M::LatencyColumn}));
    EXPECT_EQ(M::axisColumn("readPercent"), M::MixColumn);
    EXPECT_EQ(M::axisColumn("randomDist"), M::MixColumn) << "the hot spot shares the read share's column";
    EXPECT_EQ(M::axisColumn("uring"), M::UringColumn);
    EXPECT_EQ(M::axisColumn("strategy"), M::StrategyColumn);
    EXPECT_EQ(M::axisColumn("memoryLimit"), M::MemoryLimitColumn);
    EXPECT_EQ(M::axisColumn("stdioBuffer"), M::BufferColumn);
    EXPECT_EQ(M::axisColumn("hint"), M::ReadColumn);
    EXPECT_EQ(M::axisColumn("cache"), M::ReadColumn) << "the cache state shares the hint's column";
    EXPECT_EQ(M::axisColumn("totalBytes"), M::SizeColumn);
    EXPECT_EQ(M::axisColumn("readerCpu"), M::ReaderCpuColumn);
    EXPECT_EQ(M::axisColumn("timeLimit"), M::TimeLimitColumn);
    EXPECT_EQ(M::axisColumn("untilSteady"), M::SteadyColumn);
    EXPECT_EQ(M::axisColumn("freeSpaceShare"), M::FreeShareColumn);
    EXPECT_EQ(M::axisColumn("pattern"), M::PatternColumn);
    EXPECT_EQ(M::axisColumn("direction"), -1);
    EXPECT_EQ(M::axesInColumn(M::ReadColumn).size(), 2U);
    EXPECT_TRUE(M::axesInColumn(M::MedianColumn).empty());

    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const std::vector<std::string> headers{"#",
                                           "Strategy",
                                           "Chunk",
                                           "stdio buffer",
                                           "Sync",
                                           "Hint, cache",
                                           "Reader CPU",
                                           "Mix, offsets",
                                           "Pattern",
                                           "QD",
                                           "io_uring",
                                           "Threads",
                                           "Size",
                                           "Of free space",
                                           "Time limit",
                                           "Until steady",
                                           "Memory limit",
                                           "Latency",
                                           "Apparent",
                                           "Trimmed mean",
                                           "95% CI",
                                           "Durable",
                                           "Max at risk",
                                           "Speed-up",
                                           "Files/s",
                                           "p50/file",
                                           "p99/file",
                                           "p50",
                                           "p99",
                                           "p99.9",
                                           "Sync p99",
                                           "IOPS",
                                           "Reads; writes",
                                           "CPU",
                                           "Peak RSS",
                                           "Temp",
                                           "Spread (CV)",
                                           "Survives kill -9",
                                           "Status",
                                           "Reason"};
    ASSERT_EQ(static_cast<std::size_t>(model.columnCount()), headers.size());
    for (int column = 0; column < model.columnCount(); ++column)
        EXPECT_EQ(model.headerData(column, Qt::Horizontal).toString().toStdString(),
                  headers[static_cast<std::size_t>(column)])
            << column;
    EXPECT_THAT(model.headerData(M::SyncColumn, Qt::Horizontal, Qt::ToolTipRole).toString().toStdString(),
                ::testing::StartsWith("When the data is forced to storage"));
    EXPECT_THAT(M::columnToolTip(M::ReadColumn).toStdString(),
                ::testing::StartsWith("Reads: the access hint given to the kernel"));
    EXPECT_EQ(M::columnToolTip(M::ThreadsColumn),
              QStringLiteral("Threads; for files-pool the pool's cap, for files-per-thread one per file"));

    RunResult run = sampleRun();
    CaseResult read = measuredCase(5, "read", 4096, BufferMode::NotApplicable, 900.0);
    read.testCase.direction = Direction::Read;
    read.testCase.hint = ReadHint::Random;
    read.testCase.cache = CacheState::Warm;
    read.testCase.threads = 4;
    run.cases.push_back(read);
    CaseResult mapped = read;
    mapped.index = 6;
    mapped.testCase.strategy = "files-pool";
    mapped.testCase.hint = ReadHint::NotApplicable;
    mapped.testCase.cache = CacheState::Cold;
    mapped.testCase.fileSet = parseFileSet("300x1K-8K");
    mapped.testCase.totalBytes = 1200 * kKiB;
    run.cases.push_back(mapped);
    model.setResult(run);
    EXPECT_EQ(text(model, 1, M::BufferColumn), QStringLiteral("default"));
    EXPECT_EQ(text(model, 3, M::SyncColumn), QString::fromStdString(toString(SyncPolicy{})));
    EXPECT_TRUE(text(model, 3, M::ReadColumn).isEmpty()) << "a write has no hint or cache state";
    EXPECT_EQ(text(model, 5, M::ReadColumn), QStringLiteral("random, warm"));
    EXPECT_EQ(text(model, 6, M::ReadColumn), QStringLiteral("cold")) << "no hint: the cache state alone";
    EXPECT_TRUE(text(model, 5, M::SyncColumn).isEmpty()) << "a read has no sync policy";
    EXPECT_EQ(text(model, 5, M::ThreadsColumn), QStringLiteral("4"));
    EXPECT_EQ(text(model, 5, M::SizeColumn), QStringLiteral("64 MiB"));
    EXPECT_EQ(text(model, 6, M::SizeColumn), QStringLiteral("300x1K-8K (1.2 MiB)"));
    EXPECT_EQ(text(model, 5, M::StrategyColumn), QStringLiteral("read"));
    EXPECT_EQ(model.data(model.index(3, M::ChunkColumn), M::SortRole).toDouble(), 4096.0);
    EXPECT_EQ(model.data(model.index(5, M::ThreadsColumn), M::SortRole).toDouble(), 4.0);
    EXPECT_EQ(model.data(model.index(5, M::ThreadsColumn), Qt::TextAlignmentRole).value<Qt::Alignment>(),
              Qt::AlignRight | Qt::AlignVCenter);
    EXPECT_EQ(model.data(model.index(5, M::ReadColumn), Qt::TextAlignmentRole).value<Qt::Alignment>(),
              Qt::AlignLeft | Qt::AlignVCenter);

    // What answers "which is fastest" first, the axes after: the order the table had before the columns
    // came from the declarations, but for the reader CPU, which tells two rows of a pipe strategy apart and
    // so stands beside the strategy (a leading column), not past the figures.
    EXPECT_EQ(gui::ResultsView::defaultColumnOrder(),
              (std::vector<int>{M::CaseColumn,         M::StrategyColumn,
                                M::ChunkColumn,        M::ReaderCpuColumn,
                                M::PatternColumn,      M::UringColumn,
                                M::DurableColumn,      M::MedianColumn,
                                M::SpeedupColumn,      M::AtRiskColumn,
                                M::SurvivesKillColumn, M::StatusColumn,
                                M::StabilityColumn,    M::CiColumn,
                                M::TrimmedMeanColumn,  M::BufferColumn,
                                M::SyncColumn,         M::ReadColumn,
                                M::MixColumn,          M::QueueDepthColumn,
                                M::ThreadsColumn,      M::SizeColumn,
                                M::FreeShareColumn,    M::TimeLimitColumn,
                                M::SteadyColumn,       M::MemoryLimitColumn,
                                M::LatencyColumn,      M::CallP50Column,
                                M::CallP99Column,      M::CallP999Column,
                                M::SyncP99Column,      M::IopsColumn,
                                M::MixFiguresColumn,   M::FilesPerSecondColumn,
                                M::FileP50Column,      M::FileP99Column,
                                M::CpuColumn,          M::RssColumn,
                                M::TempColumn,         M::ReasonColumn}));
    const RunResult writes = sampleRun();
    EXPECT_EQ(gui::ResultsView::hiddenColumns(writes.cases, writes.refused),
              (std::vector<int>{M::ReadColumn,        M::ReaderCpuColumn,   M::MixColumn,
                                M::PatternColumn,     M::QueueDepthColumn,  M::UringColumn,
                                M::ThreadsColumn,     M::FreeShareColumn,   M::TimeLimitColumn,
                                M::SteadyColumn,      M::MemoryLimitColumn, M::LatencyColumn,
                                M::TrimmedMeanColumn, M::AtRiskColumn,      M::FilesPerSecondColumn,
                                M::FileP50Column,     M::FileP99Column,     M::CallP50Column,
                                M::CallP99Column,     M::CallP999Column,    M::SyncP99Column,
                                M::IopsColumn,        M::MixFiguresColumn,  M::TempColumn,
                                M::SurvivesKillColumn}))
        << "no case with an exposure (a file from before it): no column";
    EXPECT_EQ(gui::ResultsView::hiddenColumns({read}, {}),
              (std::vector<int>{
                  M::BufferColumn,      M::SyncColumn,         M::ReaderCpuColumn,   M::MixColumn,
                  M::PatternColumn,     M::QueueDepthColumn,   M::UringColumn,       M::FreeShareColumn,
                  M::TimeLimitColumn,   M::SteadyColumn,       M::MemoryLimitColumn, M::LatencyColumn,
                  M::TrimmedMeanColumn, M::DurableColumn,      M::AtRiskColumn,      M::FilesPerSecondColumn,
                  M::FileP50Column,     M::FileP99Column,      M::CallP50Column,     M::CallP99Column,
                  M::CallP999Column,    M::SyncP99Column,      M::IopsColumn,        M::MixFiguresColumn,
                  M::TempColumn,        M::SurvivesKillColumn, M::ReasonColumn}));

    // A pipe case shows where its reader ran; the column is shown as soon as one case writes into a pipe.
    CaseResult pipe = measuredCase(0, "vmsplice", 65536, BufferMode::NotApplicable, 8000.0);
    pipe.testCase.target = TargetKind::Pipe;
    pipe.testCase.readerCpu = ReaderCpu::Same;
    RunResult pipes;
    pipes.cases = {pipe};
    model.setResult(pipes);
    EXPECT_EQ(text(model, 0, M::ReaderCpuColumn), QStringLiteral("same"));
    EXPECT_FALSE(
        std::ranges::binary_search(gui::ResultsView::hiddenColumns(pipes.cases, {}), M::ReaderCpuColumn));
}

TEST(ResultsModel, SaysWhetherACaseSurvivesKill9AndItsSyncP99)
{
    using M = ResultsModel;
    RunResult run;
    CaseResult stdio = measuredCase(0, "stdio", 4096, BufferMode::Default, 500.0);
    CrashProbeResult probe;
    KillCheck kill;
    kill.landed = true;
    kill.acknowledgedBytes = 1 << 20;
    kill.lostBytes = 64 * 1024;
    probe.kills = {kill};
    stdio.crashProbe = probe;
    CaseResult write = measuredCase(1, "write", 4096, BufferMode::NotApplicable, 400.0);
    kill.lostBytes = 0;
    probe.kills = {kill};
    write.crashProbe = probe;
    LatencyDistribution syncs;
    syncs.summary.count = 100;
    syncs.summary.p99Ns = 7'390'000;
    write.syncLatency = syncs;
    CaseResult unprobed = measuredCase(2, "direct", 4096, BufferMode::NotApplicable, 300.0);
    run.cases = {stdio, write, unprobed};
    M model;
    model.setResult(run);
    EXPECT_EQ(text(model, 0, M::SurvivesKillColumn), QStringLiteral("no: loses up to 64 KiB"));
    EXPECT_EQ(text(model, 1, M::SurvivesKillColumn), QStringLiteral("yes"));
    EXPECT_TRUE(text(model, 2, M::SurvivesKillColumn).isEmpty()) << "not probed: nothing said";
    EXPECT_LT(model.data(model.index(0, M::SurvivesKillColumn), M::SortRole).toDouble(),
              model.data(model.index(1, M::SurvivesKillColumn), M::SortRole).toDouble())
        << "losing sorts below surviving";
    EXPECT_EQ(text(model, 1, M::SyncP99Column), QStringLiteral("7.39 ms"));
    EXPECT_TRUE(text(model, 0, M::SyncP99Column).isEmpty());
    const auto hidden = gui::ResultsView::hiddenColumns(run.cases, {});
    EXPECT_FALSE(std::ranges::binary_search(hidden, M::figureColumn(M::SurvivesKillColumn)));
    EXPECT_FALSE(std::ranges::binary_search(hidden, M::figureColumn(M::SyncP99Column)));
}
