// SPDX-License-Identifier: MIT
#include "app/gui/main_window.h"
#include "app/gui/widget_helpers.h"

#include "app/gui/banner.h"
#include "app/gui/export_choice.h"
#include "app/gui/help_window.h"
#include "app/gui/history_controller.h"
#include "app/gui/live_charts.h"
#include "app/gui/log_page.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/plan_panel.h"
#include "app/gui/reading_guide.h"
#include "app/gui/result_exporter.h"
#include "app/gui/results_view.h"
#include "app/gui/run_controller.h"
#include "app/gui/run_presenter.h"
#include "app/gui/start_page.h"
#include "app/gui/target_model.h"
#include "app/gui/target_panel.h"
#include "app/gui/workers.h"
#include "core/base/error.h"
#include "core/base/log.h"
#include "core/base/units.h"
#include "core/engine/crash_probe.h"
#include "core/formats/matrix_json.h"
#include "core/version.h"
#include "platform/calibration.h"
#include "platform/platform.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QSysInfo>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace iolab::gui {

namespace {

// A result file as read on a worker thread: the run, or why it did not read.
struct Loaded
{
    std::optional<RunResult> result;
    QString error;
};

// The work of reading `path` with the history's loader, for runOffGuiThread (Open and Add to History).
auto readResult(HistoryController::Loader load, QString path)
{
    return [load = std::move(load), path = std::move(path)] {
        Loaded loaded;
        loaded.result = load(path, &loaded.error);
        return loaded;
    };
}

} // namespace

MainWindow::MainWindow(const AppPaths& paths, LogModel* log, QWidget* parent)
    : QMainWindow(parent), m_registry(builtinRegistry()), m_paths(paths), m_log(log)
{
    m_settings = paths.settingsFile.isEmpty()
                     ? std::make_unique<QSettings>()
                     : std::make_unique<QSettings>(paths.settingsFile, QSettings::IniFormat);
    m_controller = new RunController(m_registry, this);
    m_exporter = new ResultExporter(m_registry, this);
    setWindowTitle(tr("IOLab"));
    setWindowIcon(loadIcon(QStringLiteral("iolab")));
    buildActions();
    buildUi();

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
        startWhenReady();
        calibrateWhenWorthIt();
    });
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
    connect(m_exporter, &ResultExporter::statusChanged, m_presenter, &RunPresenter::setText);
    connect(m_exporter, &ResultExporter::failed, this,
            [this](const QString& text) { showBanner(text, true); });
    connect(m_history, &HistoryController::saved, this, &MainWindow::runSaved);
    connect(m_history, &HistoryController::refreshed, this, &MainWindow::historyListed);
    connect(m_history, &HistoryController::problem, this,
            [this](const QString& text) { showBanner(text, true); });
    connect(m_history, &HistoryController::reopenRequested, this,
            [this](const QString& path) { openResultFile(path, tr("Cannot reopen this run: %1")); });
    connect(m_targetPanel, &TargetPanel::leftoversFound, this, &MainWindow::showLeftovers);
    connect(m_targetPanel, &TargetPanel::cleaned, this,
            [this](const QString& text, bool failed) { showBanner(text, failed); });
    connect(m_targetPanel, &TargetPanel::scanFinished, this, [this](bool kept) {
        if (kept)
            return;
        if (const QString key = m_settings->value(QStringLiteral("target")).toString();
            !key.isEmpty() && selectTarget(key))
            return;
        // First start: the home folder, like iolab-cli's default.
        chooseFolder(qs(homeDirectory()));
    });

    connect(m_startPage, &StartPage::runRequested, this, &MainWindow::runQuestion);
    connect(m_startPage, &StartPage::targetChosen, this, &MainWindow::selectTarget);
    connect(m_startPage, &StartPage::chooseFolderRequested, m_targetPanel->chooseFolderButton(),
            &QPushButton::click);
    connect(m_startPage, &StartPage::historyRequested, this, [this] { m_tabs->setCurrentWidget(m_history); });
    connect(m_startPage, &StartPage::importRequested, this, &MainWindow::chooseImport);
    connect(m_startPage, &StartPage::customMatrixRequested, this, &MainWindow::showLab);
    connect(m_startPage, &StartPage::openResultRequested, this, &MainWindow::chooseOpen);

    restoreSettings();
    // Any tab asked for (a run's Live, a result, the View menu's) is in the lab.
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::showLab);
    showStartPage();
    m_targetPanel->rescan();
    updateActions();
}

