// SPDX-License-Identifier: MIT
// The app's small parts as functions: the Export dialog's types and names, and the status line after an
// export.
#include "app/gui/export_choice.h"
#include "app/gui/history.h"
#include "app/gui/log_model.h"
#include "app/gui/main_window.h"
#include "app/gui/run_presenter.h"
#include "app/gui/verdict_html.h"
#include "app/report/verdict_text.h"
#include "tests/gui/wait_for.h"
#include "tests/support/qt_text.h"
#include "tests/support/result_schema.h"
#include "tests/support/temp_dir.h"

#include <QColor>
#include <QFile>
#include <QProgressBar>
#include <QStatusBar>
#include <QTableView>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using namespace iolab::gui;
using namespace iolab::test;
using ::testing::HasSubstr;

TEST(ExportChoice, OffersPdfJsonAndCsvPdfFirst)
{
    const QStringList filters = exportNameFilters();
    ASSERT_EQ(filters.size(), 3);
    EXPECT_EQ(extensionOfFilter(filters[0]), QStringLiteral("pdf"));
    EXPECT_EQ(extensionOfFilter(filters[1]), QStringLiteral("json"));
    EXPECT_EQ(extensionOfFilter(filters[2]), QStringLiteral("csv"));
}

TEST(ExportChoice, TheNameFollowsTheChosenType)
{
    const QStringList f = exportNameFilters();
    EXPECT_EQ(fileNameForFilter(QStringLiteral("iolab-report.pdf"), f[1]),
              QStringLiteral("iolab-report.json"));
    EXPECT_EQ(fileNameForFilter(QStringLiteral("iolab-report.json"), f[2]),
              QStringLiteral("iolab-report.csv"));
    EXPECT_EQ(fileNameForFilter(QStringLiteral("/tmp/x/run.CSV"), f[0]), QStringLiteral("/tmp/x/run.pdf"));
    EXPECT_EQ(fileNameForFilter(QStringLiteral("run.pdf"), f[0]), QStringLiteral("run.pdf"));
    EXPECT_EQ(fileNameForFilter(QStringLiteral("run"), f[1]), QStringLiteral("run.json"));
    EXPECT_EQ(fileNameForFilter(QStringLiteral("run.2026"), f[0]), QStringLiteral("run.2026.pdf"));
    EXPECT_EQ(fileNameForFilter(QString(), f[0]), QString());
}

TEST(ExportChoice, TheStatusSaysFailedWithTheReasonNeverExported)
{
    EXPECT_EQ(exportStatusText(QStringLiteral("/a/r.pdf"), {}), QStringLiteral("Exported to /a/r.pdf"));
    const QString failed = exportStatusText(QStringLiteral("/a/r.pdf"), QStringLiteral("disk full"));
    EXPECT_THAT(failed.toStdString(), HasSubstr("failed"));
    EXPECT_THAT(failed.toStdString(), HasSubstr("disk full"));
    EXPECT_THAT(failed.toStdString(), ::testing::Not(HasSubstr("Exported")));
}

TEST(ExportChoice, AFailedExportAfterAGoodOneSaysItFailed)
{
    TempDir data;
    LogModel log;
    MainWindow window({q(data.path()), q(data / "settings.ini")}, &log);
    ASSERT_EQ(openAndWait(window, QStringLiteral(IOLAB_SOURCE_DIR "/tests/data/golden-result.json")),
              QString());
    ASSERT_EQ(exportAndWait(window, q(data / "good.json")), QString());
    EXPECT_THAT(window.progressText().toStdString(), HasSubstr("Exported to"));
    EXPECT_TRUE(QFile::exists(q(data / "good.json")));
    EXPECT_TRUE(test::followsResultSchema(data / "good.json"));
    EXPECT_FALSE(exportAndWait(window, q(data / "missing-folder/bad.pdf")).isEmpty());
    EXPECT_THAT(window.progressText().toStdString(), HasSubstr("failed"));
    EXPECT_THAT(window.progressText().toStdString(), HasSubstr("missing-folder"));
    EXPECT_THAT(window.progressText().toStdString(), ::testing::Not(HasSubstr("Exported to")));
    EXPECT_THAT(window.bannerText().toStdString(), HasSubstr("failed"));
}

namespace {

CaseResult measuredCase(TargetKind target, std::uint64_t chunk, double apparent, double durable)
{
    CaseResult c;
    c.testCase.strategy = "write";
    c.testCase.target = target;
    c.testCase.chunkBytes = chunk;
    c.testCase.totalBytes = 1 << 20;
    c.apparentMBps.count = 3;
    c.apparentMBps.median = apparent;
    if (durable > 0) {
        c.durableMBps.count = 3;
        c.durableMBps.median = durable;
    }
    return c;
}

} // namespace

