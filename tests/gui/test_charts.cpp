// SPDX-License-Identifier: MIT
// The live charts stay bounded on long runs and refresh a few times a second; the results charts show every
// measured case, by chunk size and as a strategy x chunk heatmap.
#include "app/gui/heatmap.h"
#include "app/gui/live_charts.h"
#include "app/gui/results_model.h"
#include "app/gui/results_view.h"
#include "app/report/bar_chart_data.h"
#include "core/base/units.h"
#include "core/model/axes.h"
#include "tests/support/builtin_registry.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace iolab;
using namespace iolab::gui;

namespace {

Sample sampleAt(std::uint32_t caseIndex, double seconds, double mbps)
{
    Sample s;
    s.caseIndex = caseIndex;
    s.runSeconds = seconds;
    s.intervalMBps = mbps;
    s.deviceWriteMBps = mbps / 2;
    s.cpuUserPercent = 40;
    s.cpuSystemPercent = 60;
    s.rssBytes = 50 * kMiB;
    s.dirtyBytes = 10 * kMiB;
    return s;
}

CaseStarted caseNumber(std::uint32_t index, std::uint32_t count)
{
    CaseStarted c;
    c.index = index;
    c.count = count;
    c.testCase.strategy = "write";
    c.testCase.chunkBytes = 4096;
    c.testCase.totalBytes = kGiB;
    return c;
}

CaseResult measured(std::uint32_t index, const std::string& strategy, std::uint64_t chunk, double mbps)
{
    CaseResult c;
    c.index = index;
    c.testCase.strategy = strategy;
    c.testCase.chunkBytes = chunk;
    c.testCase.totalBytes = kGiB;
    c.apparentMBps.count = 3;
    c.apparentMBps.median = mbps;
    c.durableMBps =
        c.apparentMBps; // written and durable alike: the tests below set them apart when it matters
    return c;
}

} // namespace

TEST(PointBuffer, DecimatesOldPointsAndKeepsTheNewest)
{
    PointBuffer buffer(100, 0);
    for (int i = 0; i < 1000; ++i)
        buffer.append({static_cast<double>(i), static_cast<double>(i % 2)});
    EXPECT_LE(buffer.points().size(), 100u);
    EXPECT_GT(buffer.points().size(), 50u);
    EXPECT_GT(buffer.points().back().x(), 990) << "the newest points are there, averaged";
    EXPECT_LT(buffer.points().front().x(), 10) << "the start of the run is still there, coarser";
    // Every point stands for the same span.
    const double span = buffer.points()[1].x() - buffer.points()[0].x();
    EXPECT_NEAR(buffer.points()[20].x() - buffer.points()[19].x(), span, 1e-9);
    // 1000 samples into at most 100 points: each point now averages 16 samples (62 full points, the 63rd
    // holding the last 8). Point k stands for samples 16k to 16k + 15: x = 16k + 7.5, and of an alternating
    // 0/1 signal exactly half, y = 0.5.
    ASSERT_EQ(buffer.points().size(), 63u);
    for (std::size_t k = 0; k + 1 < buffer.points().size(); ++k) {
        EXPECT_DOUBLE_EQ(buffer.points()[k].x(), 16.0 * static_cast<double>(k) + 7.5) << k;
        EXPECT_DOUBLE_EQ(buffer.points()[k].y(), 0.5) << k;
    }
    // The last point, samples 992-999: x = (992 + 999) / 2 = 995.5, four ones in eight.
    EXPECT_DOUBLE_EQ(buffer.points().back().x(), 995.5);
    EXPECT_DOUBLE_EQ(buffer.points().back().y(), 0.5);
    EXPECT_TRUE(buffer.takeDirty());
    EXPECT_FALSE(buffer.takeDirty());
}

TEST(PointBuffer, AWindowDropsOldPoints)
{
    PointBuffer buffer(1000, 10);
    for (int i = 0; i <= 100; ++i)
        buffer.append({static_cast<double>(i), 1});
    EXPECT_EQ(buffer.points().front().x(), 90);
    EXPECT_EQ(buffer.points().size(), 11u);
}

