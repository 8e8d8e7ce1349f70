// SPDX-License-Identifier: MIT
#include "app/report/pdf_report.h"
#include "app/report/qt_text.h"

#include "app/report/bar_chart_data.h"
#include "app/report/chart_layout.h"
#include "app/report/heatmap_data.h"
#include "app/report/latency_chart_data.h"
#include "app/report/qd_sweep_data.h"
#include "app/report/report_title.h"
#include "app/report/sync_lab_chart_data.h"
#include "app/report/sync_lab_paint.h"
#include "app/report/table_layout.h"
#include "app/report/verdict_text.h"
#include "core/analysis/cdm_grid.h"
#include "core/analysis/finding_kinds.h"
#include "core/analysis/findings.h"
#include "core/analysis/memory_budget_table.h"
#include "core/analysis/significance.h"
#include "core/analysis/sustained.h"
#include "core/analysis/verdict.h"
#include "core/analysis/warnings.h"
#include "core/base/stats.h"
#include "core/base/units.h"
#include "core/engine/crash_probe.h"
#include "core/engine/exposure.h"
#include "core/engine/registry.h"
#include "core/engine/replay_script.h"
#include "core/formats/fio_job.h"
#include "core/formats/result_redact.h"
#include "core/model/axes.h"

#include <QBuffer>
#include <QDateTime>
#include <QFontMetricsF>
#include <QLocale>
#include <QPageSize>
#include <QPainter>
#include <QPainterPath>
#include <QPdfWriter>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <set>

namespace iolab::report {

namespace {

constexpr double kMargin = 42;       // points
constexpr double kFooterHeight = 20; // points
const QColor kText(0x22, 0x22, 0x22);
const QColor kMuted(0x6b, 0x6b, 0x6b);
const QColor kRule(0xcc, 0xcc, 0xcc);
const QColor kHeaderFill(0xee, 0xf1, 0xf5);
const QColor kBad(0xb0, 0x2a, 0x1e);

QString rate(double mbps)
{
    return qs(formatRate(mbps * kBytesPerMB));
}

QFont font(double points, bool bold = false)
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setStyleHint(QFont::SansSerif);
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
}

// Colours for bar sets, distinct in print and for the colour-blind (Okabe-Ito).
QColor seriesColour(std::size_t i);

// A bar or legend swatch of series `i`: its colour, hatched from the ninth series on so that no two of up to
// 24 series look alike.
void fillSeries(QPainter& p, const QRectF& r, std::size_t i)
{
    p.fillRect(r, seriesColour(i));
    constexpr std::size_t kColours = 8;
    if (i < kColours)
        return;
    p.fillRect(r, QBrush(Qt::white, (i / kColours) % 2 == 1 ? Qt::BDiagPattern : Qt::CrossPattern));
}

QColor seriesColour(std::size_t i)
{
    static const QColor colours[] = {QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00),
                                     QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                     QColor(0x56, 0xb4, 0xe9), QColor(0xd5, 0x5e, 0x00),
                                     QColor(0xf0, 0xe4, 0x42), QColor(0x44, 0x44, 0x44)};
    return colours[i % (sizeof(colours) / sizeof(colours[0]))];
}

constexpr double kTablePadding = 4; // points around a table cell's text

struct Column
{
    QString title;
    double width; // share of the table width
    Qt::Alignment align = Qt::AlignLeft;
};

// Lays out blocks top to bottom, starting a new page when one does not fit, and numbers the pages.
class Layout
{
public:
    Layout(QPdfWriter& writer, QPainter& painter, int totalPages, QString footer)
        : m_writer(writer), m_p(painter), m_total(totalPages), m_footer(std::move(footer))
    {
        const QRectF page = QRectF(QPointF(0, 0), m_writer.pageLayout().paintRect(QPageLayout::Point).size());
        m_content = page.adjusted(kMargin, kMargin, -kMargin, -kMargin - kFooterHeight);
        m_y = m_content.top();
        m_pageRect = page;
    }

    int pages() const { return m_page; }
    double width() const { return m_content.width(); }
    double left() const { return m_content.left(); }
    double y() const { return m_y; }
    double room() const { return m_content.bottom() - m_y; }

    void finish() { drawFooter(); }

    void newPage()
    {
        drawFooter();
        m_writer.newPage();
        ++m_page;
        m_y = m_content.top();
    }

    void ensure(double height)
    {
        if (height > room() && m_y > m_content.top())
            newPage();
    }

    void space(double points) { m_y = std::min(m_y + points, m_content.bottom()); }

    QRectF take(double height)
    {
        ensure(height);
        const QRectF r(m_content.left(), m_y, m_content.width(), height);
        m_y += height;
        return r;
    }

    double textHeight(const QString& text, const QFont& f, double width) const
    {
        m_p.setFont(f);
        return m_p.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, text).height();
    }

    // `keepWith`: the height of what follows, which the heading must not be parted from.
    void heading(const QString& text, int level = 1, double keepWith = 40)
    {
        const QFont f = font(level == 1 ? 14 : 11, true);
        const double h = textHeight(text, f, width()) + (level == 1 ? 8 : 4);
        ensure(h + 10 + keepWith);
        space(level == 1 ? 10 : 6);
        const QRectF r = take(h);
        m_p.setFont(f);
        m_p.setPen(kText);
        m_p.drawText(r, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text);
        if (level == 1) {
            m_p.setPen(QPen(kRule, 0.8));
            m_p.drawLine(QPointF(r.left(), r.bottom() - 2), QPointF(r.right(), r.bottom() - 2));
        }
    }

    void paragraph(const QString& text, double points = 9, const QColor& colour = kText, double indent = 0)
    {
        const QFont f = font(points);
        const double h = textHeight(text, f, width() - indent) + 3;
        const QRectF r = take(h).adjusted(indent, 0, 0, 0);
        m_p.setFont(f);
        m_p.setPen(colour);
        m_p.drawText(r, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text);
    }

    // Text as it is (a job file): a monospace font, lines kept, a long one wrapped.
    void code(const QString& text, double points = 7, double indent = 0)
    {
        QFont f(QStringLiteral("DejaVu Sans Mono"));
        f.setStyleHint(QFont::Monospace);
        f.setPointSizeF(points);
        const double h = textHeight(text, f, width() - indent - 8) + 6;
        const QRectF r = take(h).adjusted(indent, 0, 0, 0);
        m_p.fillRect(r, QColor(0xf4, 0xf4, 0xf4));
        m_p.setFont(f);
        m_p.setPen(kText);
        m_p.drawText(r.adjusted(4, 3, -4, -3), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text);
    }

    void keyValues(const std::vector<std::pair<QString, QString>>& rows)
    {
        const QFont keyFont = font(9, true);
        const QFont valueFont = font(9);
        const double keyWidth = 120;
        for (const auto& [key, value] : rows) {
            const double h = std::max(textHeight(key, keyFont, keyWidth),
                                      textHeight(value, valueFont, width() - keyWidth)) +
                             2;
            const QRectF r = take(h);
            m_p.setPen(kText);
            m_p.setFont(keyFont);
            m_p.drawText(QRectF(r.left(), r.top(), keyWidth, h), Qt::AlignLeft | Qt::AlignTop, key);
            m_p.setFont(valueFont);
            m_p.drawText(QRectF(r.left() + keyWidth, r.top(), r.width() - keyWidth, h),
                         Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, value);
        }
    }

    // A table's column widths and font size, fitted to `rows` and the columns' titles: as wide as their
    // content asks (table_layout.h), in a smaller font when even the widest words do not fit the page.
    struct FittedTable
    {
        TableColumns columns;
        double points = 7;
    };
    FittedTable fitTable(const std::vector<Column>& columns, const std::vector<QStringList>& rows,
                         double points = 7)
    {
        constexpr double kSmallestPoints = 5;
        QStringList header;
        std::vector<double> shares;
        for (const auto& c : columns) {
            header << c.title;
            shares.push_back(c.width);
        }
        FittedTable fitted;
        for (fitted.points = points;; fitted.points -= 0.25) {
            const QFontMetricsF headerMetrics(font(fitted.points, true), m_p.device());
            const QFontMetricsF cellMetrics(font(fitted.points), m_p.device());
            fitted.columns = fitTableColumns(
                header, rows, [&](const QString& t) { return headerMetrics.horizontalAdvance(t); },
                [&](const QString& t) { return cellMetrics.horizontalAdvance(t); }, width(), kTablePadding,
                shares);
            if (fitted.columns.fits || fitted.points <= kSmallestPoints)
                return fitted;
        }
    }

    // A table that breaks between rows and repeats its header on every page it spans. `rowColour` may tint a
    // row's text (failed cases in red). A cell wraps only between words, never inside a word or a number,
    // nor between a number and its unit.
    void table(const std::vector<Column>& columns, const std::vector<QStringList>& rows, double points = 7,
               const std::function<QColor(std::size_t)>& rowColour = {})
    {
        table(columns, rows, fitTable(columns, rows, points), rowColour);
    }

    // The same with widths fitted beforehand: tables that line up with each other share one fit.
    void table(const std::vector<Column>& columns, const std::vector<QStringList>& rows,
               const FittedTable& fitted, const std::function<QColor(std::size_t)>& rowColour = {})
    {
        constexpr double kPadding = kTablePadding;
        QStringList header;
        for (const auto& c : columns)
            header << c.title;
        const double points = fitted.points;
        const std::vector<double>& widths = fitted.columns.widths;
        const QFont headerFont = font(points, true);
        const QFont cellFont = font(points);
        const QFontMetricsF headerMetrics(headerFont, m_p.device());
        const QFontMetricsF cellMetrics(cellFont, m_p.device());
        // Each cell's lines, and the row's height from the cell with the most.
        auto lay = [&](const QStringList& cells, const QFontMetricsF& metrics) {
            std::vector<QStringList> lines;
            std::size_t most = 1;
            for (std::size_t i = 0; i < widths.size(); ++i) {
                const QString text =
                    i < static_cast<std::size_t>(cells.size()) ? cells[static_cast<qsizetype>(i)] : QString();
                lines.push_back(wrapCell(
                    text, [&](const QString& t) { return metrics.horizontalAdvance(t); },
                    widths[i] - kPadding));
                most = std::max<std::size_t>(most, static_cast<std::size_t>(lines.back().size()));
            }
            return std::pair{lines, static_cast<double>(most) * metrics.lineSpacing() + kPadding};
        };
        auto drawRow = [&](const std::vector<QStringList>& lines, const QFont& f,
                           const QFontMetricsF& metrics, double h, bool isHeader, const QColor& colour) {
            const QRectF r = take(h);
            if (isHeader) {
                m_p.fillRect(r, kHeaderFill);
            } else {
                m_p.setPen(QPen(kRule, 0.4));
                m_p.drawLine(QPointF(r.left(), r.bottom()), QPointF(r.right(), r.bottom()));
            }
            m_p.setFont(f);
            m_p.setPen(colour);
            double x = r.left();
            for (std::size_t i = 0; i < widths.size(); ++i) {
                const double w = widths[i];
                double y = r.top() + kPadding / 2;
                for (const QString& line : lines[i]) {
                    m_p.drawText(QRectF(x + kPadding / 2, y, w - kPadding, metrics.lineSpacing()),
                                 Qt::AlignTop | columns[i].align, line);
                    y += metrics.lineSpacing();
                }
                x += w;
            }
        };
        const auto [headerLines, headerHeight] = lay(header, headerMetrics);
        const double firstHeight = rows.empty() ? 0 : lay(rows.front(), cellMetrics).second;
        ensure(headerHeight + firstHeight);
        drawRow(headerLines, headerFont, headerMetrics, headerHeight, true, kText);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto [lines, h] = lay(rows[i], cellMetrics);
            if (h > room()) {
                newPage();
                drawRow(headerLines, headerFont, headerMetrics, headerHeight, true, kText);
            }
            drawRow(lines, cellFont, cellMetrics, h, false, rowColour ? rowColour(i) : kText);
        }
    }

    QPainter& painter() { return m_p; }

private:
    void drawFooter()
    {
        m_p.save();
        m_p.setFont(font(7));
        m_p.setPen(kMuted);
        const QRectF r(kMargin, m_pageRect.bottom() - kMargin - kFooterHeight + 8,
                       m_pageRect.width() - 2 * kMargin, kFooterHeight);
        m_p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, m_footer);
        m_p.drawText(r, Qt::AlignRight | Qt::AlignVCenter,
                     m_total > 0 ? QStringLiteral("page %1 of %2").arg(m_page).arg(m_total)
                                 : QStringLiteral("page %1").arg(m_page));
        m_p.restore();
    }

    QPdfWriter& m_writer;
    QPainter& m_p;
    int m_total;
    QString m_footer;
    QRectF m_pageRect;
    QRectF m_content;
    double m_y = 0;
    int m_page = 1;
};

// 12x, 2.1x, 0.35x: two significant digits where they matter.
QString speedupText(double ratio)
{
    return QStringLiteral("%1x").arg(ratio, 0, 'f', ratio >= 10 ? 0 : ratio >= 1 ? 1 : 2);
}

