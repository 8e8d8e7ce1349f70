// SPDX-License-Identifier: MIT
// Issue 16's views: the latency histogram's chart data (merged bins, percentile markers, a log axis of whole
// decades), the queue-depth sweep's series, the CrystalDiskMark grid widget and its text on the clipboard,
// the results table's p50/p99/p99.9/IOPS columns, the Latency, Queue depth and CrystalDiskMark tabs, and the
// PDF's Latency section.
#include "app/gui/cdm_grid_view.h"
#include "app/gui/latency_view.h"
#include "app/gui/qd_sweep_view.h"
#include "app/gui/results_model.h"
#include "app/gui/results_view.h"
#include "app/report/latency_chart_data.h"
#include "app/report/pdf_report.h"
#include "app/report/qd_sweep_data.h"
#include "core/analysis/cdm_grid.h"
#include "core/base/latency_histogram.h"
#include "core/base/units.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QListWidget>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QtCharts/QChart>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <numeric>

using namespace iolab;
using namespace iolab::test;
using gui::ResultsModel;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// A case whose calls took about `typicalNs` with a tail ten times slower in one call of a hundred.
CaseResult timedCase(std::uint32_t index, std::string strategy, Direction direction, std::uint64_t chunk,
                     std::uint32_t queueDepth, double mbps, std::uint64_t typicalNs)
{
    CaseResult c;
    c.index = index;
    c.testCase.strategy = std::move(strategy);
    c.testCase.direction = direction;
    c.testCase.chunkBytes = chunk;
    c.testCase.totalBytes = 64 * kMiB;
    c.testCase.queueDepth = queueDepth;
    c.apparentMBps.count = 3;
    c.apparentMBps.median = mbps;
    c.apparentMBps.min = mbps * 0.9;
    c.apparentMBps.max = mbps * 1.1;
    c.durableMBps = c.apparentMBps;
    LatencyHistogram h;
    for (int i = 0; i < 9900; ++i)
        h.record(typicalNs + static_cast<std::uint64_t>(i % 50) * typicalNs / 100);
    for (int i = 0; i < 100; ++i)
        h.record(typicalNs * 10 + static_cast<std::uint64_t>(i) * typicalNs / 10);
    c.callLatency = h.distribution();
    c.latencyChoice = "recorded: each call is a system call";
    return c;
}

} // namespace

TEST(LatencyChartData, MergesBucketsAndMarksThePercentilesOnALogAxis)
{
    const CaseResult c = timedCase(0, "write", Direction::Write, 4 * kKiB, 0, 800, 20000);
    const auto d = report::LatencyChartData::from({c}, report::LatencyKind::Calls);
    ASSERT_EQ(d.curves.size(), 1u);
    const auto& curve = d.curves.front();
    // Merged: far fewer bins than the histogram's buckets, every share of the calls kept.
    EXPECT_LT(curve.bins.size(), c.callLatency->buckets.size() / 4);
    const double total = std::accumulate(curve.bins.begin(), curve.bins.end(), 0.0,
                                         [](double sum, const auto& bin) { return sum + bin.share; });
    EXPECT_NEAR(total, 1.0, 1e-9);
    for (std::size_t i = 1; i < curve.bins.size(); ++i) {
        EXPECT_LT(curve.bins[i - 1].lowNs, curve.bins[i].lowNs);
        // A third of an octave each: high / low = 2^(1/3).
        EXPECT_NEAR(curve.bins[i].highNs / curve.bins[i].lowNs, std::exp2(1.0 / 3), 1e-9);
    }
    ASSERT_EQ(curve.markers.size(), 3u);
    EXPECT_EQ(curve.markers[0].name, QStringLiteral("p50"));
    EXPECT_EQ(curve.markers[0].ns, static_cast<double>(c.callLatency->summary.p50Ns));
    EXPECT_EQ(curve.markers[1].ns, static_cast<double>(c.callLatency->summary.p99Ns));
    EXPECT_EQ(curve.markers[2].name, QStringLiteral("p99.9"));
    EXPECT_EQ(curve.markers[2].ns, static_cast<double>(c.callLatency->summary.p999Ns));
    // The axis: whole decades around every bin, 10 us to 1 ms here.
    EXPECT_EQ(d.minNs, 1e4);
    EXPECT_EQ(d.maxNs, 1e6);
    EXPECT_EQ(d.ticks(), (std::vector<double>{1e4, 1e5, 1e6}));
    EXPECT_EQ(report::latencyTickLabel(1e4), QStringLiteral("10 us"));
    EXPECT_EQ(report::latencyTickLabel(1e6), QStringLiteral("1 ms"));
    EXPECT_EQ(report::latencyTickLabel(100), QStringLiteral("100 ns"));
    EXPECT_GT(d.maxShare, 0.1);

    // Only the chosen cases, only those with latencies of the kind asked for.
    CaseResult untimed = c;
    untimed.callLatency.reset();
    EXPECT_TRUE(report::LatencyChartData::from({untimed}, report::LatencyKind::Calls).empty());
    EXPECT_TRUE(report::LatencyChartData::from({c}, report::LatencyKind::SyncCalls).empty());
    EXPECT_EQ(report::LatencyChartData::from({untimed, c, c}, report::LatencyKind::Calls, {1}).curves.size(),
              1u);
}