// Issue 17: the memory chart's at-risk line, the bytes acknowledged but not yet durable, in MiB, on the
// memory chart's scale.
TEST(LiveCharts, TheMemoryChartDrawsTheBytesAtRisk)
{
    LiveCharts charts;
    charts.runStarted();
    charts.caseStarted(caseNumber(0, 1));
    for (int i = 0; i < 5; ++i) {
        Sample s = sampleAt(0, 0.1 * i, 100);
        s.atRiskBytes = static_cast<std::uint64_t>(i) * 64 * kMiB;
        charts.addSample(s);
    }
    charts.flush();
    QLineSeries* risk = charts.atRiskSeries();
    ASSERT_NE(risk, nullptr);
    EXPECT_EQ(risk->name(), QStringLiteral("at risk (acknowledged, not yet durable)"));
    ASSERT_EQ(risk->count(), 5);
    EXPECT_DOUBLE_EQ(risk->points().back().y(), 256.0);
    EXPECT_EQ(risk->attachedAxes(), charts.rssSeries()->attachedAxes()) << "the memory chart's axes";
    const auto* y = qobject_cast<QValueAxis*>(risk->attachedAxes().at(1));
    ASSERT_NE(y, nullptr);
    EXPECT_GE(y->max(), 256.0) << "the scale takes the line in";
    charts.runFinished();
}

// Issue 17: a case under a memory limit draws its memory cgroup's usage, page cache and dirty bytes; the
// lines (and their legend entries) stay hidden for runs without one, and hide again at the next run.
TEST(LiveCharts, TheMemoryChartDrawsTheMemoryCgroupOfACaseUnderALimit)
{
    LiveCharts charts;
    charts.runStarted();
    charts.caseStarted(caseNumber(0, 2));
    charts.addSample(sampleAt(0, 0.1, 100));
    charts.flush();
    EXPECT_FALSE(charts.budgetUsageSeries()->isVisible()) << "no limit, no cgroup lines";
    charts.caseStarted(caseNumber(1, 2));
    for (int i = 1; i <= 4; ++i) {
        Sample s = sampleAt(1, 0.2 + 0.1 * i, 100);
        s.budgetUsageBytes = static_cast<std::uint64_t>(i) * 16 * kMiB;
        s.budgetPageCacheBytes = static_cast<std::uint64_t>(i) * 15 * kMiB;
        s.budgetDirtyBytes = 8 * kMiB;
        s.budgetWritebackBytes = 2 * kMiB;
        charts.addSample(s);
    }
    charts.flush();
    for (QLineSeries* s :
         {charts.budgetUsageSeries(), charts.budgetCacheSeries(), charts.budgetDirtySeries()}) {
        EXPECT_TRUE(s->isVisible()) << s->name().toStdString();
        ASSERT_EQ(s->count(), 4) << s->name().toStdString();
        EXPECT_EQ(s->attachedAxes(), charts.rssSeries()->attachedAxes());
    }
    EXPECT_DOUBLE_EQ(charts.budgetUsageSeries()->points().back().y(), 64.0);
    EXPECT_DOUBLE_EQ(charts.budgetCacheSeries()->points().back().y(), 60.0);
    EXPECT_DOUBLE_EQ(charts.budgetDirtySeries()->points().back().y(), 10.0);
    const auto* y = qobject_cast<QValueAxis*>(charts.budgetUsageSeries()->attachedAxes().at(1));
    ASSERT_NE(y, nullptr);
    EXPECT_GE(y->max(), 64.0);
    EXPECT_THAT(charts.legendTexts().at(2).toStdString(), ::testing::HasSubstr("cgroup cache"));
    charts.runFinished();
    charts.runStarted();
    EXPECT_FALSE(charts.budgetUsageSeries()->isVisible()) << "a new run starts without them";
    EXPECT_THAT(charts.legendTexts().at(2).toStdString(), ::testing::Not(::testing::HasSubstr("cgroup")));
}

