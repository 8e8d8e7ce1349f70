// SPDX-License-Identifier: MIT
#include "app/gui/sustained_view.h"

#include "app/gui/text_helpers.h"
#include "app/report/latency_chart_data.h"
#include "core/analysis/findings.h"
#include "core/base/units.h"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <QComboBox>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace iolab::gui {

SustainedView::SustainedView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_chooser = new QComboBox(this);
    m_chooser->setObjectName(QStringLiteral("sustainedCase"));
    m_chooser->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_chooser->setToolTip(tr("The write until steady the chart shows"));
    layout->addWidget(m_chooser, 0, Qt::AlignLeft);
    m_chart = new QChart;
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    layout->addWidget(m_view, 1);
    m_answer = new QLabel(this);
    m_answer->setObjectName(QStringLiteral("sustainedAnswer"));
    m_answer->setWordWrap(true);
    m_answer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_answer->setContentsMargins(8, 0, 8, 4);
    layout->addWidget(m_answer);
    connect(m_chooser, &QComboBox::currentIndexChanged, this, &SustainedView::rebuild);
    setDark(false);
}

void SustainedView::setCases(const std::vector<CaseResult>& cases)
{
    m_cases.clear();
    for (const auto& c : cases)
        if (auto f = sustainedFigures(c); f && !f->points.empty())
            m_cases.emplace_back(c, std::move(*f));
    const QSignalBlocker block(m_chooser);
    m_chooser->clear();
    for (const auto& [c, f] : m_cases)
        m_chooser->addItem(qs(findingSubject(c)));
    m_chooser->setVisible(m_cases.size() > 1);
    rebuild();
}

void SustainedView::setDark(bool dark)
{
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundRoundness(0);
    rebuild();
}

QString SustainedView::answerText() const
{
    return m_answer->text();
}

void SustainedView::rebuild()
{
    m_chart->removeAllSeries();
    for (auto* axis : m_chart->axes()) {
        m_chart->removeAxis(axis);
        delete axis;
    }
    const int chosen = std::max(0, m_chooser->currentIndex());
    if (m_cases.empty() || chosen >= static_cast<int>(m_cases.size())) {
        m_chart->setTitle(tr("No write until steady in this run"));
        m_answer->clear();
        return;
    }
    const auto& [c, f] = m_cases[static_cast<std::size_t>(chosen)];
    m_chart->setTitle(f.cacheBytes ? tr("%1: %2 at full speed, then %3")
                                         .arg(qs(findingSubject(c)), qs(formatBytes(*f.cacheBytes)),
                                              qs(formatMBps(f.afterMBps)))
                                   : tr("%1: the rate over the write").arg(qs(findingSubject(c))));
    const double end = f.points.back().seconds;
    double top = 0;
    for (const auto& p : f.points)
        top = std::max(top, p.mbps);
    auto* x = new QValueAxis;
    x->setRange(0, std::max(end, 0.1));
    x->setLabelFormat(QStringLiteral("%g"));
    x->applyNiceNumbers();
    x->setTitleText(tr("seconds into the write"));
    auto* y = new QValueAxis;
    y->setRange(0, std::max(top * 1.1, 1.0));
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->applyNiceNumbers();
    y->setTitleText(f.deviceRate ? tr("MB/s (device)") : tr("MB/s"));
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    const auto add = [&](QXYSeries* series) {
        m_chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    };
    // The window where the rate settled, shaded under everything else.
    if (f.steady) {
        auto* upper = new QLineSeries;
        upper->append(f.steady->fromSeconds, y->max());
        upper->append(f.steady->reachedSeconds, y->max());
        auto* area = new QAreaSeries(upper);
        area->setName(tr("steady window"));
        QColor shade = report::chartColour(2);
        shade.setAlpha(45);
        area->setBrush(shade);
        area->setPen(Qt::NoPen);
        m_chart->addSeries(area);
        area->attachAxis(x);
        area->attachAxis(y);
    }
    auto* rate = new QLineSeries;
    rate->setName(tr("every 0.1 s"));
    rate->setPen(QPen(report::chartColour(0), 1.5));
    for (const auto& p : f.points)
        rate->append(p.seconds, p.mbps);
    add(rate);
    const double drop = f.cacheBytes ? f.cacheSeconds : end;
    auto* fast = new QLineSeries;
    fast->setName(f.cacheBytes ? tr("full speed %1").arg(qs(formatMBps(f.fastMBps)))
                               : tr("median %1").arg(qs(formatMBps(f.fastMBps))));
    fast->setPen(QPen(report::chartColour(1), 2.5, Qt::DashLine));
    fast->append(0, f.fastMBps);
    fast->append(drop, f.fastMBps);
    add(fast);
    if (f.cacheBytes) {
        auto* edge = new QLineSeries;
        edge->setName(tr("drop at %1").arg(qs(formatBytes(*f.cacheBytes))));
        edge->setPen(QPen(report::chartColour(3), 1.5, Qt::DotLine));
        edge->append(drop, 0);
        edge->append(drop, y->max());
        add(edge);
        auto* after = new QLineSeries;
        after->setName(tr("after %1").arg(qs(formatMBps(f.afterMBps))));
        after->setPen(QPen(report::chartColour(4), 2.5, Qt::DashLine));
        after->append(drop, f.afterMBps);
        after->append(end, f.afterMBps);
        add(after);
    }
    m_answer->setText(qs(sustainedAnswer(c)));
}

} // namespace iolab::gui
