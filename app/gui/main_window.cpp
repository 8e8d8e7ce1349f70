// SPDX-License-Identifier: MIT
#include "app/gui/main_window.h"
#include "app/gui/widget_helpers.h"

#include "app/gui/banner.h"
#include "app/gui/export_choice.h"
#include "app/gui/history_controller.h"
#include "app/gui/info_dialogs.h"
#include "app/gui/lab_view.h"
#include "app/gui/live_charts.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/plan_panel.h"
#include "app/gui/preset_files.h"
#include "app/gui/program_view.h"
#include "app/gui/result_exporter.h"
#include "app/gui/result_files.h"
#include "app/gui/results_view.h"
#include "app/gui/run_controller.h"
#include "app/gui/run_presenter.h"
#include "app/gui/run_starter.h"
#include "app/gui/start_page.h"
#include "app/gui/target_model.h"
#include "app/gui/target_panel.h"
#include "app/gui/window_settings.h"
#include "core/analysis/program_advice.h"
#include "core/base/log.h"
#include "core/base/units.h"
#include "core/formats/result_redact.h"
#include "platform/platform.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDir>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace iolab::gui {

MainWindow::MainWindow(const AppPaths& paths, LogModel* log, QWidget* parent)
    : QMainWindow(parent), m_registry(builtinRegistry()), m_paths(paths), m_log(log)
{
    m_settings = std::make_unique<WindowSettings>(paths.settingsFile);
    m_controller = new RunController(m_registry, this);
    m_exporter = new ResultExporter(m_registry, this);
    setWindowTitle(tr("IOLab"));
    setWindowIcon(loadIcon(QStringLiteral("iolab")));
    buildActions();
    buildUi();
    m_starter = new RunStarter(
        {&m_registry, m_controller, m_planPanel, m_targetPanel, m_editor, m_presenter, m_banner, statusBar()},
        m_paths.dataFolder, m_paths.calibrate, this);
    m_files = new ResultFiles(m_history, m_presenter, m_banner, this);

    connect(m_controller, &RunController::runStarted, this, &MainWindow::onRunStarted);
    connect(m_controller, &RunController::caseStarted, this, &MainWindow::onCaseStarted);
    connect(m_controller, &RunController::sampleArrived, this, &MainWindow::onSample);
    connect(m_controller, &RunController::repetitionFinished, m_presenter, &RunPresenter::repetitionFinished);
    connect(m_controller, &RunController::probeKillStarted, m_presenter, &RunPresenter::probeKillStarted);
    connect(m_controller, &RunController::caseFinished, this, &MainWindow::onCaseFinished);
    connect(m_controller, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(m_controller, &RunController::runFailed, this, &MainWindow::onRunFailed);
    connect(m_editor, &MatrixEditor::changed, this, &MainWindow::replan);
    connect(m_planPanel, &PlanPanel::planWaiting, this, &MainWindow::updateActions);
    connect(m_planPanel, &PlanPanel::planShown, this, [this] {
        updateActions();
        Q_EMIT planChanged();
        m_starter->planShown();
    });
    connect(m_starter, &RunStarter::replanWanted, this, &MainWindow::replan);
    connect(m_starter, &RunStarter::stateChanged, this, &MainWindow::updateActions);
    connect(m_starter, &RunStarter::startFailed, this, &MainWindow::runEnded);
    connect(m_starter, &RunStarter::runStarting, this, [this] {
        m_files->dropOpen(); // a result still being read would replace the run's
        m_result.reset();
        showLab();
        m_tabs->setCurrentWidget(m_live);
    });
    connect(m_files, &ResultFiles::resultRead, this, &MainWindow::showResult);
    connect(m_files, &ResultFiles::opened, this, &MainWindow::resultOpened);
    connect(m_files, &ResultFiles::imported, this, &MainWindow::resultImported);
    connect(m_targetPanel, &TargetPanel::targetChanged, this, [this] {
        replan();
        if (m_firstShownPending && !m_targetPanel->isInspecting()) {
            m_firstShownPending = false;
            Q_EMIT firstShown();
        }
    });
    connect(m_targetPanel, &TargetPanel::unusableFolder, this,
            [this](const QString& path, const QString& problem) {
                showBanner(tr("%1 cannot be a target: %2").arg(path, problem), true);
            });
    // The files written or read off the GUI thread say so in the status bar, and in the banner when they
    // fail.
    const auto showFailure = [this](const QString& text) {
        showBanner(text, true);
    };
    connect(m_exporter, &ResultExporter::statusChanged, m_presenter, &RunPresenter::setText);
    connect(m_exporter, &ResultExporter::failed, this, showFailure);
    connect(m_editor->presetFiles(), &PresetFiles::statusChanged, m_presenter, &RunPresenter::setText);
    connect(m_editor->presetFiles(), &PresetFiles::failed, this, showFailure);
    connect(m_history, &HistoryController::saved, this, &MainWindow::runSaved);
    connect(m_history, &HistoryController::refreshed, this, &MainWindow::historyListed);
    connect(m_history, &HistoryController::problem, this, showFailure);
    connect(m_history, &HistoryController::reopenRequested, this,
            [this](const QString& path) { openResultFile(path, tr("Cannot reopen this run: %1")); });
    connect(m_targetPanel, &TargetPanel::leftoversFound, this, &MainWindow::showLeftovers);
    connect(m_targetPanel, &TargetPanel::cleaned, this,
            [this](const QString& text, bool failed) { showBanner(text, failed); });
    connect(m_targetPanel, &TargetPanel::scanFinished, this, [this](bool kept) {
        if (kept)
            return;
        if (const QString key = m_settings->target(); !key.isEmpty() && selectTarget(key))
            return;
        // First start: the home folder, like iolab-cli's default.
        chooseFolder(qs(homeDirectory()));
    });

    connect(m_startPage, &StartPage::runRequested, this, &MainWindow::runQuestion);
    connect(m_startPage, &StartPage::targetChosen, this, &MainWindow::selectTarget);
    connect(m_startPage, &StartPage::chooseFolderRequested, m_targetPanel->chooseFolderButton(),
            &QPushButton::click);
    connect(m_startPage, &StartPage::historyRequested, this, [this] { m_tabs->setCurrentWidget(m_history); });
    connect(m_startPage, &StartPage::importRequested, this, [this] { m_files->chooseImport(this); });
    connect(m_startPage, &StartPage::customMatrixRequested, this, &MainWindow::showLab);
    connect(m_startPage, &StartPage::openResultRequested, this, [this] { m_files->chooseOpen(this); });

    connectProgramParts();
    m_settings->restore(*this, m_registry);
    // Any tab asked for (a run's Live, a result, the View menu's) is in the lab.
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::showLab);
    showStartPage();
    m_targetPanel->rescan();
    updateActions();
}