TEST(QdSweepData, CasesEqualButForQueueDepthFormOneSeriesSortedByDepth)
{
    std::vector<CaseResult> cases;
    cases.push_back(timedCase(0, "uring-random-read-direct", Direction::Read, 4 * kKiB, 32, 900, 90000));
    cases.push_back(timedCase(1, "uring-random-read-direct", Direction::Read, 4 * kKiB, 1, 60, 60000));
    cases.push_back(timedCase(2, "uring-random-read-direct", Direction::Read, 4 * kKiB, 4, 300, 50000));
    cases.push_back(timedCase(3, "uring-random-write-direct", Direction::Write, 4 * kKiB, 1, 50, 70000));
    cases.push_back(timedCase(4, "uring-random-write-direct", Direction::Write, 4 * kKiB, 32, 700, 200000));
    cases.push_back(timedCase(5, "write", Direction::Write, 4 * kKiB, 0, 500, 8000));
    // One depth only: no sweep.
    cases.push_back(timedCase(6, "uring-random-read-direct", Direction::Read, 64 * kKiB, 8, 2000, 90000));
    const auto d = report::QdSweepData::from(cases, Ranking::Durable);
    ASSERT_EQ(d.series.size(), 2u);
    const auto& reads = d.series[0];
    EXPECT_THAT(reads.name.toStdString(), HasSubstr("uring-random-read-direct"));
    EXPECT_THAT(reads.name.toStdString(), HasSubstr("4K"));
    ASSERT_EQ(reads.points.size(), 3u);
    EXPECT_EQ(reads.points[0].queueDepth, 1u);
    EXPECT_EQ(reads.points[1].queueDepth, 4u);
    EXPECT_EQ(reads.points[2].queueDepth, 32u);
    EXPECT_EQ(reads.points[2].mbps, 900);
    EXPECT_EQ(reads.points[2].caseIndex, 0u);
    ASSERT_TRUE(reads.points[0].latencyNs.has_value());
    EXPECT_EQ(*reads.points[0].latencyNs, static_cast<double>(cases[1].callLatency->summary.p99Ns));
    EXPECT_EQ(d.series[1].points.size(), 2u);
    EXPECT_EQ(d.minQueueDepth, 1u);
    EXPECT_EQ(d.maxQueueDepth, 32u);
    EXPECT_EQ(d.ticks(), (std::vector<std::uint32_t>{1, 2, 4, 8, 16, 32}));
    EXPECT_TRUE(d.hasLatency());

    // A run without a sweep has none.
    EXPECT_TRUE(report::QdSweepData::from({cases[5], cases[6]}, Ranking::Durable).empty());
    EXPECT_TRUE(report::QdSweepData::from({}, Ranking::Durable).empty());
}

namespace {

// The cdm preset's cases on one chunk each, as a run of it leaves them (no refused family, for brevity).
RunResult cdmRun()
{
    RunResult r;
    r.toolVersion = "test";
    r.target.path = "/work/x";
    const auto add = [&r](std::string strategy, Direction direction, std::uint64_t chunk, std::uint32_t qd,
                          double mbps) {
        r.cases.push_back(timedCase(static_cast<std::uint32_t>(r.cases.size()), std::move(strategy),
                                    direction, chunk, qd, mbps, 50000));
    };
    add("uring-read-direct", Direction::Read, kMiB, 8, 2100.5);
    add("uring-write-direct", Direction::Write, kMiB, 8, 1800.25);
    add("uring-read-direct", Direction::Read, kMiB, 1, 1500);
    add("uring-write-direct", Direction::Write, kMiB, 1, 1200);
    add("uring-random-read-direct", Direction::Read, 4 * kKiB, 32, 450);
    add("uring-random-write-direct", Direction::Write, 4 * kKiB, 32, 380);
    add("uring-random-read-direct", Direction::Read, 4 * kKiB, 1, 45.5);
    return r; // RND4K Q1T1 write did not run
}

} // namespace

