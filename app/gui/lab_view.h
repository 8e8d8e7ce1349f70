// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QSplitter>

class QSettings;
class QTabWidget;

namespace iolab {
class Registry;
}

namespace iolab::gui {

class HistoryController;
class LiveCharts;
class LogModel;
class MatrixEditor;
class PlanPanel;
class ProgramView;
class ResultsView;
class TargetPanel;

// The lab, the window's face for everything but the questions: the target, the strategy matrix and the plan
// on the side, and the Live, Results, History, Log and Program tabs beside them. It keeps its splitters'
// sizes as the settings hold them until it is first shown: hidden behind the start page it has no size of its
// own.
class LabView : public QSplitter
{
    Q_OBJECT

public:
    // The presets and the history live in `dataFolder`; the log page shows `log`.
    LabView(const Registry& registry, const QString& dataFolder, LogModel* log, QWidget* parent = nullptr);

    TargetPanel* targetPanel() const { return m_targetPanel; }
    MatrixEditor* editor() const { return m_editor; }
    PlanPanel* planPanel() const { return m_planPanel; }
    QTabWidget* tabs() const { return m_tabs; }
    LiveCharts* live() const { return m_live; }
    ResultsView* results() const { return m_results; }
    HistoryController* history() const { return m_history; }
    ProgramView* program() const { return m_program; }
    QSplitter* sideSplitter() const { return m_sideSplitter; }

    // The splitters' sizes from the settings, and back: until the lab is first shown, as they were read.
    void readSplitters(const QSettings& settings);
    void writeSplitters(QSettings& settings);
    // Restores the sizes read, the first time only (the lab is shown).
    void restoreSplittersOnce();

private:
    TargetPanel* m_targetPanel = nullptr;
    MatrixEditor* m_editor = nullptr;
    PlanPanel* m_planPanel = nullptr;
    QTabWidget* m_tabs = nullptr;
    LiveCharts* m_live = nullptr;
    ResultsView* m_results = nullptr;
    HistoryController* m_history = nullptr;
    ProgramView* m_program = nullptr;
    QSplitter* m_sideSplitter = nullptr;
    QByteArray m_saved[3]; // this splitter, the side one and the Results summary's
    bool m_restored = false;
};

} // namespace iolab::gui