// Reads: how the cache was set before each repetition, and the file-set readers' files/s and latency.
void drawReadDetails(Layout& layout, const RunResult& result)
{
    const auto methods = cacheMethods(result);
    std::vector<QStringList> rows;
    for (const auto& c : result.cases) {
        const Case& k = c.testCase;
        if (k.fileSet.empty())
            continue;
        const bool ok = hasRate(c) && c.filesPerSecond.count > 0;
        rows.push_back({QString::number(c.index + 1), qs(k.strategy), qs(toString(k.fileSet)),
                        qs(formatBytes(k.totalBytes)), QString::number(k.threads),
                        ok ? QString::number(c.filesPerSecond.median, 'f', 0) : QString(),
                        ok ? qs(formatLatency(c.fileP50Seconds)) : QString(),
                        ok ? qs(formatLatency(c.fileP99Seconds)) : QString(),
                        ok ? QString::number(c.apparentMBps.median, 'f', 1) : QString()});
    }
    if (methods.empty())
        return;
    layout.space(6);
    for (const auto& m : methods)
        layout.paragraph(QStringLiteral("Reads, %1.").arg(qs(m)), 7.5, kMuted);
    if (rows.empty())
        return;
    layout.space(4);
    layout.table({{QStringLiteral("#"), 2.4, Qt::AlignRight},
                  {QStringLiteral("File-set reader"), 9.0},
                  {QStringLiteral("File set"), 12.0},
                  {QStringLiteral("Bytes"), 6.0, Qt::AlignRight},
                  {QStringLiteral("Threads"), 4.0, Qt::AlignRight},
                  {QStringLiteral("Files/s"), 6.0, Qt::AlignRight},
                  {QStringLiteral("p50 per file"), 6.0, Qt::AlignRight},
                  {QStringLiteral("p99 per file"), 6.0, Qt::AlignRight},
                  {QStringLiteral("Median MB/s"), 6.0, Qt::AlignRight}},
                 rows, 6.8, [](std::size_t) { return kText; });
}

void drawHeatmap(Layout& layout, const HeatmapData& d)
{
    if (d.strategies.isEmpty())
        return;
    QPainter& p = layout.painter();
    // The label column fits the longest strategy name, up to a third of the page; a longer one wraps.
    const QFont labelFont = font(7);
    const QFontMetricsF labelMetrics(labelFont, p.device());
    const auto measure = [&](const QString& text) {
        return labelMetrics.horizontalAdvance(text);
    };
    double widest = 0;
    for (const QString& s : d.strategies)
        widest = std::max(widest, measure(s));
    const double labelWidth = std::clamp(widest + 8, 90.0, layout.width() / 3);
    const double cellWidth =
        std::min(70.0, (layout.width() - labelWidth) / static_cast<double>(d.columns.size()));
    const double cellHeight = 20;
    const ColourRange range = ColourRange::fit(d.minMBps, d.maxMBps);
    const double height = 16 + cellHeight * static_cast<double>(d.strategies.size()) + 34;
    const QRectF area = layout.take(height);
    p.setFont(font(7));
    p.setPen(kText);
    for (std::size_t c = 0; c < d.columns.size(); ++c)
        p.drawText(
            QRectF(area.left() + labelWidth + static_cast<double>(c) * cellWidth, area.top(), cellWidth, 14),
            Qt::AlignCenter, d.columnLabel(c));
    for (int r = 0; r < d.strategies.size(); ++r) {
        const double top = area.top() + 16 + r * cellHeight;
        p.setPen(kText);
        p.setFont(font(7));
        p.drawText(QRectF(area.left(), top, labelWidth - 6, cellHeight), Qt::AlignRight | Qt::AlignVCenter,
                   wrapText(d.strategies[r], measure, labelWidth - 6).join(QLatin1Char('\n')));
        for (std::size_t c = 0; c < d.columns.size(); ++c) {
            const auto& cell = d.cells[static_cast<std::size_t>(r)][c];
            const QRectF box(area.left() + labelWidth + static_cast<double>(c) * cellWidth + 1, top + 1,
                             cellWidth - 2, cellHeight - 2);
            if (!cell.bestMBps) {
                p.fillRect(box, QColor(0xf2, 0xf2, 0xf2));
                p.setPen(cell.failed > 0 ? kBad : kMuted);
                p.drawText(box, Qt::AlignCenter, cell.failed > 0 ? QStringLiteral("failed") : QString());
                continue;
            }
            const QColor fill = heatColour(*cell.bestMBps, range.low, range.high);
            p.fillRect(box, fill);
            p.setPen(heatTextColour(fill));
            p.drawText(box, Qt::AlignCenter, rate(*cell.bestMBps));
        }
    }
    if (!(range.high > 0))
        return; // nothing measured: no scale to show
    const double scaleTop = area.top() + 16 + cellHeight * static_cast<double>(d.strategies.size()) + 6;
    // The colour scale is at least wide enough for its three labels, however few columns there are.
    const double scaleWidth = std::max(cellWidth * static_cast<double>(d.columns.size()),
                                       std::min(280.0, area.width() - labelWidth));
    const int steps = 60;
    for (int i = 0; i < steps; ++i) {
        const double t = static_cast<double>(i) / (steps - 1);
        const double v = std::exp(std::log(range.low) + t * (std::log(range.high) - std::log(range.low)));
        p.fillRect(
            QRectF(area.left() + labelWidth + scaleWidth * i / steps, scaleTop, scaleWidth / steps + 0.5, 6),
            heatColour(v, range.low, range.high));
    }
    p.setPen(kMuted);
    p.setFont(font(6.5));
    const QRectF labels(area.left() + labelWidth, scaleTop + 7, scaleWidth, 12);
    p.drawText(
        labels, Qt::AlignLeft | Qt::AlignVCenter,
        (range.clippedBelow ? QStringLiteral("%1 or less") : QStringLiteral("%1")).arg(rate(range.low)));
    p.drawText(labels, Qt::AlignHCenter | Qt::AlignVCenter,
               QStringLiteral("best %1 per cell, log scale").arg(d.rateName));
    p.drawText(labels, Qt::AlignRight | Qt::AlignVCenter, rate(range.high));
}

// The rate a chart or table ranks by: the median of `rateOf(case)`.
using RateOf = std::function<const Summary&(const CaseResult&)>;

// Bars in groups by an axis (by chunk size), each labelled with its speed-up over the baseline.
void drawBars(Layout& layout, const BarChartData& d, const QString& quantity)
{
    if (d.empty())
        return;
    QPainter& p = layout.painter();
    const QFont legendFont = font(7);
    const QFontMetricsF legendMetrics(legendFont, p.device());
    const double lineHeight = 10;
    const LegendLayout legend = LegendLayout::fit(
        d.variants, [&](const QString& text) { return legendMetrics.horizontalAdvance(text); },
        layout.width(), lineHeight);
    const double plotHeight = 160;
    const QRectF area = layout.take(plotHeight + 30 + legend.height);
    const QRectF plot(area.left() + 46, area.top() + 8, area.width() - 56, plotHeight);
    const BarScale scale = BarScale::fit(d.minMBps, d.maxMBps, 1.3);
    auto yFor = [&](double v) {
        return plot.bottom() - plot.height() * scale.position(v);
    };
    p.setFont(font(6.5));
    for (const double t : scale.ticks) {
        const double y = yFor(t);
        p.setPen(QPen(kRule, 0.4));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(kMuted);
        p.drawText(QRectF(area.left(), y - 6, 42, 12), Qt::AlignRight | Qt::AlignVCenter,
                   BarScale::tickLabel(t));
    }
    p.save();
    p.translate(area.left() + 6, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-80, -8, 160, 12), Qt::AlignCenter, scale.axisTitle(quantity));
    p.restore();
    const double groupWidth = plot.width() / static_cast<double>(d.groups.size());
    // Each group (a chunk size) shows only the variants measured there, centred; the bars are as wide as the
    // fullest group allows.
    std::size_t fullest = 1;
    for (std::size_t g = 0; g < d.groups.size(); ++g)
        fullest = std::max(fullest, d.barsAt(g));
    const double barWidth = std::min(26.0, groupWidth * 0.8 / static_cast<double>(fullest));
    for (std::size_t g = 0; g < d.groups.size(); ++g) {
        const double groupLeft = plot.left() + groupWidth * static_cast<double>(g);
        const double used = barWidth * static_cast<double>(d.barsAt(g));
        p.setPen(kText);
        p.setFont(font(7));
        p.drawText(QRectF(groupLeft, plot.bottom() + 2, groupWidth, 12), Qt::AlignCenter, d.groupLabel(g));
        std::size_t slot = 0;
        for (std::size_t v = 0; v < d.bars.size(); ++v) {
            const auto& bar = d.bars[v][g];
            if (!bar)
                continue;
            const double x = groupLeft + (groupWidth - used) / 2 + barWidth * static_cast<double>(slot++);
            // However small, a measured bar shows: at least one point tall.
            const double top = std::min(yFor(bar->mbps), plot.bottom() - 1);
            fillSeries(p, QRectF(x + 1, top, barWidth - 2, plot.bottom() - top), v);
            if (bar->speedUp) {
                p.setPen(kText);
                p.setFont(font(5.5));
                p.drawText(QRectF(x - 6, top - 10, barWidth + 12, 9), Qt::AlignCenter,
                           speedupText(*bar->speedUp));
            }
        }
    }
    p.setPen(QPen(kText, 0.6));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.setFont(legendFont);
    const double legendTop = plot.bottom() + 18;
    for (std::size_t v = 0; v < legend.entries.size(); ++v) {
        const auto& e = legend.entries[v];
        const double x = area.left() + e.x;
        const double y = legendTop + e.y;
        fillSeries(p, QRectF(x, y + 1, 8, 8), v);
        p.setPen(kText);
        for (qsizetype line = 0; line < e.lines.size(); ++line)
            p.drawText(QRectF(x + 12, y + lineHeight * static_cast<double>(line), legend.columnWidth - 12,
                              lineHeight),
                       Qt::AlignLeft | Qt::AlignVCenter, e.lines[line]);
    }
}

void drawSmallMultiples(Layout& layout, const RunResult& result)
{
    constexpr int kPerRow = 3;
    constexpr double kHeight = 92;
    const double gap = 10;
    const double cellWidth = (layout.width() - gap * (kPerRow - 1)) / kPerRow;
    // A line needs a few points to say anything: cases with fewer measured samples (at 10 Hz, repetitions
    // under ~300 ms) are named instead of drawn as a lone dot.
    constexpr long kMinSamples = 3;
    std::vector<const CaseResult*> cases;
    QStringList tooShort;
    for (const auto& c : result.cases) {
        const auto measured =
            std::count_if(c.samples.begin(), c.samples.end(), [](const Sample& s) { return !s.warmup; });
        if (measured >= kMinSamples)
            cases.push_back(&c);
        else if (c.status == Status::Ok)
            tooShort << QString::number(c.index + 1);
    }
    if (!tooShort.isEmpty())
        layout.paragraph(
            QStringLiteral("Not shown: case(s) %1, whose measured repetitions were too short for "
                           "the 10 Hz sampler to draw (fewer than %2 samples).")
                .arg(tooShort.join(QStringLiteral(", ")))
                .arg(kMinSamples),
            7.5, kMuted);
    if (cases.empty())
        return;
    QPainter& p = layout.painter();
    for (std::size_t i = 0; i < cases.size(); i += kPerRow) {
        const QRectF row = layout.take(kHeight + gap);
        for (std::size_t j = 0; j < kPerRow && i + j < cases.size(); ++j) {
            const CaseResult& c = *cases[i + j];
            const QRectF cell(row.left() + (cellWidth + gap) * static_cast<double>(j), row.top(), cellWidth,
                              kHeight);
            p.setPen(kText);
            // The title fits its cell: a smaller font down to 5 pt, then the middle elided, so that the parts
            // that tell two cases apart (at its end: a read share, io_uring's options) stay readable.
            const QString title = caseShortName(c);
            QFont titleFont = font(6.5, true);
            for (double size = 6.5; size > 5.0; size -= 0.5) {
                titleFont = font(size, true);
                if (QFontMetricsF(titleFont, p.device()).horizontalAdvance(title) <= cell.width())
                    break;
            }
            p.setFont(titleFont);
            p.drawText(QRectF(cell.left(), cell.top(), cell.width(), 10), Qt::AlignLeft | Qt::AlignVCenter,
                       QFontMetricsF(titleFont, p.device()).elidedText(title, Qt::ElideMiddle, cell.width()));
            const QRectF plot(cell.left() + 26, cell.top() + 13, cell.width() - 28, kHeight - 26);
            double t0 = -1;
            double tMax = 0;
            double yMax = 0;
            // The device's own rate in the case's direction: written bytes for writes, read bytes for reads,
            // both for a read/write mix.
            const bool reads = c.testCase.direction == Direction::Read;
            const bool both = mixes(c.testCase);
            const auto deviceRate = [reads, both](const Sample& s) {
                return both    ? s.deviceReadMBps + s.deviceWriteMBps
                       : reads ? s.deviceReadMBps
                               : s.deviceWriteMBps;
            };
            // Each measured sample's time on the case's own clock. Cases that took turns ran their
            // repetitions between the others': the time between two of its repetitions (the others' turns,
            // and its own clean-up and preparation) is left out, so that the line goes on from one
            // repetition to the next.
            const bool turns = result.options.alternate;
            const double intervalSeconds = result.options.sampleIntervalMs / 1000.0;
            std::vector<double> at(c.samples.size(), 0.0);
            double skipped = 0;
            const Sample* previous = nullptr;
            for (std::size_t k = 0; k < c.samples.size(); ++k) {
                const Sample& s = c.samples[k];
                if (s.warmup)
                    continue;
                if (t0 < 0)
                    t0 = s.runSeconds;
                if (turns && previous != nullptr && previous->repetition != s.repetition)
                    skipped += std::max(0.0, s.runSeconds - previous->runSeconds - intervalSeconds);
                at[k] = s.runSeconds - t0 - skipped;
                previous = &s;
                tMax = std::max(tMax, at[k]);
                yMax = std::max(yMax, std::max(s.intervalMBps, deviceRate(s)));
            }
            tMax = std::max(tMax, 0.1);
            yMax = std::max(yMax * 1.1, 1.0);
            p.setPen(QPen(kRule, 0.4));
            p.drawRect(plot);
            p.setFont(font(5.5));
            p.setPen(kMuted);
            p.drawText(QRectF(cell.left(), plot.top() - 4, 24, 8), Qt::AlignRight | Qt::AlignVCenter,
                       QString::number(yMax, 'f', 0));
            p.drawText(QRectF(cell.left(), plot.bottom() - 4, 24, 8), Qt::AlignRight | Qt::AlignVCenter,
                       QStringLiteral("0"));
            p.drawText(QRectF(plot.left(), plot.bottom() + 1, plot.width(), 8),
                       Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("%1 s").arg(tMax, 0, 'f', 1));
            p.drawText(QRectF(plot.left(), plot.bottom() + 1, plot.width(), 8),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       QStringLiteral("MB/s over the measured repetitions"));
            for (int series = 0; series < 2; ++series) {
                QPainterPath path;
                const Sample* last = nullptr;
                for (std::size_t k = 0; k < c.samples.size(); ++k) {
                    const Sample& s = c.samples[k];
                    if (s.warmup)
                        continue;
                    const double v = series == 0 ? s.intervalMBps : deviceRate(s);
                    const QPointF pt(plot.left() + plot.width() * at[k] / tMax,
                                     plot.bottom() - plot.height() * v / yMax);
                    if (last == nullptr)
                        path.moveTo(pt);
                    else
                        path.lineTo(pt);
                    last = &s;
                }
                QPen pen(series == 0 ? seriesColour(0) : seriesColour(1), series == 0 ? 0.9 : 0.7);
                if (series == 1)
                    pen.setStyle(Qt::DashLine);
                p.setPen(pen);
                p.drawPath(path);
                if (path.elementCount() < 3) {
                    // A case over within a sample or two: mark the points, a line would not show.
                    p.setBrush(pen.color());
                    for (int e = 0; e < path.elementCount(); ++e)
                        p.drawEllipse(QPointF(path.elementAt(e).x, path.elementAt(e).y), 1.5, 1.5);
                    p.setBrush(Qt::NoBrush);
                }
            }
        }
    }
}