MainWindow::~MainWindow()
{
    m_starter->stopCalibration(); // a calibration under way stops and removes its folder
    // The widgets go before the members they refer to (the history store, the settings).
    delete takeCentralWidget();
}

void MainWindow::buildUi()
{
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 6);

    m_banner = new Banner(central);
    layout->addWidget(m_banner);

    m_stack = new QStackedWidget(central);
    m_stack->setObjectName(QStringLiteral("faces"));
    m_lab = new LabView(m_registry, m_paths.dataFolder, m_log, m_stack);
    m_targetPanel = m_lab->targetPanel();
    m_editor = m_lab->editor();
    m_planPanel = m_lab->planPanel();
    m_tabs = m_lab->tabs();
    m_live = m_lab->live();
    m_results = m_lab->results();
    m_history = m_lab->history();
    m_program = m_lab->program();
    m_startPage = new StartPage(m_registry, m_targetPanel->model(), m_stack);
    m_stack->addWidget(m_startPage);
    m_stack->addWidget(m_lab);
    layout->addWidget(m_stack, 1);
    setCentralWidget(central);

    m_presenter = new RunPresenter(statusBar(), this);
}

void MainWindow::saveSettings()
{
    m_settings->save(*this);
}

void MainWindow::setTheme(Theme theme)
{
    m_theme = theme;
    const bool dark = applyTheme(*qApp, theme);
    m_live->setDark(dark);
    m_results->setDark(dark);
    m_program->setDark(dark);
    m_banner->followPalette(palette());
    m_startPage->followPalette(QApplication::palette());
    for (QAction* a : m_themeGroup->actions())
        a->setChecked(a->data().toString() == themeName(theme));
}