// Issue 34: at 1366x768 Qt's legends cut "at risk (acknowledged, not yet durable)" to "not y...": the legends
// are labels under the charts that wrap, every name whole.
TEST(LiveCharts, LegendsNameEverySeriesInFullAtAnyWidth)
{
    LiveCharts charts;
    charts.resize(700, 500);
    charts.show();
    QApplication::processEvents();
    const QStringList legends = charts.legendTexts();
    ASSERT_EQ(legends.size(), 3);
    EXPECT_THAT(legends[0].toStdString(), ::testing::HasSubstr("apparent (bytes handed to the API)"));
    EXPECT_THAT(legends[0].toStdString(), ::testing::HasSubstr("device (read + written)"));
    EXPECT_THAT(legends[1].toStdString(), ::testing::HasSubstr("system"));
    EXPECT_THAT(legends[2].toStdString(), ::testing::HasSubstr("at risk (acknowledged, not yet durable)"));
    EXPECT_THAT(legends[2].toStdString(), ::testing::HasSubstr("system Dirty + Writeback"));
    for (QChartView* view : charts.findChildren<QChartView*>())
        EXPECT_FALSE(view->chart()->legend()->isVisible()) << "Qt's legend elides";
    for (QLabel* label : charts.findChildren<QLabel*>())
        EXPECT_TRUE(label->wordWrap());
}

TEST(LiveCharts, StayBoundedOverALongRunAndRefreshAtLeastFourTimesASecond)
{
    LiveCharts charts;
    EXPECT_LE(LiveCharts::kRefreshMs, 250);
    charts.runStarted();
    double t = 0;
    // 10 cases, the last one 20,000 samples long (over half an hour at 10 Hz).
    for (std::uint32_t c = 0; c < 10; ++c) {
        charts.caseStarted(caseNumber(c, 10));
        const int n = c == 9 ? 20'000 : 300;
        for (int i = 0; i < n; ++i) {
            charts.addSample(sampleAt(c, t, 100 + c));
            t += 0.1;
        }
    }
    EXPECT_EQ(charts.apparentSeries()->count(), 0) << "points reach the series only on a refresh";
    QTest::qWait(LiveCharts::kRefreshMs * 2);
    EXPECT_GT(charts.apparentSeries()->count(), 0);
    EXPECT_LE(static_cast<std::size_t>(charts.apparentSeries()->count()), LiveCharts::kMaxPoints);
    EXPECT_EQ(charts.fadedCount(), LiveCharts::kFadedCases);
    // Seven series of at most kMaxPoints, twice (buffer and series), and the faded copies of ~300 points.
    EXPECT_LE(charts.pointsHeld(), 7 * 2 * LiveCharts::kMaxPoints + LiveCharts::kFadedCases * 301);
    EXPECT_GE(charts.cpuUserSeries()->points().back().x() - charts.cpuUserSeries()->points().front().x(), 100)
        << "the CPU chart shows its two-minute window";
    const auto* y = qobject_cast<QValueAxis*>(charts.cpuUserSeries()->attachedAxes().at(1));
    ASSERT_NE(y, nullptr);
    EXPECT_GE(y->max(), 100);
    charts.runFinished();
}

TEST(LiveCharts, NiceRangesAndCeilings)
{
    EXPECT_EQ(niceCeiling(0), 1);
    EXPECT_EQ(niceCeiling(3), 5);
    EXPECT_EQ(niceCeiling(1200), 2000);
    EXPECT_EQ(niceCeiling(0.07), 0.1);
    QValueAxis axis;
    setNiceRange(&axis, 0, 10000);
    EXPECT_EQ(axis.tickInterval(), 2000);
    setNiceRange(&axis, 0, 1); // from wide to narrow without ever pairing 0..10000 with a 0.2 step
    EXPECT_EQ(axis.max(), 1);
    EXPECT_DOUBLE_EQ(axis.tickInterval(), 0.2);
    EXPECT_EQ(axis.labelFormat(), QStringLiteral("%.1f"));
}

