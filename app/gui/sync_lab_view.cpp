// SPDX-License-Identifier: MIT
#include "app/gui/sync_lab_view.h"

#include "core/base/units.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QHorizontalBarSeries>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QValueAxis>

#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>

namespace iolab::gui {

namespace {

using Data = report::SyncLabChartData;

constexpr int kRowHeight = 26;   // pixels per method
constexpr int kChartFrame = 150; // the title, the value axis and the legend

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QColor kindColour(Data::Kind kind, bool fastest)
{
    switch (kind) {
    case Data::Kind::Durable:
        return fastest ? QColor(0x1b, 0x5e, 0x20) : QColor(0x43, 0xa0, 0x47);
    case Data::Kind::Distrusted:
        return QColor(0xef, 0x6c, 0x00);
    case Data::Kind::NotDurable:
        return QColor(0x9e, 0x9e, 0x9e);
    }
    return Qt::gray;
}

// "1.2 k" style ticks would hide the magnitude: plain numbers, as pg_test_fsync prints them.
QString opsText(double ops)
{
    return ops >= 100 ? QString::number(ops, 'f', 0) : QString::number(ops, 'g', 3);
}

double niceCeiling(double v)
{
    if (v <= 0)
        return 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(v)));
    for (const double step : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (v <= step * magnitude)
            return step * magnitude;
    }
    return 10 * magnitude;
}

QString tooltipOf(const Data::Bar& bar)
{
    QString text = QStringLiteral("<b>%1</b> (case %2)<br>%3 ops/s, %4 per op")
                       .arg(bar.label.toHtmlEscaped())
                       .arg(bar.caseIndex + 1)
                       .arg(opsText(bar.opsPerSecond), qs(formatLatency(bar.usPerOp / 1e6)));
    if (bar.p99Seconds)
        text += QStringLiteral("<br>p99 of %1: %2 (whisker: %3 ops/s)")
                    .arg(bar.durableCall.toHtmlEscaped(), qs(formatLatency(*bar.p99Seconds)),
                         opsText(*bar.p99OpsPerSecond));
    text += QStringLiteral("<br>%1: %2").arg(Data::kindName(bar.kind), bar.why.toHtmlEscaped());
    return text;
}

} // namespace

SyncLabView::SyncLabView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_verdicts = new QLabel(this);
    m_verdicts->setObjectName(QStringLiteral("syncLabVerdicts"));
    m_verdicts->setWordWrap(true);
    m_verdicts->setTextFormat(Qt::RichText);
    m_verdicts->setContentsMargins(8, 6, 8, 2);
    m_verdicts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_verdicts);
    auto* row = new QHBoxLayout;
    row->setContentsMargins(8, 0, 8, 0);
    m_size = new QComboBox(this);
    m_size->setObjectName(QStringLiteral("syncLabOpSize"));
    m_size->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_size->setToolTip(tr("Ops of different sizes do not compare: pg_test_fsync's 8 KiB writes, or its "
                          "open_sync sizes, where each op writes 16 KiB in 1 to 16 writes."));
    row->addWidget(m_size);
    m_logScale = new QCheckBox(tr("Logarithmic scale"), this);
    m_logScale->setToolTip(tr("A write without a sync runs a hundred times faster than a synced one; a log "
                              "scale shows both."));
    row->addWidget(m_logScale);
    row->addStretch(1);
    layout->addLayout(row);
    m_chart = new QChart;
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    // Each method needs a readable row: with many, the chart grows and scrolls rather than squeezing them.
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_view);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(scroll, 1);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setContentsMargins(8, 0, 8, 4);
    m_note->setText(
        tr("Bars: ops per second (the median repetition), fastest on top. Whisker: the rate if every op "
           "took as long as the 99th percentile of the call that makes it durable (the sync after the "
           "write, or the write that returns durable); a long whisker is a slow tail. Hover over a bar for "
           "its figures."));
    layout->addWidget(m_note);
    connect(m_size, &QComboBox::currentIndexChanged, this, [this] {
        const auto& size = m_data.sizes[shownSize()];
        const QSignalBlocker block(m_logScale);
        m_logScale->setChecked(size.maxOps > size.minOps * 30);
        rebuild();
    });
    connect(m_logScale, &QCheckBox::toggled, this, &SyncLabView::rebuild);
    setDark(false);
}

std::size_t SyncLabView::shownSize() const
{
    const int index = m_size->currentIndex();
    return index < 0 ? 0 : static_cast<std::size_t>(index);
}

QString SyncLabView::verdictText() const
{
    return m_verdicts->text();
}

void SyncLabView::setResult(const RunResult& result, const Registry* registry)
{
    m_data = Data::from(result, registry);
    {
        const QSignalBlocker block(m_size);
        m_size->clear();
        for (const auto& size : m_data.sizes)
            m_size->addItem(Data::sizeName(size));
        m_size->setVisible(m_data.sizes.size() > 1);
    }
    {
        const QSignalBlocker block(m_logScale);
        m_logScale->setChecked(!m_data.empty() &&
                               m_data.sizes.front().maxOps > m_data.sizes.front().minOps * 30);
    }
    QStringList lines;
    if (!m_data.fastestText.isEmpty())
        lines << m_data.fastestText.toHtmlEscaped();
    if (!m_data.etcdText.isEmpty()) {
        const QString colour = m_data.etcdOk == false ? QStringLiteral("#b02a1e") : QString();
        lines << (colour.isEmpty() ? m_data.etcdText.toHtmlEscaped()
                                   : QStringLiteral("<span style=\"color:%1\">%2</span>")
                                         .arg(colour, m_data.etcdText.toHtmlEscaped()));
    }
    m_verdicts->setText(lines.join(QStringLiteral("<br>")));
    m_verdicts->setVisible(!lines.isEmpty());
    rebuild();
}