// Whether a run has the repetitions for a trimmed mean to say more than the median.
bool showsTrimmedMean(const RunResult& result)
{
    return std::any_of(result.cases.begin(), result.cases.end(),
                       [](const CaseResult& c) { return c.apparentMBps.count >= kTrimmedMeanMinCount; });
}

// What a case table shows: the rate it ranks by, and the other one beside it where a case has one.
struct CaseTable
{
    QString rankedName;
    RateOf rankedOf;
    QString otherName; // "" = no second rate column
    RateOf otherOf;
    Ranking ranking = Ranking::Durable; // for the spread and the speed-ups' test
};

void drawCaseTable(Layout& layout, const RunResult& result, const std::vector<std::size_t>& indices,
                   const CaseTable& table)
{
    const bool trimmed = showsTrimmedMean(result);
    const bool other = !table.otherName.isEmpty();
    const auto number = [](double v) {
        return QString::number(v, 'f', 1);
    };
    // A declared axis's column is left out when no case of the table has anything in it (the queue depth of
    // a table without a queued strategy).
    const auto& axisColumns = caseTableColumns();
    std::vector<bool> shown(axisColumns.size(), false);
    // The drive's temperature before and after each case, where the drive said it.
    bool heat = false;
    for (const std::size_t i : indices) {
        for (std::size_t a = 0; a < axisColumns.size(); ++a)
            shown[a] = shown[a] || !axisColumns[a].text(result.cases[i].testCase).empty();
        heat = heat || !temperatureText(result.cases[i].thermalBefore, result.cases[i].thermalAfter).empty();
    }
    std::vector<QStringList> rows;
    std::vector<QColor> colours;
    for (const std::size_t i : indices) {
        const CaseResult& c = result.cases[i];
        const Case& k = c.testCase;
        const bool ok = hasRate(c);
        const Summary& ranked = table.rankedOf(c);
        QString speedup;
        if (const auto base = baselineCase(result, i);
            ok && base && table.rankedOf(result.cases[*base]).median > 0) {
            speedup = speedupText(ranked.median / table.rankedOf(result.cases[*base]).median);
            // A speed-up the repetitions do not separate from 1x is a figure, not a finding: marked.
            if (*base != i && !compareCases(c, result.cases[*base], table.ranking).holds())
                speedup.prepend(QStringLiteral("\u2248"));
        }
        QStringList row{QString::number(c.index + 1)};
        for (std::size_t a = 0; a < axisColumns.size(); ++a) {
            if (shown[a])
                row << qs(axisColumns[a].text(k));
        }
        row << (ok && ranked.count > 0 ? number(ranked.median) : QString());
        if (other) {
            const Summary& second = table.otherOf(c);
            row << (ok && second.count > 0 && k.direction == Direction::Write ? number(second.median)
                                                                              : QString());
        }
        if (trimmed)
            row << (ok && ranked.count >= kTrimmedMeanMinCount ? number(ranked.trimmedMean) : QString());
        row << (ok && ranked.count > 1 ? QStringLiteral("%1-%2")
                                             .arg(std::max(0.0, ranked.ciLow), 0, 'f', 0)
                                             .arg(ranked.ciHigh, 0, 'f', 0)
                                       : QString())
            << speedup << (ok ? QString::number(c.cpuSecondsPerGiB, 'f', 3) : QString())
            << (c.peakRssBytes > 0 ? qs(formatBytes(c.peakRssBytes)) : QString())
            << (ok && repetitionSpread(c, table.ranking).used >= 2
                    ? QStringLiteral("%1%").arg(repetitionSpread(c, table.ranking).cv * 100, 0, 'f', 1)
                    : QString());
        if (heat)
            row << qs(temperatureText(c.thermalBefore, c.thermalAfter));
        row << qs(toString(c.status));
        rows.push_back(row);
        colours.push_back(ok ? kText : kBad);
    }
    // The case's number, the declared axes' columns (core/model/axes.h), then the figures.
    std::vector<Column> columns{{QStringLiteral("#"), 2.4, Qt::AlignRight}};
    for (std::size_t a = 0; a < axisColumns.size(); ++a) {
        if (shown[a])
            columns.push_back(
                {qs(axisColumns[a].header), axisColumns[a].width,
                 axisColumns[a].alignRight ? Qt::Alignment(Qt::AlignRight) : Qt::Alignment(Qt::AlignLeft)});
    }
    columns.push_back({table.rankedName, 6.8, Qt::AlignRight});
    if (other)
        columns.push_back({table.otherName, 7.4, Qt::AlignRight});
    if (trimmed)
        columns.push_back({QStringLiteral("Trim. mean MB/s"), 5.8, Qt::AlignRight});
    for (const Column& c : std::initializer_list<Column>{{QStringLiteral("95% CI MB/s"), 7.2, Qt::AlignRight},
                                                         {QStringLiteral("Speed-up"), 5.6, Qt::AlignRight},
                                                         {QStringLiteral("CPU s/GiB"), 4.6, Qt::AlignRight},
                                                         {QStringLiteral("Peak RSS"), 5.8, Qt::AlignRight},
                                                         {QStringLiteral("Spread CV"), 4.8, Qt::AlignRight}})
        columns.push_back(c);
    if (heat)
        columns.push_back({QStringLiteral("Temp"), 5.0, Qt::AlignRight});
    columns.push_back({QStringLiteral("Status"), 5.2});
    layout.table(columns, rows, 6.8, [&](std::size_t i) { return colours[i]; });
}

// The run's cases by comparison group, in the groups' order (file writes, pipe and null writes, cold reads,
// warm reads), each in case order.
std::map<ComparisonGroup, std::vector<std::size_t>> casesByGroup(const RunResult& result)
{
    std::map<ComparisonGroup, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < result.cases.size(); ++i)
        groups[comparisonGroup(result.cases[i].testCase)].push_back(i);
    return groups;
}

