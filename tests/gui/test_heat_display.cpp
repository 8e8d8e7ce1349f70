// SPDX-License-Identifier: MIT
// Heat in the app and the PDF (issue 39, part 4): the drive's temperature before and after each case in the
// results table's Temp column and the report's case table, the thermal throttling finding in the Summary.
// The readings are scripted: this project's VM disk has no sensor.
#include "app/gui/results_model.h"
#include "app/gui/results_view.h"
#include "app/report/pdf_report.h"
#include "core/base/units.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <QTableView>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

using namespace iolab;
using namespace iolab::test;
using gui::ResultsModel;
using ::testing::HasSubstr;

namespace {

ThermalReading reading(double celsius, std::uint32_t transitions, std::uint32_t seconds)
{
    ThermalReading t;
    t.celsius = celsius;
    t.warningCelsius = 80;
    t.warningMinutes = 0;
    t.criticalMinutes = 0;
    t.lightThrottleTransitions = transitions;
    t.heavyThrottleTransitions = 0;
    t.lightThrottleSeconds = seconds;
    t.heavyThrottleSeconds = 0;
    t.source = "NVMe SMART/health log";
    return t;
}

// A direct 1 MiB write whose three repetitions slowed from 2.0 to 1.2 GB/s while the drive throttled.
RunResult hotRun()
{
    CaseResult c;
    c.index = 0;
    c.status = Status::Ok;
    c.testCase.strategy = "direct";
    c.testCase.chunkBytes = kMiB;
    c.testCase.totalBytes = kGiB;
    for (const double rate : {2000.0, 1600.0, 1200.0}) {
        RepetitionResult r;
        r.bytes = kGiB;
        r.apparentMBps = r.durableMBps = rate;
        r.returnSeconds = r.durableSeconds = static_cast<double>(kGiB) / rate / 1e6;
        c.repetitions.push_back(r);
    }
    c.apparentMBps.count = c.durableMBps.count = 3;
    c.apparentMBps.median = c.durableMBps.median = 1600;
    c.thermalBefore = reading(41, 12, 300);
    c.thermalAfter = reading(77, 16, 345);
    RunResult run;
    run.cases.push_back(c);
    return run;
}

} // namespace

TEST(HeatDisplay, TheTableShowsTheTemperatureBeforeAndAfterWhereTheDriveSaysIt)
{
    gui::ResultsView view;
    view.setRegistry(&builtinRegistry());
    view.setResult(hotRun());
    const int column = ResultsModel::figureColumn(ResultsModel::TempColumn);
    EXPECT_EQ(view.model()->data(view.model()->index(0, column)).toString().toStdString(), "41 → 77 °C");
    EXPECT_FALSE(view.table()->isColumnHidden(column));
    EXPECT_THAT(view.verdictText().toStdString(),
                HasSubstr("while the drive ran hot: 41 → 77 °C, 4 throttling "
                          "transitions and 45 s throttled"));
    RunResult cool = hotRun();
    cool.cases[0].thermalBefore.reset();
    cool.cases[0].thermalAfter.reset();
    view.setResult(cool);
    EXPECT_TRUE(view.table()->isColumnHidden(column)) << "no drive said anything: no column";
    EXPECT_THAT(view.verdictText().toStdString(), ::testing::Not(HasSubstr("ran hot")));
}

TEST(HeatDisplay, TheReportHasATempColumnAndTheFinding)
{
    TempDir dir;
    const QByteArray pdf =
        report::renderPdfReport(hotRun(), {report::PageFormat::A4, {}, Ranking::Durable}, &builtinRegistry());
    const std::string path = dir / "heat.pdf";
    std::ofstream(path, std::ios::binary).write(pdf.constData(), pdf.size());
    const auto text = runHostTool("pdftotext", {"-layout", path, "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("Temp"));
    EXPECT_THAT(text.out, HasSubstr("41 → 77 °C"));
    EXPECT_THAT(text.out, HasSubstr("thermal throttling"));
}

// A latency target (issue 39, part 2) in the app: the editor keeps it in the matrix it gives, the Queue depth
// chart marks it and the report draws it.
#include "app/gui/matrix_editor.h"
#include "app/gui/qd_sweep_view.h"

#include <QLineEdit>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>

namespace {

RunResult queueSweep()
{
    RunResult run;
    run.matrix.latencyTarget = parseLatencyTarget("1ms@p99");
    for (const auto& [qd, p99] :
         std::vector<std::pair<std::uint32_t, double>>{{1, 2e-4}, {8, 6e-4}, {32, 2.3e-3}}) {
        CaseResult c;
        c.index = static_cast<std::uint32_t>(run.cases.size());
        c.status = Status::Ok;
        c.testCase.strategy = "uring-random-write-direct";
        c.testCase.chunkBytes = 4096;
        c.testCase.totalBytes = 64 * kMiB;
        c.testCase.queueDepth = qd;
        c.apparentMBps.count = c.durableMBps.count = 2;
        c.apparentMBps.median = c.durableMBps.median = 40.0 * qd;
        LatencyDistribution d;
        d.summary.count = 1000;
        d.summary.p50Ns = static_cast<std::uint64_t>(p99 * 0.4e9);
        d.summary.p99Ns = static_cast<std::uint64_t>(p99 * 1e9);
        c.callLatency = d;
        run.cases.push_back(c);
    }
    return run;
}

} // namespace

TEST(LatencyTargetDisplay, TheEditorKeepsItAndTheChartsMarkIt)
{
    TempDir presets;
    gui::MatrixEditor editor(builtinRegistry(), QString::fromStdString(presets.path()));
    auto* field = editor.findChild<QLineEdit*>(QStringLiteral("latencyTarget"));
    ASSERT_NE(field, nullptr);
    field->setText(QStringLiteral("500us@p99.9"));
    ASSERT_TRUE(editor.draft().latencyTarget);
    EXPECT_EQ(toString(*editor.draft().latencyTarget), "500us@p99.9");
    field->setText(QStringLiteral("soon"));
    EXPECT_FALSE(editor.draft().latencyTarget) << "a target that does not read is not guessed";

    gui::QdSweepView view;
    const RunResult run = queueSweep();
    view.setCases(run.cases, Ranking::Durable, run.matrix.latencyTarget);
    bool marked = false;
    for (auto* s : view.chart()->series())
        marked = marked || s->name() == QStringLiteral("target 1ms@p99");
    EXPECT_TRUE(marked);

    TempDir dir;
    const QByteArray pdf =
        report::renderPdfReport(run, {report::PageFormat::A4, {}, Ranking::Durable}, &builtinRegistry());
    const std::string path = dir / "target.pdf";
    std::ofstream(path, std::ios::binary).write(pdf.constData(), pdf.size());
    const auto text = runHostTool("pdftotext", {path, "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    std::string flat = text.out;
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    EXPECT_THAT(flat, HasSubstr("target: 1ms@p99"));
    EXPECT_THAT(flat, HasSubstr("at QD 8 keep p99 under 1 ms"));
}
