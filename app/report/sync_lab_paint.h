// SPDX-License-Identifier: MIT
#pragma once

#include "app/report/chart_layout.h"
#include "app/report/sync_lab_chart_data.h"

#include <QColor>
#include <QFont>
#include <QPainter>
#include <QRectF>

#include <cstddef>
#include <optional>

namespace iolab::report {

// How the sync lab's bars look on one surface: the app's tab paints them in pixels, the PDF in points.
struct SyncLabPaintStyle
{
    QFont labelFont;
    QFont tickFont;
    QColor text;
    QColor muted;
    QColor rule;
};

// Where each part of one op size's chart goes inside an area: the method names on the left, a row per
// method (fastest on top), the bars and the ops/s axis to the right of the names.
class SyncLabChartGeometry
{
public:
    // `logScale`: a log axis where the values spread over more than BarScale::kLogSpread, else linear.
    SyncLabChartGeometry(const QRectF& area, const SyncLabChartData::OpSize& size, double rowHeight,
                         double labelWidth, bool logScale);

    // The height the chart needs for `rows` methods: their rows and the axis' labels under them.
    static double heightFor(std::size_t rows, double rowHeight)
    {
        return (static_cast<double>(rows) + 2.5) * rowHeight;
    }
    // Whether a log axis is worth offering: the bars and whiskers spread over more than kLogSpread.
    static bool spreadsWide(const SyncLabChartData::OpSize& size);

    const BarScale& scale() const { return m_scale; }
    const QRectF& plot() const { return m_plot; }
    double rowHeight() const { return m_rowHeight; }
    double labelWidth() const { return m_labelWidth; }
    double xFor(double opsPerSecond) const;
    QRectF rowRect(std::size_t row) const; // the whole row, name included
    QRectF barRect(std::size_t row, double opsPerSecond) const;
    std::optional<std::size_t> rowAt(const QPointF& point, std::size_t rows) const;

private:
    QRectF m_area;
    QRectF m_plot;
    double m_rowHeight;
    double m_labelWidth;
    BarScale m_scale;
};

// The kind's colour, the fastest durable method's darker: green where each write is durable, orange where its
// flushes returned too fast to be trusted, grey where it is not durable at each write.
QColor syncLabColour(SyncLabChartData::Kind kind, bool fastest);

// An ops/s figure as the chart and the tables print it: "4,964", "12.5".
QString syncLabOpsText(double opsPerSecond);

// Paints one op size's methods as horizontal bars of ops/s, each with its p99 whisker and its value.
void paintSyncLabChart(QPainter& p, const SyncLabChartGeometry& g, const SyncLabChartData::OpSize& size,
                       const SyncLabPaintStyle& style);

} // namespace iolab::report
