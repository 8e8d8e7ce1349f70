// SPDX-License-Identifier: MIT
// A write until steady in the app and the PDF (issue 39, part 1): the Sustained tab leads with the rate over
// the write, the full speed, the drop and the rate after it; the report draws the same with its figures.
#include "app/gui/results_view.h"
#include "app/gui/sustained_view.h"
#include "app/report/pdf_report.h"
#include "core/base/units.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <QComboBox>
#include <QTabWidget>
#include <QtCharts/QChart>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

// A direct write at 120 MB/s for 2.9 s, then 30 MB/s, steady from 5 s: samples at 10 Hz.
CaseResult cachedWrite(std::uint32_t index)
{
    CaseResult c;
    c.index = index;
    c.status = Status::Ok;
    c.testCase.strategy = "direct";
    c.testCase.chunkBytes = kMiB;
    c.testCase.totalBytes = 64ULL << 30;
    c.testCase.steady = parseSteadyRule("past-cache:2s");
    double bytes = 0;
    for (int i = 1; i <= 80; ++i) {
        Sample s;
        s.caseIndex = index;
        s.runSeconds = 1.0 + i * 0.1;
        s.intervalMBps = i <= 29 ? 120.0 : 30.0;
        bytes += s.intervalMBps * 1e5;
        s.bytesDone = static_cast<std::uint64_t>(bytes);
        c.samples.push_back(s);
    }
    RepetitionResult r;
    r.bytes = static_cast<std::uint64_t>(bytes);
    r.returnSeconds = 8.0;
    r.durableSeconds = 8.0;
    r.apparentMBps = r.durableMBps = bytes / 8.0 / 1e6;
    r.steady = SteadyState{5.0, 420'000'000, 7.0, 30.0, 120.0, false};
    c.repetitions.push_back(r);
    c.apparentMBps.median = c.durableMBps.median = r.apparentMBps;
    c.apparentMBps.count = c.durableMBps.count = 1;
    return c;
}

} // namespace

TEST(SustainedView, LeadsWithTheRateTheDropAndTheRateAfterIt)
{
    gui::ResultsView view;
    view.setRegistry(&builtinRegistry());
    RunResult run;
    run.cases.push_back(cachedWrite(0));
    view.setResult(run);
    ASSERT_TRUE(view.isTabShown(view.sustainedView()));
    EXPECT_TRUE(view.tabs()->currentWidget()->isAncestorOf(view.sustainedView()) ||
                view.tabs()->currentWidget() == view.sustainedView())
        << "the answer such a run asks for comes to the front";
    const gui::SustainedView& s = *view.sustainedView();
    EXPECT_TRUE(s.hasFigures());
    // The samples, the full speed, the drop, the rate after it, and the steady window shaded.
    EXPECT_EQ(s.chart()->series().size(), 5);
    EXPECT_THAT(s.chart()->title().toStdString(), HasSubstr("at full speed, then 30.0 MB/s"));
    EXPECT_THAT(s.answerText().toStdString(), HasSubstr("a fast cache of about 331.9 MiB"));
    EXPECT_FALSE(s.caseChooser()->isVisible()) << "one case: nothing to choose";

    // Two writes until steady: the chooser picks which.
    run.cases.push_back(cachedWrite(1));
    view.setResult(run);
    EXPECT_EQ(view.sustainedView()->caseChooser()->count(), 2);

    // A run without one hides the tab.
    RunResult plain;
    CaseResult c = cachedWrite(0);
    c.testCase.steady = {};
    plain.cases.push_back(c);
    view.setResult(plain);
    EXPECT_FALSE(view.isTabShown(view.sustainedView()));
}

TEST(SustainedView, TheReportDrawsItWithItsFigures)
{
    TempDir dir;
    RunResult run;
    run.cases.push_back(cachedWrite(0));
    const QByteArray pdf =
        report::renderPdfReport(run, {report::PageFormat::A4, {}, Ranking::Durable}, &builtinRegistry());
    const std::string path = dir / "sustained.pdf";
    std::ofstream(path, std::ios::binary).write(pdf.constData(), pdf.size());
    const auto text = runHostTool("pdftotext", {path, "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    const std::string flat = [&] {
        std::string out;
        for (char ch : text.out)
            out += ch == '\n' ? ' ' : ch;
        return out;
    }();
    EXPECT_THAT(flat, HasSubstr("Sustained write: full speed, the drop and the rate after it"));
    EXPECT_THAT(flat, HasSubstr("full speed: 120.0 MB/s for 331.9 MiB"));
    EXPECT_THAT(flat, HasSubstr("after the drop (2.9 s): 30.0 MB/s"));
    EXPECT_THAT(flat, HasSubstr("Fast cache"));
    EXPECT_THAT(flat, HasSubstr("30.0 MB/s from 5.0 s (a 2s window)"));
}

// The Plan says which share of the free space a write was sized at (issue 39: "shown in the Plan").
#include "app/gui/run_preview.h"
#include "core/engine/run_plan.h"

TEST(SustainedView, ThePlanSaysTheShareOfTheFreeSpace)
{
    gui::RunPreview preview;
    auto plan = std::make_shared<RunPlan>();
    Case c = cachedWrite(0).testCase;
    c.freeSharePercent = 25;
    plan->expanded.cases.push_back(c);
    preview.plan = plan;
    preview.usesDisk = true;
    preview.largestCaseBytes = 19ULL << 30;
    preview.freeBytes = 74ULL << 30;
    EXPECT_THAT(preview.summary().toStdString(),
                HasSubstr("largest case needs 19 GiB of 74 GiB free (sized at 25% of the free space)"));
    plan->expanded.cases.front().freeSharePercent = 0;
    EXPECT_THAT(preview.summary().toStdString(), ::testing::Not(HasSubstr("sized at")));
}