TEST(CdmGridView, ShowsTheFiguresAndCopiesTheGridAsText)
{
    const RunResult run = cdmRun();
    const auto grid = cdmGrid(run, builtinRegistry());
    ASSERT_TRUE(grid.has_value());
    gui::CdmGridView view;
    view.setGrid(*grid, run);
    const auto number = [](double v) {
        return QLocale().toString(v, 'f', 2);
    };
    EXPECT_EQ(view.figureText(0, 0), number(2100.5));
    EXPECT_EQ(view.figureText(0, 1), number(1800.25));
    EXPECT_EQ(view.figureText(2, 0), number(450));
    EXPECT_EQ(view.figureText(3, 0), number(45.5));
    // The spread and "IOPS · p99" under the figure.
    EXPECT_THAT(view.detailText(2, 0).toStdString(), HasSubstr("IOPS"));
    EXPECT_THAT(view.detailText(2, 0).toStdString(), HasSubstr("p99"));
    EXPECT_THAT(view.detailText(2, 0).toStdString(), HasSubstr(number(405).toStdString())); // the slowest
    // The cell that did not run says so, its note in the tooltip.
    EXPECT_EQ(view.figureText(3, 1), QStringLiteral("\u2014"));
    EXPECT_THAT(view.cellToolTip(3, 1).toStdString(), HasSubstr("not in this run"));

    QApplication::clipboard()->clear();
    view.copyButton()->click();
    EXPECT_EQ(QApplication::clipboard()->text(), QString::fromStdString(cdmGridText(*grid, run)));
    EXPECT_THAT(QApplication::clipboard()->text().toStdString(), HasSubstr("SEQ1M Q8T1"));
}

TEST(ResultsModel, ShowsCallPercentilesAndIopsAndHidesThemWithoutLatency)
{
    RunResult run;
    run.cases.push_back(timedCase(0, "write", Direction::Write, 4 * kKiB, 0, 409.6, 20000));
    CaseResult untimed = timedCase(1, "stdio", Direction::Write, 4 * kKiB, 0, 100, 1000);
    untimed.callLatency.reset();
    run.cases.push_back(untimed);
    ResultsModel model;
    model.setResult(run);
    const auto cell = [&](int row, ResultsModel::Column figure, int role = Qt::DisplayRole) {
        return model.data(model.index(row, ResultsModel::figureColumn(figure)), role);
    };
    const LatencySummary& s = run.cases[0].callLatency->summary;
    EXPECT_EQ(cell(0, ResultsModel::CallP50Column).toString(),
              QString::fromStdString(formatLatency(static_cast<double>(s.p50Ns) * 1e-9)));
    EXPECT_EQ(cell(0, ResultsModel::CallP99Column).toString(),
              QString::fromStdString(formatLatency(static_cast<double>(s.p99Ns) * 1e-9)));
    EXPECT_EQ(cell(0, ResultsModel::CallP99Column, ResultsModel::SortRole).toDouble(),
              static_cast<double>(s.p99Ns));
    EXPECT_EQ(cell(0, ResultsModel::CallP999Column, ResultsModel::SortRole).toDouble(),
              static_cast<double>(s.p999Ns));
    // 409.6 MB/s in 4096-byte calls: 100,000 a second.
    EXPECT_NEAR(cell(0, ResultsModel::IopsColumn, ResultsModel::SortRole).toDouble(), 100000, 1e-6);
    EXPECT_EQ(cell(0, ResultsModel::IopsColumn).toString(), QLocale().toString(100000.0, 'f', 0));
    EXPECT_FALSE(cell(1, ResultsModel::CallP99Column).isValid());
    EXPECT_EQ(cell(1, ResultsModel::CallP99Column, ResultsModel::SortRole).toDouble(), -1.0);
    EXPECT_EQ(
        model.headerData(ResultsModel::figureColumn(ResultsModel::CallP999Column), Qt::Horizontal).toString(),
        QStringLiteral("p99.9"));
    EXPECT_FALSE(ResultsModel::columnToolTip(ResultsModel::figureColumn(ResultsModel::IopsColumn)).isEmpty());

    const auto hidden = [](const std::vector<CaseResult>& cases, ResultsModel::Column figure) {
        const auto h = gui::ResultsView::hiddenColumns(cases, {});
        return std::binary_search(h.begin(), h.end(), ResultsModel::figureColumn(figure));
    };
    EXPECT_FALSE(hidden(run.cases, ResultsModel::CallP99Column));
    EXPECT_FALSE(hidden(run.cases, ResultsModel::IopsColumn));
    EXPECT_TRUE(hidden({untimed}, ResultsModel::CallP50Column));
    EXPECT_TRUE(hidden({untimed}, ResultsModel::CallP99Column));
    EXPECT_TRUE(hidden({untimed}, ResultsModel::CallP999Column));
    EXPECT_TRUE(hidden({untimed}, ResultsModel::IopsColumn));
}