TEST(CompareModel, AWriteToAFileComparesByItsDurableRateWithTheApparentOneBesideIt)
{
    RunResult older;
    older.startedAt = "2026-01-01T10:00:00Z";
    RunResult newer = older;
    newer.startedAt = "2026-02-01T10:00:00Z";
    // Apparent doubles, durable quadruples: the ratio is durable's.
    older.cases = {measuredCase(TargetKind::Directory, 4096, 1000, 100),
                   measuredCase(TargetKind::Pipe, 4096, 300, 0)};
    newer.cases = {measuredCase(TargetKind::Directory, 4096, 2000, 400),
                   measuredCase(TargetKind::Pipe, 4096, 600, 0)};
    CompareModel model;
    model.setRuns(older, newer);
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_DOUBLE_EQ(*model.ratio(0), 4.0);
    EXPECT_DOUBLE_EQ(*model.apparentRatio(0), 2.0);
    EXPECT_DOUBLE_EQ(*model.ratio(1), 2.0) << "a pipe has one rate";
    const auto text = [&](int row, int column, int role = Qt::DisplayRole) {
        return model.data(model.index(row, column), role).toString().toStdString();
    };
    EXPECT_THAT(text(0, CompareModel::FirstColumn), HasSubstr("durable"));
    EXPECT_THAT(text(0, CompareModel::FirstColumn), HasSubstr("apparent"));
    EXPECT_THAT(text(1, CompareModel::FirstColumn), ::testing::Not(HasSubstr("durable")));
    EXPECT_THAT(text(0, CompareModel::RatioColumn, Qt::ToolTipRole), HasSubstr("Durable"));
    EXPECT_THAT(text(0, CompareModel::RatioColumn, Qt::ToolTipRole), HasSubstr("2.00x"));
    const auto header = [&](int column, int role) {
        return model.headerData(column, Qt::Horizontal, role).toString().toStdString();
    };
    EXPECT_THAT(header(CompareModel::RatioColumn, Qt::DisplayRole), HasSubstr("durable"));
    EXPECT_THAT(header(CompareModel::RatioColumn, Qt::ToolTipRole), HasSubstr("durable"));
    EXPECT_EQ(text(0, CompareModel::CaseColumn, Qt::ToolTipRole), text(0, CompareModel::CaseColumn))
        << "the full label is in the tooltip";

    // Pipes only: the header names no durable rate.
    older.cases.erase(older.cases.begin());
    newer.cases.erase(newer.cases.begin());
    model.setRuns(older, newer);
    EXPECT_THAT(header(CompareModel::RatioColumn, Qt::DisplayRole), ::testing::Not(HasSubstr("durable")));

    // A file write without a durable figure in one run gets no ratio, and the note says why.
    older.cases = {measuredCase(TargetKind::Directory, 4096, 1000, 0)};
    newer.cases = {measuredCase(TargetKind::Directory, 4096, 2000, 400)};
    model.setRuns(older, newer);
    EXPECT_FALSE(model.ratio(0).has_value());
    EXPECT_THAT(text(0, CompareModel::NoteColumn), HasSubstr("durable"));
}

// History's Compare colours a change only when it holds against both runs' noise (issue 34): a 1.2x change
// between noisy repetitions stays grey, a 1.2x change between tight ones is green, and one repetition a side
// is never judged.
TEST(CompareModel, AChangeIsColouredOnlyBeyondTheNoise)
{
    const auto withRepetitions = [](const std::vector<double>& durable) {
        CaseResult c = measuredCase(TargetKind::Directory, 4096, 3000, 1);
        c.repetitions.clear();
        for (std::size_t i = 0; i < durable.size(); ++i) {
            RepetitionResult r;
            r.index = static_cast<std::uint32_t>(i + 1);
            r.durableMBps = durable[i];
            r.apparentMBps = 3000;
            c.repetitions.push_back(r);
        }
        c.durableMBps = summarize(durable);
        return c;
    };
    RunResult older;
    older.startedAt = "2026-01-01T10:00:00Z";
    RunResult newer = older;
    newer.startedAt = "2026-02-01T10:00:00Z";
    CompareModel model;
    const auto colour = [&] {
        return model.data(model.index(0, CompareModel::RatioColumn), Qt::ForegroundRole);
    };
    const auto tip = [&] {
        return model.data(model.index(0, CompareModel::RatioColumn), Qt::ToolTipRole)
            .toString()
            .toStdString();
    };
    const QColor green(0x27, 0xae, 0x60);
    const QColor red(0xc0, 0x39, 0x2b);

    older.cases = {withRepetitions({1000, 800, 1250})};
    newer.cases = {withRepetitions({1200, 950, 1450})};
    model.setRuns(older, newer);
    EXPECT_NEAR(*model.ratio(0), 1.2, 1e-9);
    EXPECT_NE(colour().value<QColor>(), green);
    EXPECT_THAT(tip(), HasSubstr("Within the noise"));

    older.cases = {withRepetitions({1000, 1005, 995})};
    newer.cases = {withRepetitions({1200, 1205, 1195})};
    model.setRuns(older, newer);
    EXPECT_EQ(colour().value<QColor>(), green);
    EXPECT_THAT(tip(), HasSubstr("beyond the noise"));
    model.setRuns(newer, older);
    EXPECT_EQ(colour().value<QColor>(), red);

    older.cases = {withRepetitions({1000})};
    newer.cases = {withRepetitions({2000})};
    model.setRuns(older, newer);
    EXPECT_NE(colour().value<QColor>(), green);
    EXPECT_THAT(tip(), HasSubstr("Not judged"));
}

