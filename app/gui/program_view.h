// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/program_data.h"

#include <QString>
#include <QWidget>

class QBarSeries;
class QChart;
class QChartView;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTextBrowser;

namespace iolab::gui {

// The Program tab: what a recorded program did with files (a trace iolab-cli record or import wrote, or File
// > Record a program...): its profile in sentences, the verdict first; its calls by size; its writes and
// syncs per file over time; Find a faster way, which runs the trace's replay and each other way of writing
// that keeps its durability on the target selected and answers with the fastest; Replay on this target, the
// replay alone; and Save as PDF..., the profile as a report to hand over.
class ProgramView : public QWidget
{
    Q_OBJECT

public:
    explicit ProgramView(QWidget* parent = nullptr);

    // While a trace is read off the GUI thread.
    void showReading(const QString& tracePath);
    // A trace read; program.error says why it could not be (then the tab says so and offers nothing to
    // replay).
    void showProgram(const ProgramData& program);
    // The target a replay would run on; `problem` says why it cannot ("" when it can).
    void setTarget(const QString& path, const QString& problem);
    // A run under way: no replay meanwhile.
    void setBusy(bool busy);
    void setDark(bool dark);

    QString tracePath() const { return m_data.tracePath; }
    bool hasProgram() const { return !m_data.tracePath.isEmpty() && m_data.error.isEmpty(); }
    QPushButton* replayButton() const { return m_replay; }
    QPushButton* adviseButton() const { return m_advise; }
    const ProgramData& data() const { return m_data; }
    QPushButton* savePdfButton() const { return m_savePdf; }
    // The profile as a PDF report at `path` (what Save as PDF... writes once a file is chosen): "" when it
    // was written, else why not.
    QString savePdf(const QString& path);
    QString profileText() const;
    QString titleText() const;
    QChart* sizeChart() const { return m_sizeChart; }
    QChart* timelineChart() const { return m_timelineChart; }

Q_SIGNALS:
    void replayRequested(const QString& tracePath);
    // Find a faster way: the trace's replay and its other ways of writing, then the answer.
    void adviceRequested(const QString& tracePath);
    void pdfSaved(const QString& path);

private:
    void rebuildCharts();
    void buildSizeChart();
    void buildTimelineChart();
    void updateReplay();

    ProgramData m_data;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_replayNote = nullptr;
    QPushButton* m_replay = nullptr;
    QPushButton* m_advise = nullptr;
    QPushButton* m_savePdf = nullptr;
    QTextBrowser* m_text = nullptr;
    QChart* m_sizeChart = nullptr;
    QChartView* m_sizeView = nullptr;
    QChart* m_timelineChart = nullptr;
    QChartView* m_timelineView = nullptr;
    QString m_targetPath;
    QString m_targetProblem;
    bool m_busy = false;
    bool m_dark = false;
};

} // namespace iolab::gui