MainWindow::~MainWindow()
{
    m_calibrationStop.request_stop(); // a calibration under way stops and removes its folder
    // The widgets go before the members they refer to (the history store, the settings).
    delete takeCentralWidget();
}

void MainWindow::buildActions()
{
    m_runAction = new QAction(loadIcon(QStringLiteral("run")), tr("&Run"), this);
    m_runAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_R), QKeySequence(Qt::Key_F5)});
    m_runAction->setToolTip(tr("Run the matrix on the selected target (Ctrl+R, F5)"));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::startRun);

    m_stopAction = new QAction(loadIcon(QStringLiteral("stop")), tr("&Stop"), this);
    m_stopAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Period), QKeySequence(Qt::Key_Escape)});
    m_stopAction->setToolTip(tr("Stop the run; its files are removed (Esc, Ctrl+.)"));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopRun);

    m_exportAction = new QAction(loadIcon(QStringLiteral("export")), tr("&Export results..."), this);
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportAction->setToolTip(tr("Save the results shown as a PDF report, JSON or CSV (Ctrl+E)"));
    connect(m_exportAction, &QAction::triggered, this, &MainWindow::chooseExport);

    m_openAction = new QAction(loadIcon(QStringLiteral("open")), tr("&Open result..."), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setToolTip(tr("Open a result JSON written by IOLab or iolab-cli (Ctrl+O)"));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::chooseOpen);

    // The two faces of the window: the questions, and the lab where everything else is.
    auto* faces = new QActionGroup(this);
    m_startPageAction = new QAction(loadIcon(QStringLiteral("iolab")), tr("&Questions"), this);
    m_startPageAction->setCheckable(true);
    m_startPageAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Home));
    m_startPageAction->setToolTip(
        tr("The start page: what IOLab answers, each one click to run (Ctrl+Home)"));
    connect(m_startPageAction, &QAction::triggered, this, &MainWindow::showStartPage);
    faces->addAction(m_startPageAction);
    m_labAction = new QAction(loadIcon(QStringLiteral("compare")), tr("&Custom matrix"), this);
    m_labAction->setCheckable(true);
    m_labAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    m_labAction->setToolTip(
        tr("The lab: the strategy matrix, the plan, and the Live, Results, History and Log tabs (Ctrl+M)"));
    connect(m_labAction, &QAction::triggered, this, &MainWindow::showLab);
    faces->addAction(m_labAction);

    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    QAction* import = file->addAction(tr("&Add result to History..."), this, &MainWindow::chooseImport);
    import->setToolTip(
        tr("Copy a result JSON (a customer's run, another machine's) into History, to compare it "
           "with any other run there"));
    file->addAction(m_exportAction);
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    auto* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_stopAction);
    run->addSeparator();
    run->addAction(tr("Remove leftover run folders on the target"), this, &MainWindow::cleanStaleFolders);

    auto* view = menuBar()->addMenu(tr("&View"));
    m_themeGroup = new QActionGroup(this);
    for (Theme theme : {Theme::System, Theme::Light, Theme::Dark}) {
        const QString label = theme == Theme::System  ? tr("System palette")
                              : theme == Theme::Light ? tr("Light")
                                                      : tr("Dark");
        QAction* action = view->addAction(label);
        action->setCheckable(true);
        action->setData(themeName(theme));
        m_themeGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, theme] { setTheme(theme); });
    }
    view->addSeparator();
    view->addAction(m_startPageAction);
    view->addAction(m_labAction);
    const QStringList tabNames{tr("Live"), tr("Results"), tr("History"), tr("Log")};
    for (int i = 0; i < tabNames.size(); ++i) {
        QAction* action = view->addAction(tabNames[i]);
        action->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + i)));
        connect(action, &QAction::triggered, this, [this, i] {
            showLab();
            m_tabs->setCurrentIndex(i);
        });
    }

    auto* help = menuBar()->addMenu(tr("&Help"));
    addManualActions(*help, *this);
    QAction* guide = help->addAction(tr("How to &read the results"), this, &MainWindow::showReadingGuide);
    guide->setObjectName(QStringLiteral("readingGuideAction"));
    help->addSeparator();
    help->addAction(tr("&About IOLab"), this, &MainWindow::showAbout)->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);

    auto* toolbar = addToolBar(tr("Run"));
    toolbar->setObjectName(QStringLiteral("runToolbar"));
    toolbar->setMovable(false);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setIconSize(QSize(22, 22));
    toolbar->addAction(m_startPageAction);
    toolbar->addAction(m_labAction);
    toolbar->addSeparator();
    toolbar->addAction(m_runAction);
    toolbar->addAction(m_stopAction);
    toolbar->addSeparator();
    toolbar->addAction(m_openAction);
    toolbar->addAction(m_exportAction);
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
    m_mainSplitter = new QSplitter(Qt::Horizontal, m_stack);
    m_mainSplitter->setObjectName(QStringLiteral("mainSplitter"));
    m_sideSplitter = new QSplitter(Qt::Vertical, m_mainSplitter);
    m_sideSplitter->setObjectName(QStringLiteral("sideSplitter"));
    m_targetPanel = new TargetPanel(m_sideSplitter);
    m_sideSplitter->addWidget(m_targetPanel);
    auto* matrixBox = new QGroupBox(tr("Strategy matrix"), m_sideSplitter);
    auto* matrixLayout = new QVBoxLayout(matrixBox);
    matrixLayout->setContentsMargins(2, 2, 2, 2);
    // Scrolls rather than push the plan and the status bar off a 768-pixel screen.
    auto* matrixScroll = new QScrollArea(matrixBox);
    matrixScroll->setWidgetResizable(true);
    matrixScroll->setFrameShape(QFrame::NoFrame);
    // The editor follows the panel's width (its rows wrap, its grid scrolls): nothing hides to the right.
    matrixScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_editor = new MatrixEditor(m_registry, QDir(m_paths.dataFolder).filePath(QStringLiteral("presets")),
                                matrixScroll);
    matrixScroll->setWidget(m_editor);
    matrixLayout->addWidget(matrixScroll);
    m_sideSplitter->addWidget(matrixBox);
    m_planPanel = new PlanPanel(m_registry, m_editor, m_sideSplitter);
    m_sideSplitter->addWidget(m_planPanel);
    m_sideSplitter->setSizes({230, 560, 150});
    m_mainSplitter->addWidget(m_sideSplitter);

    m_tabs = new QTabWidget(m_mainSplitter);
    m_live = new LiveCharts(m_tabs);
    m_tabs->addTab(m_live, tr("Live"));
    m_results = new ResultsView(m_tabs);
    m_results->setRegistry(&m_registry);
    m_tabs->addTab(m_results, tr("Results"));
    m_history = new HistoryController(QDir(m_paths.dataFolder).filePath(QStringLiteral("history")), m_tabs);
    m_tabs->addTab(m_history, tr("History"));
    m_tabs->addTab(new LogPage(m_log, m_tabs), tr("Log"));
    m_mainSplitter->addWidget(m_tabs);
    m_mainSplitter->setSizes({520, 980});
    m_startPage = new StartPage(m_registry, m_targetPanel->model(), m_stack);
    m_stack->addWidget(m_startPage);
    m_stack->addWidget(m_mainSplitter);
    layout->addWidget(m_stack, 1);
    setCentralWidget(central);

    m_presenter = new RunPresenter(statusBar(), this);
}