TEST(Heatmap, BestMedianPerStrategyAndChunk)
{
    std::vector<CaseResult> cases{measured(0, "stdio", 4096, 100), measured(1, "stdio", 4096, 300),
                                  measured(2, "write", 65536, 900), measured(3, "write", 4096, 50)};
    CaseResult failed = measured(4, "direct", 4096, 0);
    failed.status = Status::Failed;
    failed.apparentMBps = {};
    cases.push_back(failed);
    const auto data = HeatmapData::from(cases);
    EXPECT_EQ(data.strategies,
              (QStringList{QStringLiteral("stdio"), QStringLiteral("write"), QStringLiteral("direct")}));
    EXPECT_EQ(data.axis.name, QStringLiteral("chunk size")) << "automatic: the chunk size varies";
    EXPECT_EQ(data.columns, (std::vector<report::AxisValue>{4096, 65536}));
    EXPECT_EQ(data.columnLabel(1), QStringLiteral("64K"));
    EXPECT_EQ(data.axis.words(data.columns[1]), QStringLiteral("64 KiB chunk size")) << "the tooltip's words";
    EXPECT_EQ(*data.cells[0][0].bestMBps, 300);
    EXPECT_EQ(data.cells[0][0].cases, 2);
    EXPECT_FALSE(data.cells[0][1].bestMBps.has_value());
    EXPECT_EQ(data.cells[2][0].failed, 1);
    EXPECT_EQ(data.minMBps, 50);
    EXPECT_EQ(data.maxMBps, 900);
    EXPECT_NE(report::heatColour(50, 50, 900), report::heatColour(900, 50, 900));
}

TEST(Heatmap, APipesReaderPlacementsAreRowsOfTheirOwn)
{
    // vmsplice with its reader on the writer's CPU and on another: the best of the two must not pass one off
    // as the other, so each placement has its row; left to the scheduler, the row is the strategy's.
    auto pipe = [](std::uint32_t index, const char* strategy, double mbps, ReaderCpu placement) {
        CaseResult c = measured(index, strategy, 65536, mbps);
        c.testCase.target = TargetKind::Pipe;
        c.testCase.readerCpu = placement;
        return c;
    };
    const auto data = HeatmapData::from({pipe(0, "vmsplice", 9000, ReaderCpu::Same),
                                         pipe(1, "vmsplice", 2500, ReaderCpu::Other),
                                         pipe(2, "pipe-write", 4000, ReaderCpu::Any)});
    EXPECT_EQ(data.strategies,
              (QStringList{QStringLiteral("vmsplice cpu=same"), QStringLiteral("vmsplice cpu=other"),
                           QStringLiteral("pipe-write")}));
    EXPECT_EQ(*data.cells[1][0].bestMBps, 2500);

    // The PDF's case table says where a pipe's reader ran, in place of a sync policy a pipe cannot have.
    const auto syncColumn = std::find_if(caseTableColumns().begin(), caseTableColumns().end(),
                                         [](const CaseTableColumn& c) { return c.header == "Sync/read"; });
    ASSERT_NE(syncColumn, caseTableColumns().end());
    EXPECT_EQ(syncColumn->text(pipe(0, "vmsplice", 1, ReaderCpu::Same).testCase), "reader same");
    EXPECT_EQ(syncColumn->text(measured(3, "write", 4096, 1).testCase), "none");
}

// Issue 39: io_uring's options, a spinning reader and huge pages are what such a run asks about: each value
// has its row (a reviewer saw one cell, the SQPOLL ring's, for four option sets); a buffer does not.
TEST(Heatmap, IoUringOptionsAndPipeVariantsAreRowsOfTheirOwn)
{
    auto uring = [](std::uint32_t index, const char* options, double mbps) {
        CaseResult c = measured(index, "uring-random-read-direct", 4096, mbps);
        c.testCase.queueDepth = 32;
        c.testCase.uring = parseUringOptions(options);
        return c;
    };
    auto data = HeatmapData::from(
        {uring(0, "plain", 60), uring(1, "fixedbufs", 58), uring(2, "sqpoll", 310), uring(3, "auto", 80)});
    EXPECT_EQ(data.strategies, (QStringList{QStringLiteral("uring-random-read-direct plain"),
                                            QStringLiteral("uring-random-read-direct fixedbufs"),
                                            QStringLiteral("uring-random-read-direct sqpoll"),
                                            QStringLiteral("uring-random-read-direct")}));
    EXPECT_EQ(*data.cells[0][0].bestMBps, 60);

    auto pipe = [](std::uint32_t index, double mbps, const char* wait, const char* pages) {
        CaseResult c = measured(index, "vmsplice", 65536, mbps);
        c.testCase.target = TargetKind::Pipe;
        c.testCase.readerCpu = ReaderCpu::Other;
        c.testCase.extraAxes = {{"readerKinds", "thread"}, {"readerWaits", wait}, {"pipePages", pages}};
        return c;
    };
    data = HeatmapData::from({pipe(0, 4200, "block", "normal"), pipe(1, 7500, "spin", "normal"),
                              pipe(2, 3000, "block", "thp"), pipe(3, 7900, "spin", "thp")});
    EXPECT_EQ(data.strategies.size(), 4) << data.strategies.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(data.strategies.contains(QStringLiteral("vmsplice cpu=other")));

    // The control: two buffers of one strategy share a row, the best kept.
    CaseResult small = measured(0, "stdio", 4096, 100);
    CaseResult large = measured(1, "stdio", 4096, 300);
    small.testCase.buffer = {BufferMode::Bytes, 4096};
    large.testCase.buffer = {BufferMode::Bytes, 65536};
    data = HeatmapData::from({small, large});
    EXPECT_EQ(data.strategies, QStringList{QStringLiteral("stdio")});
}