bool MainWindow::selectTarget(const QString& key)
{
    return m_targetPanel->selectTarget(key);
}

QString MainWindow::currentTargetKey() const
{
    return m_targetPanel->currentKey();
}

void MainWindow::chooseFolder(const QString& path)
{
    if (m_starter->isBusy()) {
        showBanner(tr("A run is writing into %1: stop it before choosing another target.")
                       .arg(m_starter->runTarget()),
                   true);
        return;
    }
    m_targetPanel->chooseFolder(path);
}

void MainWindow::showLeftovers(const QString& key, const QString& path, int count, std::uint64_t bytes)
{
    showBanner(
        tr("%n leftover run folder(s) from an IOLab run that was killed hold %1 in %2.", nullptr, count)
            .arg(qs(formatBytes(bytes)), path),
        false, tr("Remove them"), [this, key] {
            // The folders this banner named, even if another target is selected now.
            if (key == currentTargetKey() || selectTarget(key))
                cleanStaleFolders();
        });
}

void MainWindow::cleanStaleFolders()
{
    m_targetPanel->cleanCurrent();
}

void MainWindow::replan()
{
    m_planPanel->replan(m_targetPanel->currentEntry(), m_targetPanel->isInspecting(), m_history->known());
    refreshStartPage();
}

void MainWindow::refreshStartPage()
{
    // Planned only while shown (three presets' plans; a matrix edited in the lab changes none of them).
    if (isStartPageShown())
        m_startPage->refresh(m_targetPanel->currentEntry(), m_targetPanel->isInspecting(),
                             m_editor->runOptions(), m_history->known());
}

bool MainWindow::runQuestion(const QString& preset)
{
    if (m_starter->isBusy())
        return false;
    QString error;
    if (!m_editor->loadPreset(preset, &error)) {
        showBanner(tr("Cannot load the %1 preset: %2").arg(preset, error), true);
        return false;
    }
    return startRun();
}

void MainWindow::showStartPage()
{
    m_stack->setCurrentWidget(m_startPage);
    m_startPageAction->setChecked(true);
    refreshStartPage();
}

void MainWindow::showLab()
{
    m_stack->setCurrentWidget(m_lab);
    m_labAction->setChecked(true);
    m_lab->restoreSplittersOnce();
}

QSplitter* MainWindow::mainSplitter() const
{
    return m_lab;
}

QSplitter* MainWindow::sideSplitter() const
{
    return m_lab->sideSplitter();
}

bool MainWindow::isStartPageShown() const
{
    return m_stack->currentWidget() == m_startPage;
}

QString MainWindow::runBlockedReason() const
{
    return m_planPanel->blockedReason();
}

const RunPreview& MainWindow::plan() const
{
    return m_planPanel->plan();
}

bool MainWindow::isPlanning() const
{
    return m_planPanel->isPlanning();
}

void MainWindow::setPlanningGate(std::function<void()> gate)
{
    m_planPanel->setPlanningGate(std::move(gate));
}

QListWidget* MainWindow::refusedList() const
{
    return m_planPanel->refusedList();
}