TEST(LatencyView, OverlaysTickedCasesAndSaysWhyWhenNothingWasTimed)
{
    gui::LatencyView view;
    std::vector<CaseResult> cases{timedCase(0, "write", Direction::Write, 4 * kKiB, 0, 400, 20000),
                                  timedCase(1, "direct", Direction::Write, 4 * kKiB, 0, 200, 90000)};
    cases[1].syncLatency = cases[1].callLatency;
    view.setCases(cases);
    ASSERT_TRUE(view.hasLatency());
    EXPECT_TRUE(view.messageText().isEmpty());
    ASSERT_EQ(view.caseList()->count(), 2);
    EXPECT_EQ(view.shown().curves.size(), 1u); // the first case, ticked by default
    view.caseList()->item(1)->setCheckState(Qt::Checked);
    EXPECT_EQ(view.shown().curves.size(), 2u);
    EXPECT_GT(view.chart()->series().size(), 2);
    EXPECT_THAT(view.notesText().toStdString(), HasSubstr("recorded: each call is a system call"));
    // Sync calls: only the case that made some.
    EXPECT_TRUE(view.kindChooser()->isEnabled());
    view.kindChooser()->setCurrentIndex(1);
    EXPECT_EQ(view.caseList()->count(), 1);
    EXPECT_EQ(view.shown().kind, report::LatencyKind::SyncCalls);

    for (auto& c : cases) {
        c.callLatency.reset();
        c.syncLatency.reset();
        c.latencyChoice = "not recorded: latency was off";
    }
    view.setCases(cases);
    EXPECT_FALSE(view.hasLatency());
    EXPECT_THAT(view.messageText().toStdString(), HasSubstr("not recorded: latency was off"));
}

TEST(ResultsView, ShowsTheCdmTabFirstAndTheQueueDepthTabOnlyForASweep)
{
    gui::ResultsView view;
    EXPECT_EQ(view.tabs()->currentIndex(), view.tabs()->indexOf(view.table()->parentWidget()));
    view.setRegistry(&builtinRegistry());
    RunResult run = cdmRun();
    view.setResult(run);
    EXPECT_TRUE(view.isTabShown(view.cdmGridView()));
    EXPECT_TRUE(view.tabs()->currentWidget()->isAncestorOf(view.cdmGridView()));
    EXPECT_EQ(view.tabs()->currentIndex(),
              view.tabs()->indexOf(view.cdmGridView()->parentWidget()->parentWidget()));
    EXPECT_TRUE(view.isTabShown(view.qdSweepView())); // SEQ1M at QD 8 and 1
    EXPECT_TRUE(view.isTabShown(view.latencyView()));

    RunResult plain;
    plain.cases.push_back(timedCase(0, "write", Direction::Write, 4 * kKiB, 0, 400, 20000));
    view.setResult(plain);
    EXPECT_FALSE(view.isTabShown(view.cdmGridView()));
    // The grid's tab was current; hidden, it hands over to the table rather than show an empty page.
    EXPECT_EQ(view.tabs()->currentIndex(), view.tabs()->indexOf(view.table()->parentWidget()));
    EXPECT_FALSE(view.isTabShown(view.qdSweepView()));
    EXPECT_TRUE(view.latencyView()->hasLatency());
}