TEST(CompareModel, CaseNamesAreCutAtTheirEndInTheHistoryTab)
{
    TempDir data;
    LogModel log;
    MainWindow window({q(data.path()), q(data / "settings.ini")}, &log);
    EXPECT_EQ(window.history()->compareView()->textElideMode(), Qt::ElideRight);
}

TEST(VerdictHtml, QuotedNamesAreCodeNotBackticksAndTextIsEscaped)
{
    Verdict v;
    v.question = "Which way is fastest to write 4 KiB records <here>?";
    v.answers = {"`stdio-unlocked` is fastest: 1.9 GB/s durable, 3.1x `stdio`"};
    v.highlights.push_back({Finding::Kind::Noise, std::nullopt, "noisy & short", "run again"});
    v.limits = {"a VM disk"};
    v.terms = {"durable: until the data was on the disk"};
    const QString html = verdictHtml(v);
    EXPECT_THAT(html.toStdString(), HasSubstr("<code>stdio-unlocked</code>"));
    EXPECT_THAT(html.toStdString(), ::testing::Not(HasSubstr("`")));
    EXPECT_THAT(html.toStdString(), HasSubstr("&lt;here&gt;"));
    EXPECT_THAT(html.toStdString(), HasSubstr("noisy &amp; short"));
    EXPECT_THAT(html.toStdString(), HasSubstr("run again"));
    EXPECT_THAT(html.toStdString(), HasSubstr("What matters most"));
    EXPECT_THAT(html.toStdString(), HasSubstr("a VM disk"));
    EXPECT_THAT(html.toStdString(), HasSubstr("1.9\u00A0GB/\u2060s durable"))
        << "a unit never wraps away from its number";
}

TEST(VerdictText, UnitsStayWithTheirNumbers)
{
    using iolab::report::keepUnitsWithNumbers;
    const QString nb(QChar(0x00A0));
    const QString perS = QStringLiteral("/") + QChar(0x2060) + QStringLiteral("s");
    EXPECT_EQ(
        keepUnitsWithNumbers(QStringLiteral("at 1.60 GB/s durable (3.25 GB/s apparent), 512 MiB in 38 ms")),
        QStringLiteral("at 1.60%1GB%2 durable (3.25%1GB%2 apparent), 512%1MiB in 38%1ms").arg(nb, perS));
    EXPECT_EQ(keepUnitsWithNumbers(QStringLiteral("4 KiB chunks, 120 files/s, 3.1 x, 38 %, 7 B, 2 s.")),
              QStringLiteral("4%1KiB chunks, 120%1files%2, 3.1%1x, 38%1%, 7%1B, 2%1s.").arg(nb, perS));
    // A slash elsewhere stays a place to break.
    EXPECT_EQ(keepUnitsWithNumbers(QStringLiteral("read/s and /tmp/s")), QStringLiteral("read/s and /tmp/s"));
    // Words after a number stay breakable: "3 repetitions", "64 KiB buffers" keeps only the unit bound.
    EXPECT_EQ(keepUnitsWithNumbers(QStringLiteral("the middle 3 of 5 repetitions, 2 stdio cases")),
              QStringLiteral("the middle 3 of 5 repetitions, 2 stdio cases"));
    EXPECT_EQ(keepUnitsWithNumbers(QStringLiteral("8 byte 4 bits 10 so")),
              QStringLiteral("8 byte 4 bits 10 so"));
}