void MainWindow::restoreSettings()
{
    QSettings& s = *m_settings;
    const QByteArray geometry = s.value(QStringLiteral("window/geometry")).toByteArray();
    const bool placed = !geometry.isEmpty() && restoreGeometry(geometry);
    if (!placed || isMaximized()) {
        // First start, or maximized when it closed: the whole of the screen's available area (a window
        // manager maximizes it; without one, the geometry alone fills it).
        if (const QScreen* screen = placed ? this->screen() : QGuiApplication::primaryScreen();
            screen != nullptr)
            setGeometry(screen->availableGeometry());
        setWindowState(windowState() | Qt::WindowMaximized);
    }
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    m_labSplitters[0] = s.value(QStringLiteral("window/mainSplitter")).toByteArray();
    m_labSplitters[1] = s.value(QStringLiteral("window/sideSplitter")).toByteArray();
    m_labSplitters[2] = s.value(QStringLiteral("window/summarySplitter")).toByteArray();
    m_tabs->setCurrentIndex(s.value(QStringLiteral("window/tab"), 0).toInt());
    setTheme(themeFromName(s.value(QStringLiteral("theme")).toString()));

    const QString preset = s.value(QStringLiteral("matrix/preset")).toString();
    const QString json = s.value(QStringLiteral("matrix/json")).toString();
    bool restored = false;
    if (!preset.isEmpty())
        restored = m_editor->loadPreset(preset);
    if (!restored && !json.isEmpty()) {
        try {
            m_editor->setDraft(
                MatrixDraft::fromMatrix(parseMatrixJson(json.toStdString(), "settings"), m_registry));
            restored = true;
        } catch (const InputError& e) {
            logger(LogModule::Gui).warn("the matrix saved in the settings is not usable: {}", e.what());
        }
    }
    RunOptions options;
    // Nothing remembered: the repetitions the restored matrix asks for.
    options.repetitions =
        s.value(QStringLiteral("run/repetitions"), m_editor->runOptions().repetitions).toUInt();
    options.warmups = s.value(QStringLiteral("run/warmups"), 1).toUInt();
    options.verifyFiles = s.value(QStringLiteral("run/verify"), false).toBool();
    m_editor->setRunOptions(options);

    // Until the mount scan is in, the remembered folder is shown on its own.
    const QString key = s.value(QStringLiteral("target")).toString();
    if (!key.isEmpty() && !selectTarget(key) && key.startsWith(QLatin1Char('/')))
        chooseFolder(key);
}

