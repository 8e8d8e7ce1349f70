// SPDX-License-Identifier: MIT
#include "app/gui/lab_view.h"

#include "app/gui/history_controller.h"
#include "app/gui/live_charts.h"
#include "app/gui/log_page.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/plan_panel.h"
#include "app/gui/program_view.h"
#include "app/gui/results_view.h"
#include "app/gui/target_panel.h"

#include <QDir>
#include <QGroupBox>
#include <QScrollArea>
#include <QSettings>
#include <QTabWidget>
#include <QVBoxLayout>

namespace iolab::gui {

LabView::LabView(const Registry& registry, const QString& dataFolder, LogModel* log, QWidget* parent)
    : QSplitter(Qt::Horizontal, parent)
{
    setObjectName(QStringLiteral("mainSplitter"));
    m_sideSplitter = new QSplitter(Qt::Vertical, this);
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
    m_editor = new MatrixEditor(registry, QDir(dataFolder).filePath(QStringLiteral("presets")), matrixScroll);
    matrixScroll->setWidget(m_editor);
    matrixLayout->addWidget(matrixScroll);
    m_sideSplitter->addWidget(matrixBox);
    m_planPanel = new PlanPanel(registry, m_editor, m_sideSplitter);
    m_sideSplitter->addWidget(m_planPanel);
    m_sideSplitter->setSizes({230, 560, 150});
    addWidget(m_sideSplitter);

    m_tabs = new QTabWidget(this);
    m_live = new LiveCharts(m_tabs);
    m_tabs->addTab(m_live, tr("Live"));
    m_results = new ResultsView(m_tabs);
    m_results->setRegistry(&registry);
    m_tabs->addTab(m_results, tr("Results"));
    m_history = new HistoryController(QDir(dataFolder).filePath(QStringLiteral("history")), m_tabs);
    m_tabs->addTab(m_history, tr("History"));
    m_tabs->addTab(new LogPage(log, m_tabs), tr("Log"));
    m_program = new ProgramView(m_tabs);
    m_tabs->addTab(m_program, tr("Program"));
    addWidget(m_tabs);
    setSizes({520, 980});
}

void LabView::readSplitters(const QSettings& settings)
{
    m_saved[0] = settings.value(QStringLiteral("window/mainSplitter")).toByteArray();
    m_saved[1] = settings.value(QStringLiteral("window/sideSplitter")).toByteArray();
    m_saved[2] = settings.value(QStringLiteral("window/summarySplitter")).toByteArray();
}

void LabView::writeSplitters(QSettings& settings)
{
    if (m_restored) {
        m_saved[0] = saveState();
        m_saved[1] = m_sideSplitter->saveState();
        // Only a size the user gave: until then the summary is fitted to each result.
        m_saved[2] = m_results->summarySplitterState();
    }
    settings.setValue(QStringLiteral("window/mainSplitter"), m_saved[0]);
    settings.setValue(QStringLiteral("window/sideSplitter"), m_saved[1]);
    settings.setValue(QStringLiteral("window/summarySplitter"), m_saved[2]);
}

void LabView::restoreSplittersOnce()
{
    if (std::exchange(m_restored, true))
        return;
    restoreState(m_saved[0]);
    m_sideSplitter->restoreState(m_saved[1]);
    m_results->restoreSummarySplitter(m_saved[2]);
}

} // namespace iolab::gui