TEST(Report, HasALatencySectionWithThePercentileTable)
{
    TempDir dir;
    RunResult run = cdmRun();
    run.cases[1].syncLatency = run.cases[1].callLatency;
    const QByteArray pdf =
        report::renderPdfReport(run, {report::PageFormat::A4, {}, Ranking::Durable}, &builtinRegistry());
    const std::string path = dir / "latency.pdf";
    std::ofstream(path, std::ios::binary).write(pdf.constData(), pdf.size());
    const auto text = runHostTool("pdftotext", {"-layout", path, "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("Latency"));
    for (const char* header : {"p50", "p90", "p99", "p99.9", "p99.99", "Max", "Mean"})
        EXPECT_THAT(text.out, HasSubstr(header));
    const LatencySummary& s = run.cases[4].callLatency->summary;
    EXPECT_THAT(text.out, HasSubstr(formatLatency(static_cast<double>(s.p99Ns) * 1e-9)));
    EXPECT_THAT(text.out, HasSubstr("sync"));
    EXPECT_THAT(text.out, HasSubstr("latency of the calls"));
    EXPECT_THAT(text.out, HasSubstr("Queue depth"));
    EXPECT_THAT(text.out, HasSubstr("CrystalDiskMark-style grid"));
    EXPECT_THAT(text.out, HasSubstr("SEQ1M Q8T1"));

    // No latency, no section.
    RunResult untimed = run;
    for (auto& c : untimed.cases) {
        c.callLatency.reset();
        c.syncLatency.reset();
    }
    const QByteArray plain =
        report::renderPdfReport(untimed, {report::PageFormat::A4, {}, Ranking::Durable}, &builtinRegistry());
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(plain.constData(), plain.size());
    const auto plainText = runHostTool("pdftotext", {path, "-"});
    EXPECT_THAT(plainText.out, ::testing::Not(HasSubstr("p99.99")));
}

// The health verdict as a ticket's text (issue 34 §1), as the CrystalDiskMark grid has: the run named, then
// the Summary as the CLI prints it, the health lines first.
TEST(ResultsView, CopiesTheHealthVerdictAsTextForATicket)
{
    gui::ResultsView view;
    view.setRegistry(&builtinRegistry());
    EXPECT_FALSE(view.copySummaryButton()->isEnabled()) << "nothing to copy before a result";
    EXPECT_TRUE(view.summaryAsText().isEmpty());
    RunResult run = cdmRun();
    run.matrix.name = "health-check";
    run.startedAt = "2026-11-28T02:00:00Z";
    run.target.fsType = "ext4";
    run.target.mountSource = "/dev/sda1";
    run.target.deviceModel = "Samsung SSD 870 EVO 1TB";
    run.system.gathered = true;
    run.system.deviceClass = DeviceClass::SataSsd;
    view.setResult(run);
    ASSERT_TRUE(view.copySummaryButton()->isEnabled());

    QApplication::clipboard()->clear();
    view.copySummaryButton()->click();
    const std::string text = QApplication::clipboard()->text().toStdString();
    EXPECT_EQ(QApplication::clipboard()->text(), view.summaryAsText());
    EXPECT_TRUE(
        text.starts_with("IOLab test: health-check on /work/x (ext4 on /dev/sda1, Samsung SSD 870 EVO "
                         "1TB), started 2026-11-28T02:00:00Z\n\nSummary\n"))
        << text;
    // The health verdict leads, each dimension against the SATA SSD range, then the strategy ranking.
    const auto health = text.find("Health check: is this storage as fast as its kind of device should be?");
    const auto ranking = text.find("Ways of doing the I/O, compared:");
    ASSERT_NE(health, std::string::npos) << text;
    ASSERT_NE(ranking, std::string::npos) << text;
    EXPECT_LT(health, ranking);
    EXPECT_THAT(text, HasSubstr("(typical 200-530 MB/s)"));
    EXPECT_THAT(text, HasSubstr("Overall: "));
    EXPECT_THAT(text, Not(HasSubstr("<"))) << "plain text, no markup";
    for (std::size_t pos = 0, end = 0; pos < text.size(); pos = end + 1) {
        end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        if (pos > 0) { // the first line names the run; the Summary is wrapped for a ticket
            EXPECT_LE(end - pos, 100u) << text.substr(pos, end - pos);
        }
    }

    view.clear();
    EXPECT_FALSE(view.copySummaryButton()->isEnabled());
}
