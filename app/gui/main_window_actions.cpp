// SPDX-License-Identifier: MIT
// The main window's actions, menus and toolbar: one place to add a command to the window.
#include "app/gui/main_window.h"

#include "app/gui/help_window.h"
#include "app/gui/reading_guide.h"
#include "app/gui/result_files.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QKeySequence>
#include <QMenuBar>
#include <QTabWidget>
#include <QToolBar>

namespace iolab::gui {

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

    m_shareAction = new QAction(tr("Export for &sharing..."), this);
    m_shareAction->setObjectName(QStringLiteral("shareAction"));
    m_shareAction->setToolTip(tr(
        "Save the results as a PDF report, JSON or CSV fit to send to a vendor or post in a public tracker: "
        "the host name, paths, user names, serial numbers and MAC addresses replaced by placeholders (the "
        "same value by the same one), every figure kept, and the report saying so first"));
    connect(m_shareAction, &QAction::triggered, this, &MainWindow::chooseExportForSharing);

    m_openAction = new QAction(loadIcon(QStringLiteral("open")), tr("&Open result..."), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setToolTip(tr("Open a result JSON written by IOLab or iolab-cli (Ctrl+O)"));
    connect(m_openAction, &QAction::triggered, this, [this] { m_files->chooseOpen(this); });

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
    QAction* import =
        file->addAction(tr("&Add result to History..."), this, [this] { m_files->chooseImport(this); });
    import->setToolTip(
        tr("Copy a result JSON (a customer's run, another machine's) into History, to compare it "
           "with any other run there"));
    file->addAction(m_exportAction);
    file->addAction(m_shareAction);
    file->addSeparator();
    QAction* openTrace = file->addAction(tr("Open a &trace..."), this, &MainWindow::chooseTrace);
    openTrace->setObjectName(QStringLiteral("openTraceAction"));
    openTrace->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openTrace->setToolTip(tr("Show what a recorded program did with files, and replay it here (a trace "
                             "iolab-cli record or import wrote)"));
    QAction* record = file->addAction(tr("Re&cord a program..."), this, &MainWindow::showRecordDialog);
    record->setObjectName(QStringLiteral("recordAction"));
    record->setToolTip(tr("Run a program with IOLab's recorder inside and show what it did with files"));
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
    const QStringList tabNames{tr("Live"), tr("Results"), tr("History"), tr("Log"), tr("Program")};
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

} // namespace iolab::gui
