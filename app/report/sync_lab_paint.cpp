// SPDX-License-Identifier: MIT
#include "app/report/sync_lab_paint.h"

#include <QFontMetricsF>
#include <QLocale>

#include <algorithm>

namespace iolab::report {

QString syncLabOpsText(double opsPerSecond)
{
    return QLocale().toString(opsPerSecond, 'f', opsPerSecond >= 100 ? 0 : 1);
}

SyncLabChartGeometry::SyncLabChartGeometry(const QRectF& area, const SyncLabChartData::OpSize& size,
                                           double rowHeight, double labelWidth, bool logScale)
    : m_area(area), m_rowHeight(rowHeight), m_labelWidth(labelWidth),
      // A linear axis: fitted as if every value were the largest.
      m_scale(BarScale::fit(logScale ? size.minOps : size.maxOps, size.maxOps, 1.15))
{
    // Room on the right for the largest bar's value.
    const double valueWidth = 4.5 * rowHeight;
    m_plot =
        QRectF(area.left() + labelWidth, area.top(), std::max(1.0, area.width() - labelWidth - valueWidth),
               rowHeight * static_cast<double>(size.bars.size()));
}

bool SyncLabChartGeometry::spreadsWide(const SyncLabChartData::OpSize& size)
{
    return size.minOps > 0 && size.maxOps / size.minOps > BarScale::kLogSpread;
}

double SyncLabChartGeometry::xFor(double opsPerSecond) const
{
    return m_plot.left() + m_plot.width() * m_scale.position(opsPerSecond);
}

QRectF SyncLabChartGeometry::rowRect(std::size_t row) const
{
    return {m_area.left(), m_plot.top() + m_rowHeight * static_cast<double>(row),
            m_plot.right() - m_area.left(), m_rowHeight};
}

QRectF SyncLabChartGeometry::barRect(std::size_t row, double opsPerSecond) const
{
    const QRectF r = rowRect(row);
    // However small, a measured bar shows.
    const double end = std::max(xFor(opsPerSecond), m_plot.left() + 1);
    const double inset = m_rowHeight * 0.18;
    return {m_plot.left(), r.top() + inset, end - m_plot.left(), m_rowHeight - 2 * inset};
}

std::optional<std::size_t> SyncLabChartGeometry::rowAt(const QPointF& point, std::size_t rows) const
{
    for (std::size_t i = 0; i < rows; ++i) {
        if (rowRect(i).adjusted(0, 0, m_rowHeight * 4.5, 0).contains(point))
            return i;
    }
    return std::nullopt;
}

QColor syncLabColour(SyncLabChartData::Kind kind, bool fastest)
{
    switch (kind) {
    case SyncLabChartData::Kind::Durable:
        return fastest ? QColor(0x1b, 0x5e, 0x20) : QColor(0x43, 0xa0, 0x47);
    case SyncLabChartData::Kind::Distrusted:
        return {0xef, 0x6c, 0x00};
    case SyncLabChartData::Kind::NotDurable:
        return {0x9e, 0x9e, 0x9e};
    }
    return Qt::gray;
}

void paintSyncLabChart(QPainter& p, const SyncLabChartGeometry& g, const SyncLabChartData::OpSize& size,
                       const SyncLabPaintStyle& style)
{
    const QRectF plot = g.plot();
    const double row = g.rowHeight();
    p.save();
    p.setFont(style.tickFont);
    for (const double t : g.scale().ticks) {
        const double x = g.xFor(t);
        p.setPen(QPen(style.rule, 0.5));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        p.setPen(style.muted);
        p.drawText(QRectF(x - 3 * row, plot.bottom() + 1, 6 * row, row), Qt::AlignCenter,
                   BarScale::tickLabel(t));
    }
    p.drawText(QRectF(plot.left(), plot.bottom() + row, plot.width(), row), Qt::AlignCenter,
               g.scale().axisTitle(QStringLiteral("ops/s")));
    for (std::size_t i = 0; i < size.bars.size(); ++i) {
        const auto& bar = size.bars[i];
        const QRectF r = g.rowRect(i);
        QFont labelFont = style.labelFont;
        labelFont.setBold(bar.fastest);
        p.setFont(labelFont);
        p.setPen(style.text);
        const QFontMetricsF metrics(labelFont, p.device());
        p.drawText(QRectF(r.left(), r.top(), g.labelWidth() - row / 2, row),
                   Qt::AlignRight | Qt::AlignVCenter,
                   metrics.elidedText(bar.label, Qt::ElideMiddle, g.labelWidth() - row / 2));
        const QRectF b = g.barRect(i, bar.opsPerSecond);
        p.fillRect(b, syncLabColour(bar.kind, bar.fastest));
        double right = b.right();
        if (bar.p99OpsPerSecond) {
            const double w = g.xFor(*bar.p99OpsPerSecond);
            const double mid = b.center().y();
            p.setPen(QPen(style.text, std::max(0.8, row / 14)));
            p.drawLine(QPointF(b.right(), mid), QPointF(w, mid));
            p.drawLine(QPointF(w, mid - b.height() / 2), QPointF(w, mid + b.height() / 2));
            right = std::max(right, w);
        }
        p.setPen(style.text);
        p.setFont(style.tickFont);
        p.drawText(QRectF(right + row / 4, r.top(), 4.5 * row, row), Qt::AlignLeft | Qt::AlignVCenter,
                   syncLabOpsText(bar.opsPerSecond));
    }
    p.setPen(QPen(style.text, 0.6));
    p.drawLine(plot.topLeft(), plot.bottomLeft());
    p.restore();
}

} // namespace iolab::report
