// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/history.h"
#include "app/gui/run_preview.h"
#include "app/gui/theme.h"
#include "core/analysis/program_profile.h"
#include "core/engine/registry.h"
#include "core/engine/runner.h"
#include "core/model/result.h"
#include "platform/platform.h"

#include <QMainWindow>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QDialog;
class QListWidget;
class QSplitter;
class QStackedWidget;
class QTabWidget;

namespace iolab::gui {

class Banner;
class HistoryController;
class LabView;
class LiveCharts;
class LogModel;
class MatrixEditor;
class PlanPanel;
class ProgramView;
class ResultExporter;
class ResultFiles;
class ResultsView;
class RunController;
class RunPresenter;
class RunStarter;
class StartPage;
class TargetModel;
class TargetPanel;
class WindowSettings;

// Where the app keeps its files. Tests point these at a temporary folder.
struct AppPaths
{
    QString dataFolder;   // history/ and presets/
    QString settingsFile; // "" = the platform's default QSettings
    // Calibrate a folder target's time estimate (about a second of IOLab's own I/O in a marked folder there,
    // kept a week in dataFolder's calibration.json) when a plan of 20 s or more would otherwise stand on
    // typical figures, as iolab-cli does for a long run; --no-calibration turns it off.
    bool calibrate = true;
};

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(const AppPaths& paths, LogModel* log, QWidget* parent = nullptr);
    ~MainWindow() override;
    MainWindow(const MainWindow&) = delete;
    MainWindow& operator=(const MainWindow&) = delete;

    // Starts a run of the current plan; false with the reason shown when it cannot start.
    bool startRun();
    // A question of the start page: loads its preset and starts the run on the selected target; false with
    // the reason in the banner when it cannot start.
    bool runQuestion(const QString& preset);
    // The start page (the questions) or the lab (target, matrix, plan, and the Live, Results, History and
    // Log tabs). The window opens on the start page; a run, a result or a tab asked for shows the lab.
    void showStartPage();
    void showLab();
    bool isStartPageShown() const;
    StartPage* startPage() const { return m_startPage; }
    void stopRun();
    // Stops a calibration under way; it removes its folder on its worker. The exit calls it before it waits
    // for the workers, however the event loop ended (a refused --run quits without closing the window).
    void stopCalibration();
    bool isRunning() const;
    // True from Run until the look for other live IOLab runs on the target is in (off the GUI thread).
    bool isStartingRun() const;
    // What looks for other live IOLab runs; it runs on a worker thread. Tests hold it back.
    void setOtherRunsFinder(std::function<OtherRuns(const std::string&)> finder);

    bool selectTarget(const QString& key);
    QString currentTargetKey() const;
    // Adds a folder as a target and selects it; its problem, if any, shows in the UI.
    void chooseFolder(const QString& path);
    void showResult(const RunResult& result, const QString& origin);
    // Exports off the GUI thread and says in the status bar where it went or why it failed (and in the banner
    // when it failed); exporter()'s finished follows.
    void exportTo(const QString& path);
    // The result shown, made fit to share (names replaced, every figure kept), written to `path`.
    void exportForSharingTo(const QString& path);
    // Reads a result file off the GUI thread and shows it; resultOpened follows, with the error also in the
    // banner as `failureText` (its %1). An open asked for later, or a run started, makes it moot: dropped.
    void openResultFile(const QString& path);
    void openResultFile(const QString& path, const QString& failureText);
    bool isOpeningResult() const;
    // Reads a result file off the GUI thread and saves a copy into History (a customer's run, another
    // machine's), where Compare can set it beside any other; resultImported follows.
    void importResultFile(const QString& path);
    // Re-reads the history folder off the GUI thread; historyRefreshed when the list is in.
    void refreshHistory();
    void cleanStaleFolders();
    void setTheme(Theme theme);
    Theme theme() const { return m_theme; }
    void saveSettings();

    const RunPreview& plan() const;
    // True while a large matrix is planned off the GUI thread; planChanged follows.
    bool isPlanning() const;
    QString runBlockedReason() const;
    // Runs on the planning thread before each plan made there: tests hold a plan back with it.
    void setPlanningGate(std::function<void()> gate);
    QString bannerText() const;
    // Shows a problem in the window's banner (a launch option that failed, for one).
    void showProblem(const QString& text);
    // Why the last run did not start or was not saved; "" when it ran and was saved.
    QString lastRunProblem() const;
    QString progressText() const;
    // The About dialog's text: version, build, system, where the log and history are.
    QString aboutText() const;
    void showAbout();
    // Help > How to read the results: a window beside the results, not modal.
    void showReadingGuide();
    const std::optional<RunResult>& currentResult() const { return m_result; }
    // File > Open a trace...: reads a trace off the GUI thread and shows it in the Program tab; traceOpened
    // follows. An open asked for later makes it moot: dropped.
    void openTrace(const QString& path);
    bool isOpeningTrace() const { return m_traceOpening; }
    // Replay on this target: a run of the trace's replay on the selected target, through Run's usual start
    // (the plan shows it until it starts or the matrix is edited); false with the reason in the banner.
    bool replayTrace(const QString& path);
    // Find a faster way: a run of the trace's replay and its other ways of writing (program_data.h's
    // adviceMatrix) the same way, once they are read off the GUI thread; when it ends, the answer (core/
    // analysis/program_advice.h) leads its Summary and goes into History and the PDF with it. False with the
    // reason in the banner when a run is under way; a trace that cannot be read is said in the banner later.
    bool adviseOnTrace(const QString& path);
    // File > Record a program...: the dialog, not modal; it opens the trace it wrote in the Program tab.
    void showRecordDialog();
    QDialog* recordDialog() const { return m_recordDialog; }
    ProgramView* programView() const { return m_program; }
    QString lastSavedRun() const { return m_lastSaved; }