// "Writes to a file" from "writes to a file".
QString groupHeading(ComparisonGroup group)
{
    QString text = qs(toString(group));
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

// The verdict's sentences mark names as `code`; on paper they read as plain words, with no unit wrapped
// away from its number.
QString plainWords(const std::string& text)
{
    return report::keepUnitsWithNumbers(qs(text).remove(QLatin1Char('`')));
}

// Page 1: the question, the answers with their numbers, what matters most with what to do, what the figures
// cannot say, and the terms.
// The likely causes, ranked, each with its evidence and what to change: under the health verdict the causes
// of what it found, elsewhere of the slow figure.
void drawCauses(Layout& layout, const Verdict& v)
{
    if (v.causes.empty())
        return;
    layout.heading(!v.belowTypical ? QStringLiteral("What shapes the figures here")
                   : v.health      ? QStringLiteral("Likely causes, most likely first")
                                   : QStringLiteral("Likely causes of the slow figure, most likely first"),
                   2);
    int n = 0;
    for (const auto& c : v.causes) {
        layout.paragraph(QStringLiteral("%1. %2.").arg(++n).arg(plainWords(c.what)), 9, kText, 8);
        layout.paragraph(QStringLiteral("Evidence: %1").arg(plainWords(c.evidence)), 8.5, kMuted, 20);
        layout.paragraph(QStringLiteral("What to change: %1").arg(plainWords(c.change)), 8.5, kMuted, 20);
    }
}

// The health verdict, first on page 1 where the run has one: each dimension with its figure, the word and the
// class's typical range, the overall answer, the likely causes and what was judged without a range.
void drawHealth(Layout& layout, const Verdict& v)
{
    const HealthVerdict& h = *v.health;
    layout.heading(QStringLiteral("Summary"));
    layout.paragraph(QStringLiteral("Is this storage as fast as its kind of device should be?"), 10.5, kText);
    layout.space(2);
    layout.paragraph(plainWords(h.overall), 10.5, kText, 0);
    layout.space(2);
    for (const auto& line : h.lines) {
        const bool low = line.word == HealthWord::Below || line.word == HealthWord::FarBelow;
        QString text = QStringLiteral("\u2022 %1: %2 \u2014 %3")
                           .arg(plainWords(line.what), plainWords(line.figure), qs(toString(line.word)));
        if (!line.typical.empty())
            text += QStringLiteral(" (typical %1)").arg(plainWords(line.typical));
        layout.paragraph(text, 9.5, low ? kBad : kText, 8);
    }
    drawCauses(layout, v);
    if (!h.checks.empty()) {
        layout.heading(QStringLiteral("Also checked"), 2);
        for (const auto& c : h.checks)
            layout.paragraph(QStringLiteral("\u2022 ") + plainWords(c), 9, kText, 8);
    }
    if (!h.rangesSource.empty())
        layout.paragraph(QStringLiteral("Typical ranges from %1.").arg(plainWords(h.rangesSource)), 8, kMuted,
                         0);
    layout.heading(QStringLiteral("Ways of doing the I/O, compared"), 2);
}

void drawVerdict(Layout& layout, const Verdict& v)
{
    if (v.health) {
        drawHealth(layout, v);
    } else {
        layout.heading(QStringLiteral("Summary"));
        layout.paragraph(plainWords(v.question), 10.5, kText);
        layout.space(2);
    }
    if (!v.overridden.empty()) {
        layout.paragraph(plainWords(v.overridden), 9.5, kText);
        layout.space(2);
    }
    // A recorded program's ways of writing: what it spent, and the answer; the change, its code and the other
    // ways follow in the section Your program.
    for (std::size_t i = 0; i < std::min<std::size_t>(2, v.program.size()); ++i)
        layout.paragraph(plainWords(v.program[i]), 10, kText, 8);
    if (v.program.size() > 2)
        layout.paragraph(QStringLiteral("The change, its code and every way measured: Your program, below."),
                         9, kMuted, 8);
    if (v.answers.empty() && v.program.empty())
        layout.paragraph(QStringLiteral("No case finished, so there is no answer."), 10, kBad, 8);
    for (const auto& answer : v.answers)
        layout.paragraph(QStringLiteral("\u2022 ") + plainWords(answer), 10, kText, 8);
    if (!v.machine.empty() && !v.health) {
        layout.space(2);
        layout.paragraph(plainWords(v.machine), 9.5, kText, 8);
    }
    if (!v.health)
        drawCauses(layout, v);
    if (!v.highlights.empty()) {
        layout.heading(QStringLiteral("What matters most"), 2);
        int n = 0;
        for (const auto& h : v.highlights) {
            layout.paragraph(QStringLiteral("%1. %2").arg(++n).arg(plainWords(h.what)), 9,
                             findingColour(h.kind), 8);
            layout.paragraph(QStringLiteral("What to do: %1").arg(plainWords(h.advice)), 9, kMuted, 20);
        }
    }
    if (!v.limits.empty()) {
        layout.heading(QStringLiteral("What the figures cannot say"), 2);
        for (const auto& limit : v.limits)
            layout.paragraph(QStringLiteral("\u2022 ") + plainWords(limit), 9, kText, 8);
    }
    if (!v.unchecked.empty()) {
        layout.heading(QStringLiteral("What IOLab could not check"), 2);
        for (const auto& u : v.unchecked)
            layout.paragraph(QStringLiteral("\u2022 ") + plainWords(u), 9, kText, 8);
    }
    if (!v.terms.empty()) {
        layout.heading(QStringLiteral("Terms"), 2);
        for (const auto& term : v.terms)
            layout.paragraph(plainWords(term), 8, kMuted, 8);
    }
}

// What every section of the report reads: the run, how it is ranked, and what was worked out once.
struct ReportContext
{
    const RunResult& result;
    const ReportOptions& options;
    const Registry* registry;
    QString title;
    std::map<ComparisonGroup, std::vector<std::size_t>> byGroup;
    std::vector<Finding> found;

    Ranking ranking() const { return options.ranking; }
};

// The title, when the run ran, the matrix's description and whether it was stopped.
void headerSection(Layout& layout, const ReportContext& ctx)
{
    const RunResult& result = ctx.result;
    QPainter& p = layout.painter();
    {
        // Wrapped: a title naming two strategies and two chunk sizes is wider than the page at 18 points.
        const QFont f = font(18, true);
        const QRectF r = layout.take(std::max(26.0, layout.textHeight(ctx.title, f, layout.width()) + 4));
        p.setFont(f);
        p.setPen(kText);
        p.drawText(r, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignVCenter, ctx.title);
    }
    layout.paragraph(
        QStringLiteral("Run started %1, finished %2 · IOLab %3 · result schema %4")
            .arg(qs(result.startedAt), qs(result.finishedAt), qs(result.toolVersion), qs(result.schema)),
        8.5, kMuted);
    if (!result.matrix.description.empty())
        layout.paragraph(qs(result.matrix.description), 9, kMuted);
    if (result.redacted)
        layout.paragraph(qs(kRedactedNotice), 9, kBad);
    if (result.cancelled)
        layout.paragraph(
            QStringLiteral("This run was stopped before the end: the cases after the last one shown "
                           "did not run."),
            9, kBad);
}

// The question, the answer and what matters, as the app's Summary.
void summarySection(Layout& layout, const ReportContext& ctx)
{
    drawVerdict(layout, verdict(ctx.result, ctx.registry, ctx.ranking()));
}

void machineSection(Layout& layout, const ReportContext& ctx)
{
    layout.heading(QStringLiteral("Machine"), 2);
    const HostInfo& h = ctx.result.host;
    layout.keyValues({{QStringLiteral("Host"), qs(h.hostname)},
                      {QStringLiteral("CPU"),
                       QStringLiteral("%1, %2 logical CPUs").arg(qs(h.cpuModel)).arg(h.logicalCpus)},
                      {QStringLiteral("RAM"), qs(formatBytes(h.ramBytes))},
                      {QStringLiteral("OS, kernel"), QStringLiteral("%1, %2").arg(qs(h.os), qs(h.kernel))}});
}

// The target folder, its filesystem and device, and the run's options.
void targetSection(Layout& layout, const ReportContext& ctx)
{
    const RunResult& result = ctx.result;
    layout.heading(QStringLiteral("Target"), 2);
    const TargetInfo& t = result.target;
    QString device = qs(t.device.empty() ? t.mountSource : t.device);
    if (!t.deviceModel.empty())
        device += QStringLiteral(" (%1)").arg(qs(t.deviceModel));
    layout.keyValues(
        {{QStringLiteral("Path"), qs(t.path)},
         {QStringLiteral("Filesystem"),
          QStringLiteral("%1 on %2, mounted at %3").arg(qs(t.fsType), qs(t.mountSource), qs(t.mountPoint))},
         {QStringLiteral("Mount options"), qs(t.mountOptions)},
         {QStringLiteral("Device"), device.isEmpty() ? QStringLiteral("none (no block device)") : device},
         {QStringLiteral("Media"), !t.rotational   ? QStringLiteral("unknown")
                                   : *t.rotational ? QStringLiteral("rotational")
                                                   : QStringLiteral("solid state")},
         {QStringLiteral("Write cache"), qs(describeWriteCache(t))},
         {QStringLiteral("Sectors"),
          QStringLiteral("%1 logical, %2 physical; max transfer %3")
              .arg(t.logicalBlockBytes)
              .arg(t.physicalBlockBytes)
              .arg(t.maxTransferBytes > 0 ? qs(formatBytes(t.maxTransferBytes)) : QStringLiteral("unknown"))},
         {QStringLiteral("Free space"),
          QStringLiteral("%1 of %2 at the start")
              .arg(qs(formatBytes(t.freeBytes)), qs(formatBytes(t.totalBytes)))},
         {QStringLiteral("Run options"),
          QStringLiteral("%1 measured repetition(s) after %2 warm-up(s)%3%4")
              .arg(result.options.repetitions)
              .arg(result.options.warmups)
              .arg(result.options.verifyFiles ? QStringLiteral(", files verified") : QString(),
                   result.options.alternate
                       ? QStringLiteral(", the cases taking turns (a round of one repetition of each, the "
                                        "order reversed every other round)")
                       : QString())}});
}

// The storage stack under the target and the machine's I/O settings as they were when the run began: every
// fact with its value, an unknown one (muted) with why IOLab could not read it.
void systemSection(Layout& layout, const ReportContext& ctx)
{
    const SystemFacts& facts = ctx.result.system;
    if (!facts.gathered)
        return; // a result saved before IOLab recorded them
    layout.heading(QStringLiteral("Storage and system"), 2, 80);
    layout.paragraph(
        QStringLiteral("%1 (%2). Read as the run began, in %3 ms; an unknown fact says why it could "
                       "not be read.")
            .arg(qs(describeStack(facts)), qs(describe(facts.deviceClass)))
            .arg(facts.gatherMilliseconds, 0, 'f', 1));
    const auto rowsOf = [](const FactSection& section) {
        std::vector<QStringList> rows;
        for (const auto& fact : section.facts)
            rows.push_back({qs(fact.label), fact.known()
                                                ? qs(fact.value)
                                                : QStringLiteral("unknown: ") + qs(fact.unknownWhy)});
        return rows;
    };
    // One fit for every section, each title a line of the header it is fitted to: the values start at one
    // edge all the way down.
    std::vector<QStringList> all;
    QStringList titles;
    for (const auto& section : facts.sections) {
        titles << qs(section.title);
        for (auto& row : rowsOf(section))
            all.push_back(std::move(row));
    }
    const auto fitted = layout.fitTable({{titles.join(QLatin1Char('\n')), 8}, {QString(), 20}}, all);
    for (const auto& section : facts.sections) {
        std::vector<bool> known;
        for (const auto& fact : section.facts)
            known.push_back(fact.known());
        layout.table({{qs(section.title), 8}, {QString(), 20}}, rowsOf(section), fitted,
                     [&known](std::size_t i) { return known[i] ? kText : kMuted; });
        layout.space(4);
    }
}

// Per comparison group a table of its cases and its fastest per chunk size, then the failed and refused.
void resultsSection(Layout& layout, const ReportContext& ctx)
{
    const RunResult& result = ctx.result;
    const Ranking ranking = ctx.ranking();
    const auto& byGroup = ctx.byGroup;
    layout.heading(QStringLiteral("Results"), 1, 200); // with its first table, not alone at a page's foot
    QString ranked;
    if (byGroup.contains(ComparisonGroup::FileWrites))
        ranked = ranking == Ranking::Durable
                     ? QStringLiteral(
                           " Writes to a file are ranked by their durable rate, which includes the fsync "
                           "the data still needed; the apparent rate, measured when the last write "
                           "returned, is beside it.")
                     : QStringLiteral(
                           " Writes to a file are ranked by their apparent rate, measured when the last "
                           "write returned; the durable rate, which includes the fsync the data still "
                           "needed, is beside it.");
    const QString trimmed =
        showsTrimmedMean(result)
            ? QStringLiteral("; the trimmed mean leaves out the slowest and the fastest of them")
            : QStringLiteral(
                  " (the trimmed mean, which leaves out the slowest and the fastest, is shown from %1 "
                  "repetitions on: with fewer it says no more than the median)")
                  .arg(kTrimmedMeanMinCount);
    layout.paragraph(
        QStringLiteral("MB/s = 10^6 bytes per second.%1 Median over the measured repetitions%2; "
                       "speed-up is against plain stdio with its default buffer (reads: plain read(2) "
                       "with the normal hint) at the same chunk size, marked \u2248 where a t-test over the "
                       "repetitions (95%) does not separate it from the baseline; spread is the CV of the "
                       "repetitions of the ranked rate (of the middle ones from 5 on). Cases are compared "
                       "only within their group: a write into "
                       "a pipe is no rival of a write to a file.%3")
            .arg(ranked, trimmed,
                 byGroup.contains(ComparisonGroup::ColdReads) || byGroup.contains(ComparisonGroup::WarmReads)
                     ? QStringLiteral(" Reads show their hint and cache state in the Sync/read column.")
                     : QString()),
        7.5, kMuted);
    const RateOf rankedOf = [ranking](const CaseResult& c) -> const Summary& {
        return rankedRate(c, ranking);
    };
    for (const auto& [group, indices] : byGroup) {
        CaseTable table;
        table.rankedOf = rankedOf;
        table.ranking = ranking;
        if (group == ComparisonGroup::FileWrites) {
            const bool durable = ranking == Ranking::Durable;
            table.rankedName =
                durable ? QStringLiteral("Durable MB/s (ranked)") : QStringLiteral("Apparent MB/s (ranked)");
            table.otherName = durable ? QStringLiteral("Apparent MB/s") : QStringLiteral("Durable MB/s");
            table.otherOf = [durable](const CaseResult& c) -> const Summary& {
                return durable ? c.apparentMBps : c.durableMBps;
            };
        } else {
            table.rankedName = QStringLiteral("Median MB/s");
        }
        layout.heading(groupHeading(group), 2, 60);
        drawCaseTable(layout, result, indices, table);
        // The group's fastest per chunk size, by the ranked rate: the findings that are the answer itself.
        layout.space(4);
        for (const auto& f : ctx.found) {
            if (findingKind(f.kind).mark != FindingMark::Answer || !f.caseIndex)
                continue;
            const auto at = std::find_if(indices.begin(), indices.end(), [&](std::size_t i) {
                return result.cases[i].index == *f.caseIndex;
            });
            if (at != indices.end())
                layout.paragraph(qs(f.text), 8, kText, 8);
        }
    }
    std::vector<QStringList> problems;
    for (const auto& c : result.cases) {
        if (!c.reason.empty())
            problems.push_back({QString::number(c.index + 1), qs(toString(c.status)), qs(c.reason)});
    }
    if (!problems.empty()) {
        layout.space(6);
        layout.table({{QStringLiteral("#"), 2, Qt::AlignRight},
                      {QStringLiteral("What"), 5},
                      {QStringLiteral("Details"), 40}},
                     problems, 7, [](std::size_t) { return kBad; });
    }

    drawReadDetails(layout, result);
}

// Every finding but the answer itself (the fastest per chunk size), which the tables give.
void findingsSection(Layout& layout, const ReportContext& ctx)
{
    const auto& found = ctx.found;
    layout.heading(QStringLiteral("Findings"));
    // What the run itself warned of (another run on the same filesystem, a setting it could not apply): the
    // customer reads it here as the app and the CLI show it.
    for (const auto& w : ctx.result.warnings)
        layout.paragraph(QStringLiteral("run: %1").arg(qs(w)), 8.5, kBad, 8);
    const auto isAnswer = [](const Finding& f) {
        return findingKind(f.kind).mark == FindingMark::Answer;
    };
    if (ctx.result.warnings.empty() && std::all_of(found.begin(), found.end(), isAnswer))
        layout.paragraph(QStringLiteral("Nothing to report beyond the figures."), 9, kMuted);
    for (const auto& f : found) {
        if (isAnswer(f))
            continue;
        layout.paragraph(QStringLiteral("%1: %2").arg(qs(toString(f.kind)), qs(f.text)), 8.5,
                         findingColour(f.kind), 8);
    }
}

// The kill -9 probe's kills per case: what was acknowledged, what was lost, and the answer in words.
void crashProbeSection(Layout& layout, const ReportContext& ctx)
{
    const RunResult& result = ctx.result;
    std::vector<QStringList> rows;
    std::vector<bool> lost;
    for (const auto& c : result.cases) {
        if (!c.crashProbe)
            continue;
        const auto& probe = *c.crashProbe;
        std::uint64_t acknowledged = 0;
        for (const auto& k : probe.kills)
            acknowledged = std::max(acknowledged, k.landed ? k.acknowledgedBytes : 0);
        const Strategy* strategy =
            ctx.registry != nullptr ? ctx.registry->find(c.testCase.strategy) : nullptr;
        rows.push_back(
            {caseShortName(c), QStringLiteral("%1 of %2").arg(probe.landedKills()).arg(probe.kills.size()),
             qs(formatBytes(acknowledged)), qs(formatBytes(probe.worstLossBytes())),
             qs(crashProbeVerdict(probe, c.testCase, strategy != nullptr ? &strategy->info() : nullptr))});
        lost.push_back(probe.survives() == false);
    }
    if (rows.empty())
        return;
    layout.heading(QStringLiteral("Durability: the kill -9 probe"), 1, 80);
    layout.paragraph(
        QStringLiteral(
            "The kill -9 probe: %1. Each kill ended a child process running the case (SIGKILL; on "
            "Windows TerminateProcess); then every file was read back against what the API had "
            "acknowledged when the kill came. The answer also says what the strategy's design can lose "
            "(what it keeps in user space, such as a stdio buffer), whatever the kills saw. A process "
            "crash is not a power cut: the page cache survives a kill -9, so these are the bytes a "
            "crashing program loses, not what a power cut would. The answers are also in the Summary.")
            .arg(qs(crashProbeMethod(result.options))),
        8.5);
    // caseShortName() leads with the case's number: no separate "#" column.
    layout.table({{QStringLiteral("Case"), 11},
                  {QStringLiteral("Kills landed"), 4},
                  {QStringLiteral("Most acknowledged"), 7, Qt::AlignRight},
                  {QStringLiteral("Most lost"), 4, Qt::AlignRight},
                  {QStringLiteral("Answer"), 21}},
                 rows, 7, [&lost](std::size_t i) { return lost[i] ? kBad : kText; });
}

// A recorded program's replays: the program, its time inside its calls when recorded against the replay's
// here (the median over the measured repetitions), and what the replay re-issued.
void programSection(Layout& layout, const ReportContext& ctx)
{
    std::vector<QStringList> rows;
    std::vector<bool> off;
    for (const auto& c : ctx.result.cases) {
        if (!c.replay)
            continue;
        const ReplayRecord& r = *c.replay;
        std::vector<double> inside;
        for (const auto& rep : c.repetitions) {
            if (!rep.warmup && rep.outcome.ok() && rep.insideSeconds)
                inside.push_back(*rep.insideSeconds);
        }
        QString replayed = QStringLiteral("not measured");
        QString ratio = QStringLiteral("-");
        bool outside = false;
        if (!inside.empty()) {
            const double median = iolab::median(inside);
            replayed = QStringLiteral("%1 (median of %2)").arg(qs(formatLatency(median))).arg(inside.size());
            if (r.recordedInsideSeconds > 0) {
                const double x = median / r.recordedInsideSeconds;
                ratio = QStringLiteral("%1x").arg(x, 0, 'f', 2);
                // Only the program's own calls are held to the program's time; another way's is its own.
                outside = std::abs(x - 1) > 0.15 &&
                          extraAxisValue(c.testCase, "replay-variant", std::string(kRecordedCalls)) ==
                              kRecordedCalls;
            }
        } else if (!c.reason.empty()) {
            replayed = QStringLiteral("not measured: %1").arg(qs(c.reason));
        }
        rows.push_back({caseShortName(c), qs(r.program), qs(formatLatency(r.recordedInsideSeconds)), replayed,
                        ratio, QLocale().toString(static_cast<qulonglong>(r.calls)),
                        QLocale().toString(static_cast<qulonglong>(r.writeCalls)),
                        QLocale().toString(static_cast<qulonglong>(r.syncCalls)),
                        qs(formatBytes(r.bytesWritten))});
        off.push_back(outside);
    }
    if (rows.empty())
        return;
    layout.heading(QStringLiteral("Your program"), 1, 80);
    const auto& advice = ctx.result.programAdvice;
    if (!advice.empty()) {
        // The answer whole: the sentences as the advice indents them, its code as code.
        QStringList code;
        const auto flushCode = [&] {
            if (!code.isEmpty())
                layout.code(code.join(QLatin1Char('\n')), 7.5, 30);
            code.clear();
        };
        for (std::size_t i = 0; i < advice.size(); ++i) {
            const std::string& line = advice[i];
            const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
            if (indent >= 6) {
                code << qs(line.substr(6));
                continue;
            }
            flushCode();
            if (indent == 0 && i > 1 && line.ends_with(':'))
                layout.heading(plainWords(line), 2);
            else
                layout.paragraph(plainWords(line.substr(indent)), i < 2 ? 10 : 9, kText,
                                 static_cast<double>(indent) * 6);
        }
        flushCode();
        layout.heading(QStringLiteral("Each way, as measured"), 2);
    }
    layout.paragraph(
        QStringLiteral(
            "Each replay re-issued a recorded program's calls on files here, thread by thread in their "
            "order, "
            "with their sizes, offsets, flags, syncs, renames and deletes (IOLab's pattern as the data, the "
            "time between calls left out unless the run kept it). Inside: the time spent inside those calls, "
            "summed over threads; the replay's is the median over the measured repetitions. A replay within "
            "15% of the program (0.85x to 1.15x) re-created its I/O faithfully; one further off is in red: "
            "the machine was not in the same state (a cache warm or cold, other programs' I/O), or the "
            "program's calls depended on work between them that the replay leaves out.%1")
            .arg(advice.empty() ? QString()
                                : QStringLiteral(" A way other than the program's own calls (named after "
                                                 "\"as\") is not held to this: its time is the way's.")),
        8.5);
    layout.table({{QStringLiteral("Case"), 8},
                  {QStringLiteral("Program"), 12},
                  {QStringLiteral("Inside, recorded"), 4.5, Qt::AlignRight},
                  {QStringLiteral("Inside, replayed"), 6.5, Qt::AlignRight},
                  {QStringLiteral("Replay / program"), 4.5, Qt::AlignRight},
                  {QStringLiteral("Calls"), 3.5, Qt::AlignRight},
                  {QStringLiteral("Writes"), 3.5, Qt::AlignRight},
                  {QStringLiteral("Syncs"), 3, Qt::AlignRight},
                  {QStringLiteral("Bytes written"), 4.5, Qt::AlignRight}},
                 rows, 7, [&off](std::size_t i) { return off[i] ? kBad : kText; });
}

// Article 001's question in one table: each case under a memory limit, its rates under the cap, what its
// memory cgroup held at most, and whether it survives kill -9; then the answer.
void memoryBudgetSection(Layout& layout, const ReportContext& ctx)
{
    const auto budget = memoryBudgetRows(ctx.result);
    if (budget.empty())
        return;
    std::vector<QStringList> rows;
    std::vector<bool> bad;
    for (const auto& row : budget) {
        const CaseResult& c = ctx.result.cases[row.caseIndex];
        rows.push_back({caseShortName(c), qs(formatBytesCompact(row.limitBytes)),
                        row.measured ? QString::number(row.durableMBps, 'f', 1) : QStringLiteral("-"),
                        row.measured ? QString::number(row.apparentMBps, 'f', 1) : QStringLiteral("-"),
                        qs(formatBytes(row.peakBytes)), qs(formatBytes(row.peakPageCacheBytes)),
                        row.measured ? qs(row.killText) : qs(row.reason)});
        bad.push_back(!row.measured || row.survivesKill == false);
    }
    layout.heading(QStringLiteral("Memory budget: under the cap, and on kill -9"), 1, 80);
    layout.paragraph(
        QStringLiteral("Each case ran in a child process in a memory cgroup of its own, capped at its "
                       "limit: the page cache its writes filled counted against the cap. Rates in "
                       "MB/s (medians); memory as the cgroup counted it at most."),
        8.5);
    layout.table({{QStringLiteral("Case"), 11},
                  {QStringLiteral("Limit"), 3.5, Qt::AlignRight},
                  {QStringLiteral("Durable"), 4, Qt::AlignRight},
                  {QStringLiteral("Apparent"), 4, Qt::AlignRight},
                  {QStringLiteral("Peak memory"), 4.5, Qt::AlignRight},
                  {QStringLiteral("Peak cache"), 4.5, Qt::AlignRight},
                  {QStringLiteral("Survives kill -9"), 12}},
                 rows, 7, [&bad](std::size_t i) { return bad[i] ? kBad : kText; });
    layout.paragraph(plainWords(memoryBudgetAnswer(budget)), 8.5);
}

// Per comparison group its heatmap and its bars by the charts' first axis (chunk size).
void chartsSection(Layout& layout, const ReportContext& ctx)
{
    const RunResult& result = ctx.result;
    const Ranking ranking = ctx.ranking();
    for (const auto& [group, indices] : ctx.byGroup) {
        if (std::none_of(indices.begin(), indices.end(),
                         [&](std::size_t i) { return hasRate(result.cases[i]); }))
            continue; // nothing measured: the table above says why
        std::vector<CaseResult> cases;
        for (const std::size_t i : indices)
            cases.push_back(result.cases[i]);
        const HeatmapData heat = HeatmapData::from(cases, preferredAxis(cases), ranking);
        layout.heading(QStringLiteral("%1: strategy x %2").arg(groupHeading(group), heat.axis.name), 1,
                       60 + 20 * static_cast<double>(heat.strategies.size()));
        drawHeatmap(layout, heat);
        const bool durable = group == ComparisonGroup::FileWrites && ranking == Ranking::Durable;
        // The heading promises speed-ups only where some bar has a baseline to be measured against.
        const bool speedUps = std::any_of(indices.begin(), indices.end(), [&](std::size_t i) {
            const auto base = baselineCase(result, i);
            return hasRate(result.cases[i]) && base && *base != i && hasRate(result.cases[*base]);
        });
        const BarChartData bars = BarChartData::from(cases, ranking);
        layout.heading(speedUps ? QStringLiteral("%1: by %2, with the speed-up over plain %3")
                                      .arg(groupHeading(group), bars.axis.name,
                                           qs(baselineStrategy(result.cases[indices.front()].testCase)))
                                : QStringLiteral("%1: by %2").arg(groupHeading(group), bars.axis.name),
                       2, 230);
        drawBars(layout, bars,
                 group != ComparisonGroup::FileWrites ? QStringLiteral("median MB/s")
                 : durable                            ? QStringLiteral("durable MB/s")
                                                      : QStringLiteral("apparent MB/s"));
    }
}

void timelinesSection(Layout& layout, const ReportContext& ctx)
{
    layout.heading(QStringLiteral("Throughput over time"), 1, 130);
    layout.paragraph(
        QStringLiteral("Per case, the 10 Hz samples of the measured repetitions: apparent MB/s (solid) "
                       "and the device's own rate in the case's direction, written or read (dashed)."),
        7.5, kMuted);
    drawSmallMultiples(layout, ctx.result);
}

// The matrix's groups as given, and every combination refused before the run with its reason. A column per
// declared axis that some group lists (core/model/axes.h), and per axis a matrix file lists even when empty
// (the strategies, the chunk sizes): a group that lists none of an axis takes its default.
void matrixSection(Layout& layout, const ReportContext& ctx)
{
    const RunResult& result = ctx.result;
    layout.heading(QStringLiteral("The matrix as run"));
    std::vector<const AxisSpec*> shown;
    for (const AxisSpec& axis : caseAxes()) {
        if (axis.matrixKey.empty() || !axis.groupValues)
            continue;
        const bool shownWhenEmpty =
            axis.writeEmptyList &&
            std::any_of(result.matrix.groups.begin(), result.matrix.groups.end(),
                        [&axis](const MatrixGroup& g) { return axis.writeEmptyList(g); });
        const bool listed =
            std::any_of(result.matrix.groups.begin(), result.matrix.groups.end(),
                        [&axis](const MatrixGroup& g) { return !axis.groupValues(g).empty(); });
        if (shownWhenEmpty || listed)
            shown.push_back(&axis);
    }
    std::vector<QStringList> groups;
    for (const auto& g : result.matrix.groups) {
        QStringList row;
        for (const AxisSpec* axis : shown) {
            QStringList values;
            for (const auto& v : axis->groupValues(g))
                values << qs(v);
            row << (values.isEmpty() ? QStringLiteral("(default)") : values.join(QStringLiteral(", ")));
        }
        groups.push_back(row);
    }
    // The table fits each column to its content (a cell wraps only between its values); what is left is
    // shared evenly.
    std::vector<Column> columns;
    for (const AxisSpec* axis : shown) {
        QString header = qs(axis->name);
        header[0] = header[0].toUpper();
        columns.push_back({header, 1});
    }
    constexpr double kPoints = 7;
    layout.paragraph(
        QStringLiteral("%1: the union of these groups, each a cartesian product.").arg(matrixTitle(result)),
        8.5);
    layout.table(columns, groups, kPoints);
    if (!result.refused.empty()) {
        layout.heading(QStringLiteral("Refused combinations"), 2);
        std::vector<QStringList> refused;
        for (const auto& r : result.refused)
            refused.push_back({qs(r.testCase.label()), qs(r.reason)});
        layout.table({{QStringLiteral("Case"), 14}, {QStringLiteral("Why it did not run"), 16}}, refused, 7);
    }
}

// Power-loss exposure (issue 17): per write case to a file, the most acknowledged bytes not yet durable and
// the longest they waited, with how the case makes its data durable and what the figure assumes.
void exposureSection(Layout& layout, const ReportContext& ctx)
{
    std::vector<QStringList> rows;
    for (const CaseResult& c : ctx.result.cases) {
        if (c.status != Status::Ok || !c.atRisk)
            continue;
        rows.push_back({QString::number(c.index + 1), qs(c.testCase.label()), qs(formatExposure(*c.atRisk)),
                        qs(c.atRisk->method)});
    }
    if (rows.empty())
        return;
    layout.heading(QStringLiteral("Durability: power-loss exposure"), 2, 80);
    layout.paragraph(
        QStringLiteral(
            "Max at risk: the most bytes acknowledged (the call returned) but not yet made durable by a "
            "completed sync, and the longest time such bytes waited for one; computed from each "
            "case's sync policy and the moments its syncs returned, not simulated. It is %1. "
            "'at most': an upper bound (several threads' peaks summed, or a buffer's size).")
            .arg(qs(kExposureMeaning)),
        8, kMuted);
    layout.table({{QStringLiteral("#"), 2, Qt::AlignRight},
                  {QStringLiteral("Case"), 14},
                  {QStringLiteral("Max at risk"), 7, Qt::AlignRight},
                  {QStringLiteral("How the data becomes durable"), 14}},
                 rows, 7);
}

// Every repetition, warm-ups included, with its figures.
void appendixSection(Layout& layout, const ReportContext& ctx)
{
    const RunResult& result = ctx.result;
    layout.heading(QStringLiteral("Appendix: every repetition"));
    std::vector<QStringList> reps;
    std::vector<bool> repOk;
    for (const auto& c : result.cases) {
        for (const auto& r : c.repetitions) {
            reps.push_back(
                {QString::number(c.index + 1),
                 r.warmup ? QStringLiteral("warm-up") : QString::number(r.index),
                 r.outcome.ok() ? QStringLiteral("ok") : qs(toString(r.outcome.status)), // reason above
                 qs(formatBytesCompact(r.bytes)), QString::number(r.returnSeconds, 'f', 4),
                 QString::number(r.durableSeconds, 'f', 4), QString::number(r.apparentMBps, 'f', 1),
                 QString::number(r.durableMBps, 'f', 1), QString::number(r.cpuUserSeconds, 'f', 3),
                 QString::number(r.cpuSystemSeconds, 'f', 3), qs(formatBytes(r.peakRssBytes)),
                 r.deviceObserved ? qs(formatBytes(r.deviceWrittenBytes)) : QStringLiteral("-")});
            repOk.push_back(r.outcome.ok());
        }
    }
    layout.table({{QStringLiteral("#"), 2, Qt::AlignRight},
                  {QStringLiteral("Rep"), 5},
                  {QStringLiteral("Status"), 8},
                  {QStringLiteral("Bytes"), 4, Qt::AlignRight},
                  {QStringLiteral("Return s"), 5, Qt::AlignRight},
                  {QStringLiteral("Durable s"), 5, Qt::AlignRight},
                  {QStringLiteral("Apparent MB/s"), 6, Qt::AlignRight},
                  {QStringLiteral("Durable MB/s"), 6, Qt::AlignRight},
                  {QStringLiteral("CPU user s"), 5, Qt::AlignRight},
                  {QStringLiteral("CPU sys s"), 5, Qt::AlignRight},
                  {QStringLiteral("Peak RSS"), 6, Qt::AlignRight},
                  {QStringLiteral("Device wrote"), 6.5, Qt::AlignRight}},
                 reps, 6.5, [&](std::size_t i) { return repOk[i] ? kText : kBad; });
}

// Each case as a fio job file, to rerun the workload elsewhere (`iolab-cli export-job` prints one).
void fioJobsSection(Layout& layout, const ReportContext& ctx)
{
    const RunResult& result = ctx.result;
    if (result.cases.empty())
        return;
    layout.heading(QStringLiteral("Appendix: the cases as fio jobs"), 1, 120);
    layout.paragraph(
        QStringLiteral("To rerun a case with fio: save its job as a file and run fio FILE. Lines starting "
                       "with \"; differs:\" say where fio's job is not what IOLab measured."),
        8.5, kMuted);
    for (std::size_t i = 0; i < result.cases.size(); ++i) {
        layout.space(4);
        layout.code(qs(fioJobOf(result, i).text).trimmed());
    }
}

// A row of coloured swatches with their names under a chart, wrapped as the bars' legend is.
double drawChartLegend(Layout& layout, const QStringList& names, double top, bool dashedToo = false)
{
    QPainter& p = layout.painter();
    const QFont legendFont = font(7);
    const QFontMetricsF metrics(legendFont, p.device());
    const double lineHeight = 10;
    const LegendLayout legend = LegendLayout::fit(
        names, [&](const QString& text) { return metrics.horizontalAdvance(text); }, layout.width(),
        lineHeight, dashedToo ? 22 : 12);
    p.setFont(legendFont);
    for (std::size_t v = 0; v < legend.entries.size(); ++v) {
        const auto& e = legend.entries[v];
        const double x = layout.left() + e.x;
        const double y = top + e.y;
        if (dashedToo) {
            p.setPen(QPen(chartColour(v), 1.6));
            p.drawLine(QPointF(x, y + 5), QPointF(x + 8, y + 5));
            p.setPen(QPen(chartColour(v), 1.0, Qt::DashLine));
            p.drawLine(QPointF(x + 10, y + 5), QPointF(x + 18, y + 5));
        } else {
            p.fillRect(QRectF(x, y + 1, 8, 8), chartColour(v));
        }
        p.setPen(kText);
        const double textLeft = x + (dashedToo ? 22 : 12);
        for (qsizetype line = 0; line < e.lines.size(); ++line)
            p.drawText(QRectF(textLeft, y + lineHeight * static_cast<double>(line),
                              legend.columnWidth - (dashedToo ? 22 : 12), lineHeight),
                       Qt::AlignLeft | Qt::AlignVCenter, e.lines[line]);
    }
    return legend.height;
}

double legendHeight(Layout& layout, const QStringList& names, bool dashedToo = false)
{
    const QFontMetricsF metrics(font(7), layout.painter().device());
    return LegendLayout::fit(
               names, [&](const QString& text) { return metrics.horizontalAdvance(text); }, layout.width(),
               10, dashedToo ? 22 : 12)
        .height;
}

// The histograms on a log time axis: per curve a step line of its bins' shares, and its p50, p99 and p99.9
// as vertical rules (dotted, dashed, dash-dotted) in its colour.
void drawLatencyChart(Layout& layout, const LatencyChartData& d)
{
    if (d.empty())
        return;
    QPainter& p = layout.painter();
    QStringList names;
    for (const auto& curve : d.curves)
        names << curve.name;
    const double plotHeight = 150;
    const QRectF area = layout.take(plotHeight + 34 + legendHeight(layout, names));
    const QRectF plot(area.left() + 40, area.top() + 10, area.width() - 50, plotHeight);
    const double lo = std::log10(d.minNs);
    const double hi = std::log10(d.maxNs);
    const auto xFor = [&](double ns) {
        return plot.left() + plot.width() * (std::log10(std::max(ns, 1e-3)) - lo) / (hi - lo);
    };
    const BarScale shares =
        BarScale::fit(std::max(d.maxShare * 100, 0.1), std::max(d.maxShare * 100, 0.1), 1.15);
    const auto yFor = [&](double share) {
        return plot.bottom() - plot.height() * shares.position(share * 100);
    };
    p.setFont(font(6.5));
    for (const double t : d.ticks()) {
        const double x = xFor(t);
        p.setPen(QPen(kRule, 0.4));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        p.setPen(kMuted);
        p.drawText(QRectF(x - 30, plot.bottom() + 2, 60, 10), Qt::AlignCenter, latencyTickLabel(t));
    }
    for (const double v : shares.ticks) {
        const double y = yFor(v / 100);
        p.setPen(QPen(kRule, 0.4));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(kMuted);
        p.drawText(QRectF(area.left(), y - 6, 36, 12), Qt::AlignRight | Qt::AlignVCenter,
                   BarScale::tickLabel(v) + QStringLiteral("%"));
    }
    p.save();
    p.translate(area.left() + 4, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-80, -8, 160, 12), Qt::AlignCenter,
               d.kind == LatencyKind::Calls ? QStringLiteral("share of calls")
                                            : QStringLiteral("share of syncs"));
    p.restore();
    p.save();
    p.setClipRect(plot.adjusted(-1, -10, 1, 1));
    for (std::size_t i = 0; i < d.curves.size(); ++i) {
        const auto& curve = d.curves[i];
        QPainterPath path;
        path.moveTo(xFor(curve.bins.front().lowNs), plot.bottom());
        for (const auto& bin : curve.bins) {
            path.lineTo(xFor(bin.lowNs), yFor(bin.share));
            path.lineTo(xFor(bin.highNs), yFor(bin.share));
        }
        path.lineTo(xFor(curve.bins.back().highNs), plot.bottom());
        p.setPen(QPen(chartColour(i), 1.1));
        p.drawPath(path);
        for (std::size_t m = 0; m < curve.markers.size(); ++m) {
            const auto& marker = curve.markers[m];
            if (marker.ns <= 0)
                continue;
            const double x = xFor(marker.ns);
            const double top = plot.top() + 8 * static_cast<double>(m) + 7 * static_cast<double>(i % 3);
            p.setPen(QPen(chartColour(i), 0.8,
                          m == 0   ? Qt::DotLine
                          : m == 1 ? Qt::DashLine
                                   : Qt::DashDotLine));
            p.drawLine(QPointF(x, top + 2), QPointF(x, plot.bottom()));
            p.setFont(font(5.5));
            p.setPen(chartColour(i));
            p.drawText(QRectF(x + 1.5, top - 5, 30, 8), Qt::AlignLeft | Qt::AlignVCenter, marker.name);
        }
    }
    p.restore();
    p.setPen(QPen(kText, 0.6));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    drawChartLegend(layout, names, plot.bottom() + 16);
}