// Cases that take turns: the status line names the round and the case whose turn it is, and the bar counts
// every case's repetitions done, whichever runs now.
TEST(RunPresenter, CasesTakingTurnsShowTheRoundAndMoveTheBarByEveryCasesRepetitions)
{
    QStatusBar bar;
    RunPresenter presenter(&bar);
    presenter.runStarting({10.0, 30.0}, 2);
    presenter.runStarted(2);
    auto* progress = bar.findChild<QProgressBar*>();
    ASSERT_NE(progress, nullptr);
    CaseStarted started;
    started.count = 2;
    started.testCase.strategy = "write";
    started.testCase.totalBytes = 1024;
    started.alternate = true;
    started.repetitions = 2;
    RepetitionFinished rep;
    for (std::uint32_t i : {0u, 1u}) {
        started.index = i;
        presenter.caseStarted(started);
        rep.caseIndex = i;
        presenter.repetitionFinished(rep);
    }
    EXPECT_EQ(progress->value(), 500) << "half of each case: half the run, whatever the weights";
    started.index = 1;
    started.repetition = 1;
    presenter.caseStarted(started);
    EXPECT_THAT(presenter.text().toStdString(), HasSubstr("Round 2 of 2 · Case 2 of 2"));
    EXPECT_EQ(progress->value(), 500) << "a case starting its turn keeps what every case did";
    rep.caseIndex = 1;
    presenter.repetitionFinished(rep);
    EXPECT_EQ(progress->value(), 875) << "case 2 (30 s of 40) done, case 1 half";
    // Case 1's second repetition fails: the case is over, and so is the run's work.
    started.index = 0;
    presenter.caseStarted(started);
    RepetitionFinished failed;
    failed.caseIndex = 0;
    failed.repetition.outcome.status = Status::Failed;
    presenter.repetitionFinished(failed);
    EXPECT_EQ(progress->value(), 1000);
}

// A case refused when the cases that take turns are made ready is settled at once, past its turns: the cases
// before it are not counted as done, and its own share is.
TEST(RunPresenter, ACaseSettledBeforeTheRoundsCountsAsDoneAndNoOtherDoes)
{
    QStatusBar bar;
    RunPresenter presenter(&bar);
    presenter.runStarting({10.0, 10.0, 20.0}, 2);
    presenter.runStarted(3);
    auto* progress = bar.findChild<QProgressBar*>();
    ASSERT_NE(progress, nullptr);
    CaseStarted refused;
    refused.index = 2;
    refused.count = 3;
    refused.testCase.strategy = "write";
    refused.alternate = true;
    refused.repetition = 2;
    refused.repetitions = 2;
    presenter.caseStarted(refused);
    EXPECT_EQ(progress->value(), 0) << "cases 1 and 2 have not run";
    CaseResult settled;
    settled.index = 2;
    settled.status = Status::Refused;
    presenter.caseFinished(settled);
    EXPECT_EQ(progress->value(), 500) << "case 3's 20 s of 40 will not be waited for";
    EXPECT_THAT(presenter.text().toStdString(), ::testing::Not(HasSubstr("Round")));
}

// While a case's kill -9 probe runs, the status line says which kill it is at and the bar goes on moving:
// a probe's run counts as half a repetition.
TEST(RunPresenter, ShowsTheKill9ProbesKillsAndMovesOnThroughThem)
{
    QStatusBar bar;
    RunPresenter presenter(&bar);
    presenter.runStarting({10.0, 10.0}, 2, {4, 0});
    presenter.runStarted(2);
    CaseStarted started;
    started.index = 0;
    started.count = 2;
    started.testCase.strategy = "write";
    started.testCase.totalBytes = 1024;
    presenter.caseStarted(started);
    auto* progress = bar.findChild<QProgressBar*>();
    ASSERT_NE(progress, nullptr);
    RepetitionFinished rep;
    rep.caseIndex = 0;
    presenter.repetitionFinished(rep);
    presenter.repetitionFinished(rep);
    // Two repetitions of a case that also has four half-repetition kills: 2 of 4 units, a quarter of the run.
    EXPECT_EQ(progress->value(), 250);
    EXPECT_THAT(presenter.text().toStdString(), ::testing::Not(HasSubstr("probe")));
    presenter.probeKillStarted({0, 1, 4});
    EXPECT_THAT(presenter.text().toStdString(), HasSubstr("kill -9 probe: kill 1 of 4"));
    presenter.probeKillStarted({0, 3, 4});
    EXPECT_THAT(presenter.text().toStdString(), HasSubstr("kill 3 of 4"));
    EXPECT_EQ(progress->value(), 375) << "2 repetitions and 2 kills done: 3 of 4 units of the first half";
    started.index = 1;
    presenter.caseStarted(started);
    EXPECT_THAT(presenter.text().toStdString(), ::testing::Not(HasSubstr("probe")));
}
