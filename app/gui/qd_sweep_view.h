// SPDX-License-Identifier: MIT
#pragma once

#include "app/report/qd_sweep_data.h"
#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <QWidget>

class QChart;
class QChartView;
class QLabel;

namespace iolab::gui {

// The Queue depth tab: MB/s against the queue depth (log2 axis) per series of cases equal but for their
// depth, with each series' p99 call latency dashed in the same colour on a second axis.
class QdSweepView : public QWidget
{
    Q_OBJECT

public:
    explicit QdSweepView(QWidget* parent = nullptr);

    // `target`: the run's latency target, marked across the chart; the latency drawn is at its percentile.
    void setCases(const std::vector<CaseResult>& cases, Ranking ranking,
                  std::optional<LatencyTarget> target = std::nullopt);
    void setDark(bool dark);

    // Whether the cases hold a sweep (the tab is shown only then).
    bool hasSweep() const { return !m_data.empty(); }
    const report::QdSweepData& data() const { return m_data; }
    QChart* chart() const { return m_chart; }

private:
    void rebuild();

    report::QdSweepData m_data;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QLabel* m_note = nullptr;
};

} // namespace iolab::gui
