// SPDX-License-Identifier: MIT
#include "app/gui/latency_view.h"
#include "app/gui/widget_helpers.h"

#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedLayout>
#include <QVBoxLayout>

#include <cmath>
#include <set>

namespace iolab::gui {

using report::LatencyChartData;
using report::LatencyKind;

namespace {

// p50 dotted, p99 dashed, p99.9 dash-dotted: the markers of one case share its colour.
Qt::PenStyle markerStyle(std::size_t marker)
{
    return marker == 0 ? Qt::DotLine : marker == 1 ? Qt::DashLine : Qt::DashDotLine;
}

// Where a marker's label sits, as a share of the axis: staggered by percentile and by case, so that the
// labels of markers close together do not print over each other.
double markerHeight(std::size_t marker, std::size_t curve)
{
    return 0.96 - 0.07 * static_cast<double>(marker + 3 * (curve % 3));
}

void hideFromLegend(QChart* chart, QAbstractSeries* series)
{
    for (QLegendMarker* marker : chart->legend()->markers(series))
        marker->setVisible(false);
}

} // namespace

LatencyView::LatencyView(QWidget* parent) : QWidget(parent)
{
    m_stack = new QStackedLayout(this);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("latencyMessage"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setMargin(24);
    m_stack->addWidget(m_message);

    // The chart takes the tab's whole height on the right; the choice, the cases and the notes share a column
    // on the left. At 1366x768 under a fitted Summary the tab is about 220 px high: with the notes and the
    // choice above and below the chart as well, its axes had no room for their labels ("...").
    auto* page = new QWidget(this);
    auto* layout = new QHBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* splitter = new QSplitter(Qt::Horizontal, page);
    auto* side = new QWidget(splitter);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Show:"), side));
    m_kind = new QComboBox(side);
    m_kind->setObjectName(QStringLiteral("latencyKind"));
    m_kind->addItem(tr("calls"), static_cast<int>(LatencyKind::Calls));
    m_kind->addItem(tr("sync calls"), static_cast<int>(LatencyKind::SyncCalls));
    m_kind->setToolTip(tr("Each timed call (a write, a read, a queued request until it completed), or each "
                          "sync call (fsync, fdatasync) where the cases made some"));
    top->addWidget(m_kind);
    top->addStretch(1);
    sideLayout->addLayout(top);
    sideLayout->addWidget(new QLabel(tr("Tick cases to overlay them:"), side));
    m_list = new QListWidget(side);
    m_list->setObjectName(QStringLiteral("latencyCases"));
    m_list->setToolTip(tr("The cases whose calls were timed; tick several to compare their histograms"));
    m_list->setMinimumHeight(60);
    sideLayout->addWidget(m_list, 1);
    m_notes = new QLabel(side);
    m_notes->setObjectName(QStringLiteral("latencyNotes"));
    m_notes->setWordWrap(true);
    m_notes->setTextFormat(Qt::RichText);
    m_notes->setContentsMargins(4, 0, 4, 4);
    // The notes scroll rather than be cut when several cases are ticked on a short tab.
    auto* notesArea = new QScrollArea(side);
    notesArea->setWidgetResizable(true);
    notesArea->setFrameShape(QFrame::NoFrame);
    notesArea->setWidget(m_notes);
    sideLayout->addWidget(notesArea, 1);
    m_chart = new QChart;
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setBackgroundRoundness(0);
    // The chart's own legend elides long case names; the lines beside the chart name each case in full.
    m_chart->legend()->hide();
    m_view = new QChartView(m_chart, splitter);
    m_view->setRenderHint(QPainter::Antialiasing);
    // Below this the axes' labels give way to "...".
    m_view->setMinimumHeight(180);
    splitter->addWidget(side);
    splitter->addWidget(m_view);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({340, 720});
    layout->addWidget(splitter);
    m_stack->addWidget(page);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &LatencyView::rebuildList);
    connect(m_list, &QListWidget::itemChanged, this, &LatencyView::rebuildChart);
    setDark(false);
    setCases({});
}

LatencyKind LatencyView::kind() const
{
    return static_cast<LatencyKind>(m_kind->currentData().toInt());
}

void LatencyView::setCases(const std::vector<CaseResult>& cases)
{
    m_cases = cases;
    bool anySync = false;
    m_hasLatency = false;
    for (const auto& c : cases) {
        m_hasLatency = m_hasLatency || report::latencyOf(c, LatencyKind::Calls) != nullptr;
        anySync = anySync || report::latencyOf(c, LatencyKind::SyncCalls) != nullptr;
    }
    m_hasLatency = m_hasLatency || anySync;
    {
        const QSignalBlocker block(m_kind);
        if (!anySync || !m_hasLatency)
            m_kind->setCurrentIndex(0);
        m_kind->setEnabled(anySync);
    }
    if (!m_hasLatency) {
        // Why not, in the engine's words: each distinct "not recorded: ..." sentence once.
        std::set<std::string> reasons;
        for (const auto& c : cases) {
            if (!c.latencyChoice.empty())
                reasons.insert(c.latencyChoice);
        }
        QString text = tr("No call latencies in this run.");
        if (cases.empty())
            text = tr("No results yet.");
        else if (reasons.empty())
            text += QStringLiteral(" ") + tr("This result comes from an IOLab that did not time calls yet "
                                             "(result schema 1), or its cases ran with latency off.");
        else
            for (const auto& reason : reasons)
                text += QStringLiteral("\n") + qs(reason);
        m_message->setText(text);
        m_stack->setCurrentIndex(0);
        m_chart->removeAllSeries();
        return;
    }
    m_stack->setCurrentIndex(1);
    rebuildList();
}

void LatencyView::rebuildList()
{
    // Keep the ticks of cases still listed; a fresh list ticks its first case.
    std::set<std::uint32_t> ticked;
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->checkState() == Qt::Checked)
            ticked.insert(m_list->item(i)->data(Qt::UserRole + 1).toUInt());
    }
    const QSignalBlocker block(m_list);
    m_list->clear();
    for (std::size_t i = 0; i < m_cases.size(); ++i) {
        const CaseResult& c = m_cases[i];
        if (!report::latencyOf(c, kind()))
            continue;
        auto* item = new QListWidgetItem(report::caseShortName(c), m_list);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setData(Qt::UserRole, static_cast<qulonglong>(i));
        item->setData(Qt::UserRole + 1, c.index);
        item->setToolTip(qs(c.testCase.label() + "\n" + c.latencyChoice));
        item->setCheckState(ticked.count(c.index) > 0 ? Qt::Checked : Qt::Unchecked);
    }
    bool any = false;
    for (int i = 0; i < m_list->count(); ++i)
        any = any || m_list->item(i)->checkState() == Qt::Checked;
    if (!any && m_list->count() > 0)
        m_list->item(0)->setCheckState(Qt::Checked);
    rebuildChart();
}