TEST(BarChartData, OneBarPerVariantAndChunkWithTheBestRateAndItsSpeedUp)
{
    using report::BarChartData;
    std::vector<CaseResult> cases = {measured(0, "stdio", 4096, 200), measured(1, "write", 4096, 900),
                                     measured(2, "write", 65536, 1500), measured(3, "write", 4096, 700)};
    cases[0].testCase.buffer = {BufferMode::Default, 0};
    CaseResult buffered = measured(4, "stdio", 4096, 400);
    buffered.testCase.buffer = {BufferMode::Bytes, 64 * kKiB};
    cases.push_back(buffered);
    CaseResult failed = measured(5, "direct", 4096, 0);
    failed.status = Status::Failed;
    failed.apparentMBps = {};
    cases.push_back(failed);
    // Durable is what file writes rank by: case 1's durable rate is lower than case 3's.
    cases[1].durableMBps.median = 300;

    const auto apparent = BarChartData::from(cases, Ranking::Apparent);
    EXPECT_EQ(apparent.variants, (QStringList{QStringLiteral("stdio"), QStringLiteral("write"),
                                              QStringLiteral("stdio buf=64K")}))
        << "the default buffer goes unsaid; a failed case has no bar";
    EXPECT_EQ(apparent.axis.name, QStringLiteral("chunk size")) << "the charts' first axis";
    EXPECT_EQ(apparent.groups, (std::vector<report::AxisValue>{4096, 65536}));
    EXPECT_EQ(apparent.groupLabel(1), QStringLiteral("64K"));
    ASSERT_TRUE(apparent.bars[1][0].has_value());
    EXPECT_EQ(apparent.bars[1][0]->mbps, 900) << "the best of the two write 4K cases";
    EXPECT_EQ(apparent.bars[1][0]->caseIndex, 1u);
    EXPECT_DOUBLE_EQ(*apparent.bars[1][0]->speedUp, 4.5) << "over plain stdio at 4K";
    EXPECT_FALSE(apparent.bars[0][0]->speedUp.has_value()) << "the baseline itself";
    EXPECT_FALSE(apparent.bars[1][1]->speedUp.has_value()) << "no baseline at 64K";
    EXPECT_FALSE(apparent.bars[0][1].has_value());
    EXPECT_EQ(apparent.barsAt(0), 3u);
    EXPECT_EQ(apparent.barsAt(1), 1u);
    EXPECT_EQ(apparent.minMBps, 200);
    EXPECT_EQ(apparent.maxMBps, 1500);

    const auto durable = BarChartData::from(cases, Ranking::Durable);
    EXPECT_EQ(durable.bars[1][0]->mbps, 700) << "ranked by durable, case 3 is the better write at 4K";
    EXPECT_EQ(durable.bars[1][0]->caseIndex, 3u);
    EXPECT_TRUE(BarChartData::from({failed}, Ranking::Durable).empty());
}

