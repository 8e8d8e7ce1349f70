// SPDX-License-Identifier: MIT
#include "app/gui/heatmap.h"
#include "app/gui/widget_helpers.h"

#include "core/base/units.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace iolab::gui {

using report::heatColour;

namespace {

constexpr int kCellWidth = 92;
constexpr int kCellHeight = 34;
constexpr int kHeaderHeight = 24;
constexpr int kScaleHeight = 36;
constexpr int kScaleMinWidth = 300; // "94.4 MB/s   median, log scale   5.60 GB/s"

} // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
}

void HeatmapWidget::setData(HeatmapData data)
{
    m_data = std::move(data);
    updateGeometry();
    update();
}

int HeatmapWidget::labelWidth() const
{
    int width = 60;
    for (const auto& s : m_data.strategies)
        width = std::max(width, fontMetrics().horizontalAdvance(s) + 16);
    return width;
}

QSize HeatmapWidget::sizeHint() const
{
    return {
        labelWidth() +
            std::max(kScaleMinWidth, kCellWidth * std::max<int>(1, static_cast<int>(m_data.columns.size()))) +
            8,
        kHeaderHeight + kCellHeight * std::max<int>(1, static_cast<int>(m_data.strategies.size())) +
            kScaleHeight + 8};
}

QSize HeatmapWidget::minimumSizeHint() const
{
    return {200, 120};
}

QRect HeatmapWidget::cellRect(int row, int column) const
{
    return {labelWidth() + column * kCellWidth, kHeaderHeight + row * kCellHeight, kCellWidth - 2,
            kCellHeight - 2};
}

void HeatmapWidget::paintEvent(QPaintEvent* /*event*/)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    if (m_data.strategies.isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No measured case yet."));
        return;
    }
    p.setPen(pal.color(QPalette::WindowText));
    for (std::size_t c = 0; c < m_data.columns.size(); ++c) {
        const QRect r = cellRect(0, static_cast<int>(c)).translated(0, -kHeaderHeight);
        p.drawText(QRect(r.left(), 0, r.width(), kHeaderHeight), Qt::AlignCenter, m_data.columnLabel(c));
    }
    for (int row = 0; row < m_data.strategies.size(); ++row) {
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(4, kHeaderHeight + row * kCellHeight, labelWidth() - 8, kCellHeight),
                   Qt::AlignVCenter | Qt::AlignRight, m_data.strategies[row]);
        for (std::size_t c = 0; c < m_data.columns.size(); ++c) {
            const auto& cell = m_data.cells[static_cast<std::size_t>(row)][c];
            const QRect r = cellRect(row, static_cast<int>(c));
            if (!cell.bestMBps) {
                p.setPen(Qt::NoPen);
                p.setBrush(pal.color(QPalette::AlternateBase));
                p.drawRoundedRect(r, 3, 3);
                p.setPen(cell.failed > 0 ? QColor(0xc0, 0x39, 0x2b) : pal.color(QPalette::PlaceholderText));
                p.drawText(r, Qt::AlignCenter,
                           cell.failed > 0  ? tr("failed")
                           : cell.cases > 0 ? tr("n/a")
                                            : QString());
                continue;
            }
            const QColor fill = heatColour(*cell.bestMBps, m_data.minMBps, m_data.maxMBps);
            p.setPen(cell.failed > 0 ? QPen(QColor(0xc0, 0x39, 0x2b), 2) : QPen(Qt::NoPen));
            p.setBrush(fill);
            p.drawRoundedRect(r, 3, 3);
            p.setPen(report::heatTextColour(fill));
            p.drawText(r, Qt::AlignCenter, qs(formatRate(*cell.bestMBps * kBytesPerMB)));
        }
    }
    // The scale: a gradient from the smallest to the largest rate.
    const int top = kHeaderHeight + static_cast<int>(m_data.strategies.size()) * kCellHeight + 8;
    const int left = labelWidth();
    // At least wide enough for its three labels, however few columns there are.
    const int width = std::max(kScaleMinWidth, static_cast<int>(m_data.columns.size()) * kCellWidth - 2);
    for (int x = 0; x < width; ++x) {
        const double t = static_cast<double>(x) / (width - 1);
        const double v = m_data.minMBps > 0 && m_data.maxMBps > m_data.minMBps
                             ? std::exp(std::log(m_data.minMBps) +
                                        t * (std::log(m_data.maxMBps) - std::log(m_data.minMBps)))
                             : m_data.maxMBps;
        p.setPen(heatColour(v, m_data.minMBps, m_data.maxMBps));
        p.drawLine(left + x, top, left + x, top + 10);
    }
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(left, top + 12, width, 20), Qt::AlignLeft | Qt::AlignVCenter,
               qs(formatRate(m_data.minMBps * kBytesPerMB)));
    p.drawText(QRect(left, top + 12, width, 20), Qt::AlignHCenter | Qt::AlignVCenter,
               tr("median, log scale"));
    p.drawText(QRect(left, top + 12, width, 20), Qt::AlignRight | Qt::AlignVCenter,
               qs(formatRate(m_data.maxMBps * kBytesPerMB)));
}

bool HeatmapWidget::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        for (int row = 0; row < m_data.strategies.size(); ++row) {
            for (std::size_t c = 0; c < m_data.columns.size(); ++c) {
                if (!cellRect(row, static_cast<int>(c)).contains(help->pos()))
                    continue;
                const auto& cell = m_data.cells[static_cast<std::size_t>(row)][c];
                const QString where = m_data.axis.words(m_data.columns[c]); // "4 KiB chunk size"
                QString text = tr("%1, %2: %3 case(s)").arg(m_data.strategies[row], where).arg(cell.cases);
                if (cell.bestMBps)
                    text += tr("\nbest: %1\n%2")
                                .arg(qs(formatRate(*cell.bestMBps * kBytesPerMB)), cell.bestLabel);
                if (cell.failed > 0)
                    text += tr("\n%1 failed").arg(cell.failed);
                QToolTip::showText(help->globalPos(), text, this);
                return true;
            }
        }
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    return QWidget::event(event);
}

} // namespace iolab::gui