void MainWindow::saveSettings()
{
    QSettings& s = *m_settings;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    if (m_labRestored) {
        m_labSplitters[0] = m_mainSplitter->saveState();
        m_labSplitters[1] = m_sideSplitter->saveState();
        // Only a size the user gave: until then the summary is fitted to each result.
        m_labSplitters[2] = m_results->summarySplitterState();
    }
    s.setValue(QStringLiteral("window/mainSplitter"), m_labSplitters[0]);
    s.setValue(QStringLiteral("window/sideSplitter"), m_labSplitters[1]);
    s.setValue(QStringLiteral("window/summarySplitter"), m_labSplitters[2]);
    s.setValue(QStringLiteral("window/tab"), m_tabs->currentIndex());
    s.setValue(QStringLiteral("theme"), themeName(m_theme));
    s.setValue(QStringLiteral("target"), currentTargetKey());
    s.setValue(QStringLiteral("matrix/preset"), m_editor->currentPreset());
    const MatrixDraft draft = m_editor->draft();
    s.setValue(QStringLiteral("matrix/json"),
               draft.problem().empty() ? qs(matrixToJson(draft.toMatrix()).dump()) : QString());
    const RunOptions options = m_editor->runOptions();
    s.setValue(QStringLiteral("run/repetitions"), options.repetitions);
    s.setValue(QStringLiteral("run/warmups"), options.warmups);
    s.setValue(QStringLiteral("run/verify"), options.verifyFiles);
    s.sync();
}

