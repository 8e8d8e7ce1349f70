// SPDX-License-Identifier: MIT
#include "app/gui/heatmap.h"
#include "app/gui/widget_helpers.h"

#include "core/units.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace iolab::gui {

namespace {

constexpr int kCellWidth = 92;
constexpr int kCellHeight = 34;
constexpr int kHeaderHeight = 24;
constexpr int kScaleHeight = 36;

} // namespace

HeatmapData HeatmapData::from(const std::vector<CaseResult>& cases)
{
    HeatmapData d;
    for (const auto& c : cases) {
        const QString s = qs(c.testCase.strategy);
        if (!d.strategies.contains(s))
            d.strategies << s;
        if (std::find(d.chunks.begin(), d.chunks.end(), c.testCase.chunkBytes) == d.chunks.end())
            d.chunks.push_back(c.testCase.chunkBytes);
    }
    std::sort(d.chunks.begin(), d.chunks.end());
    d.cells.assign(static_cast<std::size_t>(d.strategies.size()), std::vector<Cell>(d.chunks.size()));
    bool any = false;
    for (const auto& c : cases) {
        const auto row = static_cast<std::size_t>(d.strategies.indexOf(qs(c.testCase.strategy)));
        const auto column = static_cast<std::size_t>(
            std::find(d.chunks.begin(), d.chunks.end(), c.testCase.chunkBytes) - d.chunks.begin());
        Cell& cell = d.cells[row][column];
        ++cell.cases;
        const bool ok = c.status == Status::Ok && c.apparentMBps.count > 0;
        if (!ok) {
            if (c.status == Status::Failed)
                ++cell.failed;
            continue;
        }
        const double v = c.apparentMBps.median;
        if (!cell.bestMBps || v > *cell.bestMBps) {
            cell.bestMBps = v;
            cell.bestLabel = qs(c.testCase.label());
        }
        d.minMBps = any ? std::min(d.minMBps, v) : v;
        d.maxMBps = any ? std::max(d.maxMBps, v) : v;
        any = true;
    }
    return d;
}

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
    return {labelWidth() + kCellWidth * std::max<int>(1, static_cast<int>(m_data.chunks.size())) + 8,
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

QColor HeatmapWidget::colourFor(double mbps, double minMBps, double maxMBps)
{
    // From a dark blue through teal and green to yellow: monotonic in lightness, readable for the
    // colour-blind.
    static const QColor stops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b),
                                   QColor(0x21, 0x90, 0x8d), QColor(0x5d, 0xc8, 0x63),
                                   QColor(0xfd, 0xe7, 0x25)};
    double t = 1;
    if (maxMBps > minMBps && minMBps > 0 && mbps > 0)
        t = std::clamp((std::log(mbps) - std::log(minMBps)) / (std::log(maxMBps) - std::log(minMBps)), 0.0,
                       1.0);
    const double scaled = t * 4;
    const int i = std::min(3, static_cast<int>(scaled));
    const double f = scaled - i;
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
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
    for (std::size_t c = 0; c < m_data.chunks.size(); ++c) {
        const QRect r = cellRect(0, static_cast<int>(c)).translated(0, -kHeaderHeight);
        p.drawText(QRect(r.left(), 0, r.width(), kHeaderHeight), Qt::AlignCenter,
                   qs(formatBytesCompact(m_data.chunks[c])));
    }
    for (int row = 0; row < m_data.strategies.size(); ++row) {
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(4, kHeaderHeight + row * kCellHeight, labelWidth() - 8, kCellHeight),
                   Qt::AlignVCenter | Qt::AlignRight, m_data.strategies[row]);
        for (std::size_t c = 0; c < m_data.chunks.size(); ++c) {
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
            const QColor fill = colourFor(*cell.bestMBps, m_data.minMBps, m_data.maxMBps);
            p.setPen(cell.failed > 0 ? QPen(QColor(0xc0, 0x39, 0x2b), 2) : QPen(Qt::NoPen));
            p.setBrush(fill);
            p.drawRoundedRect(r, 3, 3);
            p.setPen(fill.lightnessF() > 0.55 ? Qt::black : Qt::white);
            p.drawText(r, Qt::AlignCenter, qs(formatRate(*cell.bestMBps * kBytesPerMB)));
        }
    }
    // The scale: a gradient from the smallest to the largest rate.
    const int top = kHeaderHeight + static_cast<int>(m_data.strategies.size()) * kCellHeight + 8;
    const int left = labelWidth();
    const int width = std::max(120, static_cast<int>(m_data.chunks.size()) * kCellWidth - 2);
    for (int x = 0; x < width; ++x) {
        const double t = static_cast<double>(x) / (width - 1);
        const double v = m_data.minMBps > 0 && m_data.maxMBps > m_data.minMBps
                             ? std::exp(std::log(m_data.minMBps) +
                                        t * (std::log(m_data.maxMBps) - std::log(m_data.minMBps)))
                             : m_data.maxMBps;
        p.setPen(colourFor(v, m_data.minMBps, m_data.maxMBps));
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
            for (std::size_t c = 0; c < m_data.chunks.size(); ++c) {
                if (!cellRect(row, static_cast<int>(c)).contains(help->pos()))
                    continue;
                const auto& cell = m_data.cells[static_cast<std::size_t>(row)][c];
                QString text = tr("%1, %2 chunks: %3 case(s)")
                                   .arg(m_data.strategies[row], qs(formatBytes(m_data.chunks[c])))
                                   .arg(cell.cases);
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
