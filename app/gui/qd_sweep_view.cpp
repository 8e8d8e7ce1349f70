// SPDX-License-Identifier: MIT
#include "app/gui/qd_sweep_view.h"

#include "app/gui/text_helpers.h"
#include "app/report/latency_chart_data.h"

#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QValueAxis>

#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace iolab::gui {

QdSweepView::QdSweepView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_chart = new QChart;
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    layout->addWidget(m_view, 1);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setContentsMargins(8, 0, 8, 4);
    layout->addWidget(m_note);
    setDark(false);
}

void QdSweepView::setCases(const std::vector<CaseResult>& cases, Ranking ranking,
                           std::optional<LatencyTarget> target)
{
    m_data = report::QdSweepData::from(cases, ranking, target);
    rebuild();
}

void QdSweepView::setDark(bool dark)
{
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundRoundness(0);
    rebuild();
}

void QdSweepView::rebuild()
{
    m_chart->removeAllSeries();
    for (auto* axis : m_chart->axes()) {
        m_chart->removeAxis(axis);
        delete axis;
    }
    if (m_data.empty()) {
        m_chart->setTitle(tr("No queue-depth sweep in this run"));
        m_note->clear();
        return;
    }
    const QString pct = QStringLiteral("p%1").arg(m_data.percentile);
    m_chart->setTitle(tr("MB/s (solid) and %1 call latency (dashed) by queue depth").arg(pct));
    const auto ticks = m_data.ticks();
    auto* x = new QLogValueAxis;
    x->setBase(2);
    x->setLabelFormat(QStringLiteral("%g"));
    x->setMinorTickCount(0);
    x->setRange(ticks.front() / 1.4, ticks.back() * 1.4);
    x->setTitleText(tr("queue depth (requests in flight, log scale)"));
    auto* rate = new QValueAxis;
    rate->setRange(0, m_data.maxMBps * 1.1);
    rate->setLabelFormat(QStringLiteral("%.0f"));
    rate->applyNiceNumbers();
    rate->setTitleText(tr("MB/s"));
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(rate, Qt::AlignLeft);
    // The latency axis in the unit its largest value reads best in.
    const bool ms = m_data.maxLatencyNs >= 1e6;
    const double unitNs = ms ? 1e6 : 1e3;
    QValueAxis* latency = nullptr;
    if (m_data.hasLatency()) {
        latency = new QValueAxis;
        latency->setRange(0, m_data.maxLatencyNs / unitNs * 1.1);
        latency->setLabelFormat(QStringLiteral("%.3g"));
        latency->applyNiceNumbers();
        latency->setTitleText(ms ? tr("%1 latency (ms)").arg(pct) : tr("%1 latency (us)").arg(pct));
        latency->setGridLineVisible(false);
        m_chart->addAxis(latency, Qt::AlignRight);
    }
    for (std::size_t i = 0; i < m_data.series.size(); ++i) {
        const auto& series = m_data.series[i];
        const QColor colour = report::chartColour(i);
        auto* line = new QLineSeries;
        line->setName(series.name);
        line->setPointsVisible(true);
        line->setPen(QPen(colour, 2));
        for (const auto& p : series.points)
            line->append(p.queueDepth, p.mbps);
        m_chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(rate);
        if (!latency)
            continue;
        auto* tail = new QLineSeries;
        tail->setName(series.name + QStringLiteral(" ") + pct);
        tail->setPen(QPen(colour, 1.5, Qt::DashLine));
        tail->setPointsVisible(true);
        for (const auto& p : series.points) {
            if (p.latencyNs)
                tail->append(p.queueDepth, *p.latencyNs / unitNs);
        }
        m_chart->addSeries(tail);
        tail->attachAxis(x);
        tail->attachAxis(latency);
        // One legend entry per series: the dashed line shares its colour.
        for (QLegendMarker* marker : m_chart->legend()->markers(tail))
            marker->setVisible(false);
    }
    if (m_data.target && latency) {
        auto* mark = new QLineSeries;
        mark->setObjectName(QStringLiteral("latencyTarget"));
        mark->setName(tr("target %1").arg(qs(toString(*m_data.target))));
        mark->setPen(QPen(QColor(0xb0, 0x2a, 0x1e), 2, Qt::DashDotLine));
        mark->append(ticks.front() / 1.4, m_data.target->seconds * 1e9 / unitNs);
        mark->append(ticks.back() * 1.4, m_data.target->seconds * 1e9 / unitNs);
        m_chart->addSeries(mark);
        mark->attachAxis(x);
        mark->attachAxis(latency);
    }
    m_note->setText(
        tr("Each line: cases equal in every axis but the queue depth. A deeper queue raises the rate "
           "while the device has parallelism left, and each request waits longer (the dashed p99)."));
}

} // namespace iolab::gui