void MainWindow::setTheme(Theme theme)
{
    m_theme = theme;
    const bool dark = applyTheme(*qApp, theme);
    m_live->setDark(dark);
    m_results->setDark(dark);
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
    if (m_controller->isRunning() || m_checkingOthers) {
        showBanner(tr("A run is writing into %1: stop it before choosing another target.").arg(m_runTarget),
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

void MainWindow::calibrateWhenWorthIt()
{
    constexpr double kCalibrateFromSeconds = 20; // as iolab-cli: below that, a second of I/O is not worth it
    if (m_calibrating || m_startWhenPlanned || m_controller->isRunning() || m_checkingOthers)
        return;
    const TargetEntry* entry = m_targetPanel->currentEntry();
    if (entry == nullptr || entry->kind != TargetEntry::Kind::Folder || !entry->problem.isEmpty() ||
        !entry->info.capabilitiesProbed || entry->info.calibration || m_targetPanel->isInspecting())
        return;
    const RunPreview& planned = plan();
    if (planned.cases().empty() || !planned.usesDisk || planned.estimate.calibrated)
        return;
    const std::string folder = m_paths.dataFolder.toStdString();
    if (auto kept = storedCalibration(folder, entry->info)) {
        TargetEntry calibrated = *entry;
        calibrated.info.calibration = std::move(kept);
        m_targetPanel->model()->updateEntry(calibrated);
        replan();
        return;
    }
    const QString key = entry->key();
    if (!m_paths.calibrate || planned.estimate.seconds < kCalibrateFromSeconds ||
        m_calibrationTried.contains(key))
        return;
    m_calibrationTried.insert(key);
    m_calibrating = true;
    statusBar()->showMessage(
        tr("Calibrating the time estimate on %1: about a second of I/O in a marked folder "
           "there, removed after...")
            .arg(qs(entry->info.path)));
    updateActions();
    logger(LogModule::Gui).info("calibrating the time estimate on {}", entry->info.path);
    runOffGuiThread(
        targetPool(), this,
        [info = entry->info, folder, registry = &m_registry, stop = m_calibrationStop.get_token()] {
            auto calibration = calibrateTarget(info, *registry, stop);
            if (calibration)
                storeCalibration(folder, info, *calibration);
            return calibration;
        },
        [key](MainWindow& window, std::optional<DeviceCalibration> calibration) {
            window.calibrationDone(key, std::move(calibration));
        });
}

void MainWindow::calibrationDone(const QString& key, std::optional<DeviceCalibration> calibration)
{
    m_calibrating = false;
    const TargetEntry* entry = m_targetPanel->currentEntry();
    if (calibration && entry != nullptr && entry->key() == key) {
        TargetEntry calibrated = *entry;
        calibrated.info.calibration = std::move(calibration);
        m_targetPanel->model()->updateEntry(calibrated);
        statusBar()->showMessage(tr("The time estimate is calibrated on %1.").arg(qs(entry->info.path)),
                                 5000);
    } else if (!calibration) {
        statusBar()->showMessage(
            tr("The target could not be calibrated: the estimate stands on typical figures."), 5000);
    }
    replan();
    updateActions();
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
    if (m_controller->isRunning() || m_checkingOthers)
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
    m_stack->setCurrentWidget(m_mainSplitter);
    m_labAction->setChecked(true);
    if (!std::exchange(m_labRestored, true)) {
        m_mainSplitter->restoreState(m_labSplitters[0]);
        m_sideSplitter->restoreState(m_labSplitters[1]);
        m_results->restoreSummarySplitter(m_labSplitters[2]);
    }
}

bool MainWindow::isStartPageShown() const
{
    return m_stack->currentWidget() == m_startPage;
}

void MainWindow::startWhenReady()
{
    if (m_calibrating)
        return; // once the calibration is in, the plan is made again and the run starts from there
    if (!std::exchange(m_startWhenPlanned, false))
        return;
    if (startPlannedRun())
        return;
    // Run was pressed (or --run given) and said yes while the plan was being made: the run that did not
    // start ends as one that failed to, with the reason the banner gives.
    const QString why = bannerText().isEmpty() ? plan().blocked : bannerText();
    m_presenter->setText(tr("The run did not start."));
    m_lastRunProblem = tr("The run cannot start: %1").arg(why);
    Q_EMIT runEnded();
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
    const bool running = m_controller->isRunning() || m_checkingOthers; // starting counts
    const QString blocked = runBlockedReason();
    m_runAction->setEnabled(!running && !m_calibrating && blocked.isEmpty());
    m_runAction->setToolTip(running ? tr("A run is in progress.")
                            : m_calibrating
                                ? tr("The time estimate is being calibrated on the target (about a "
                                     "second of I/O); Run waits for it.")
                            : blocked.isEmpty() ? tr("Run the matrix on the selected target (Ctrl+R, F5)")
                                                : blocked);
    m_stopAction->setEnabled(running && !m_presenter->isStopping());
    m_exportAction->setEnabled(m_result.has_value() && !running);
    // The questions are for an idle window: a run shows in the lab until it ends.
    m_startPageAction->setEnabled(!running);
    // The target and the matrix are the run's while it goes.
    m_editor->setEnabled(!running);
    m_targetPanel->lockTo(running ? m_runTargetKey : QString());
}

bool MainWindow::startRun()
{
    if (m_controller->isRunning())
        return false;
    // Text typed into an axis field and not yet applied (Run pressed without leaving the field) runs as
    // typed.
    m_editor->applyPendingFields();
    m_lastRunProblem.clear();
    replan();
    if (m_planPanel->isPlanning() || m_planPanel->isWaitingForTarget()) {
        // A large matrix, or a folder still being looked at: the run starts once its plan is in.
        m_startWhenPlanned = true;
        m_presenter->setText(tr("Planning the run..."));
        return true;
    }
    return startPlannedRun();
}

bool MainWindow::startPlannedRun()
{
    if (m_controller->isRunning() || m_checkingOthers)
        return false;
    const RunPreview& planned = plan();
    if (!planned.blocked.isEmpty()) {
        showBanner(planned.blocked, true);
        return false;
    }
    const TargetEntry& target = *m_targetPanel->currentEntry();
    if (target.kind != TargetEntry::Kind::Folder)
        return startCheckedRun({});
    // Other live IOLab runs are looked for off the GUI thread (it reads the run folders and the process
    // table); the run starts when the answer is in. Meanwhile the target and the matrix are the run's.
    m_checkingOthers = true;
    m_runTarget = qs(target.info.path);
    m_runTargetKey = target.key();
    const quint64 serial = ++m_startSerial;
    m_presenter->setText(tr("Looking for other IOLab runs on %1...").arg(m_runTarget));
    updateActions();
    runOffGuiThread(
        targetPool(), this, [find = m_otherRunsFinder, path = target.info.path] { return find(path); },
        [serial](MainWindow& window, const OtherRuns& others) {
            if (serial != window.m_startSerial)
                return; // Stop or a close came first: this start is no longer wanted
            window.m_checkingOthers = false;
            if (window.startCheckedRun(others))
                return;
            window.m_presenter->setText(tr("The run did not start."));
            window.m_lastRunProblem = tr("The run cannot start: %1").arg(window.bannerText());
            window.updateActions();
            Q_EMIT window.runEnded();
        });
    return true;
}

bool MainWindow::startCheckedRun(const OtherRuns& others)
{
    const RunPreview& planned = plan();
    if (!planned.blocked.isEmpty() || m_targetPanel->currentEntry() == nullptr) {
        showBanner(planned.blocked.isEmpty() ? tr("No target is selected.") : planned.blocked, true);
        return false;
    }
    const TargetEntry& target = *m_targetPanel->currentEntry();
    // Two runs on one target measure each other: refused unless the user says to run anyway, and then stated
    // in the result. A run elsewhere on the same filesystem is stated in the result, not refused.
    std::vector<std::string> runWarnings;
    if (target.kind == TargetEntry::Kind::Folder) {
        for (const auto& other : others.inTarget) {
            if (!m_allowConcurrentOnce) {
                showBanner(
                    tr("Another IOLab run (process %1) is writing into %2 now: two runs at once measure "
                       "each other. Wait for it to end, or run anyway.")
                        .arg(other.pid)
                        .arg(qs(target.info.path)),
                    true, tr("Run anyway"), [this] {
                        m_allowConcurrentOnce = true;
                        startRun();
                    });
                return false;
            }
            runWarnings.push_back(
                tr("another IOLab run (process %1, run folder %2) was writing into the same target when this "
                   "run started: the figures may measure both")
                    .arg(other.pid)
                    .arg(qs(other.folder))
                    .toStdString());
        }
        for (const long pid : others.elsewhereOnFilesystem)
            runWarnings.push_back(tr("another IOLab run (process %1) was writing elsewhere on this target's "
                                     "filesystem when this run started: the figures may measure both")
                                      .arg(pid)
                                      .toStdString());
    }
    m_allowConcurrentOnce = false;
    RunOptions options = m_editor->runOptions();
    QString why;
    if (!m_controller->start(planned.plan, options, &why)) {
        showBanner(why, true);
        return false;
    }
    hideBanner();
    m_runWarnings = std::move(runWarnings);
    // A result still being read would replace the run's: it is dropped.
    ++m_openSerial;
    m_opening = false;
    if (!m_runWarnings.empty()) {
        QString text = qs(m_runWarnings.front());
        text[0] = text[0].toUpper();
        showBanner(text, true);
    }
    m_runTarget = qs(target.info.path);
    m_runTargetKey = target.key();
    // Weighed by the plan the worker runs: case i here is case i of every signal it sends.
    std::vector<std::uint32_t> probeKills;
    for (const Case& c : planned.plan->cases())
        probeKills.push_back(options.crashProbe != 0 && crashProbeRefusal(c).empty() ? options.crashProbe
                                                                                     : 0);
    m_presenter->runStarting(planned.caseSeconds, options.repetitions + options.warmups, probeKills);
    m_result.reset();
    showLab();
    m_tabs->setCurrentWidget(m_live);
    logger(LogModule::Gui).info("run started: {} case(s) on {}", planned.cases().size(), target.info.path);
    updateActions();
    return true;
}

void MainWindow::stopRun()
{
    if (m_checkingOthers) {
        // Stopped before it started: the look for other runs is dropped when it answers.
        ++m_startSerial;
        m_checkingOthers = false;
        m_presenter->setText(tr("The run did not start."));
        m_lastRunProblem = tr("The run was stopped before it started.");
        updateActions();
        Q_EMIT runEnded();
        return;
    }
    if (!m_controller->isRunning() || m_presenter->isStopping())
        return;
    m_controller->stop();
    m_presenter->stopping();
    updateActions();
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
    if (result.status == Status::Failed)
        logger(LogModule::Gui).warn("case {} failed: {}", result.index + 1, result.reason);
}

void MainWindow::onRunFinished(const RunResult& finished)
{
    RunResult result = finished;
    result.warnings.insert(result.warnings.end(), m_runWarnings.begin(), m_runWarnings.end());
    m_runWarnings.clear();
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
    m_live->runFinished();
    m_presenter->runFailed();
    m_lastRunProblem = tr("The run did not start: %1").arg(message);
    showBanner(m_lastRunProblem, true);
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
    const quint64 serial = ++m_openSerial;
    m_opening = true;
    m_presenter->setText(tr("Opening %1...").arg(QFileInfo(path).fileName()));
    // Several at once: a file on a hung mount holds back no other open.
    runOffGuiThread(targetPool(), this, readResult(m_history->loader(), path),
                    [serial, path, failureText](MainWindow& window, Loaded loaded) {
                        if (serial != window.m_openSerial)
                            return; // a newer open, or a run, came since: this one is no longer wanted
                        window.m_opening = false;
                        if (loaded.result) {
                            window.showResult(*loaded.result, QFileInfo(path).fileName());
                        } else {
                            window.m_presenter->setText(
                                tr("Could not open %1.").arg(QFileInfo(path).fileName()));
                            window.showBanner(failureText.arg(loaded.error), true);
                        }
                        Q_EMIT window.resultOpened(path, loaded.result ? QString() : loaded.error);
                    });
}

void MainWindow::chooseOpen()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open result"), m_history->store().folder(),
                                                      tr("Result JSON (*.json)"));
    if (!path.isEmpty())
        openResultFile(path);
}

void MainWindow::refreshHistory()
{
    m_history->refresh();
}

void MainWindow::chooseImport()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Add result to History"), QString(),
                                                      tr("Result JSON (*.json)"));
    if (!path.isEmpty())
        importResultFile(path);
}