void MainWindow::updateActions()
{
    const bool running = m_starter->isBusy(); // starting counts
    const bool calibrating = m_starter->isCalibrating();
    const QString blocked = runBlockedReason();
    m_runAction->setEnabled(!running && !calibrating && blocked.isEmpty());
    m_runAction->setToolTip(running       ? tr("A run is in progress.")
                            : calibrating ? tr("The time estimate is being calibrated on the target (about a "
                                               "second of I/O); Run waits for it.")
                            : blocked.isEmpty() ? tr("Run the matrix on the selected target (Ctrl+R, F5)")
                                                : blocked);
    m_stopAction->setEnabled(running && !m_presenter->isStopping());
    m_exportAction->setEnabled(m_result.has_value() && !running);
    m_shareAction->setEnabled(m_result.has_value() && !running);
    // The questions are for an idle window: a run shows in the lab until it ends.
    m_startPageAction->setEnabled(!running);
    // The target and the matrix are the run's while it goes.
    m_editor->setEnabled(!running);
    m_targetPanel->lockTo(running ? m_starter->runTargetKey() : QString());
    m_program->setBusy(running || m_advicePreparing);
}

bool MainWindow::startRun()
{
    return m_starter->start();
}

void MainWindow::stopRun()
{
    m_starter->stop();
}

bool MainWindow::isStartingRun() const
{
    return m_starter->isStarting();
}

void MainWindow::stopCalibration()
{
    m_starter->stopCalibration();
}

void MainWindow::setOtherRunsFinder(std::function<OtherRuns(const std::string&)> finder)
{
    m_starter->setOtherRunsFinder(std::move(finder));
}

QString MainWindow::lastRunProblem() const
{
    return m_starter->lastRunProblem();
}

bool MainWindow::isRunning() const
{
    return m_controller->isRunning();
}

void MainWindow::onRunStarted(int caseCount, const std::vector<RefusedCase>& refused, const QString& target)
{
    m_presenter->runStarted(caseCount);
    m_live->runStarted();
    m_results->beginRun(refused);
    logger(LogModule::Gui).debug("run folder parent {}", target.toStdString());
}

void MainWindow::onCaseStarted(const CaseStarted& started)
{
    m_live->caseStarted(started);
    m_presenter->caseStarted(started);
}

void MainWindow::onSample(const Sample& sample)
{
    m_live->addSample(sample);
    m_presenter->sample(sample);
}

void MainWindow::onCaseFinished(const CaseResult& result)
{
    m_results->updateCase(result);
    m_presenter->caseFinished(result);
    if (result.status == Status::Failed)
        logger(LogModule::Gui).warn("case {} failed: {}", result.index + 1, result.reason);
}

void MainWindow::onRunFinished(const RunResult& finished)
{
    RunResult result = finished;
    const std::vector<std::string> runWarnings = m_starter->takeRunWarnings();
    result.warnings.insert(result.warnings.end(), runWarnings.begin(), runWarnings.end());
    // Find a faster way: the answer, kept with the result (History, the PDF). A stopped run has not measured
    // every way, so it has none.
    if (m_advice && m_advice->plan && !result.cancelled)
        if (const auto advice = adviseOnPlan(result, *m_advice->plan, m_advice->trace, m_advice->profile))
            result.programAdvice = advice->lines;
    m_advice.reset();
    m_live->runFinished();
    m_presenter->runFinished(result.cancelled);
    showResult(result, {});
    // Saving (with its fsync) and re-reading the history happen off the GUI thread; runEnded follows them.
    m_history->save(result);
    m_targetPanel->refreshCurrent(); // free space changed
    QStringList failures;
    for (const auto& c : result.cases) {
        if (c.status == Status::Failed)
            failures << tr("case %1 (%2): %3").arg(c.index + 1).arg(qs(c.testCase.strategy), qs(c.reason));
    }
    if (!failures.isEmpty())
        showBanner(tr("%n case(s) failed. %1", nullptr, static_cast<int>(failures.size()))
                       .arg(failures.mid(0, 3).join(QStringLiteral("; "))),
                   true);
    updateActions();
    replan();
    if (!result.cancelled)
        m_tabs->setCurrentWidget(m_results);
}

void MainWindow::onRunFailed(const QString& message)
{
    m_advice.reset();
    m_live->runFinished();
    m_presenter->runFailed();
    m_starter->setLastRunProblem(tr("The run did not start: %1").arg(message));
    showBanner(m_starter->lastRunProblem(), true);
    updateActions();
    Q_EMIT runEnded();
    if (m_closeRequested)
        close();
}

