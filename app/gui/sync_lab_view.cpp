// SPDX-License-Identifier: MIT
#include "app/gui/sync_lab_view.h"

#include "app/gui/widget_helpers.h"
#include "core/base/units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QToolTip>
#include <QVBoxLayout>

namespace iolab::gui {

namespace {

using Data = report::SyncLabChartData;

QString tooltipOf(const Data::Bar& bar)
{
    QString text = QStringLiteral("<b>%1</b> (case %2)<br>%3 ops/s, %4 per op")
                       .arg(bar.label.toHtmlEscaped())
                       .arg(bar.caseIndex + 1)
                       .arg(report::syncLabOpsText(bar.opsPerSecond), qs(formatLatency(bar.usPerOp / 1e6)));
    if (bar.p99Seconds)
        text += QStringLiteral("<br>p99 of %1: %2")
                    .arg(bar.durableCall.toHtmlEscaped(), qs(formatLatency(*bar.p99Seconds)));
    if (bar.p99OpsPerSecond)
        text += QStringLiteral(" (whisker: %1 ops/s)").arg(report::syncLabOpsText(*bar.p99OpsPerSecond));
    text += QStringLiteral("<br>%1: %2").arg(Data::kindName(bar.kind), bar.why.toHtmlEscaped());
    return text;
}

} // namespace

SyncLabChart::SyncLabChart(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
}

void SyncLabChart::setSize(const Data::OpSize* size, bool logScale, bool dark)
{
    m_size = size;
    m_log = logScale;
    m_dark = dark;
    const std::size_t rows = size != nullptr ? size->bars.size() : 0;
    setMinimumHeight(static_cast<int>(report::SyncLabChartGeometry::heightFor(rows, kRowPixels)) + 8);
    update();
}

report::SyncLabChartGeometry SyncLabChart::geometryNow() const
{
    static const Data::OpSize none;
    const Data::OpSize& size = m_size != nullptr ? *m_size : none;
    const QRectF area = QRectF(rect()).adjusted(8, 4, -8, -4);
    return {area, size, kRowPixels, std::min(area.width() * 0.42, 420.0), m_log};
}

void SyncLabChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (m_size == nullptr || m_size->bars.empty())
        return;
    p.setRenderHint(QPainter::Antialiasing);
    report::SyncLabPaintStyle style;
    style.labelFont = font();
    style.tickFont = font();
    style.tickFont.setPointSizeF(font().pointSizeF() * 0.9);
    style.text = palette().color(QPalette::Text);
    style.muted = palette().color(QPalette::PlaceholderText);
    style.rule = m_dark ? QColor(0x55, 0x55, 0x55) : QColor(0xdd, 0xdd, 0xdd);
    report::paintSyncLabChart(p, geometryNow(), *m_size, style);
}

bool SyncLabChart::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_size != nullptr) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const auto row = geometryNow().rowAt(help->pos(), m_size->bars.size()))
            QToolTip::showText(help->globalPos(), tooltipOf(m_size->bars[*row]), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

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
    m_logScale->setToolTip(
        tr("A write without a sync can run a hundred times faster than a synced one; a log "
           "scale shows both."));
    row->addWidget(m_logScale);
    m_title = new QLabel(this);
    row->addWidget(m_title, 1, Qt::AlignCenter);
    layout->addLayout(row);
    m_chart = new SyncLabChart(this);
    // Each method keeps a readable row: with many, the chart scrolls rather than squeezing them.
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_chart);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(scroll, 1);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setContentsMargins(8, 0, 8, 4);
    m_note->setText(tr(
        "Bars: ops per second (the median repetition), fastest on top; green where each write is durable "
        "(the fastest darker), orange where its flushes returned too fast to be trusted, grey where a write "
        "is not durable when it returns. Whisker (durable methods): the rate if every op's durable call took "
        "its 99th percentile (a sync also pays its write's median); the further left of the bar's end, the "
        "slower the tail. Hover over a row for its figures."));
    layout->addWidget(m_note);
    connect(m_size, &QComboBox::currentIndexChanged, this, [this] {
        const auto& size = m_data.sizes[shownSize()];
        const QSignalBlocker block(m_logScale);
        m_logScale->setChecked(report::SyncLabChartGeometry::spreadsWide(size));
        showSize();
    });
    connect(m_logScale, &QCheckBox::toggled, this, &SyncLabView::showSize);
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
    m_chart->setSize(nullptr, false, m_dark); // before the data it points into changes
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
                               report::SyncLabChartGeometry::spreadsWide(m_data.sizes.front()));
    }
    QStringList lines;
    if (!m_data.fastestText.isEmpty())
        lines << m_data.fastestText.toHtmlEscaped();
    if (!m_data.etcdText.isEmpty())
        lines << (m_data.etcdOk == false ? QStringLiteral("<span style=\"color:#b02a1e\">%1</span>")
                                               .arg(m_data.etcdText.toHtmlEscaped())
                                         : m_data.etcdText.toHtmlEscaped());
    if (!m_data.stoppedText.isEmpty())
        lines << QStringLiteral("<span style=\"color:#b02a1e\">%1</span>")
                     .arg(m_data.stoppedText.toHtmlEscaped());
    m_verdicts->setText(lines.join(QStringLiteral("<br>")));
    m_verdicts->setVisible(!lines.isEmpty());
    showSize();
}

void SyncLabView::setDark(bool dark)
{
    m_dark = dark;
    showSize();
}

void SyncLabView::showSize()
{
    if (m_data.empty()) {
        m_title->setText(tr("This run compares no ways of making writes durable"));
        m_logScale->setEnabled(false);
        m_chart->setSize(nullptr, false, m_dark);
        return;
    }
    const Data::OpSize& size = m_data.sizes[shownSize()];
    const bool wide = report::SyncLabChartGeometry::spreadsWide(size);
    m_logScale->setEnabled(wide);
    m_title->setText(
        tr("<b>Ops per second, %1 per op, with the p99 whisker</b>").arg(qs(formatBytesCompact(size.bytes))));
    m_chart->setSize(&size, wide && m_logScale->isChecked(), m_dark);
}

} // namespace iolab::gui