    TargetPanel* targetPanel() const { return m_targetPanel; }
    // True while the selected folder is being looked at off the GUI thread; planChanged follows.
    bool isInspectingTarget() const;
    MatrixEditor* matrixEditor() const { return m_editor; }
    LiveCharts* liveCharts() const { return m_live; }
    ResultsView* resultsView() const { return m_results; }
    // The History tab: its list, Compare, Delete (their own models and views).
    HistoryController* history() const { return m_history; }
    QListWidget* refusedList() const;
    RunController* controller() const { return m_controller; }
    ResultExporter* exporter() const { return m_exporter; }
    QAction* runAction() const { return m_runAction; }
    QAction* stopAction() const { return m_stopAction; }
    QAction* startPageAction() const { return m_startPageAction; }
    QAction* labAction() const { return m_labAction; }
    QTabWidget* tabs() const { return m_tabs; }
    LabView* lab() const { return m_lab; }
    QSplitter* sideSplitter() const;
    QSplitter* mainSplitter() const;

Q_SIGNALS:
    void planChanged();
    // A run is over and saved to the history (or the save failed, with a banner saying why).
    void runEnded();
    void historyRefreshed();
    // A result file asked for by openResultFile was read and shown, or not: `error` says why.
    void resultOpened(const QString& path, const QString& error);
    // An import is over: the copy in History, or "" and why not.
    void resultImported(const QString& path, const QString& error);
    // A trace asked for by openTrace was read and shown, or not: `error` says why.
    void traceOpened(const QString& path, const QString& error);
    void firstShown();

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildActions();
    void buildUi();
    // The Program tab and File > Record a program... (main_window_programs.cpp).
    void connectProgramParts();
    void updateProgramTarget();
    void chooseTrace();
    void replan();
    void showLeftovers(const QString& key, const QString& path, int count, std::uint64_t bytes);
    void updateActions();
    // With `actionText` and `action`, a button that does what the banner says.
    void showBanner(const QString& text, bool error, const QString& actionText = {},
                    std::function<void()> action = {});
    void hideBanner();
    void onRunStarted(int caseCount, const std::vector<RefusedCase>& refused, const QString& target);
    void onCaseStarted(const CaseStarted& started);
    void onSample(const Sample& sample);
    void onCaseFinished(const CaseResult& result);
    void onRunFinished(const RunResult& result);
    void onRunFailed(const QString& message);
    void chooseExport();
    void chooseExportForSharing();
    void runSaved(const QString& path, const QString& error);
    void historyListed();
    void refreshStartPage();

    const Registry& m_registry;
    AppPaths m_paths;
    std::unique_ptr<WindowSettings> m_settings;
    LogModel* m_log = nullptr;
    RunController* m_controller = nullptr;
    ResultExporter* m_exporter = nullptr;
    RunStarter* m_starter = nullptr;
    ResultFiles* m_files = nullptr;

    LabView* m_lab = nullptr;
    TargetPanel* m_targetPanel = nullptr;
    MatrixEditor* m_editor = nullptr;
    PlanPanel* m_planPanel = nullptr;
    QStackedWidget* m_stack = nullptr;
    StartPage* m_startPage = nullptr;
    QTabWidget* m_tabs = nullptr;
    LiveCharts* m_live = nullptr;
    ResultsView* m_results = nullptr;
    HistoryController* m_history = nullptr;
    Banner* m_banner = nullptr;
    QDialog* m_readingGuide = nullptr;
    QDialog* m_recordDialog = nullptr;
    ProgramView* m_program = nullptr;
    RunPresenter* m_presenter = nullptr;

    QAction* m_runAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_shareAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_startPageAction = nullptr;
    QAction* m_labAction = nullptr;
    QActionGroup* m_themeGroup = nullptr;

    std::optional<RunResult> m_result;
    // Find a faster way under way: the trace as the plan names it, the program's profile (the answer's
    // lead) and the plan the run started with (its recorded script).
    struct PendingAdvice
    {
        std::string trace;
        ProgramProfile profile;
        std::shared_ptr<const RunPlan> plan;
        std::string matrixName; // the plan that is this run's
    };
    std::optional<PendingAdvice> m_advice;
    bool m_advicePreparing = false; // its ways being read off the GUI thread
    QString m_lastSaved;
    bool m_traceOpening = false;
    quint64 m_traceSerial = 0;        // the open a trace read on a worker is for
    bool m_runEndsWhenListed = false; // the run's save is in; runEnded once the list is too
    Theme m_theme = Theme::System;
    bool m_closeRequested = false;
    bool m_shown = false;
    bool m_firstShownPending = false; // shown, and the folder chosen at start still being looked at
};

} // namespace iolab::gui