TEST(ResultsView, FillsTheTableTheBarChartAndTheHeatmap)
{
    ResultsView view;
    view.resize(1000, 800);
    view.show();
    RunResult run;
    run.cases = {measured(0, "stdio", 4096, 2), measured(1, "write", 4096, 900),
                 measured(2, "write", 65536, 1500)};
    RepetitionResult quick;
    quick.index = 1;
    quick.returnSeconds = 0.05;
    quick.durableSeconds = 0.06;
    run.cases[2].repetitions = {quick};
    run.refused.push_back({run.cases[0].testCase, "duplicate of case 1"});
    view.setResult(run);
    EXPECT_EQ(view.model()->rowCount(), 4);
    EXPECT_EQ(view.heatmap()->data().strategies.size(), 2);
    const auto series = view.barChart()->series();
    ASSERT_EQ(series.size(), 1);
    auto* bars = qobject_cast<QBarSeries*>(series.front());
    ASSERT_NE(bars, nullptr);
    EXPECT_EQ(bars->count(), 2) << "a bar set per strategy variant";
    EXPECT_EQ(bars->barSets().at(1)->at(1), 1500);
    EXPECT_EQ(view.baselineChooser()->count(), 4) << "default plus each measured case";
    view.baselineChooser()->setCurrentIndex(2); // case 2: write 4K
    EXPECT_EQ(view.model()->index(2, ResultsModel::SpeedupColumn).data().toString(), QStringLiteral("1.67x"));
    EXPECT_THAT(view.warnings().join(QStringLiteral("\n")).toStdString(),
                ::testing::HasSubstr("short: a repetition took"));
    view.clear();
    EXPECT_EQ(view.model()->rowCount(), 0);
    EXPECT_TRUE(view.barChart()->series().isEmpty());
}

TEST(LiveCharts, AtTheEndOfARunTheTimeAxisFitsTheLastCaseNotAnEarlierLongOne)
{
    LiveCharts charts;
    charts.runStarted();
    double t = 0;
    charts.caseStarted(caseNumber(0, 2));
    for (int i = 0; i < 600; ++i, t += 0.1) // a minute
        charts.addSample(sampleAt(0, t, 100));
    charts.flush();
    EXPECT_GE(charts.throughputTimeAxis()->max(), 60);
    charts.caseStarted(caseNumber(1, 2));
    for (int i = 0; i < 4; ++i, t += 0.1) // 0.4 s
        charts.addSample(sampleAt(1, t, 300));
    charts.runFinished();
    EXPECT_LE(charts.throughputTimeAxis()->max(), 2) << "the 0.4 s case fills the chart";
    EXPECT_GE(charts.throughputTimeAxis()->max(), 0.3);
}

TEST(ResultsView, TrimmedMeanOnlyFromFiveRepetitionsAndEmptyColumnsHidden)
{
    ResultsView view;
    RunResult run;
    run.cases = {measured(0, "write", 4096, 100), measured(1, "write", 65536, 200)};
    view.setResult(run);
    QTableView* table = view.table();
    EXPECT_TRUE(table->isColumnHidden(ResultsModel::TrimmedMeanColumn));
    EXPECT_TRUE(table->isColumnHidden(ResultsModel::FilesPerSecondColumn)) << "no file-set read";
    EXPECT_TRUE(table->isColumnHidden(ResultsModel::ReadColumn)) << "no read";
    EXPECT_FALSE(table->isColumnHidden(ResultsModel::DurableColumn));
    EXPECT_FALSE(table->isColumnHidden(ResultsModel::SpeedupColumn));
    EXPECT_FALSE(table->isColumnHidden(ResultsModel::StatusColumn));
    for (auto& c : run.cases)
        c.apparentMBps.count = 5;
    view.setResult(run);
    EXPECT_FALSE(table->isColumnHidden(ResultsModel::TrimmedMeanColumn));
    // The answer's columns come right after the case's name.
    auto* header = table->horizontalHeader();
    EXPECT_LT(header->visualIndex(ResultsModel::DurableColumn),
              header->visualIndex(ResultsModel::BufferColumn));
    EXPECT_LT(header->visualIndex(ResultsModel::SpeedupColumn),
              header->visualIndex(ResultsModel::SizeColumn));
    EXPECT_LT(header->visualIndex(ResultsModel::StatusColumn), header->visualIndex(ResultsModel::CpuColumn));
}