void LatencyView::rebuildChart()
{
    m_chart->removeAllSeries();
    for (auto* axis : m_chart->axes()) {
        m_chart->removeAxis(axis);
        delete axis;
    }
    std::vector<std::size_t> chosen;
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->checkState() == Qt::Checked)
            chosen.push_back(static_cast<std::size_t>(m_list->item(i)->data(Qt::UserRole).toULongLong()));
    }
    m_shown = chosen.empty() ? LatencyChartData{} : LatencyChartData::from(m_cases, kind(), chosen);
    const QString what = kind() == LatencyKind::Calls ? tr("calls") : tr("sync calls");
    if (m_shown.empty()) {
        m_chart->setTitle(tr("Latency of the %1: tick a case on the left").arg(what));
        m_notes->clear();
        return;
    }
    m_chart->setTitle(tr("Latency of the %1: share of the calls per time bin").arg(what));
    // The time axis is log10 of nanoseconds: a category axis so that its labels read "1 us", "10 ms".
    auto* x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const double low = std::log10(m_shown.minNs);
    const double high = std::log10(m_shown.maxNs);
    for (const double tick : m_shown.ticks())
        x->append(report::latencyTickLabel(tick), std::log10(tick));
    x->setRange(low, high);
    x->setTitleText(tr("time per call (log scale)"));
    auto* y = new QValueAxis;
    y->setRange(0, std::max(1.0, m_shown.maxShare * 100 * 1.15));
    y->applyNiceNumbers();
    const double top = y->max();
    y->setLabelFormat(top < 10 ? QStringLiteral("%.1f%%") : QStringLiteral("%.0f%%"));
    y->setTitleText(tr("share")); // of the calls or syncs: the chart's title says which
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    QStringList notes;
    for (std::size_t i = 0; i < m_shown.curves.size(); ++i) {
        const auto& curve = m_shown.curves[i];
        const QColor colour = report::chartColour(i);
        auto* line = new QLineSeries;
        line->setName(curve.name);
        // Each bin drawn as a step, so that a lone bin still shows as a plateau, not a dot.
        line->append(std::log10(curve.bins.front().lowNs), 0);
        for (const auto& bin : curve.bins) {
            line->append(std::log10(bin.lowNs), bin.share * 100);
            line->append(std::log10(bin.highNs), bin.share * 100);
        }
        line->append(std::log10(curve.bins.back().highNs), 0);
        line->setPen(QPen(colour, 2));
        m_chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
        for (std::size_t m = 0; m < curve.markers.size(); ++m) {
            const auto& marker = curve.markers[m];
            if (marker.ns <= 0)
                continue;
            const double at = std::log10(marker.ns);
            auto* rule = new QLineSeries;
            rule->append(at, 0);
            rule->append(at, top * markerHeight(m, i));
            rule->setPen(QPen(colour, 1.2, markerStyle(m)));
            auto* label = new QScatterSeries;
            label->append(at, top * markerHeight(m, i));
            label->setMarkerSize(4);
            label->setColor(colour);
            label->setBorderColor(colour);
            label->setPointLabelsFormat(marker.name);
            label->setPointLabelsVisible(true);
            label->setPointLabelsColor(colour);
            label->setPointLabelsClipping(false);
            for (QAbstractSeries* s :
                 {static_cast<QAbstractSeries*>(rule), static_cast<QAbstractSeries*>(label)}) {
                m_chart->addSeries(s);
                s->attachAxis(x);
                s->attachAxis(y);
                hideFromLegend(m_chart, s);
            }
        }
        const CaseResult& c = m_cases[curve.caseIndex];
        const auto& s = curve.summary;
        notes << tr("<span style=\"color:%1\">&#9632;</span> <b>%2</b>: %3 %4, mean %5, p50 %6, p99 %7, "
                    "p99.9 %8, max %9. <i>%10</i>")
                     .arg(colour.name(), curve.name.toHtmlEscaped(),
                          QLocale().toString(static_cast<qulonglong>(s.count)), what,
                          report::latencyLabel(s.meanNs), report::latencyLabel(static_cast<double>(s.p50Ns)),
                          report::latencyLabel(static_cast<double>(s.p99Ns)),
                          report::latencyLabel(static_cast<double>(s.p999Ns)),
                          report::latencyLabel(static_cast<double>(s.maxNs)))
                     .arg(qs(c.latencyChoice).toHtmlEscaped());
    }
    // How to read the chart: in the tooltips, so that the figures keep the room.
    const QString reading =
        tr("Markers: dotted p50, dashed p99, dash-dotted p99.9. Bins of a third of an octave; a "
           "bin's share depends on its width, so compare shapes and positions, not heights "
           "across charts.");
    m_notes->setToolTip(reading);
    m_view->setToolTip(reading);
    notes << tr("<i>Markers: dotted p50, dashed p99, dash-dotted p99.9 (hover for more).</i>");
    m_notes->setText(notes.join(QStringLiteral("<br>")));
}

void LatencyView::setDark(bool dark)
{
    m_dark = dark;
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundRoundness(0);
    if (m_hasLatency)
        rebuildChart();
}

QString LatencyView::messageText() const
{
    return m_stack->currentIndex() == 0 ? m_message->text() : QString();
}

QString LatencyView::notesText() const
{
    return m_notes->text();
}

} // namespace iolab::gui