// MB/s against the queue depth on a log2 axis, and each series' p99 dashed on the right-hand axis.
void drawQdSweep(Layout& layout, const QdSweepData& d)
{
    if (d.empty())
        return;
    QPainter& p = layout.painter();
    QStringList names;
    for (const auto& s : d.series)
        names << s.name;
    const double plotHeight = 150;
    const QRectF area = layout.take(plotHeight + 34 + legendHeight(layout, names, d.hasLatency()));
    const QRectF plot(area.left() + 40, area.top() + 10, area.width() - (d.hasLatency() ? 84 : 50),
                      plotHeight);
    const auto ticks = d.ticks();
    const double lo = std::log2(ticks.front() / 1.4);
    const double hi = std::log2(ticks.back() * 1.4);
    const auto xFor = [&](double qd) {
        return plot.left() + plot.width() * (std::log2(qd) - lo) / (hi - lo);
    };
    const BarScale rate = BarScale::fit(d.maxMBps, d.maxMBps, 1.1);
    const auto yRate = [&](double v) {
        return plot.bottom() - plot.height() * rate.position(v);
    };
    // The latency axis in the unit its largest value reads best in, with steps of its own.
    const bool ms = d.maxLatencyNs >= 1e6;
    const double unitNs = ms ? 1e6 : 1e3;
    const double latencyMax = std::max(d.maxLatencyNs, 1.0) / unitNs;
    const BarScale latency = BarScale::fit(latencyMax, latencyMax, 1.1);
    const auto yLatency = [&](double ns) {
        return plot.bottom() - plot.height() * latency.position(ns / unitNs);
    };
    p.setFont(font(6.5));
    for (const auto t : ticks) {
        const double x = xFor(t);
        p.setPen(QPen(kRule, 0.4));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        p.setPen(kMuted);
        p.drawText(QRectF(x - 20, plot.bottom() + 2, 40, 10), Qt::AlignCenter, QString::number(t));
    }
    for (const double t : rate.ticks) {
        const double y = yRate(t);
        p.setPen(QPen(kRule, 0.4));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(kMuted);
        p.drawText(QRectF(area.left(), y - 6, 36, 12), Qt::AlignRight | Qt::AlignVCenter,
                   BarScale::tickLabel(t));
    }
    if (d.hasLatency()) {
        for (const double t : latency.ticks)
            p.drawText(QRectF(plot.right() + 3, yLatency(t * unitNs) - 6, 32, 12),
                       Qt::AlignLeft | Qt::AlignVCenter, BarScale::tickLabel(t));
    }
    p.save();
    p.translate(area.left() + 4, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-80, -8, 160, 12), Qt::AlignCenter, QStringLiteral("MB/s (solid)"));
    p.restore();
    if (d.hasLatency()) {
        p.save();
        p.translate(area.right() - 4, plot.center().y());
        p.rotate(90);
        p.drawText(QRectF(-80, -8, 160, 12), Qt::AlignCenter,
                   QStringLiteral("p%1 latency, %2 (dashed)")
                       .arg(d.percentile)
                       .arg(ms ? QStringLiteral("ms") : QStringLiteral("us")));
        p.restore();
    }
    // The latency target: a line across at its value on the latency axis, named.
    if (d.target && d.hasLatency()) {
        const double y = yLatency(d.target->seconds * 1e9);
        p.setPen(QPen(kBad, 0.9, Qt::DashDotLine));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setFont(font(6.5, true));
        p.setPen(kBad);
        p.drawText(QRectF(plot.left() + 3, y - 11, plot.width() - 6, 10), Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("target: %1").arg(qs(toString(*d.target))));
        p.setFont(font(6.5));
    }
    p.drawText(QRectF(plot.left(), plot.bottom() + 11, plot.width(), 10), Qt::AlignCenter,
               QStringLiteral("queue depth (requests in flight)"));
    for (std::size_t i = 0; i < d.series.size(); ++i) {
        const auto& s = d.series[i];
        QPainterPath line;
        QPainterPath tail;
        for (const auto& pt : s.points) {
            const QPointF at(xFor(pt.queueDepth), yRate(pt.mbps));
            line.elementCount() == 0 ? line.moveTo(at) : line.lineTo(at);
            if (pt.latencyNs) {
                const QPointF l(xFor(pt.queueDepth), yLatency(*pt.latencyNs));
                tail.elementCount() == 0 ? tail.moveTo(l) : tail.lineTo(l);
            }
        }
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(chartColour(i), 1.3));
        p.drawPath(line);
        p.setBrush(chartColour(i));
        for (int e = 0; e < line.elementCount(); ++e)
            p.drawEllipse(QPointF(line.elementAt(e).x, line.elementAt(e).y), 1.6, 1.6);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(chartColour(i), 0.9, Qt::DashLine));
        p.drawPath(tail);
    }
    p.setPen(QPen(kText, 0.6));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    drawChartLegend(layout, names, plot.bottom() + 24, d.hasLatency());
}

