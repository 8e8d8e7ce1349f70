// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/sustained.h"
#include "core/model/result.h"

#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QLabel;

namespace iolab::gui {

// The Sustained tab: a write until steady's rate over time, with the rate at full speed until the drop, the
// drop itself (the fast cache's size), the rate after it and the window where it settled, drawn over the
// samples; its answer under the chart. A chooser picks the case when the run has several.
class SustainedView : public QWidget
{
    Q_OBJECT

public:
    explicit SustainedView(QWidget* parent = nullptr);

    void setCases(const std::vector<CaseResult>& cases);
    void setDark(bool dark);

    // Whether some case wrote until steady with figures to draw (the tab is shown only then).
    bool hasFigures() const { return !m_cases.empty(); }
    QChart* chart() const { return m_chart; }
    QComboBox* caseChooser() const { return m_chooser; }
    QString answerText() const;

private:
    void rebuild();

    std::vector<std::pair<CaseResult, SustainedFigures>> m_cases;
    QComboBox* m_chooser = nullptr;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QLabel* m_answer = nullptr;
};

} // namespace iolab::gui