void SyncLabView::setDark(bool dark)
{
    m_dark = dark;
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundRoundness(0);
    rebuild();
}

void SyncLabView::rebuild()
{
    m_chart->removeAllSeries();
    for (auto* axis : m_chart->axes()) {
        m_chart->removeAxis(axis);
        delete axis;
    }
    if (m_data.empty()) {
        m_chart->setTitle(tr("This run compares no ways of making writes durable"));
        return;
    }
    const Data::OpSize& size = m_data.sizes[shownSize()];
    const bool log = m_logScale->isChecked();
    m_chart->setTitle(
        tr("Ops per second, %1 per op, with the p99 whisker").arg(qs(formatBytesCompact(size.bytes))));
    // Fastest on top: a horizontal chart's first category is at the bottom.
    const std::size_t n = size.bars.size();
    QStringList categories;
    for (std::size_t k = n; k-- > 0;) {
        const Data::Bar& bar = size.bars[k];
        QString label = bar.label;
        if (bar.p99Seconds)
            label += QStringLiteral("   p99 %1").arg(qs(formatLatency(*bar.p99Seconds)));
        if (bar.fastest)
            label += tr("   fastest durable");
        // Two cases of one method (other threads, say) would share a label; a category must be unique.
        if (categories.contains(label))
            label += QStringLiteral("   case %1").arg(bar.caseIndex + 1);
        categories << label;
    }
    const double floor = log ? size.minOps / 10 : 0.0;
    auto* y = new QBarCategoryAxis;
    y->append(categories);
    y->setTruncateLabels(false); // a method's name is the point of its bar
    m_view->setMinimumHeight(kRowHeight * static_cast<int>(n) + kChartFrame);
    m_chart->addAxis(y, Qt::AlignLeft);
    QAbstractAxis* x = nullptr;
    if (log) {
        auto* axis = new QLogValueAxis;
        axis->setBase(10);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setRange(std::pow(10.0, std::floor(std::log10(size.minOps / 1.5))),
                       niceCeiling(size.maxOps * 1.1));
        axis->setTitleText(tr("ops/s (log scale)"));
        x = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setRange(0, niceCeiling(size.maxOps * 1.05));
        axis->setLabelFormat(QStringLiteral("%.0f"));
        axis->setTitleText(tr("ops/s"));
        x = axis;
    }
    m_chart->addAxis(x, Qt::AlignBottom);
    // One series per kind, overlaid at the same places: each bar takes its kind's colour, the others of the
    // series sit at the floor (0, or below a log axis' start), unseen.
    const std::array kinds{Data::Kind::Durable, Data::Kind::Distrusted, Data::Kind::NotDurable};
    for (const Data::Kind kind : kinds) {
        const bool any = std::any_of(size.bars.begin(), size.bars.end(),
                                     [kind](const Data::Bar& b) { return b.kind == kind; });
        if (!any)
            continue;
        auto* set = new QBarSet(Data::kindName(kind));
        set->setColor(kindColour(kind, false));
        set->setBorderColor(kindColour(kind, false));
        set->setSelectedColor(kindColour(kind, true));
        std::vector<std::size_t> shown; // category index -> bar index
        for (std::size_t k = n; k-- > 0;) {
            const Data::Bar& bar = size.bars[k];
            *set << (bar.kind == kind ? bar.opsPerSecond : floor);
            shown.push_back(k);
            if (bar.kind == kind && bar.fastest)
                set->selectBar(static_cast<int>(n - 1 - k));
        }
        auto* series = new QHorizontalBarSeries;
        series->setBarWidth(0.7);
        series->append(set);
        m_chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        connect(set, &QBarSet::hovered, this, [this, shown, sizeIndex = shownSize()](bool on, int index) {
            if (!on || index < 0 || static_cast<std::size_t>(index) >= shown.size()) {
                QToolTip::hideText();
                return;
            }
            QToolTip::showText(
                QCursor::pos(),
                tooltipOf(m_data.sizes[sizeIndex].bars[shown[static_cast<std::size_t>(index)]]), m_view);
        });
    }
    // The whiskers: from the bar's end to the p99 rate, with a cap there.
    const QColor ink = m_dark ? QColor(0xee, 0xee, 0xee) : QColor(0x22, 0x22, 0x22);
    bool named = false;
    for (std::size_t k = 0; k < n; ++k) {
        const Data::Bar& bar = size.bars[k];
        if (!bar.p99OpsPerSecond)
            continue;
        const double at = static_cast<double>(n - 1 - k);
        auto* whisker = new QLineSeries;
        whisker->setName(tr("p99 whisker"));
        whisker->setPen(QPen(ink, 1.5));
        whisker->append(bar.opsPerSecond, at);
        whisker->append(*bar.p99OpsPerSecond, at);
        whisker->append(*bar.p99OpsPerSecond, at - 0.2);
        whisker->append(*bar.p99OpsPerSecond, at + 0.2);
        m_chart->addSeries(whisker);
        whisker->attachAxis(x);
        whisker->attachAxis(y);
        for (QLegendMarker* marker : m_chart->legend()->markers(whisker))
            marker->setVisible(!named);
        named = true;
    }
}

} // namespace iolab::gui