// "12.3 us" from nanoseconds.
QString latencyCell(double ns)
{
    return latencyLabel(ns);
}

// A CrystalDiskMark-style grid, when the run has one, as a compact table right after the summary.
void cdmSection(Layout& layout, const ReportContext& ctx)
{
    if (!ctx.registry)
        return;
    const auto grid = cdmGrid(ctx.result, *ctx.registry);
    if (!grid)
        return;
    layout.heading(QStringLiteral("CrystalDiskMark-style grid"), 2, 120);
    std::vector<QStringList> rows;
    QStringList notes;
    std::uint32_t repetitions = 0;
    for (const auto& row : grid->rows) {
        QStringList cells{qs(row.name)};
        for (std::size_t i = 0; i < 2; ++i) {
            const CdmCell& c = row.cells[i];
            repetitions = std::max(repetitions, c.repetitions);
            if (c.repetitions == 0) {
                cells << QStringLiteral("\u2014") << QStringLiteral("not measured");
            } else {
                cells << QStringLiteral("%1%2")
                             .arg(c.medianMBps, 0, 'f', 2)
                             .arg(c.note.empty() ? QString() : QStringLiteral("*"))
                      << (c.repetitions > 1 ? QStringLiteral("%1 \u2013 %2 MB/s")
                                                  .arg(c.lowMBps, 0, 'f', 1)
                                                  .arg(c.highMBps, 0, 'f', 1)
                                            : QStringLiteral("1 repetition")) +
                             QStringLiteral("\n%1 IOPS \u00b7 p99 %2")
                                 .arg(QLocale().toString(c.iops, 'f', 0),
                                      c.p99Ns ? latencyCell(static_cast<double>(*c.p99Ns))
                                              : QStringLiteral("n/a"));
            }
            if (!c.note.empty())
                notes << QStringLiteral("%1 %2: %3")
                             .arg(qs(row.name), i == 0 ? QStringLiteral("read") : QStringLiteral("write"),
                                  qs(c.note));
        }
        rows.push_back(cells);
    }
    layout.table({{QStringLiteral("Test"), 1.2},
                  {QStringLiteral("Read MB/s"), 1.1, Qt::AlignRight},
                  {QStringLiteral("Read spread, IOPS, p99"), 2.2, Qt::AlignRight},
                  {QStringLiteral("Write MB/s"), 1.1, Qt::AlignRight},
                  {QStringLiteral("Write spread, IOPS, p99"), 2.2, Qt::AlignRight}},
                 rows, 8);
    layout.paragraph(
        QStringLiteral("Median of %1 repetitions with the slowest and fastest; CrystalDiskMark shows "
                       "the best of N. * a stand-in case.")
            .arg(repetitions),
        7.5, kMuted);
    for (const auto& note : notes)
        layout.paragraph(note, 7, kMuted, 8);
}