void MainWindow::showResult(const RunResult& result, const QString& origin)
{
    m_result = result;
    m_results->setResult(result);
    showLab();
    if (!origin.isEmpty()) {
        m_tabs->setCurrentWidget(m_results);
        m_presenter->setText(tr("Showing %1").arg(origin));
    }
    updateActions();
}

void MainWindow::chooseExport()
{
    if (m_result)
        m_exporter->choose(this, *m_result);
}

void MainWindow::chooseExportForSharing()
{
    if (m_result)
        m_exporter->choose(this, *m_result, true);
}

void MainWindow::exportForSharingTo(const QString& path)
{
    if (m_result)
        m_exporter->exportTo(redactResult(*m_result), path);
}

void MainWindow::exportTo(const QString& path)
{
    if (!m_result) {
        const QString error = tr("There is no result to export yet.");
        const QString text = exportStatusText(QDir::toNativeSeparators(path), error);
        m_presenter->setText(text);
        showBanner(text, true);
        Q_EMIT m_exporter->finished(path, error);
        return;
    }
    m_exporter->exportTo(*m_result, path);
}

void MainWindow::openResultFile(const QString& path)
{
    openResultFile(path, tr("Cannot open the result: %1"));
}

void MainWindow::openResultFile(const QString& path, const QString& failureText)
{
    m_files->open(path, failureText);
}

bool MainWindow::isOpeningResult() const
{
    return m_files->isOpening();
}

void MainWindow::importResultFile(const QString& path)
{
    m_files->import(path);
}

void MainWindow::refreshHistory()
{
    m_history->refresh();
}

void MainWindow::runSaved(const QString& path, const QString& error)
{
    if (m_files->importSaved(path, error))
        return;
    m_lastSaved = path;
    if (path.isEmpty()) {
        m_starter->setLastRunProblem(error);
        showBanner(error, true);
    }
    m_runEndsWhenListed = true;
}

void MainWindow::historyListed()
{
    replan(); // the estimate knows the newest runs
    Q_EMIT historyRefreshed();
    if (std::exchange(m_runEndsWhenListed, false)) {
        Q_EMIT runEnded();
        if (m_closeRequested)
            close();
    }
}

void MainWindow::showBanner(const QString& text, bool error, const QString& actionText,
                            std::function<void()> action)
{
    m_banner->showMessage(text, error, actionText, std::move(action));
}

void MainWindow::showProblem(const QString& text)
{
    showBanner(text, true);
}

void MainWindow::hideBanner()
{
    m_banner->dismiss();
}

QString MainWindow::bannerText() const
{
    return m_banner->text();
}

bool MainWindow::isInspectingTarget() const
{
    return m_planPanel->isWaitingForTarget();
}

QString MainWindow::progressText() const
{
    return m_presenter->text();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_controller->isRunning()) {
        // Stop first; the window closes once the run has removed its files.
        m_closeRequested = true;
        stopRun();
        event->ignore();
        return;
    }
    stopRun(); // a start still looking for other runs does not start
    // A calibration under way stops and removes its folder before the exit's wait for the workers ends.
    m_starter->stopCalibration();
    saveSettings();
    event->accept();
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (m_shown)
        return;
    m_shown = true;
    // Up means with what the launch asked for: a folder chosen at start is looked at first, so that the
    // window says what is wrong with it before anyone acts on firstShown (--quit-after-shown, --run).
    if (m_targetPanel->isInspecting())
        m_firstShownPending = true;
    else
        Q_EMIT firstShown();
    // Work that can wait until the window is up: the history list and the rates it knows.
    refreshHistory();
}

QString MainWindow::aboutText() const
{
    return gui::aboutText(m_paths.dataFolder);
}

void MainWindow::showReadingGuide()
{
    // Not modal: it stays open beside the results it explains.
    if (m_readingGuide == nullptr)
        m_readingGuide = makeReadingGuideWindow(this);
    m_readingGuide->show();
    m_readingGuide->raise();
}

void MainWindow::showAbout()
{
    showAboutDialog(this, windowIcon(), aboutText());
}

} // namespace iolab::gui
