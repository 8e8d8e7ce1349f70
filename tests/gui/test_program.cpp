// SPDX-License-Identifier: MIT
// The app's part of a recorded program (issue 37): File > Open a trace... shows its profile in the Program
// tab with its charts, Replay on this target runs it through Run's usual start into Results and History, and
// File > Record a program... records one on a thread of its own, with its rate, Stop and every refusal.
#include "app/common/recording.h"
#include "app/gui/history_controller.h"
#include "app/gui/log_model.h"
#include "app/gui/main_window.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/plan_panel.h"
#include "app/gui/program_data.h"
#include "app/gui/program_view.h"
#include "app/gui/record_dialog.h"
#include "app/gui/record_job.h"
#include "app/gui/results_model.h"
#include "app/gui/results_view.h"
#include "app/gui/target_model.h"
#include "app/gui/target_panel.h"
#include "app/report/pdf_report.h"
#include "core/analysis/program_advice.h"
#include "core/engine/replay_script.h"
#include "core/formats/procmon_import.h"
#include "core/formats/result_json.h"
#include "core/model/axes.h"
#include "core/model/trace_format.h"
#include "tests/gui/wait_for.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/pdf_text.h"
#include "tests/support/process.h"
#include "tests/support/qt_text.h"
#include "tests/support/qt_wait.h"
#include "tests/support/synthetic_trace.h"
#include "tests/support/temp_dir.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace iolab;
using namespace iolab::gui;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

// A program that writes two files: a.db three 4 KiB pwrites and an fdatasync, b.log 100 bytes by stdio.
SyntheticTrace twoFiles()
{
    SyntheticTrace t;
    t.open(1, 1, "/data/a.db", trace::OpenWrite | trace::OpenCreate, 3);
    for (int i = 0; i < 3; ++i)
        t.transfer(1, 1, trace::Call::PWrite, 3, 4096, i * 4096);
    t.call(1, 1, trace::Call::Fdatasync, 3);
    TraceEvent& stream = t.call(1, 1, trace::Call::FOpen, 0x1000);
    stream.path = "/data/b.log";
    stream.flags = trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate;
    t.transfer(1, 1, trace::Call::FWrite, 0x1000, 50, -1, 2);
    t.call(1, 1, trace::Call::FClose, 0x1000);
    t.call(1, 1, trace::Call::Close, 3);
    return t;
}

const FileTimeline* fileNamed(const WriteTimeline& timeline, const std::string& path)
{
    for (const FileTimeline& f : timeline.files)
        if (f.path == path)
            return &f;
    return nullptr;
}

std::uint64_t sum(const std::vector<std::uint64_t>& values)
{
    std::uint64_t total = 0;
    for (auto v : values)
        total += v;
    return total;
}

struct ProgramWindow : ::testing::Test
{
    TempDir data;
    TempDir target;
    TempDir traces;
    LogModel log;
    std::unique_ptr<MainWindow> window;