TEST(ResultsView, WideSpreadsStartOnALogScaleAndLegendsKeepWholeNames)
{
    EXPECT_TRUE(ResultsView::wantsLogScale(2, 900));
    EXPECT_TRUE(ResultsView::wantsLogScale(10, 400)) << "40x apart";
    EXPECT_FALSE(ResultsView::wantsLogScale(100, 900));
    EXPECT_FALSE(ResultsView::wantsLogScale(0, 900));
    ResultsView view;
    view.resize(700, 600);
    view.show();
    RunResult run;
    run.cases = {measured(0, "mmap-batch-direct", 4096, 10), measured(1, "stdio-unlocked", 4096, 3000)};
    view.setResult(run);
    EXPECT_TRUE(view.logScaleChoice()->isChecked()) << "300x apart: the small bar stays visible";
    EXPECT_FALSE(view.barChart()->legend()->isVisible()) << "Qt's legend elides long names";
    EXPECT_THAT(view.barLegendText().toStdString(), ::testing::HasSubstr("mmap-batch-direct"));
    EXPECT_THAT(view.barLegendText().toStdString(), ::testing::HasSubstr("stdio-unlocked"));
    run.cases[0].apparentMBps.median = 1000;
    run.cases[0].durableMBps.median = 1000;
    view.setResult(run);
    EXPECT_FALSE(view.logScaleChoice()->isChecked());
}

namespace {

// A write to a file whose calls returned at `apparent` MB/s and whose data was on the disk at `durable`.
CaseResult fileWrite(std::uint32_t index, const std::string& strategy, double apparent, double durable)
{
    CaseResult c = measured(index, strategy, 65536, apparent);
    c.testCase.sync = {SyncMode::FsyncEnd, 0};
    c.durableMBps.count = 3;
    c.durableMBps.median = durable;
    return c;
}

} // namespace

TEST(ResultsView, TheSummaryComesFirstAndTheRankingSwitchReRanksEverything)
{
    ResultsView view;
    view.setRegistry(&iolab::test::builtinRegistry());
    view.resize(1000, 800);
    view.show();
    RunResult run;
    // write returns fastest but reaches the disk slowest; stdio is the baseline; vmsplice writes into a pipe.
    run.cases = {fileWrite(0, "stdio", 1000, 500), fileWrite(1, "write", 3850, 400),
                 fileWrite(2, "direct", 900, 880), measured(3, "vmsplice", 65536, 9000)};
    run.cases[3].testCase.target = TargetKind::Pipe;
    view.setResult(run);

    EXPECT_EQ(view.ranking(), Ranking::Durable) << "writes to a file rank by durable by default";
    const std::string summary = view.verdictText().toStdString();
    EXPECT_FALSE(summary.empty());
    EXPECT_THAT(summary, ::testing::HasSubstr("direct")) << summary;
    EXPECT_THAT(summary, ::testing::HasSubstr("durable")) << summary;

    // The table: speed-up by durable; none for the pipe against the file baseline.
    auto* model = view.model();
    EXPECT_EQ(model->index(2, ResultsModel::SpeedupColumn).data().toString(), QStringLiteral("1.76x"));
    EXPECT_EQ(model->index(1, ResultsModel::SpeedupColumn).data().toString(), QStringLiteral("0.80x"));
    EXPECT_FALSE(model->index(3, ResultsModel::SpeedupColumn).data().isValid());
    EXPECT_FALSE(model->index(3, ResultsModel::DurableColumn).data().isValid()) << "a pipe keeps nothing";

    // Charts: one group at a time, writes to a file first, bars by durable.
    ASSERT_EQ(view.groupChooser()->count(), 2);
    EXPECT_TRUE(view.groupChooser()->currentText().contains(QStringLiteral("file")));
    auto barsOf = [&view] {
        std::map<QString, double> out;
        const auto series = view.barChart()->series();
        if (series.isEmpty())
            return out;
        for (QBarSet* set : qobject_cast<QBarSeries*>(series.front())->barSets())
            out[set->label().section(QLatin1Char(' '), 0, 0)] = set->at(0);
        return out;
    };
    auto bars = barsOf();
    EXPECT_EQ(bars.count(QStringLiteral("vmsplice")), 0u) << "a pipe is never charted against files";
    EXPECT_EQ(bars[QStringLiteral("write")], 400);
    EXPECT_EQ(bars[QStringLiteral("direct")], 880);
    EXPECT_THAT(view.barChart()->title().toStdString(), ::testing::HasSubstr("Durable"));
    EXPECT_DOUBLE_EQ(view.heatmap()->data().maxMBps, 880) << "the heatmap ranks by durable too";

    view.rankingChooser()->setCurrentIndex(
        view.rankingChooser()->findData(static_cast<int>(Ranking::Apparent)));
    EXPECT_EQ(view.ranking(), Ranking::Apparent);
    bars = barsOf();
    EXPECT_EQ(bars[QStringLiteral("write")], 3850);
    EXPECT_DOUBLE_EQ(view.heatmap()->data().maxMBps, 3850);
    EXPECT_EQ(model->index(1, ResultsModel::SpeedupColumn).data().toString(), QStringLiteral("3.85x"));
    EXPECT_NE(view.verdictText().toStdString(), summary) << "the summary follows the ranking";

    view.groupChooser()->setCurrentIndex(1);
    bars = barsOf();
    EXPECT_EQ(bars.size(), 1u);
    EXPECT_EQ(bars[QStringLiteral("vmsplice")], 9000);
    EXPECT_EQ(view.heatmap()->data().strategies, QStringList{QStringLiteral("vmsplice")});
}

