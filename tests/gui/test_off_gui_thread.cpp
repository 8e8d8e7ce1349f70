// SPDX-License-Identifier: MIT
// The window's disk work is done off the GUI thread: while an export, an open or a Compare is held on a
// latch, the window goes on handling events and says what is under way; the answer arrives queued; an answer
// for something no longer wanted (an older open or Compare, a window that is gone) is dropped.
#include "app/gui/history.h"
#include "app/gui/history_controller.h"
#include "app/gui/launch.h"
#include "app/gui/log_model.h"
#include "app/gui/main_window.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/report_command.h"
#include "app/gui/result_exporter.h"
#include "app/gui/run_controller.h"
#include "app/gui/target_model.h"
#include "app/gui/target_panel.h"
#include "app/gui/workers.h"
#include "tests/gui/wait_for.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/qt_text.h"
#include "tests/support/qt_wait.h"
#include "tests/support/temp_dir.h"

#include <QAction>
#include <QFile>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <condition_variable>
#include <fstream>
#include <future>
#include <iterator>
#include <memory>
#include <mutex>

using namespace iolab;
using namespace iolab::gui;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

// Holds a worker until the test opens it; says when a worker has reached it. Shared with the work, which may
// outlive the test's frame.
class Latch
{
public:
    void wait()
    {
        std::unique_lock lock(m_mutex);
        ++m_arrived;
        m_changed.notify_all();
        m_changed.wait(lock, [this] { return m_open; });
    }
    void open()
    {
        std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }
    int arrived()
    {
        std::lock_guard lock(m_mutex);
        return m_arrived;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_open = false;
    int m_arrived = 0;
};

// Counts the event loop's turns: it goes on while a worker is held.
struct Ticks
{
    QTimer timer;
    int count = 0;
    Ticks()
    {
        timer.setInterval(1);
        QObject::connect(&timer, &QTimer::timeout, [this] { ++count; });
        timer.start();
    }
    // The loop turned at least `n` more times.
    bool turns(int n)
    {
        const int from = count;
        return QTest::qWaitFor([&] { return count >= from + n; }, 10'000);
    }
};

// Waits until `pool` has nothing left to do, then hands the GUI thread what its jobs queued for it: an
// answer that was going to arrive has arrived.
void drain(QThreadPool* pool)
{
    ASSERT_TRUE(pool->waitForDone(20'000));
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
}

RunResult runNamed(const std::string& name, const std::string& startedAt, double mbps)
{
    RunResult r;
    r.startedAt = startedAt;
    r.matrix.name = name;
    CaseResult c;
    c.testCase.strategy = "write";
    c.testCase.chunkBytes = 4096;
    c.testCase.totalBytes = 1 << 20;
    c.apparentMBps.count = 3;
    c.apparentMBps.median = mbps;
    c.durableMBps = c.apparentMBps;
    r.cases.push_back(c);
    return r;
}

struct OffGuiThread : ::testing::Test
{
    TempDir data;
    LogModel log;
    std::unique_ptr<MainWindow> window;
    std::shared_ptr<Latch> latch = std::make_shared<Latch>();

    void SetUp() override
    {
        window =
            std::make_unique<MainWindow>(AppPaths{q(data.path()), q(data / "settings.ini"), false}, &log);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        IOLAB_TRY_VERIFY(!window->targetPanel()->model()->isScanning(), 10'000);
    }
    void TearDown() override { latch->open(); }

    // Saves runs into the history and waits until the list shows them.
    void saveRuns(const std::vector<RunResult>& runs)
    {
        HistoryStore store(q(data / "history"));
        for (const auto& run : runs) {
            QString error;
            ASSERT_FALSE(store.save(run, &error).isEmpty()) << error.toStdString();
        }
        window->refreshHistory();
        IOLAB_TRY_COMPARE(window->history()->model()->rowCount(), static_cast<int>(runs.size()), 10'000);
    }
    int rowOf(const std::string& name) const
    {
        for (int row = 0; row < window->history()->model()->rowCount(); ++row) {
            if (window->history()->model()->entry(row).path.contains(q(name)))
                return row;
        }
        return -1;
    }
    // The history's loader, held on the latch for paths that contain `held`.
    void holdLoadsOf(const QString& held)
    {
        window->history()->setLoader(
            [latch = latch, held, store = std::make_shared<HistoryStore>(q(data / "history"))](
                const QString& path, QString* error) {
                if (path.contains(held))
                    latch->wait();
                return store->load(path, error);
            });
    }
};

} // namespace

TEST_F(OffGuiThread, AnExportIsWrittenByAWorkerAndTheWindowSaysSoMeanwhile)
{
    ASSERT_EQ(openAndWait(*window, QStringLiteral(IOLAB_SOURCE_DIR "/tests/data/golden-result.json")),
              QString());
    window->exporter()->setWriter([latch = latch](const RunResult& result, const QString& path) {
        latch->wait();
        return exportResultFile(result, path, &builtinRegistry());
    });
    QSignalSpy finished(window->exporter(), &ResultExporter::finished);
    Ticks ticks;
    window->exportTo(q(data / "held.json"));
    IOLAB_TRY_COMPARE(latch->arrived(), 1, 10'000);
    EXPECT_TRUE(ticks.turns(3)) << "the window handles events while the export is written";
    EXPECT_TRUE(window->exporter()->isExporting());
    EXPECT_THAT(window->progressText().toStdString(), HasSubstr("Exporting to"));
    EXPECT_TRUE(finished.isEmpty());
    latch->open();
    ASSERT_TRUE(finished.wait(20'000));
    EXPECT_EQ(finished.at(0).at(1).toString(), QString());
    EXPECT_FALSE(window->exporter()->isExporting());
    EXPECT_THAT(window->progressText().toStdString(), HasSubstr("Exported to"));
    EXPECT_TRUE(QFile::exists(q(data / "held.json")));
}

// File > Export for sharing: the result shown, its names replaced, written as any export is; the action is
// there beside Export, enabled with a result.
TEST_F(OffGuiThread, AnExportForSharingWritesTheResultWithItsNamesReplaced)
{
    ASSERT_EQ(openAndWait(*window, QStringLiteral(IOLAB_SOURCE_DIR "/tests/data/golden-result.json")),
              QString());
    auto* share = window->findChild<QAction*>(QStringLiteral("shareAction"));
    ASSERT_NE(share, nullptr);
    EXPECT_TRUE(share->isEnabled());
    const std::string host = window->currentResult()->host.hostname;
    const std::string target = window->currentResult()->target.path;
    ASSERT_FALSE(host.empty());
    QSignalSpy finished(window->exporter(), &ResultExporter::finished);
    window->exportForSharingTo(q(data / "shared.json"));
    ASSERT_TRUE(finished.wait(20'000));
    EXPECT_EQ(finished.at(0).at(1).toString(), QString());
    std::ifstream in(data / "shared.json");
    const std::string json((std::istreambuf_iterator<char>(in)), {});
    EXPECT_THAT(json, HasSubstr("\"redacted\": true"));
    EXPECT_THAT(json, HasSubstr("host-1"));
    EXPECT_EQ(json.find("\"hostname\": \"" + host + "\""), std::string::npos);
    EXPECT_EQ(json.find(nlohmann::json(target).dump().substr(1, target.size())), std::string::npos)
        << "the target's path is nowhere";
    EXPECT_EQ(window->currentResult()->host.hostname, host) << "the result shown keeps its names";
}

TEST_F(OffGuiThread, AnExportThatEndsAfterItsWindowIsGoneIsWrittenAndItsAnswerDropped)
{
    ASSERT_EQ(openAndWait(*window, QStringLiteral(IOLAB_SOURCE_DIR "/tests/data/golden-result.json")),
              QString());
    auto written = std::make_shared<std::atomic<bool>>(false);
    window->exporter()->setWriter([latch = latch, written](const RunResult& result, const QString& path) {
        latch->wait();
        QString error = exportResultFile(result, path, &builtinRegistry());
        *written = true;
        return error;
    });
    QPointer<ResultExporter> exporter = window->exporter();
    window->exportTo(q(data / "late.json"));
    IOLAB_TRY_COMPARE(latch->arrived(), 1, 10'000);
    window.reset();
    EXPECT_TRUE(exporter.isNull());
    latch->open();
    drain(targetPool());
    // The queued answer found no exporter: nothing ran on the deleted one (ASan would say so).
    EXPECT_TRUE(written->load());
    EXPECT_TRUE(QFile::exists(q(data / "late.json")));
}

TEST_F(OffGuiThread, OpeningAResultReadsItOffTheGuiThreadAndAnOlderOpenIsDropped)
{
    saveRuns({runNamed("slow", "2026-01-01T10:00:00Z", 100), runNamed("quick", "2026-02-01T10:00:00Z", 200)});
    const int slow = rowOf("slow");
    const int quick = rowOf("quick");
    ASSERT_GE(slow, 0);
    ASSERT_GE(quick, 0);
    holdLoadsOf(QStringLiteral("slow"));
    QSignalSpy opened(window.get(), &MainWindow::resultOpened);
    Ticks ticks;
    window->openResultFile(window->history()->model()->entry(slow).path);
    IOLAB_TRY_COMPARE(latch->arrived(), 1, 10'000);
    EXPECT_TRUE(ticks.turns(3)) << "the window handles events while the file is read";
    EXPECT_TRUE(window->isOpeningResult());
    EXPECT_THAT(window->progressText().toStdString(), HasSubstr("Opening"));
    EXPECT_FALSE(window->currentResult().has_value());

    // Asked for later, answered first: the one shown.
    window->openResultFile(window->history()->model()->entry(quick).path);
    ASSERT_TRUE(opened.wait(10'000));
    ASSERT_TRUE(window->currentResult().has_value());
    EXPECT_EQ(window->currentResult()->matrix.name, "quick");
    EXPECT_FALSE(window->isOpeningResult());

    latch->open();
    // The slow one's read ends; its answer is dropped, and the quick one stays shown.
    drain(targetPool());
    EXPECT_EQ(opened.count(), 1);
    EXPECT_EQ(window->currentResult()->matrix.name, "quick");
}

// Issue 18: a customer's result (another machine's) goes into History, where Compare sets it beside any
// other run; one already there, or one that does not read, says so and adds nothing.
TEST_F(OffGuiThread, AResultFromElsewhereIsAddedToHistoryForCompare)
{
    saveRuns({runNamed("here", "2026-01-01T10:00:00Z", 100)});
    TempDir elsewhere;
    RunResult customer = runNamed("customer", "2026-02-01T10:00:00Z", 12);
    customer.system.gathered = true;
    {
        HistoryStore other(q(elsewhere.path()));
        QString error;
        const QString saved = other.save(customer, &error);
        ASSERT_FALSE(saved.isEmpty()) << error.toStdString();
        QSignalSpy imported(window.get(), &MainWindow::resultImported);
        window->importResultFile(saved);
        ASSERT_TRUE(imported.wait(10'000));
        EXPECT_FALSE(imported.at(0).at(0).toString().isEmpty())
            << imported.at(0).at(1).toString().toStdString();
        IOLAB_TRY_COMPARE(window->history()->model()->rowCount(), 2, 10'000);
        EXPECT_GE(rowOf("customer"), 0);
        EXPECT_TRUE(QFile::exists(saved)) << "the customer's file stays where it was";

        // Already in History: nothing added.
        imported.clear();
        window->importResultFile(window->history()->model()->entry(rowOf("here")).path);
        if (imported.count() == 0) {
            ASSERT_TRUE(imported.wait(10'000));
        }
        EXPECT_TRUE(imported.at(0).at(0).toString().isEmpty());
    }
    QSignalSpy imported(window.get(), &MainWindow::resultImported);
    window->importResultFile(q(elsewhere / "missing.json"));
    ASSERT_TRUE(imported.wait(10'000));
    EXPECT_TRUE(imported.at(0).at(0).toString().isEmpty());
    EXPECT_FALSE(imported.at(0).at(1).toString().isEmpty());
    drain(targetPool());
    EXPECT_EQ(window->history()->model()->rowCount(), 2);
}

TEST_F(OffGuiThread, TheResultFileNamedAtLaunchIsReadOffTheGuiThread)
{
    saveRuns({runNamed("launched", "2026-01-01T10:00:00Z", 100)});
    const QString path = window->history()->model()->entry(0).path;
    holdLoadsOf(QStringLiteral("launched"));
    QSignalSpy opened(window.get(), &MainWindow::resultOpened);
    Ticks ticks;
    LaunchOptions options;
    options.openResult = path;
    EXPECT_TRUE(applyLaunchOptions(*window, options).isEmpty()) << "it returns while the file is read";
    IOLAB_TRY_COMPARE(latch->arrived(), 1, 10'000);
    EXPECT_TRUE(ticks.turns(3)) << "the window handles events while the file is read";
    EXPECT_FALSE(window->currentResult().has_value());
    latch->open();
    ASSERT_TRUE(opened.wait(10'000));
    ASSERT_TRUE(window->currentResult().has_value());
    EXPECT_EQ(window->currentResult()->matrix.name, "launched");
}

TEST_F(OffGuiThread, AFileThatDoesNotReadSaysWhyInTheBanner)
{
    std::ofstream(data / "broken.json") << "{\"cases\": [";
    const QString error = openAndWait(*window, q(data / "broken.json"));
    EXPECT_THAT(error.toStdString(), HasSubstr("broken.json"));
    EXPECT_THAT(window->bannerText().toStdString(), HasSubstr("Cannot open the result"));
    EXPECT_FALSE(window->currentResult().has_value());
}

TEST_F(OffGuiThread, CompareReadsBothRunsOffTheGuiThreadAndAnOlderCompareIsDropped)
{
    saveRuns({runNamed("first", "2026-01-01T10:00:00Z", 100), runNamed("second", "2026-02-01T10:00:00Z", 400),
              runNamed("third", "2026-03-01T10:00:00Z", 200)});
    const int first = rowOf("first");
    const int second = rowOf("second");
    const int third = rowOf("third");
    ASSERT_TRUE(first >= 0 && second >= 0 && third >= 0);
    holdLoadsOf(QStringLiteral("second"));
    QSignalSpy compared(window->history(), &HistoryController::compared);
    Ticks ticks;
    window->history()->compareRows(first, second);
    IOLAB_TRY_COMPARE(latch->arrived(), 1, 10'000);
    EXPECT_TRUE(ticks.turns(3)) << "the window handles events while the runs are read";
    EXPECT_TRUE(window->history()->isComparing());
    EXPECT_EQ(window->history()->compareModel()->rowCount(), 0);

    // A newer Compare, queued behind the held one on the history's thread.
    window->history()->compareRows(first, third);
    latch->open();
    ASSERT_TRUE(compared.wait(10'000));
    EXPECT_EQ(compared.at(0).at(0).toString(), QString());
    ASSERT_EQ(window->history()->compareModel()->rowCount(), 1);
    EXPECT_DOUBLE_EQ(*window->history()->compareModel()->ratio(0), 2.0)
        << "third over first, not second over first";
    drain(historyPool());
    EXPECT_EQ(compared.count(), 1) << "the held Compare's answer was dropped";
    EXPECT_FALSE(window->history()->isComparing());
}

TEST_F(OffGuiThread, TheExitDoesNotWaitForALookAtATargetThatCannotEnd)
{
    TempDir folder;
    // A probe on a hung mount: it ends only when the test says so.
    window->targetPanel()->setInspector([latch = latch](TargetEntry entry, TargetLook look) {
        latch->wait();
        return lookAtTarget(std::move(entry), look);
    });
    window->chooseFolder(q(folder.path()));
    IOLAB_TRY_COMPARE(latch->arrived(), 1, 10'000);
    // A history save asked for before the exit is finished by it.
    auto saved = std::make_shared<std::atomic<bool>>(false);
    historyPool()->start([saved] { *saved = true; });

    // On another thread, so that a hang shows as a failure rather than a stuck test binary.
    auto exit = std::async(std::launch::async, [] { return finishWorkers(std::chrono::milliseconds(50)); });
    ASSERT_EQ(exit.wait_for(std::chrono::seconds(60)), std::future_status::ready)
        << "the exit waited for the stuck look";
    EXPECT_FALSE(exit.get()) << "the stuck look was left behind";
    EXPECT_TRUE(saved->load());
    EXPECT_TRUE(window->isInspectingTarget()) << "the look is still going";

    latch->open();
    drain(targetPool());
}

TEST_F(OffGuiThread, OtherRunsAreLookedForOffTheGuiThreadAndAStopBeforeTheAnswerDropsIt)
{
    TempDir folder;
    window->chooseFolder(q(folder.path()));
    IOLAB_TRY_VERIFY(!window->isInspectingTarget(), 20'000);
    MatrixDraft draft = MatrixDraft::fresh(builtinRegistry());
    StrategyDraft* row = draft.find("write");
    row->chunks = {64 * 1024};
    row->sizes = {256 * 1024};
    window->matrixEditor()->setDraft(draft);
    RunOptions options;
    options.repetitions = 1;
    options.warmups = 0;
    window->matrixEditor()->setRunOptions(options);
    auto finds = std::make_shared<std::atomic<int>>(0);
    window->setOtherRunsFinder([latch = latch, finds](const std::string& path) {
        latch->wait();
        ++*finds;
        return otherRunsFor(path);
    });
    QSignalSpy started(window->controller(), &RunController::runStarted);
    QSignalSpy ended(window.get(), &MainWindow::runEnded);
    Ticks ticks;
    ASSERT_TRUE(window->startRun()) << window->runBlockedReason().toStdString();
    IOLAB_TRY_COMPARE(latch->arrived(), 1, 20'000);
    EXPECT_TRUE(ticks.turns(3)) << "the window handles events while other runs are looked for";
    EXPECT_TRUE(window->isStartingRun());
    EXPECT_FALSE(window->isRunning());
    EXPECT_THAT(window->progressText().toStdString(), HasSubstr("other IOLab runs"));
    EXPECT_FALSE(window->runAction()->isEnabled());
    EXPECT_FALSE(window->matrixEditor()->isEnabled()) << "the matrix is the run's from Run on";

    // Stopped before the answer: the answer is dropped and no run starts.
    window->stopRun();
    EXPECT_FALSE(window->isStartingRun());
    EXPECT_EQ(ended.count(), 1) << "the start that was stopped has ended";
    latch->open();
    drain(targetPool());
    EXPECT_EQ(finds->load(), 1);
    EXPECT_TRUE(started.isEmpty());
    EXPECT_FALSE(window->isRunning());
    EXPECT_TRUE(window->runAction()->isEnabled());

    // Started again, the answer comes in and the run goes.
    ASSERT_TRUE(window->startRun());
    ASSERT_TRUE(ended.wait(60'000));
    EXPECT_EQ(ended.count(), 2);
    EXPECT_EQ(started.count(), 1);
    EXPECT_EQ(finds->load(), 2);
    ASSERT_TRUE(window->currentResult().has_value());
    EXPECT_EQ(folder.entryCount(), 0u);
}
