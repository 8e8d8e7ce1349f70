// SPDX-License-Identifier: MIT
// Issue 17's sync lab as the app and the PDF show it: the chart's data (one op size at a time, fastest first,
// the p99 whisker per op, the kinds of durability), the Sync lab tab (shown only for a run that compares
// durable methods, with a bar per method and a whisker per timed one), the Summary leading with the two
// verdicts, and the PDF's sync lab section.
#include "app/gui/results_view.h"
#include "app/gui/sync_lab_view.h"
#include "app/report/pdf_report.h"
#include "app/report/sync_lab_chart_data.h"
#include "core/analysis/verdict.h"
#include "core/base/units.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/process.h"
#include "tests/support/sync_cases.h"
#include "tests/support/temp_dir.h"

#include <QCheckBox>
#include <QComboBox>
#include <QTabWidget>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

using namespace iolab;
using namespace iolab::test;
using Data = report::SyncLabChartData;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

namespace {

// A small sync lab: no sync, fdatasync (overwriting, appending, rewriting one block), open_datasync, pwritev2
// RWF_DSYNC, sync_file_range, and open_sync at two of pg_test_fsync's sizes (16 KiB per op).
RunResult syncLab()
{
    RunResult r;
    r.matrix.name = "sync-lab";
    r.target.path = "/tmp";
    r.target.fsType = "ext4";
    r.cases = {
        syncMethodCase(0, "write", {}, 200'000, 10'000),
        syncMethodCase(1, "write", {SyncMode::FdatasyncEvery, 1}, 4'000, 900'000),
        syncMethodCase(2, "write", {SyncMode::FdatasyncEvery, 1}, 2'500, 2'000'000, Preallocate::None),
        syncMethodCase(3, "direct", {SyncMode::ODsync, 0}, 5'000, 400'000),
        syncMethodCase(4, "pwritev2-dsync", {}, 4'500, 800'000),
        syncMethodCase(5, "sync-file-range", {}, 9'000, 200'000),
        syncMethodCase(6, "direct", {SyncMode::OSync, 0}, 2'000, 600'000, Preallocate::Overwrite, 4 * kKiB),
        syncMethodCase(7, "direct", {SyncMode::OSync, 0}, 1'000, 700'000, Preallocate::Overwrite, 2 * kKiB),
        syncMethodCase(8, "direct", {SyncMode::OSync, 0}, 4'800, 500'000, Preallocate::Overwrite, 16 * kKiB),
        syncMethodCase(9, "write", {SyncMode::FdatasyncEvery, 1}, 4'200, 850'000, Preallocate::Rewrite)};
    return r;
}

const Data::Bar* barNamed(const Data::OpSize& size, const QString& label)
{
    for (const auto& bar : size.bars) {
        if (bar.label == label)
            return &bar;
    }
    return nullptr;
}

} // namespace

TEST(SyncLabChart, OneOpSizeAtATimeFastestFirstWithTheP99RateAsTheWhisker)
{
    const Data d = Data::from(syncLab(), &builtinRegistry());
    ASSERT_EQ(d.sizes.size(), 2u);
    EXPECT_EQ(d.sizes[0].bytes, 8 * kKiB) << "pg_test_fsync's op first";
    EXPECT_EQ(d.sizes[1].bytes, 16 * kKiB) << "the open_sync sizes: 16 KiB per op";
    const auto& eight = d.sizes[0];
    ASSERT_EQ(eight.bars.size(), 7u);
    for (std::size_t i = 1; i < eight.bars.size(); ++i)
        EXPECT_GE(eight.bars[i - 1].opsPerSecond, eight.bars[i].opsPerSecond) << "fastest first";

    const Data::Bar* fdatasync = barNamed(eight, QStringLiteral("fdatasync, overwriting"));
    ASSERT_NE(fdatasync, nullptr);
    EXPECT_EQ(fdatasync->kind, Data::Kind::Durable);
    EXPECT_EQ(fdatasync->durableCall, QStringLiteral("fdatasync"));
    ASSERT_TRUE(fdatasync->p99OpsPerSecond);
    EXPECT_DOUBLE_EQ(*fdatasync->p99OpsPerSecond, 1 / (900e-6 + 450e-6))
        << "the sync's p99 after the write's median";
    ASSERT_NE(barNamed(eight, QStringLiteral("fdatasync, appending")), nullptr);
    ASSERT_NE(barNamed(eight, QStringLiteral("fdatasync, rewriting one block")), nullptr)
        << "pg_test_fsync's shape says so";

    const Data::Bar* range = barNamed(eight, QStringLiteral("sync_file_range (not durable), overwriting"));
    ASSERT_NE(range, nullptr);
    EXPECT_EQ(range->kind, Data::Kind::NotDurable);
    const Data::Bar* plain = barNamed(eight, QStringLiteral("write, overwriting"));
    ASSERT_NE(plain, nullptr);
    EXPECT_EQ(plain->kind, Data::Kind::NotDurable);
    EXPECT_FALSE(plain->p99OpsPerSecond) << "no whisker where nothing makes the write durable";
    EXPECT_TRUE(plain->p99Seconds) << "its write's p99 is still in the table";

    // The fastest durable method is open_datasync, not the faster sync_file_range or plain write.
    const Data::Bar* fastest = barNamed(eight, QStringLiteral("open_datasync, overwriting"));
    ASSERT_NE(fastest, nullptr);
    EXPECT_TRUE(fastest->fastest);
    EXPECT_EQ(
        std::count_if(eight.bars.begin(), eight.bars.end(), [](const Data::Bar& b) { return b.fastest; }), 1);
    EXPECT_THAT(d.fastestText.toStdString(), HasSubstr("open_datasync"));
    EXPECT_THAT(d.etcdText.toStdString(), HasSubstr("within etcd's rule"));
    ASSERT_TRUE(d.etcdOk);

    // An op of 4 writes of 4 KiB: the whisker is the rate at which 4 calls at the p99 each would go.
    const Data::Bar* four = barNamed(d.sizes[1], QStringLiteral("4 * 4kB open_sync writes, overwriting"));
    ASSERT_NE(four, nullptr);
    EXPECT_DOUBLE_EQ(four->opsPerSecond, 500);
    ASSERT_TRUE(four->p99OpsPerSecond);
    EXPECT_DOUBLE_EQ(*four->p99OpsPerSecond, 1 / (4 * 600e-6));
    EXPECT_DOUBLE_EQ(d.sizes[1].maxOps, 4'800);
    EXPECT_DOUBLE_EQ(d.sizes[1].minOps, 125) << "8 writes of 2 KiB at 1000 a second: the slowest bar";
}

TEST(SyncLabChart, The16KiBOpsHavePgTestFsyncs2x8kBRowFromThe8KiBOpenSync)
{
    RunResult r = syncLab();
    r.cases.push_back(
        syncMethodCase(9, "direct", {SyncMode::OSync, 0}, 3'000, 300'000, Preallocate::Overwrite, 8 * kKiB));
    const Data d = Data::from(r, &builtinRegistry());
    ASSERT_EQ(d.sizes.size(), 2u);
    const Data::Bar* eight = barNamed(d.sizes[0], QStringLiteral("open_sync, overwriting"));
    ASSERT_NE(eight, nullptr);
    EXPECT_DOUBLE_EQ(eight->opsPerSecond, 3'000);
    const Data::Bar* two = barNamed(d.sizes[1], QStringLiteral("2 * 8kB open_sync writes, overwriting"));
    ASSERT_NE(two, nullptr) << "pg_test_fsync's 16 kB comparison has it";
    EXPECT_DOUBLE_EQ(two->opsPerSecond, 1'500) << "two of the 8 KiB case's writes per op";
    ASSERT_TRUE(two->p99OpsPerSecond);
    EXPECT_DOUBLE_EQ(*two->p99OpsPerSecond, 1 / (2 * 300e-6));
    EXPECT_EQ(two->caseIndex, 9u);
    EXPECT_FALSE(two->fastest) << "the verdict's fastest is one of the 8 KiB rows";
    EXPECT_EQ(d.sizes[1].bars.size(), 4u);
}

TEST(SyncLabChart, ARunThatMakesNoWriteDurableAtEachWriteHasNoLab)
{
    RunResult r;
    r.cases = {syncMethodCase(0, "write", {}, 200'000, 10'000),
               syncMethodCase(1, "write", {SyncMode::FdatasyncEnd, 0}, 150'000, 10'000)};
    EXPECT_TRUE(Data::from(r, &builtinRegistry()).empty());
    // One durable method alone compares nothing.
    r.cases = {syncMethodCase(0, "write", {SyncMode::FdatasyncEvery, 1}, 4'000, 900'000)};
    EXPECT_TRUE(Data::from(r, &builtinRegistry()).empty());
}

TEST(SyncLabChart, AFlushTooFastToTrustIsItsOwnKindAndNeverTheFastest)
{
    RunResult r = syncLab();
    // A spinning disk cannot store a write in the 450 us fdatasync's median took here.
    r.target.device = "sda";
    r.target.deviceModel = "ST4000DM004";
    r.target.rotational = true;
    r.cases[1] = syncMethodCase(1, "write", {SyncMode::FdatasyncEvery, 1}, 6'000, 900'000);
    const Data d = Data::from(r, &builtinRegistry());
    ASSERT_FALSE(d.empty());
    const Data::Bar* fdatasync = barNamed(d.sizes[0], QStringLiteral("fdatasync, overwriting"));
    ASSERT_NE(fdatasync, nullptr);
    EXPECT_EQ(fdatasync->kind, Data::Kind::Distrusted);
    EXPECT_FALSE(fdatasync->fastest) << "faster than open_datasync, but not to be trusted";
    EXPECT_TRUE(barNamed(d.sizes[0], QStringLiteral("open_datasync, overwriting"))->fastest);
    EXPECT_THAT(d.fastestText.toStdString(), HasSubstr("too fast to be trusted are left out"));
}

TEST(SyncLabSummary, TheVerdictsLeadTheAnswers)
{
    const Verdict v = verdict(syncLab(), &builtinRegistry());
    ASSERT_GE(v.answers.size(), 3u);
    EXPECT_THAT(v.answers[0],
                StartsWith("The fastest way to make each 8 KiB write durable here is open_datasync"));
    EXPECT_THAT(v.answers[1], StartsWith("fdatasync's 99th percentile is 2.00 ms (appending"));

    RunResult plain;
    plain.cases = {syncMethodCase(0, "write", {}, 200'000, 10'000),
                   syncMethodCase(1, "direct", {}, 50'000, 10'000)};
    for (const auto& answer : verdict(plain, &builtinRegistry()).answers)
        EXPECT_THAT(answer, Not(HasSubstr("durable here")))
            << "a run without durable methods has no such answer";
}

// Issue 34: a stopped run lists its planned cases; the tab says how many ran, not how many were planned.
TEST(SyncLabTab, AStoppedRunSaysHowManyCasesRan)
{
    RunResult r = syncLab();
    r.cancelled = true;
    for (std::uint32_t i = 10; i < 14; ++i) {
        CaseResult c = syncMethodCase(i, "write", {SyncMode::FsyncEvery, 1}, 1'000);
        c.status = Status::Cancelled;
        c.apparentMBps = {};
        c.durableMBps = {};
        r.cases.push_back(std::move(c));
    }
    const Data d = Data::from(r, &builtinRegistry());
    EXPECT_EQ(d.stoppedText.toStdString(),
              "The run was stopped at case 11 of 14: the sync lab covers the 10 cases that ran.");
    gui::SyncLabView lab;
    lab.setResult(r, &builtinRegistry());
    EXPECT_THAT(lab.verdictText().toStdString(), HasSubstr("the sync lab covers the 10 cases that ran"));
    EXPECT_THAT(lab.verdictText().toStdString(), Not(HasSubstr("14 cases")));
    lab.setResult(syncLab(), &builtinRegistry());
    EXPECT_THAT(lab.verdictText().toStdString(), Not(HasSubstr("stopped"))) << "a finished run says nothing";
}

TEST(SyncLabTab, ShownForASyncLabWithABarPerMethodAndItsWhiskerOnIt)
{
    gui::ResultsView view;
    view.resize(1200, 800);
    view.setRegistry(&builtinRegistry());
    view.setResult(syncLab());
    gui::SyncLabView* lab = view.syncLabView();
    ASSERT_TRUE(view.isTabShown(lab));
    EXPECT_EQ(view.tabs()->currentWidget(), lab) << "the answer such a run asks for comes first";
    EXPECT_THAT(lab->verdictText().toStdString(), HasSubstr("open_datasync"));
    EXPECT_THAT(lab->verdictText().toStdString(), HasSubstr("etcd"));

    gui::SyncLabChart* chart = lab->chart();
    ASSERT_NE(chart->shown(), nullptr);
    EXPECT_EQ(chart->shown()->bars.size(), 7u) << "8 KiB ops: seven methods";
    EXPECT_TRUE(lab->sizeChooser()->isVisibleTo(lab)) << "two op sizes";
    EXPECT_TRUE(lab->logScaleChoice()->isChecked()) << "no sync runs 80x the slowest whisker";
    EXPECT_TRUE(chart->logScale());
    EXPECT_GE(chart->minimumHeight(), 6 * gui::SyncLabChart::kRowPixels) << "a readable row per method";
    // Each bar fills the middle of its own row, and a whisker (durable methods only) sits on its bar.
    chart->resize(1000, chart->minimumHeight());
    const report::SyncLabChartGeometry g = chart->geometryNow();
    for (std::size_t i = 0; i < 6; ++i) {
        const auto& bar = chart->shown()->bars[i];
        const QRectF b = g.barRect(i, bar.opsPerSecond);
        EXPECT_DOUBLE_EQ(b.center().y(), g.rowRect(i).center().y()) << bar.label.toStdString();
        EXPECT_GT(b.height(), g.rowHeight() / 2) << "one bar per row, not a share of it";
        EXPECT_EQ(bar.p99OpsPerSecond.has_value(), bar.kind != Data::Kind::NotDurable)
            << bar.label.toStdString();
    }
    EXPECT_EQ(g.rowAt(g.rowRect(2).center(), 6), std::optional<std::size_t>(2)) << "the tooltip's row";

    lab->sizeChooser()->setCurrentIndex(1);
    EXPECT_EQ(lab->shownSize(), 1u);
    EXPECT_EQ(chart->shown()->bars.size(), 3u) << "16 KiB ops: the open_sync sizes";
    lab->logScaleChoice()->setChecked(false);
    EXPECT_FALSE(chart->logScale());
    EXPECT_EQ(chart->geometryNow().scale().min, 0.0) << "a linear axis from 0";

    // Another run without durable methods hides the tab and hands over to the table.
    RunResult plain;
    plain.cases = {syncMethodCase(0, "write", {}, 200'000, 10'000)};
    view.setResult(plain);
    EXPECT_FALSE(view.isTabShown(lab));
    EXPECT_NE(view.tabs()->currentWidget(), lab);
    EXPECT_EQ(chart->shown(), nullptr);
}

TEST(SyncLabReport, ThePdfHasTheVerdictsTheBarsAndEveryMethodsPercentiles)
{
    TempDir dir;
    const QByteArray pdf = report::renderPdfReport(syncLab(), {report::PageFormat::A4, {}, Ranking::Durable},
                                                   &builtinRegistry());
    const std::string path = dir / "sync-lab.pdf";
    std::ofstream(path, std::ios::binary).write(pdf.constData(), pdf.size());
    const auto text = runHostTool("pdftotext", {"-layout", path, "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("Durability: the sync lab"));
    EXPECT_THAT(text.out, HasSubstr("8K ops (7 methods)"));
    EXPECT_THAT(text.out, HasSubstr("16K ops (3 methods)"));
    EXPECT_THAT(text.out, HasSubstr("as pg_test_fsync counts it"));
    EXPECT_THAT(text.out, HasSubstr("p99.9"));
    EXPECT_THAT(text.out, HasSubstr("within etcd"));
    EXPECT_THAT(text.out, HasSubstr("1.80 ms")) << "the overwriting fdatasync's p99.9 (2 x 900 us)";

    RunResult plain;
    plain.cases = {syncMethodCase(0, "write", {}, 200'000, 10'000)};
    const QByteArray none =
        report::renderPdfReport(plain, {report::PageFormat::A4, {}, Ranking::Durable}, &builtinRegistry());
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(none.constData(), none.size());
    EXPECT_THAT(runHostTool("pdftotext", {path, "-"}).out, Not(HasSubstr("sync lab")));
}

// Issue 34: a run whose flags overrode its preset, stopped before its end: the PDF's Summary says what was
// overridden, and its sync lab how many cases ran.
TEST(SyncLabReport, ThePdfSaysWhatWasOverriddenAndHowManyCasesRan)
{
    RunResult r = syncLab();
    r.matrix.overridden.timeLimitsMs = {1000};
    r.matrix.overridden.repetitions = 1;
    r.cancelled = true;
    CaseResult stopped = syncMethodCase(10, "write", {SyncMode::FsyncEvery, 1}, 1'000);
    stopped.status = Status::Cancelled;
    stopped.apparentMBps = {};
    stopped.durableMBps = {};
    r.cases.push_back(std::move(stopped));
    TempDir dir;
    const QByteArray pdf =
        report::renderPdfReport(r, {report::PageFormat::A4, {}, Ranking::Durable}, &builtinRegistry());
    const std::string path = dir / "sync-lab.pdf";
    std::ofstream(path, std::ios::binary).write(pdf.constData(), pdf.size());
    const auto text = runHostTool("pdftotext", {path, "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    // pdftotext breaks lines where the page does: the words, in order, with any white space between.
    const auto flat = [](std::string s) {
        std::replace(s.begin(), s.end(), '\n', ' ');
        return s;
    };
    EXPECT_THAT(flat(text.out), HasSubstr("Overridden for every case: duration 1 s, 1 repetition."));
    EXPECT_THAT(flat(text.out), HasSubstr("the sync lab covers the 10 cases that ran"));
}