TEST(ResultsView, EveryTabIsAnEntryOfOneListThatSaysHowTheViewKeepsIt)
{
    ResultsView view;
    view.setRegistry(&iolab::test::builtinRegistry());
    view.resize(1000, 800);
    view.show();
    QTabWidget* tabs = view.tabs();
    const std::vector<ResultsPage>& pages = view.pages();
    ASSERT_EQ(static_cast<std::size_t>(tabs->count()), pages.size());
    const auto shownAsItSays = [&] {
        for (int i = 0; i < tabs->count(); ++i) {
            const ResultsPage& page = pages[static_cast<std::size_t>(i)];
            EXPECT_EQ(tabs->widget(i), page.page) << i;
            EXPECT_EQ(tabs->tabText(i), page.title);
            EXPECT_EQ(tabs->isTabVisible(i), !page.hasContent || page.hasContent())
                << page.title.toStdString();
        }
    };
    shownAsItSays();
    EXPECT_EQ(tabs->currentWidget(), view.table()->parentWidget()) << "no result: the table";

    // Two comparison groups: the chooser is shown over exactly the pages that say they follow it.
    RunResult run;
    run.cases = {fileWrite(0, "stdio", 1000, 500), fileWrite(1, "write", 3850, 400),
                 measured(2, "vmsplice", 65536, 9000)};
    run.cases[2].testCase.target = TargetKind::Pipe;
    view.setResult(run);
    shownAsItSays();
    ASSERT_EQ(view.groupChooser()->count(), 2);
    int withChooser = 0;
    for (int i = 0; i < tabs->count(); ++i) {
        if (!tabs->isTabVisible(i))
            continue;
        tabs->setCurrentIndex(i);
        const ResultsPage& page = pages[static_cast<std::size_t>(i)];
        EXPECT_EQ(view.groupChooser()->isVisible(), page.groupChooser) << page.title.toStdString();
        withChooser += page.groupChooser ? 1 : 0;
    }
    EXPECT_EQ(withChooser, 3) << "the table, the bars and the heatmap";

    // Every page that draws in the palette's colours is told of a dark one.
    view.setDark(true);
    EXPECT_EQ(view.barChart()->theme(), QChart::ChartThemeDark);
    view.setDark(false);
    EXPECT_EQ(view.barChart()->theme(), QChart::ChartThemeLight);
    EXPECT_EQ(std::count_if(pages.begin(), pages.end(), [](const ResultsPage& p) { return bool(p.setDark); }),
              6)
        << "the grid, the sync lab, the sustained write, the bars, latency and queue depth";
}