// The percentiles of every case whose calls were timed (its sync calls on a row of their own), then per
// comparison group the histograms, a few cases to a chart.
void latencySection(Layout& layout, const ReportContext& ctx)
{
    const RunResult& result = ctx.result;
    const auto timed = [](const CaseResult& c) {
        return latencyOf(c, LatencyKind::Calls) != nullptr || latencyOf(c, LatencyKind::SyncCalls) != nullptr;
    };
    if (std::none_of(result.cases.begin(), result.cases.end(), timed))
        return;
    layout.heading(QStringLiteral("Latency"), 1, 120);
    layout.paragraph(
        QStringLiteral(
            "How long each timed call took (a write, a read, a queued request until it completed), over "
            "the measured repetitions: half the calls took at most p50, all but one in a hundred at "
            "most p99. Sync rows: the fsync or fdatasync calls of a case that made some; reads and writes "
            "rows: "
            "a read/write mix's two ways apart."),
        8, kMuted);
    std::vector<QStringList> rows;
    const auto row = [&rows](const CaseResult& c, const QString& of, const LatencySummary& s) {
        rows.push_back({caseShortName(c), of, QLocale().toString(static_cast<qulonglong>(s.count)),
                        latencyCell(s.meanNs), latencyCell(static_cast<double>(s.p50Ns)),
                        latencyCell(static_cast<double>(s.p90Ns)), latencyCell(static_cast<double>(s.p99Ns)),
                        latencyCell(static_cast<double>(s.p999Ns)),
                        latencyCell(static_cast<double>(s.p9999Ns)),
                        latencyCell(static_cast<double>(s.maxNs))});
    };
    for (const auto& c : result.cases) {
        for (const LatencyKind kind : {LatencyKind::Calls, LatencyKind::SyncCalls}) {
            if (const LatencyDistribution* d = latencyOf(c, kind))
                row(c, kind == LatencyKind::Calls ? QStringLiteral("calls") : QStringLiteral("sync"),
                    d->summary);
            // A read/write mix: its reads and its writes apart, under the calls of both.
            if (kind == LatencyKind::Calls && c.mix) {
                if (c.mix->readLatency)
                    row(c, QStringLiteral("reads"), c.mix->readLatency->summary);
                if (c.mix->writeLatency)
                    row(c, QStringLiteral("writes"), c.mix->writeLatency->summary);
            }
        }
    }
    const Qt::Alignment right = Qt::AlignRight;
    layout.table({{QStringLiteral("Case"), 3.4},
                  {QStringLiteral("Of"), 0.8},
                  {QStringLiteral("Calls"), 1.1, right},
                  {QStringLiteral("Mean"), 0.9, right},
                  {QStringLiteral("p50"), 0.9, right},
                  {QStringLiteral("p90"), 0.9, right},
                  {QStringLiteral("p99"), 0.9, right},
                  {QStringLiteral("p99.9"), 0.9, right},
                  {QStringLiteral("p99.99"), 0.9, right},
                  {QStringLiteral("Max"), 0.9, right}},
                 rows, 7);
    std::set<std::string> notTimed;
    for (const auto& c : result.cases) {
        if (!timed(c) && c.status == Status::Ok && !c.latencyChoice.empty())
            notTimed.insert(c.latencyChoice);
    }
    for (const auto& reason : notTimed)
        layout.paragraph(QStringLiteral("Other cases, %1").arg(qs(reason)), 7.5, kMuted);
    constexpr std::size_t kCurvesPerChart = 4;
    for (const auto& [group, indices] : ctx.byGroup) {
        std::vector<CaseResult> cases;
        for (const std::size_t i : indices)
            cases.push_back(result.cases[i]);
        for (const LatencyKind kind : {LatencyKind::Calls, LatencyKind::SyncCalls}) {
            std::vector<std::size_t> withLatency;
            for (std::size_t i = 0; i < cases.size(); ++i) {
                if (latencyOf(cases[i], kind))
                    withLatency.push_back(i);
            }
            for (std::size_t from = 0; from < withLatency.size(); from += kCurvesPerChart) {
                const std::vector<std::size_t> chosen(
                    withLatency.begin() + static_cast<std::ptrdiff_t>(from),
                    withLatency.begin() +
                        static_cast<std::ptrdiff_t>(std::min(withLatency.size(), from + kCurvesPerChart)));
                const LatencyChartData chart = LatencyChartData::from(cases, kind, chosen);
                layout.heading(
                    QStringLiteral("%1: latency of the %2%3")
                        .arg(groupHeading(group),
                             kind == LatencyKind::Calls ? QStringLiteral("calls")
                                                        : QStringLiteral("sync calls"),
                             withLatency.size() > kCurvesPerChart
                                 ? QStringLiteral(" (%1 of %2)")
                                       .arg(from / kCurvesPerChart + 1)
                                       .arg((withLatency.size() + kCurvesPerChart - 1) / kCurvesPerChart)
                                 : QString()),
                    2, 210);
                drawLatencyChart(layout, chart);
            }
        }
    }
    layout.paragraph(
        QStringLiteral("Bins of a third of an octave; rules: p50 dotted, p99 dashed, p99.9 dash-dotted."), 7,
        kMuted);
}

// Rate and p99 against the queue depth, when the run varies it among cases otherwise equal.
void qdSection(Layout& layout, const ReportContext& ctx)
{
    const QdSweepData d = QdSweepData::from(ctx.result.cases, ctx.ranking(), ctx.result.matrix.latencyTarget);
    if (d.empty())
        return;
    layout.heading(QStringLiteral("Queue depth"), 1, 230);
    layout.paragraph(
        QStringLiteral("Each line: cases equal in every axis but the queue depth. A deeper queue raises "
                       "the rate while the device has parallelism left, and each request waits "
                       "longer."),
        8, kMuted);
    drawQdSweep(layout, d);
}

// One op size's methods as the app's Sync lab tab paints them (app/report/sync_lab_paint.h).
void drawSyncLabBars(Layout& layout, const SyncLabChartData::OpSize& size)
{
    constexpr double kRowPoints = 12;
    const QRectF area = layout.take(SyncLabChartGeometry::heightFor(size.bars.size(), kRowPoints));
    const SyncLabChartGeometry geometry(area, size, kRowPoints, area.width() * 0.36, true);
    SyncLabPaintStyle style;
    style.labelFont = font(7);
    style.tickFont = font(6.5);
    style.text = kText;
    style.muted = kMuted;
    style.rule = kRule;
    paintSyncLabChart(layout.painter(), geometry, size, style);
}

// The sync lab (issue 17), right after the summary when the run compares ways of making writes durable: its
// verdicts, each op size's methods as bars with their p99 whiskers, and the figures pg_test_fsync prints
// with the percentiles it does not.
void syncLabSection(Layout& layout, const ReportContext& ctx)
{
    const SyncLabChartData d = SyncLabChartData::from(ctx.result, ctx.registry);
    if (d.empty())
        return;
    layout.heading(QStringLiteral("Durability: the sync lab"), 1, 120);
    if (!d.stoppedText.isEmpty())
        layout.paragraph(d.stoppedText, 9, kBad);
    if (!d.fastestText.isEmpty())
        layout.paragraph(d.fastestText, 9);
    if (!d.etcdText.isEmpty())
        layout.paragraph(d.etcdText, 9, d.etcdOk == false ? kBad : kText);
    // One or two methods of an op size: the table says it all.
    const auto charted = [](const SyncLabChartData::OpSize& size) {
        return size.bars.size() >= 3;
    };
    if (std::any_of(d.sizes.begin(), d.sizes.end(), charted))
        layout.paragraph(
            QStringLiteral(
                "Bars: ops per second (the median repetition), fastest on top; green: durable when "
                "each write returns (the fastest darker); orange: durable by the book, but its "
                "flushes returned too fast to be trusted; grey: not durable at each write. Whisker "
                "(durable methods): the rate if every op's durable call took its 99th percentile (a "
                "sync also pays its write's median); the further left of the bar's end, the slower "
                "the tail."),
            7.5, kMuted);
    for (const auto& size : d.sizes) {
        if (!charted(size))
            continue;
        layout.heading(SyncLabChartData::sizeName(size), 2,
                       SyncLabChartGeometry::heightFor(size.bars.size(), 12));
        drawSyncLabBars(layout, size);
    }
    std::vector<QStringList> rows;
    std::vector<QColor> colours;
    for (const auto& size : d.sizes) {
        for (const auto& bar : size.bars) {
            const auto cell = [&bar](std::uint64_t LatencySummary::*field) {
                return bar.latency ? latencyCell(static_cast<double>((*bar.latency).*field))
                                   : QStringLiteral("-");
            };
            rows.push_back(
                {bar.label, qs(formatBytesCompact(size.bytes)), syncLabOpsText(bar.opsPerSecond),
                 latencyCell(bar.usPerOp * 1e3), cell(&LatencySummary::p50Ns), cell(&LatencySummary::p99Ns),
                 cell(&LatencySummary::p999Ns), cell(&LatencySummary::maxNs),
                 bar.durableCall.isEmpty() ? QStringLiteral("-") : bar.durableCall,
                 bar.kind == SyncLabChartData::Kind::NotDurable ? bar.why
                                                                : SyncLabChartData::kindName(bar.kind)});
            colours.push_back(bar.kind == SyncLabChartData::Kind::Durable ? kText : kMuted);
        }
    }
    layout.heading(QStringLiteral("Every method, as pg_test_fsync counts it"), 2, 60);
    layout.table({{QStringLiteral("Method"), 10},
                  {QStringLiteral("Op"), 2.2, Qt::AlignRight},
                  {QStringLiteral("ops/s"), 3.2, Qt::AlignRight},
                  {QStringLiteral("per op"), 3.2, Qt::AlignRight},
                  {QStringLiteral("p50"), 3.2, Qt::AlignRight},
                  {QStringLiteral("p99"), 3.2, Qt::AlignRight},
                  {QStringLiteral("p99.9"), 3.2, Qt::AlignRight},
                  {QStringLiteral("max"), 3.2, Qt::AlignRight},
                  {QStringLiteral("Of the call"), 5.5},
                  {QStringLiteral("Durable"), 9}},
                 rows, 6.5, [&colours](std::size_t i) { return colours[i]; });
}