void MainWindow::importResultFile(const QString& path)
{
    const QString name = QFileInfo(path).fileName();
    if (QFileInfo(path).absoluteDir() == QDir(m_history->store().folder())) {
        showBanner(tr("%1 is in History already.").arg(name), false);
        Q_EMIT resultImported(QString(), tr("already in History"));
        return;
    }
    runOffGuiThread(
        targetPool(), this, readResult(m_history->loader(), path), [name](MainWindow& window, Loaded loaded) {
            if (!loaded.result) {
                window.showBanner(tr("Cannot add %1 to History: %2").arg(name, loaded.error), true);
                Q_EMIT window.resultImported(QString(), loaded.error);
                return;
            }
            window.m_importing = true;
            window.m_history->save(*loaded.result);
        });
}

void MainWindow::runSaved(const QString& path, const QString& error)
{
    if (std::exchange(m_importing, false)) {
        if (path.isEmpty())
            showBanner(tr("Cannot add the result to History: %1").arg(error), true);
        else
            showBanner(
                tr("Added to History: select it and another run there, then Compare to set them side by "
                   "side, their machines' facts too."),
                false);
        Q_EMIT resultImported(path, error);
        return;
    }
    m_lastSaved = path;
    if (path.isEmpty()) {
        m_lastRunProblem = error;
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

void MainWindow::deleteSelectedHistory()
{
    m_history->deleteSelected();
}

void MainWindow::compareHistoryRows(int first, int second)
{
    m_history->compareRows(first, second);
}

HistoryModel* MainWindow::historyModel() const
{
    return m_history->model();
}

QTableView* MainWindow::historyView() const
{
    return m_history->view();
}

CompareModel* MainWindow::compareModel() const
{
    return m_history->compareModel();
}

QTableView* MainWindow::compareView() const
{
    return m_history->compareView();
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

QString MainWindow::targetDetailsText() const
{
    return m_targetPanel->detailsText();
}

TargetModel* MainWindow::targetModel() const
{
    return m_targetPanel->model();
}

QTableView* MainWindow::targetView() const
{
    return m_targetPanel->view();
}

QPushButton* MainWindow::chooseFolderButton() const
{
    return m_targetPanel->chooseFolderButton();
}

QPushButton* MainWindow::rescanButton() const
{
    return m_targetPanel->rescanButton();
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
    m_calibrationStop.request_stop();
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
    // What a support engineer pastes into a ticket: which build, on which system, where its files are.
    const QString build =
#if defined(__clang__)
        QStringLiteral("Clang ") + QStringLiteral(__clang_version__);
#elif defined(__GNUC__)
        QStringLiteral("GCC ") + QStringLiteral(__VERSION__);
#elif defined(_MSC_VER)
        QStringLiteral("MSVC ") + QString::number(_MSC_VER);
#else
        tr("an unknown compiler");
#endif
    QStringList lines;
    lines << tr("IOLab %1").arg(QStringLiteral(IOLAB_VERSION)) << QStringLiteral(IOLAB_DESCRIPTION)
          << QString()
          << tr("Built with Qt %1 by %2; running on Qt %3")
                 .arg(QStringLiteral(QT_VERSION_STR), build, QString::fromLatin1(qVersion()))
          << tr("System: %1, kernel %2 (%3)")
                 .arg(QSysInfo::prettyProductName(), QSysInfo::kernelVersion(),
                      QSysInfo::currentCpuArchitecture())
          << tr("Log file: %1")
                 .arg(QDir::toNativeSeparators(QString::fromStdString(defaultLogDirectory()) +
                                               QStringLiteral("/iolab.log")))
          << tr("History and presets: %1").arg(QDir::toNativeSeparators(m_paths.dataFolder)) << QString()
          << tr("MIT licence. %1").arg(QStringLiteral(IOLAB_HOMEPAGE));
    return lines.join(QLatin1Char('\n'));
}

void MainWindow::showReadingGuide()
{
    // Not modal: it stays open beside the results it explains.
    if (m_readingGuide == nullptr) {
        m_readingGuide = new QDialog(this);
        m_readingGuide->setObjectName(QStringLiteral("readingGuide"));
        m_readingGuide->setWindowTitle(tr("How to read the results"));
        auto* text = new QTextBrowser(m_readingGuide);
        text->setObjectName(QStringLiteral("readingGuideText"));
        text->setOpenExternalLinks(true);
        text->setHtml(readingGuideHtml());
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, m_readingGuide);
        connect(buttons, &QDialogButtonBox::rejected, m_readingGuide, &QDialog::hide);
        auto* layout = new QVBoxLayout(m_readingGuide);
        layout->addWidget(text, 1);
        layout->addWidget(buttons);
        m_readingGuide->resize(640, 600);
    }
    m_readingGuide->show();
    m_readingGuide->raise();
}

void MainWindow::showAbout()
{
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("aboutDialog"));
    dialog.setWindowTitle(tr("About IOLab"));
    auto* icon = new QLabel(&dialog);
    icon->setPixmap(windowIcon().pixmap(64, 64));
    icon->setAlignment(Qt::AlignTop);
    const QString text = aboutText();
    auto* label = new QLabel(QStringLiteral("<h3>%1</h3>%2")
                                 .arg(text.section(QLatin1Char('\n'), 0, 0).toHtmlEscaped(),
                                      text.section(QLatin1Char('\n'), 1)
                                          .toHtmlEscaped()
                                          .replace(QLatin1Char('\n'), QStringLiteral("<br>"))),
                             &dialog);
    label->setObjectName(QStringLiteral("aboutText"));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    QPushButton* copy = buttons->addButton(tr("&Copy details"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, &dialog, [text] { QGuiApplication::clipboard()->setText(text); });
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* top = new QHBoxLayout;
    top->addWidget(icon);
    top->addWidget(label, 1);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addLayout(top);
    layout->addWidget(buttons);
    dialog.exec();
}

} // namespace iolab::gui