    void SetUp() override
    {
        window =
            std::make_unique<MainWindow>(AppPaths{q(data.path()), q(data / "settings.ini"), false}, &log);
        window->resize(1366, 768);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        IOLAB_TRY_VERIFY(!window->targetPanel()->model()->isScanning(), 10'000);
        window->chooseFolder(q(target.path()));
        IOLAB_TRY_VERIFY(!window->isInspectingTarget(), 20'000);
    }
    QString open(const std::string& path)
    {
        QSignalSpy opened(window.get(), &MainWindow::traceOpened);
        window->openTrace(q(path));
        return answerOf(opened, 1);
    }
};

// With IOLAB_SCREENSHOTS set to a folder, the window as it is then, for a person to look at.
void screenshot(QWidget& widget, const char* name)
{
    if (const char* folder = std::getenv("IOLAB_SCREENSHOTS"))
        widget.grab().save(QDir(QString::fromLocal8Bit(folder)).filePath(QString::fromLatin1(name)));
}

#ifndef _WIN32
QString sqlite3()
{
    return QStandardPaths::findExecutable(QStringLiteral("sqlite3"));
}
#endif

// Records with the dialog and waits for the end; the dialog's status after it.
QString recordAndWait(RecordDialog& dialog, const QString& program, const QString& arguments,
                      const QString& folder, const QString& trace = {})
{
    dialog.programField()->setText(program);
    dialog.argumentsField()->setText(arguments);
    dialog.folderField()->setText(folder);
    if (!trace.isEmpty())
        dialog.traceField()->setText(trace);
    QSignalSpy ended(&dialog, &RecordDialog::recordingEnded);
    if (!dialog.record())
        return dialog.statusText();
    if (!ended.wait(60'000))
        return QStringLiteral("no answer came");
    return dialog.statusText();
}

// Nothing of a recording is left in `folder` but what is named.
std::vector<std::string> entriesOf(const std::string& folder)
{
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

TEST(ProgramData, TheTimelineBucketsEachFilesWritesAndMarksItsSyncs)
{
    TempDir dir;
    twoFiles().writeTo(dir / "two.iolab-trace");
    const ProgramData program = readProgram(q(dir / "two.iolab-trace"));
    ASSERT_EQ(program.error, QString());
    EXPECT_EQ(program.profile.writeCalls, 5u);
    ASSERT_FALSE(program.lines.empty());
    const WriteTimeline& timeline = program.timeline;
    EXPECT_EQ(timeline.syncs, 1u);
    ASSERT_EQ(timeline.files.size(), 2u);
    EXPECT_EQ(timeline.files[0].path, "/data/a.db") << "most bytes first";
    const FileTimeline* db = fileNamed(timeline, "/data/a.db");
    const FileTimeline* log = fileNamed(timeline, "/data/b.log");
    ASSERT_TRUE(db && log);
    EXPECT_EQ(db->totalBytes, 3 * 4096u);
    EXPECT_EQ(sum(db->bytes), 3 * 4096u);
    EXPECT_EQ(db->bytes.size(), WriteTimeline::kBins);
    ASSERT_EQ(db->syncSeconds.size(), 1u);
    EXPECT_GT(db->syncSeconds[0], 0.0);
    EXPECT_LE(db->syncSeconds[0], timeline.spanSeconds);
    EXPECT_EQ(log->totalBytes, 100u) << "a run of two 50-byte fwrites";
    EXPECT_TRUE(log->syncSeconds.empty());
    EXPECT_NEAR(timeline.binSeconds * WriteTimeline::kBins, timeline.spanSeconds, 1e-12);
}

TEST(ProgramData, FilesPastTheSixthAreOneLineOfOtherFiles)
{
    SyntheticTrace t;
    for (int f = 0; f < 9; ++f) {
        t.open(1, 1, "/data/f" + std::to_string(f), trace::OpenWrite | trace::OpenCreate, 3 + f);
        t.transfer(1, 1, trace::Call::Write, 3 + f, 1000 * (f + 1));
    }
    TempDir dir;
    t.writeTo(dir / "nine.iolab-trace");
    const ProgramData program = readProgram(q(dir / "nine.iolab-trace"));
    ASSERT_EQ(program.error, QString());
    ASSERT_EQ(program.timeline.files.size(), WriteTimeline::kFiles + 1);
    EXPECT_EQ(program.timeline.files.front().path, "/data/f8");
    EXPECT_EQ(program.timeline.files.back().path, "other files");
    EXPECT_EQ(program.timeline.files.back().totalBytes, 1000u + 2000u + 3000u);
}

// A capture imported (here Process Monitor's CSV, as iolab-cli import reads it) is a trace like a recording:
// its Windows file's writes and flushes are on the timeline.
TEST(ProgramData, AnImportedCaptureReadsAsATrace)
{
    TempDir dir;
    std::ifstream csv(std::string(IOLAB_SOURCE_DIR) + "/tests/data/procmon/writer.csv", std::ios::binary);
    std::vector<std::unique_ptr<std::ofstream>> parts;
    importProcmonCsv(csv, "writer.csv", [&](std::size_t n) -> std::ostream& {
        parts.push_back(std::make_unique<std::ofstream>(
            dir / (std::to_string(n) + "-" + std::to_string(n) + ".part"), std::ios::binary));
        return *parts.back();
    });
    parts.clear();
    mergeParts(partsIn(dir.path()), dir / "writer.iolab-trace");
    const ProgramData program = readProgram(q(dir / "writer.iolab-trace"));
    ASSERT_EQ(program.error, QString());
    EXPECT_GT(program.profile.writeCalls, 0u);
    ASSERT_FALSE(program.timeline.files.empty());
    std::uint64_t written = 0;
    for (const FileTimeline& f : program.timeline.files)
        written += f.totalBytes;
    EXPECT_EQ(written, program.profile.bytesWritten);
}

TEST(ProgramData, ATraceThatCannotBeReadSaysWhy)
{
    TempDir dir;
    std::ofstream(dir / "not.iolab-trace") << "hello";
    EXPECT_THAT(readProgram(q(dir / "not.iolab-trace")).error.toStdString(), HasSubstr("not.iolab-trace"));
    EXPECT_FALSE(readProgram(q(dir / "missing.iolab-trace")).error.isEmpty());
}

TEST(ProgramData, TheReplayMatrixIsIolabClisOne)
{
    const Matrix m = replayMatrix(QStringLiteral("/x/app.iolab-trace"));
    ASSERT_EQ(m.groups.size(), 1u);
    EXPECT_EQ(m.groups[0].strategies, std::vector<std::string>{"replay"});
    // The absolute path, as iolab-cli gives it (on Windows, with its drive).
    EXPECT_EQ(m.groups[0].extraAxes.at("replay"),
              std::vector<std::string>{
                  QFileInfo(QStringLiteral("/x/app.iolab-trace")).absoluteFilePath().toStdString()});
    EXPECT_EQ(m.name, "replay of app.iolab-trace");
}

TEST_F(ProgramWindow, OpeningATraceShowsTheVerdictFirstAndBothCharts)
{
    twoFiles().writeTo(traces / "two.iolab-trace");
    ASSERT_EQ(open(traces / "two.iolab-trace"), QString());
    ProgramView* view = window->programView();
    EXPECT_EQ(window->tabs()->currentWidget(), view);
    ASSERT_TRUE(view->hasProgram());
    const ProgramData program = readProgram(q(traces / "two.iolab-trace"));
    EXPECT_TRUE(view->profileText().startsWith(q(program.lines.front()))) << "the verdict first";
    EXPECT_THAT(view->titleText().toStdString(), HasSubstr("synthetic --test"));
    // The size chart: writes and reads, a bar per power of two.
    auto* sizes = qobject_cast<QBarSeries*>(view->sizeChart()->series().value(0));
    ASSERT_NE(sizes, nullptr);
    ASSERT_EQ(sizes->barSets().size(), 2);
    double writes = 0;
    for (int i = 0; i < sizes->barSets()[0]->count(); ++i)
        writes += sizes->barSets()[0]->at(i);
    EXPECT_EQ(writes, 5.0);
    // The timeline: a line per file and a dot per sync.
    int lines = 0;
    int dots = 0;
    for (QAbstractSeries* s : view->timelineChart()->series()) {
        if (auto* scatter = qobject_cast<QScatterSeries*>(s))
            dots += scatter->count();
        else if (qobject_cast<QLineSeries*>(s))
            ++lines;
    }
    EXPECT_EQ(lines, 2);
    EXPECT_EQ(dots, 1);
    EXPECT_TRUE(view->replayButton()->isEnabled()) << "a folder target is selected";
    screenshot(*window, "program-synthetic.png");

    // A file that is no trace: the tab and the banner say why.
    std::ofstream(traces / "bad.iolab-trace") << "hello";
    EXPECT_FALSE(open(traces / "bad.iolab-trace").isEmpty());
    EXPECT_FALSE(view->hasProgram());
    EXPECT_FALSE(view->replayButton()->isEnabled());
    EXPECT_THAT(window->bannerText().toStdString(), HasSubstr("bad.iolab-trace"));
}

// A result with a replay case: the report's "Your program" gives the program, the time inside its calls when
// recorded and the median of the measured repetitions' replayed, their ratio, and what the replay re-issued;
// a result without one has no such section.
TEST(ProgramReport, AReplayCaseGetsYourProgramSection)
{
    TempDir dir;
    std::ifstream in(std::string(IOLAB_SOURCE_DIR) + "/tests/data/golden-result.json");
    const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    RunResult result = resultFromJson(json, "golden-result.json");
    const auto textOf = [&dir](const RunResult& r) {
        const QByteArray pdf = report::renderPdfReport(r, {}, &builtinRegistry());
        const std::string path = dir / "report.pdf";
        std::ofstream(path, std::ios::binary).write(pdf.constData(), pdf.size());
        const auto text = runHostTool("pdftotext", {"-layout", path, "-"});
        EXPECT_EQ(text.exitCode, 0) << text.err;
        return text.out;
    };
    EXPECT_THAT(textOf(result), ::testing::Not(HasSubstr("Your program")));
    CaseResult& c = result.cases.front();
    c.replay = ReplayRecord{"dd if=/dev/zero of=out bs=4k count=100 oflag=dsync", 0.010, 103, 100, 0, 409600};
    ASSERT_GE(c.repetitions.size(), 2u);
    double inside = 0.008;
    for (auto& rep : c.repetitions) {
        rep.insideSeconds = rep.warmup ? 1.0 : inside; // the warm-up's is left out
        inside += 0.001;
    }
    std::size_t measured = 0;
    for (const auto& rep : c.repetitions)
        measured += rep.warmup || !rep.outcome.ok() ? 0 : 1;
    const std::string text = textOf(result);
    EXPECT_THAT(text, HasSubstr("Your program"));
    EXPECT_THAT(text, HasSubstr("dd if=/dev/zero of=out bs=4k"));
    EXPECT_THAT(text, HasSubstr("10.0 ms")) << "the program's time inside its calls";
    EXPECT_THAT(text, HasSubstr(QStringLiteral("(median of %1)").arg(measured).toStdString()));
    EXPECT_THAT(text, HasSubstr("400 KiB"));
}

// Save as PDF...: the profile as a report to hand over, its text readable (pdftotext), the program and its
// files named, the window saying where it went; a path that cannot be written is said, and nothing is left.
TEST_F(ProgramWindow, TheProfileSavesAsAPdfToHandOver)
{
    twoFiles().writeTo(traces / "two.iolab-trace");
    ASSERT_EQ(open(traces / "two.iolab-trace"), QString());
    ProgramView* view = window->programView();
    ASSERT_TRUE(view->savePdfButton()->isEnabled());
    QSignalSpy saved(view, &ProgramView::pdfSaved);
    const std::string pdf = data / "two.pdf";
    ASSERT_EQ(view->savePdf(q(pdf)), QString());
    EXPECT_EQ(saved.count(), 1);
    const auto text = runHostTool("pdftotext", {"-layout", pdf, "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    const std::string said = withoutLigatures(text.out);
    EXPECT_THAT(said, HasSubstr("What synthetic does with files"));
    EXPECT_THAT(said, HasSubstr("synthetic --test"));
    EXPECT_THAT(said, HasSubstr("/data/a.db"));
    EXPECT_THAT(said, HasSubstr("3 pwrite"));
    EXPECT_THAT(said, HasSubstr("Its writes by size"));
    const ProgramData program = readProgram(q(traces / "two.iolab-trace"));
    EXPECT_THAT(said, HasSubstr(program.lines.front().substr(0, 30))) << "the verdict, as the tab says it";
    if (const char* folder = std::getenv("IOLAB_SCREENSHOTS"))
        std::filesystem::copy_file(pdf, std::string(folder) + "/profile.pdf",
                                   std::filesystem::copy_options::overwrite_existing);
    const QString refused = view->savePdf(q(data / "no-such-folder/two.pdf"));
    EXPECT_FALSE(refused.isEmpty());
    EXPECT_FALSE(std::filesystem::exists(data / "no-such-folder"));
    EXPECT_EQ(saved.count(), 1);
}

#ifndef _WIN32
// Record with the dialog, open the trace in the Program tab, replay it on the target: the run goes through
// Run's start into Live, Results (its replay record), the Summary and History.
TEST_F(ProgramWindow, RecordedThenReplayedLikeAnyRun)
{
    if (sqlite3().isEmpty())
        GTEST_SKIP() << "sqlite3 is not installed (dev.sh installs it)";
    window->showRecordDialog();
    auto* dialog = qobject_cast<RecordDialog*>(window->recordDialog());
    ASSERT_NE(dialog, nullptr);
    QSignalSpy opened(window.get(), &MainWindow::traceOpened);
    const QString trace = q(traces / "sqlite.iolab-trace");
    const QString status = recordAndWait(*dialog, QStringLiteral("sqlite3"),
                                         QStringLiteral("t.db 'create table t(a); insert into t values(1);'"),
                                         q(traces.path()), trace);
    EXPECT_THAT(status.toStdString(), HasSubstr("exited with status 0"));
    ASSERT_TRUE(QFile::exists(trace));
    EXPECT_EQ(entriesOf(traces.path()), (std::vector<std::string>{"sqlite.iolab-trace", "t.db"}))
        << "the parts folder is gone; the program ran in the working folder";
    ASSERT_EQ(answerOf(opened, 1), QString());
    ProgramView* view = window->programView();
    EXPECT_EQ(view->tracePath(), trace);
    EXPECT_THAT(view->profileText().toStdString(), HasSubstr("fdatasync"));
    screenshot(*dialog, "record-dialog.png");
    screenshot(*window, "program-sqlite.png");

    QSignalSpy ended(window.get(), &MainWindow::runEnded);
    ASSERT_TRUE(view->replayButton()->isEnabled());
    view->replayButton()->click();
    EXPECT_FALSE(view->replayButton()->isEnabled()) << "no second replay while one starts";
    ASSERT_TRUE(ended.wait(120'000)) << window->bannerText().toStdString();
    EXPECT_EQ(window->lastRunProblem(), QString());
    ASSERT_TRUE(window->currentResult().has_value());
    const RunResult& result = *window->currentResult();
    ASSERT_EQ(result.cases.size(), 1u);
    const CaseResult replay = result.cases.front(); // a copy: the window's result is replaced below
    EXPECT_EQ(replay.testCase.label(), "replay of sqlite.iolab-trace");
    ASSERT_TRUE(replay.replay.has_value());
    EXPECT_GT(replay.replay->writeCalls, 0u);
    EXPECT_EQ(window->resultsView()->model()->rowCount(), 1);
    EXPECT_EQ(window->history()->model()->rowCount(), 1);
    screenshot(*window, "replay-results.png");
    // The report's "Your program": the program, its time inside its calls recorded and replayed.
    const std::string pdf = data / "replay.pdf";
    ASSERT_EQ(exportAndWait(*window, q(pdf)), QString());
    if (const char* folder = std::getenv("IOLAB_SCREENSHOTS"))
        std::filesystem::copy_file(pdf, std::string(folder) + "/replay.pdf",
                                   std::filesystem::copy_options::overwrite_existing);
    const auto text = runHostTool("pdftotext", {"-layout", pdf, "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_THAT(text.out, HasSubstr("Your program"));
    EXPECT_THAT(text.out, HasSubstr("sqlite3 t.db"));
    EXPECT_THAT(text.out, HasSubstr("(median of 5)"));

    // History: the run reopens with its replay record, each repetition's time inside the calls, the Summary's
    // answer about the program, and the report's section.
    const std::string verdict = window->resultsView()->verdictText().toStdString();
    EXPECT_THAT(verdict, HasSubstr("sqlite3"));
    const QString saved = window->lastSavedRun();
    ASSERT_FALSE(saved.isEmpty());
    window->showResult(RunResult{}, QStringLiteral("nothing"));
    ASSERT_EQ(openAndWait(*window, saved), QString());
    ASSERT_TRUE(window->currentResult().has_value());
    const CaseResult& reopened = window->currentResult()->cases.at(0);
    EXPECT_EQ(reopened.replay, replay.replay);
    ASSERT_EQ(reopened.repetitions.size(), replay.repetitions.size());
    for (std::size_t i = 0; i < reopened.repetitions.size(); ++i)
        EXPECT_EQ(reopened.repetitions[i].insideSeconds, replay.repetitions[i].insideSeconds);
    EXPECT_EQ(window->resultsView()->verdictText().toStdString(), verdict);
    ASSERT_EQ(exportAndWait(*window, q(data / "reopened.pdf")), QString());
    const auto reopenedText = runHostTool("pdftotext", {"-layout", data / "reopened.pdf", "-"});
    EXPECT_THAT(reopenedText.out, HasSubstr("Your program"));
    EXPECT_FALSE(window->plan().matrix.name.starts_with("replay")) << "the plan is the editor's again";
    EXPECT_EQ(target.entryCount(), 0u) << "the run folder is gone";
}

// A writer of 4 KiB records, each as 16 writes of 256 B, an fsync after each of 8: the program's own calls,
// made faster by coalescing, preallocation with fdatasync, or (weaker) one sync at the end.
SyntheticTrace recordWriter()
{
    SyntheticTrace t;
    t.open(1, 1, "/data/journal", trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate, 3);
    for (int r = 0; r < 8; ++r) {
        t.transfer(1, 1, trace::Call::Write, 3, 256, -1, 16);
        t.call(1, 1, trace::Call::Fsync, 3);
    }
    t.call(1, 1, trace::Call::Close, 3);
    return t;
}

// The answer's lines as iolab-cli prints them, unwrapped: a sentence per line.
std::vector<std::string> unwrappedAnswer(const std::string& out)
{
    std::vector<std::string> lines;
    std::istringstream in(out.substr(out.find("\nYour program\n") + 14));
    for (std::string line; std::getline(in, line);) {
        if (line.empty())
            break;
        const std::size_t indent = line.find_first_not_of(' ');
        if (!lines.empty() && indent != std::string::npos && indent >= 2 && indent < 6 &&
            lines.back().find_first_not_of(' ') + 2 == indent)
            lines.back() += " " + line.substr(indent); // a wrapped sentence's next line
        else
            lines.push_back(line);
    }
    return lines;
}

// Find a faster way: the trace's replay and each other way that keeps its durability, run through Run's
// usual start; the answer leads the Summary, as iolab-cli advise gives it (the same ways, the same lead), and
// History and the PDF's "Your program" keep it.
TEST_F(ProgramWindow, FindAFasterWayAnswersAsTheCliDoesAndHistoryAndThePdfKeepIt)
{
    const std::string trace = traces / "writer.iolab-trace";
    recordWriter().writeTo(trace);
    ASSERT_EQ(open(trace), QString());
    ProgramView* view = window->programView();
    ASSERT_TRUE(view->adviseButton()->isEnabled());
    // The editor's run options are another matrix's: the ways run 5 times each, taking turns, whatever they
    // say.
    RunOptions editorOptions = window->matrixEditor()->runOptions();
    editorOptions.repetitions = 2;
    editorOptions.alternate = false;
    window->matrixEditor()->setRunOptions(editorOptions);
    screenshot(*window->matrixEditor(), "editor-run-options.png");
    QSignalSpy ended(window.get(), &MainWindow::runEnded);
    view->adviseButton()->click();
    EXPECT_FALSE(view->adviseButton()->isEnabled()) << "no second run while one starts";
    ASSERT_TRUE(ended.wait(180'000)) << window->bannerText().toStdString();
    EXPECT_EQ(window->lastRunProblem(), QString());
    ASSERT_TRUE(window->currentResult().has_value());
    const RunResult result = *window->currentResult();

    // The ways iolab-cli advise runs, the program's own calls first, each measured 5 times, taking turns.
    EXPECT_EQ(result.options.repetitions, kAdviceRepetitions);
    EXPECT_TRUE(result.options.alternate);
    std::vector<std::string> ways;
    for (const auto& c : result.cases) {
        ways.push_back(extraAxisValue(c.testCase, "replay-variant", "recorded"));
        EXPECT_EQ(c.status, Status::Ok) << c.testCase.label() << ": " << c.reason;
        std::size_t measured = 0;
        for (const auto& rep : c.repetitions)
            measured += rep.warmup ? 0 : 1;
        EXPECT_EQ(measured, kAdviceRepetitions) << c.testCase.label();
    }
    EXPECT_EQ(ways, adviceVariantAxis(loadReplayScript(trace)));
    EXPECT_THAT(ways, ::testing::ElementsAre("recorded", "coalesce", "writev", "prealloc-fdatasync",
                                             "rewrite-segment", "direct-batch", "mmap-batch", "io-uring",
                                             "sync-at-close"));

    // The answer: the lead as the CLI's (the program's own figures), a way named or none, the weaker apart.
    ASSERT_GE(result.programAdvice.size(), 3u);
    TempDir cliTarget;
    const ProcessResult cli = runProcess(IOLAB_CLI_PATH, {"advise", trace, "--target", cliTarget.path(),
                                                          "--reps", "2", "--warmups", "0", "--quiet"});
    ASSERT_EQ(cli.exitCode, 0) << cli.out << cli.err;
    const std::vector<std::string> cliAnswer = unwrappedAnswer(cli.out);
    ASSERT_FALSE(cliAnswer.empty()) << cli.out;
    EXPECT_EQ(result.programAdvice.front(), cliAnswer.front());
    EXPECT_THAT(result.programAdvice.front(), HasSubstr("128 write calls"));
    EXPECT_THAT(result.programAdvice.front(), HasSubstr("8 fsync"));
    const auto said = [](const std::vector<std::string>& lines, const std::string& what) {
        return std::any_of(lines.begin(), lines.end(),
                           [&](const std::string& line) { return line.find(what) != std::string::npos; });
    };
    EXPECT_TRUE(
        said(result.programAdvice, "Faster only by keeping fewer durability points (never the answer):"));
    EXPECT_TRUE(said(cliAnswer, "Faster only by keeping fewer durability points (never the answer):"));
    const bool named = said(result.programAdvice, "The change: ");
    EXPECT_TRUE(named || said(result.programAdvice, "None of the "));

    const std::string verdict = window->resultsView()->verdictText().toStdString();
    EXPECT_THAT(verdict, HasSubstr("How should the recorded program write?"));
    EXPECT_THAT(verdict, HasSubstr("Your program"));
    EXPECT_THAT(verdict, HasSubstr(result.programAdvice.front().substr(0, 40)));
    EXPECT_THAT(verdict, HasSubstr("sync-at-close"));
    screenshot(*window, "advice-results.png");

    // The PDF: the answer in the Summary, the whole of it in "Your program", each way as measured.
    const std::string pdf = data / "advice.pdf";
    ASSERT_EQ(exportAndWait(*window, q(pdf)), QString());
    if (const char* folder = std::getenv("IOLAB_SCREENSHOTS"))
        std::filesystem::copy_file(pdf, std::string(folder) + "/advice.pdf",
                                   std::filesystem::copy_options::overwrite_existing);
    const auto text = runHostTool("pdftotext", {"-layout", pdf, "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    const std::string report = withoutLigatures(text.out);
    EXPECT_THAT(report, HasSubstr("Your program"));
    EXPECT_THAT(report, HasSubstr("Each way, as measured"));
    EXPECT_THAT(report, HasSubstr("Faster only by keeping fewer durability points"));
    if (named) {
        EXPECT_THAT(report, HasSubstr("The change:"));
    }

    // History: the run reopens with its answer.
    const QString saved = window->lastSavedRun();
    ASSERT_FALSE(saved.isEmpty());
    window->showResult(RunResult{}, QStringLiteral("nothing"));
    ASSERT_EQ(openAndWait(*window, saved), QString());
    ASSERT_TRUE(window->currentResult().has_value());
    EXPECT_EQ(window->currentResult()->programAdvice, result.programAdvice);
    EXPECT_EQ(window->resultsView()->verdictText().toStdString(), verdict);
    EXPECT_FALSE(window->plan().matrix.name.starts_with("other ways")) << "the plan is the editor's again";
    EXPECT_EQ(target.entryCount(), 0u) << "the run folders are gone";
}

// A trace that cannot be read is said, and nothing runs.
TEST_F(ProgramWindow, FindAFasterWayOnATraceThatIsGoneIsSaid)
{
    const std::string trace = traces / "gone.iolab-trace";
    recordWriter().writeTo(trace);
    ASSERT_EQ(open(trace), QString());
    std::filesystem::remove(trace);
    ASSERT_TRUE(window->adviseOnTrace(q(trace))) << "read off the GUI thread: said when it fails";
    EXPECT_FALSE(window->programView()->adviseButton()->isEnabled()) << "no second one meanwhile";
    IOLAB_TRY_VERIFY(
        window->bannerText().contains(QStringLiteral("Cannot find a faster way for gone.iolab-trace")),
        10'000);
    EXPECT_FALSE(window->isRunning());
    EXPECT_TRUE(window->programView()->adviseButton()->isEnabled());
    EXPECT_EQ(target.entryCount(), 0u);
}

#endif

#ifdef _WIN32
// On Windows the dialog records through iolab-record.dll: a MinGW program of known calls, recorded, shown in
// the Program tab and replayed on the target like any run, its run folder gone after.
TEST_F(ProgramWindow, RecordedAndReplayedOnWindows)
{
    window->showRecordDialog();
    auto* dialog = qobject_cast<RecordDialog*>(window->recordDialog());
    ASSERT_NE(dialog, nullptr);
    QSignalSpy opened(window.get(), &MainWindow::traceOpened);
    const QString trace = q(traces / "program.iolab-trace");
    const QString folder = QDir::toNativeSeparators(q(traces.path()));
    const QString status = recordAndWait(*dialog, QStringLiteral(IOLAB_WINDOWS_RECORDED_PROGRAM),
                                         QStringLiteral("'%1'").arg(folder), q(traces.path()), trace);
    EXPECT_THAT(status.toStdString(), HasSubstr("exited with status 0"));
    ASSERT_TRUE(QFile::exists(trace));
    EXPECT_EQ(entriesOf(traces.path()),
              (std::vector<std::string>{"child.dat", "handle.dat", "program.iolab-trace", "settings.ini",
                                        "stdio.log", "thread.dat"}))
        << "the program's files and the trace; the parts folder is gone";
    ASSERT_EQ(answerOf(opened, 1), QString());
    ProgramView* view = window->programView();
    EXPECT_EQ(QDir::fromNativeSeparators(view->tracePath()), QDir::fromNativeSeparators(trace));
    EXPECT_THAT(view->profileText().toStdString(), HasSubstr("FlushFileBuffers"));
    EXPECT_THAT(view->profileText().toStdString(), HasSubstr("stdio.log"));
    screenshot(*window, "program-windows.png");

    QSignalSpy ended(window.get(), &MainWindow::runEnded);
    ASSERT_TRUE(view->replayButton()->isEnabled());
    view->replayButton()->click();
    ASSERT_TRUE(ended.wait(120'000)) << window->bannerText().toStdString();
    EXPECT_EQ(window->lastRunProblem(), QString());
    ASSERT_TRUE(window->currentResult().has_value());
    const CaseResult& replay = window->currentResult()->cases.at(0);
    EXPECT_EQ(replay.testCase.label(), "replay of program.iolab-trace");
    EXPECT_EQ(replay.status, Status::Ok) << replay.reason;
    ASSERT_TRUE(replay.replay.has_value());
    EXPECT_EQ(replay.replay->writeCalls, 1338u);
    EXPECT_EQ(target.entryCount(), 0u) << "the run folder is gone";
}

// Stop ends the program and what it started (its job object), and keeps what was recorded until then.
TEST_F(ProgramWindow, StopEndsTheProgramOnWindowsAndKeepsWhatItRecorded)
{
    RecordDialog dialog;
    dialog.programField()->setText(QStringLiteral("cmd.exe"));
    dialog.argumentsField()->setText(QStringLiteral("/c 'for /L %i in (1,0,2) do @echo x>>out.txt'"));
    dialog.folderField()->setText(q(traces.path()));
    dialog.traceField()->setText(q(traces / "loop.iolab-trace"));
    QSignalSpy ended(&dialog, &RecordDialog::recordingEnded);
    QSignalSpy written(&dialog, &RecordDialog::traceWritten);
    ASSERT_TRUE(dialog.record());
    IOLAB_TRY_VERIFY(dialog.rateText().contains(QStringLiteral(" a second now")) &&
                         !dialog.rateText().startsWith(QStringLiteral("About 0 ")),
                     30'000);
    dialog.stopButton()->click();
    ASSERT_TRUE(ended.wait(30'000));
    EXPECT_THAT(dialog.statusText().toStdString(), HasSubstr("stopped"));
    ASSERT_EQ(written.count(), 1);
    const ProgramData program = readProgram(written.first().at(0).toString());
    ASSERT_EQ(program.error, QString());
    EXPECT_GT(program.profile.writeCalls, 0u);
}
#else

TEST_F(ProgramWindow, BadInputToTheRecordDialogIsSaidAndLeavesNothing)
{
    RecordDialog dialog;
    const QString folder = q(traces.path());
    EXPECT_THAT(recordAndWait(dialog, QString(), QString(), folder).toStdString(),
                HasSubstr("Name the program"));
    EXPECT_THAT(
        recordAndWait(dialog, QStringLiteral("no-such-program-iolab"), QString(), folder).toStdString(),
        HasSubstr("no such program on PATH"));
    std::ofstream(traces / "plain.txt") << "not a program";
    EXPECT_THAT(recordAndWait(dialog, QStringLiteral("./plain.txt"), QString(), folder).toStdString(),
                HasSubstr("not executable"));
    // An ELF file without a program interpreter: statically linked. The strace command is given.
    {
        std::ofstream elf(traces / "static-program", std::ios::binary);
        unsigned char header[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
        header[54] = 56; // e_phentsize: sizeof(Elf64_Phdr); e_phnum 0
        elf.write(reinterpret_cast<const char*>(header), sizeof header);
    }
    std::filesystem::permissions(traces / "static-program", std::filesystem::perms::owner_all);
    const QString staticStatus =
        recordAndWait(dialog, QStringLiteral("./static-program"), QStringLiteral("a 'b c'"), folder);
    EXPECT_THAT(staticStatus.toStdString(), HasSubstr(traces / "static-program is statically linked"));
    EXPECT_THAT(staticStatus.toStdString(), HasSubstr("strace -f -tt -T -y -o trace.strace -- "));
    EXPECT_THAT(staticStatus.toStdString(), HasSubstr("/static-program a 'b c'</tt>"));
    EXPECT_THAT(recordAndWait(dialog, QStringLiteral("true"), QString(), q(traces / "missing"),
                              q(traces / "x.iolab-trace"))
                    .toStdString(),
                HasSubstr("is not a folder"));
    std::ofstream(traces / "taken.iolab-trace") << "x";
    EXPECT_THAT(
        recordAndWait(dialog, QStringLiteral("true"), QString(), folder, q(traces / "taken.iolab-trace"))
            .toStdString(),
        HasSubstr("already exists"));
    EXPECT_THAT(recordAndWait(dialog, QStringLiteral("true"), QStringLiteral("'unclosed"), folder,
                              q(traces / "x.iolab-trace"))
                    .toStdString(),
                HasSubstr("single quote in the arguments is not closed"));
    screenshot(dialog, "record-refused.png");
    EXPECT_EQ(entriesOf(traces.path()),
              (std::vector<std::string>{"plain.txt", "static-program", "taken.iolab-trace"}))
        << "no trace and no parts folder left behind";
}

TEST_F(ProgramWindow, StopKillsTheProgramAndKeepsWhatItRecorded)
{
    RecordDialog dialog;
    dialog.programField()->setText(QStringLiteral("sh"));
    dialog.argumentsField()->setText(QStringLiteral("-c 'while :; do echo x >> out.txt; done'"));
    dialog.folderField()->setText(q(traces.path()));
    dialog.traceField()->setText(q(traces / "loop.iolab-trace"));
    QSignalSpy ended(&dialog, &RecordDialog::recordingEnded);
    QSignalSpy written(&dialog, &RecordDialog::traceWritten);
    ASSERT_TRUE(dialog.record());
    EXPECT_FALSE(dialog.recordButton()->isEnabled());
    // The rate shows the records counted from the parts while it runs.
    IOLAB_TRY_VERIFY(dialog.rateText().contains(QStringLiteral(" a second now")) &&
                         !dialog.rateText().startsWith(QStringLiteral("About 0 ")),
                     20'000);
    ASSERT_TRUE(dialog.stopButton()->isEnabled());
    screenshot(dialog, "record-running.png");
    dialog.stopButton()->click();
    ASSERT_TRUE(ended.wait(20'000));
    EXPECT_THAT(dialog.statusText().toStdString(), HasSubstr("stopped (killed)"));
    ASSERT_EQ(written.count(), 1);
    const ProgramData program = readProgram(written.first().at(0).toString());
    ASSERT_EQ(program.error, QString());
    EXPECT_GT(program.profile.writeCalls, 0u);
    EXPECT_TRUE(dialog.recordButton()->isEnabled());
}
#endif

TEST(RecordJob, ArgumentsSplitAsAShellSplitsThem)
{
    QString error;
    EXPECT_EQ(splitArguments(QStringLiteral(R"(t.db 'create table t(a);'  "x \"y\"" a\ b '')"), &error),
              (QStringList{QStringLiteral("t.db"), QStringLiteral("create table t(a);"),
                           QStringLiteral("x \"y\""), QStringLiteral("a b"), QString()}));
    EXPECT_EQ(error, QString());
    EXPECT_TRUE(splitArguments(QStringLiteral("\"open"), &error).isEmpty());
    EXPECT_THAT(error.toStdString(), HasSubstr("double quote"));
}

TEST(RecordJob, TheRecordsAreEstimatedFromTheChunksUsedBytes)
{
    TempDir dir;
    trace::PartHeader header{};
    header.headerBytes = sizeof header;
    header.chunkBytes = 4096;
    trace::ChunkHeader used{trace::kChunkMagic, 1, 10 * 88, 0};
    trace::ChunkHeader unused{};
    std::string bytes(sizeof header + 2 * 4096, '\0');
    std::memcpy(bytes.data(), &header, sizeof header);
    std::memcpy(bytes.data() + sizeof header, &used, sizeof used);
    std::memcpy(bytes.data() + sizeof header + 4096, &unused, sizeof unused);
    std::ofstream(dir / "1-1.part", std::ios::binary) << bytes;
    std::ofstream(dir / "2-2.part", std::ios::binary) << bytes;
    EXPECT_EQ(estimatedRecords(q(dir.path())), 20u);
}
