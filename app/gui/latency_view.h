// SPDX-License-Identifier: MIT
#pragma once

#include "app/report/latency_chart_data.h"
#include "core/model/result.h"

#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QListWidget;
class QStackedLayout;

namespace iolab::gui {

// The Latency tab: the call-latency histogram of the cases ticked in its list (several overlay, each in its
// colour), on a log time axis with its p50, p99 and p99.9 as vertical markers, the calls or the sync calls
// (fsync, fdatasync) as chosen, and under the chart each shown case's percentiles and why its calls were
// timed. A run without timed calls gets the sentence saying why instead of an empty chart.
class LatencyView : public QWidget
{
    Q_OBJECT

public:
    explicit LatencyView(QWidget* parent = nullptr);

    void setCases(const std::vector<CaseResult>& cases);
    void setDark(bool dark);

    // Whether any case has call or sync-call latencies (else the view shows why not).
    bool hasLatency() const { return m_hasLatency; }
    QChart* chart() const { return m_chart; }
    QListWidget* caseList() const { return m_list; }
    QComboBox* kindChooser() const { return m_kind; }
    // The sentence shown instead of the chart, or the lines under it.
    QString messageText() const;
    QString notesText() const;
    const report::LatencyChartData& shown() const { return m_shown; }

private:
    void rebuildList();
    void rebuildChart();
    report::LatencyKind kind() const;

    std::vector<CaseResult> m_cases;
    report::LatencyChartData m_shown;
    bool m_hasLatency = false;
    bool m_dark = false;
    QStackedLayout* m_stack = nullptr;
    QLabel* m_message = nullptr;
    QComboBox* m_kind = nullptr;
    QListWidget* m_list = nullptr;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QLabel* m_notes = nullptr;
};

} // namespace iolab::gui