// A write until steady's rate over its longest repetition: the samples, the rate at full speed until the
// drop and the rate after it (dashed), the drop (dotted) and the window where the rate settled (shaded).
void drawSustainedChart(Layout& layout, const SustainedFigures& f)
{
    constexpr double kHeight = 170;
    const QRectF cell = layout.take(kHeight + 14);
    const QRectF plot(cell.left() + 34, cell.top() + 4, cell.width() - 40, kHeight - 22);
    QPainter& p = layout.painter();
    const double end = std::max(f.points.back().seconds, 0.1);
    double top = 0;
    for (const auto& pt : f.points)
        top = std::max(top, pt.mbps);
    top = std::max(top * 1.1, 1.0);
    const auto at = [&](double seconds, double mbps) {
        return QPointF(plot.left() + plot.width() * seconds / end,
                       plot.bottom() - plot.height() * mbps / top);
    };
    if (f.steady) {
        QColor shade = seriesColour(2);
        shade.setAlpha(40);
        p.fillRect(QRectF(at(f.steady->fromSeconds, top), at(std::min(f.steady->reachedSeconds, end), 0)),
                   shade);
    }
    p.setPen(QPen(kRule, 0.4));
    p.drawRect(plot);
    p.setFont(font(6));
    p.setPen(kMuted);
    for (const double v : {0.0, top / 2, top})
        p.drawText(QRectF(cell.left(), at(0, v).y() - 4, 31, 8), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(v, 'f', 0));
    p.drawText(QRectF(plot.left(), plot.bottom() + 2, plot.width(), 9), Qt::AlignLeft | Qt::AlignVCenter,
               f.deviceRate ? QStringLiteral("MB/s the device wrote, every 0.1 s")
                            : QStringLiteral("MB/s written, every 0.1 s"));
    p.drawText(QRectF(plot.left(), plot.bottom() + 2, plot.width(), 9), Qt::AlignRight | Qt::AlignVCenter,
               QStringLiteral("%1 s").arg(end, 0, 'f', 1));
    QPainterPath path;
    for (std::size_t i = 0; i < f.points.size(); ++i) {
        const QPointF pt = at(f.points[i].seconds, f.points[i].mbps);
        if (i == 0)
            path.moveTo(pt);
        else
            path.lineTo(pt);
    }
    p.setPen(QPen(seriesColour(0), 0.9));
    p.drawPath(path);
    const double drop = f.cacheBytes ? f.cacheSeconds : end;
    // Each rate's words above its line, on a pale ground so that the samples under them do not hide them.
    const auto label = [&](const QPointF& where, const QString& text, const QColor& colour) {
        const QFont bold = font(6.5, true);
        p.setFont(bold);
        const double width = QFontMetricsF(bold, p.device()).horizontalAdvance(text) + 4;
        const QRectF box(where.x() + 3, std::max(plot.top() + 1, where.y() - 12), width, 10);
        p.fillRect(box, QColor(255, 255, 255, 215));
        p.setPen(colour);
        p.drawText(box.adjusted(2, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
    };
    p.setPen(QPen(seriesColour(1), 1.6, Qt::DashLine));
    p.drawLine(at(0, f.fastMBps), at(drop, f.fastMBps));
    label(at(0, f.fastMBps),
          f.cacheBytes
              ? QStringLiteral("full speed: %1 for %2").arg(rate(f.fastMBps), qs(formatBytes(*f.cacheBytes)))
              : QStringLiteral("median: %1").arg(rate(f.fastMBps)),
          seriesColour(1));
    if (f.cacheBytes) {
        p.setPen(QPen(seriesColour(3), 0.9, Qt::DotLine));
        p.drawLine(at(drop, 0), at(drop, top));
        p.setPen(QPen(seriesColour(4), 1.6, Qt::DashLine));
        p.drawLine(at(drop, f.afterMBps), at(end, f.afterMBps));
        label(at(drop, f.afterMBps),
              QStringLiteral("after the drop (%1 s): %2").arg(drop, 0, 'f', 1).arg(rate(f.afterMBps)),
              seriesColour(4));
    }
}

// Writes until steady: how much went at full speed and how fast after, each with its chart and figures.
void sustainedSection(Layout& layout, const ReportContext& ctx)
{
    bool headed = false;
    for (const CaseResult& c : ctx.result.cases) {
        const auto f = sustainedFigures(c);
        if (!f || f->points.size() < 3)
            continue;
        if (!std::exchange(headed, true))
            layout.heading(QStringLiteral("Sustained write: full speed, the drop and the rate after it"), 1,
                           260);
        layout.heading(qs(findingSubject(c)), 2, 230);
        layout.paragraph(qs(sustainedAnswer(c)), 9);
        drawSustainedChart(layout, *f);
        layout.keyValues({
            {QStringLiteral("At full speed"), rate(f->fastMBps)},
            {QStringLiteral("Fast cache"), f->cacheBytes ? QStringLiteral("%1, full after %2 s")
                                                               .arg(qs(formatBytes(*f->cacheBytes)))
                                                               .arg(f->cacheSeconds, 0, 'f', 1)
                                                         : QStringLiteral("no drop seen")},
            {QStringLiteral("After the drop"), f->cacheBytes ? rate(f->afterMBps) : QStringLiteral("-")},
            {QStringLiteral("Steady"),
             f->steady ? QStringLiteral("%1 from %2 s (a %3 window)")
                             .arg(rate(f->steady->mbps))
                             .arg(f->steady->fromSeconds, 0, 'f', 1)
                             .arg(qs(formatTimeLimitMs(c.testCase.steady.windowMs)))
                       : QStringLiteral("not reached: the size or time limit ended the write")},
            {QStringLiteral("Written"),
             QStringLiteral("%1 in %2 s").arg(qs(formatBytes(f->writtenBytes))).arg(f->seconds, 0, 'f', 1)},
        });
        layout.paragraph(
            QStringLiteral("The drop is where one step best splits the rate into a faster part and a slower "
                           "one (least squares), taken only when the faster is 1.5 times the slower and "
                           "four in five samples of each lie on their side. Steady: over the window, the "
                           "trend and the median spread of ten bins within 10% of the mean."),
            7.5, kMuted);
    }
}

using Section = void (*)(Layout&, const ReportContext&);

// The report, in reading order: the answer first, the evidence after it, every repetition last.
constexpr std::array<Section, 21> kSections = {
    &headerSection,   &summarySection,  &cdmSection,        &syncLabSection,      &sustainedSection,
    &machineSection,  &targetSection,   &systemSection,     &resultsSection,      &programSection,
    &exposureSection, &findingsSection, &crashProbeSection, &memoryBudgetSection, &chartsSection,
    &latencySection,  &qdSection,       &timelinesSection,  &matrixSection,       &appendixSection,
    &fioJobsSection};

void writeReport(Layout& layout, const RunResult& result, const QString& title, const ReportOptions& options,
                 const Registry* registry)
{
    const ReportContext ctx{
        result, options, registry, title, casesByGroup(result), findings(result, registry, options.ranking)};
    for (const Section section : kSections)
        section(layout, ctx);
    layout.finish();
}

QPageSize pageSizeFor(PageFormat format)
{
    if (format == PageFormat::Letter ||
        (format == PageFormat::Auto && QLocale::system().measurementSystem() == QLocale::ImperialUSSystem))
        return QPageSize(QPageSize::Letter);
    return QPageSize(QPageSize::A4);
}

// A report whose pages `body` draws (ending with layout.finish()), rendered twice: the first pass counts the
// pages so that every footer can say "page k of n". Vector throughout, one unit a point.
QByteArray renderTwice(const ReportOptions& options, const QString& title, const QString& creator,
                       const QString& footer, const std::function<void(Layout&)>& body)
{
    const auto once = [&](QIODevice& device, int totalPages) {
        QPdfWriter writer(&device);
        writer.setResolution(72);
        writer.setPageSize(pageSizeFor(options.page));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Point);
        writer.setTitle(title);
        writer.setCreator(creator);
        QPainter painter(&writer);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        Layout layout(writer, painter, totalPages, footer);
        body(layout);
        painter.end();
        return layout.pages();
    };
    QBuffer counting;
    counting.open(QIODevice::WriteOnly);
    const int pages = once(counting, 0);
    QBuffer out;
    out.open(QIODevice::WriteOnly);
    once(out, pages);
    return out.data();
}

// ---- a recorded program's profile ---------------------------------------------------------------------

QString programName(const ProgramProfile& profile)
{
    if (profile.processes.empty())
        return QStringLiteral("the program");
    const std::string& executable = profile.processes.front().executable;
    const std::size_t slash = executable.find_last_of("/\\");
    return qs(slash == std::string::npos ? executable : executable.substr(slash + 1));
}

QString commandLineOf(const TraceProcess& process)
{
    QStringList words;
    for (const std::string& argument : process.arguments)
        words << qs(argument);
    return words.isEmpty() ? qs(process.executable) : words.join(QLatin1Char(' '));
}

// "37 B", "4 KiB", or "33 B to 60 B": the sizes a histogram's bucket held.
QString bucketLabel(const SizeHistogram& sizes, std::size_t bucket)
{
    const std::uint64_t low = sizes.smallest[bucket];
    const std::uint64_t high = sizes.largest[bucket];
    if (low == high)
        return qs(formatBytes(low));
    return QStringLiteral("%1 to %2").arg(qs(formatBytes(low)), qs(formatBytes(high)));
}

void sizesTable(Layout& layout, const QString& title, const SizeHistogram& sizes)
{
    const std::uint64_t total = sizes.total();
    if (total == 0)
        return;
    std::vector<QStringList> rows;
    for (std::size_t b = 0; b < SizeHistogram::kBuckets; ++b) {
        if (sizes.calls[b] == 0)
            continue;
        rows.push_back(
            {bucketLabel(sizes, b), QLocale().toString(static_cast<qulonglong>(sizes.calls[b])),
             QStringLiteral("%1%").arg(
                 100.0 * static_cast<double>(sizes.calls[b]) / static_cast<double>(total), 0, 'f', 1)});
    }
    layout.heading(title, 2, 40);
    layout.table({{QStringLiteral("Bytes per call"), 6},
                  {QStringLiteral("Calls"), 4, Qt::AlignRight},
                  {QStringLiteral("Share"), 3, Qt::AlignRight}},
                 rows, 8);
}

QString fileLife(const FileProfile& f)
{
    switch (f.kind) {
    case FileKind::Terminal:
        return QStringLiteral("a terminal");
    case FileKind::Pipe:
        return QStringLiteral("a pipe or socket");
    case FileKind::Device:
        return QStringLiteral("a device");
    case FileKind::Regular:
        break;
    }
    QStringList words;
    if (f.creations > 0)
        words << (f.creations == 1 ? QStringLiteral("created")
                                   : QStringLiteral("created %1 times").arg(f.creations));
    if (f.appendOpens > 0)
        words << QStringLiteral("appended");
    if (f.replacedByRename > 0)
        words << QStringLiteral("replaced by a rename");
    if (f.renamedAway > 0)
        words << QStringLiteral("renamed");
    if (f.deletions > 0)
        words << QStringLiteral("deleted");
    return words.isEmpty() ? QStringLiteral("found") : words.join(QStringLiteral(", "));
}

void writeProfile(Layout& layout, const ProgramProfile& profile, const QString& tracePath,
                  const QString& title)
{
    layout.heading(title, 1, 60);
    const trace::System system =
        profile.processes.empty() ? trace::System::Linux : profile.processes.front().system;
    std::vector<std::pair<QString, QString>> facts;
    if (!profile.processes.empty()) {
        const TraceProcess& first = profile.processes.front();
        facts.emplace_back(QStringLiteral("Program"), commandLineOf(first));
        if (!first.workingFolder.empty())
            facts.emplace_back(QStringLiteral("Working folder"), qs(first.workingFolder));
        if (first.startRealtimeNs != 0)
            facts.emplace_back(
                QStringLiteral("Started"),
                QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(first.startRealtimeNs / 1'000'000))
                    .toString(Qt::ISODate));
    }
    facts.emplace_back(QStringLiteral("Recorded on"), system == trace::System::Windows
                                                          ? QStringLiteral("Windows")
                                                          : QStringLiteral("Linux"));
    const bool imported = std::any_of(profile.notes.begin(), profile.notes.end(),
                                      [](const TraceNote& n) { return n.kind == trace::NoteKind::Imported; });
    facts.emplace_back(QStringLiteral("Trace"),
                       QStringLiteral("%1 (%2)").arg(tracePath, imported
                                                                    ? QStringLiteral("imported")
                                                                    : QStringLiteral("recorded by IOLab")));
    facts.emplace_back(QStringLiteral("Processes, threads"),
                       QStringLiteral("%1, %2").arg(profile.processes.size()).arg(profile.threads));
    layout.keyValues(facts);

    // The profile's own words: the answer first, then (after the files, which the table shows) what the
    // recorder could not see.
    const std::vector<std::string> lines = describeProgramProfile(profile);
    std::vector<QString> answer;
    std::vector<QString> after;
    bool inFiles = false;
    bool pastFiles = false;
    for (const std::string& line : lines) {
        if (line.starts_with("Files (")) {
            inFiles = true;
            continue;
        }
        if (inFiles && line.starts_with("  "))
            continue;
        if (inFiles) {
            inFiles = false;
            pastFiles = true;
        }
        (pastFiles ? after : answer).push_back(qs(line));
    }
    layout.heading(QStringLiteral("What it does with files"), 1, 40);
    for (const QString& line : answer)
        layout.paragraph(line, 9.5);

    std::vector<QStringList> rows;
    for (const FileProfile& f : profile.files) {
        QStringList writes;
        for (const auto& [call, count] : f.calls) {
            if (isReplayWrite(call))
                writes << QStringLiteral("%1 %2").arg(QLocale().toString(static_cast<qulonglong>(count)),
                                                      qs(callName(call, system)));
        }
        const std::uint64_t ordered = f.sequentialWrites + f.randomWrites;
        rows.push_back({qs(f.path), qs(formatBytes(f.bytesWritten)), writes.join(QStringLiteral(", ")),
                        f.bytesRead > 0 ? qs(formatBytes(f.bytesRead)) : QStringLiteral("-"),
                        QLocale().toString(static_cast<qulonglong>(f.syncs)),
                        ordered == 0 ? QStringLiteral("-")
                                     : QStringLiteral("%1%").arg(100.0 * static_cast<double>(f.randomWrites) /
                                                                     static_cast<double>(ordered),
                                                                 0, 'f', 0),
                        fileLife(f)});
    }
    if (!rows.empty()) {
        layout.heading(QStringLiteral("Its files"), 1, 40);
        layout.paragraph(QStringLiteral("Out of order: the share of its writes that did not start where the "
                                        "previous one ended. Syncs: the calls that made the file durable "
                                        "(fsync, fdatasync, FlushFileBuffers...)."),
                         8.5);
        layout.table({{QStringLiteral("File"), 14},
                      {QStringLiteral("Written"), 3.5, Qt::AlignRight},
                      {QStringLiteral("Write calls"), 7},
                      {QStringLiteral("Read"), 3, Qt::AlignRight},
                      {QStringLiteral("Syncs"), 2.5, Qt::AlignRight},
                      {QStringLiteral("Out of order"), 3, Qt::AlignRight},
                      {QStringLiteral("Its life"), 6}},
                     rows, 7);
    }
    sizesTable(layout, QStringLiteral("Its writes by size"), profile.writeSizes);
    sizesTable(layout, QStringLiteral("Its reads by size"), profile.readSizes);
    if (!after.empty()) {
        layout.heading(QStringLiteral("What the recorder could not see"), 1, 40);
        for (const QString& line : after)
            layout.paragraph(line, 9);
    }
}

} // namespace

QByteArray renderProfilePdf(const ProgramProfile& profile, const QString& tracePath,
                            const ReportOptions& options)
{
    const QString title = options.title.isEmpty()
                              ? QStringLiteral("What %1 does with files").arg(programName(profile))
                              : options.title;
    return renderTwice(options, title, QStringLiteral("IOLab"),
                       QStringLiteral("%1 · %2").arg(title, tracePath), [&](Layout& layout) {
                           writeProfile(layout, profile, tracePath, title);
                           layout.finish();
                       });
}

QColor findingColour(Finding::Kind kind)
{
    return findingKind(kind).mark == FindingMark::Bad ? kBad : kText;
}

QByteArray renderPdfReport(const RunResult& result, const ReportOptions& options, const Registry* registry)
{
    const QString title = options.title.isEmpty() ? reportTitle(result) : options.title;
    return renderTwice(
        options, title, QStringLiteral("IOLab %1").arg(qs(result.toolVersion)),
        QStringLiteral("%1 · %2 · %3").arg(title, qs(result.target.path), qs(result.startedAt)),
        [&](Layout& layout) { writeReport(layout, result, title, options, registry); });
}

} // namespace iolab::report
