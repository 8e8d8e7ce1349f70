// SPDX-License-Identifier: MIT
#include "app/report/chart_layout.h"

#include <algorithm>
#include <cmath>

namespace iolab::report {

namespace {

constexpr double kEpsilon = 1e-9;

// The next value of the 1, 2, 5 series at or above (below) `v`.
double niceUp(double v)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(v)));
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * magnitude >= v * (1 - kEpsilon))
            return m * magnitude;
    }
    return 10 * magnitude;
}

double niceDown(double v)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(v)));
    for (const double m : {10.0, 5.0, 2.0, 1.0}) {
        if (m * magnitude <= v * (1 + kEpsilon))
            return m * magnitude;
    }
    return magnitude;
}

bool isBreakAfter(QChar c)
{
    return c == QLatin1Char('-') || c == QLatin1Char('=') || c == QLatin1Char(',') || c == QLatin1Char('/') ||
           c == QLatin1Char('_');
}

struct Piece
{
    QString text;
    bool spaceBefore = false;
};

// Words, and within words the parts that end at a break character.
std::vector<Piece> pieces(const QString& text)
{
    std::vector<Piece> out;
    Piece current;
    bool pendingSpace = false;
    for (const QChar c : text) {
        if (c == QLatin1Char(' ')) {
            if (!current.text.isEmpty()) {
                out.push_back(current);
                current = {};
            }
            pendingSpace = true;
            continue;
        }
        if (current.text.isEmpty()) {
            current.spaceBefore = pendingSpace && !out.empty();
            pendingSpace = false;
        }
        current.text += c;
        if (isBreakAfter(c)) {
            out.push_back(current);
            current = {};
        }
    }
    if (!current.text.isEmpty())
        out.push_back(current);
    return out;
}

} // namespace

BarScale BarScale::fit(double low, double high, double headroom)
{
    BarScale s;
    if (!(high > 0)) {
        s.ticks = {0, 1};
        return s;
    }
    if (!(low > 0) || low > high)
        low = high;
    headroom = std::max(headroom, 1.0);
    s.logScale = high / low > kLogSpread;
    if (s.logScale) {
        // The smallest bar keeps at least log10(1.5) of a decade above the axis.
        s.min = std::pow(10.0, std::floor(std::log10(low / 1.5)));
        // The top at the next 1, 2 or 5 times a power of ten: no empty decade above the largest bar.
        s.max = niceUp(high * headroom);
        const double decades = std::floor(std::log10(s.max / s.min) + kEpsilon);
        const double step = decades > 6 ? 100 : 10;
        for (double t = s.min; t <= s.max * (1 + kEpsilon); t *= step)
            s.ticks.push_back(t);
        if (s.ticks.back() < s.max * (1 - kEpsilon))
            s.ticks.push_back(s.max);
        return s;
    }
    const double target = high * headroom;
    // At most five steps of 1, 2, 2.5 or 5 times a power of ten.
    const double magnitude = std::pow(10.0, std::floor(std::log10(target / 5)));
    double step = 10 * magnitude;
    for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (m * magnitude * 5 >= target * (1 - kEpsilon)) {
            step = m * magnitude;
            break;
        }
    }
    s.min = 0;
    s.max = std::ceil(target / step - kEpsilon) * step;
    for (double t = 0; t <= s.max * (1 + kEpsilon); t += step)
        s.ticks.push_back(t);
    return s;
}

double BarScale::position(double value) const
{
    if (logScale) {
        if (!(value > min))
            return 0;
        return std::clamp(std::log10(value / min) / std::log10(max / min), 0.0, 1.0);
    }
    return max > 0 ? std::clamp(value / max, 0.0, 1.0) : 0;
}

QString BarScale::axisTitle(const QString& quantity) const
{
    return logScale ? QStringLiteral("%1 (log scale)").arg(quantity) : quantity;
}

QString BarScale::tickLabel(double value)
{
    if (value >= 1 && std::abs(value - std::round(value)) < kEpsilon * std::max(1.0, value))
        return QString::number(value, 'f', 0);
    return QString::number(value, 'g', 3);
}

QStringList wrapText(const QString& text, const TextWidth& measure, double width)
{
    QStringList lines;
    QString line;
    auto hardBreak = [&](const QString& word) {
        // Only where a word alone is wider than the line: as many characters a line as fit, at least one.
        QString part;
        for (const QChar c : word) {
            if (!part.isEmpty() && measure(part + c) > width) {
                lines << part;
                part.clear();
            }
            part += c;
        }
        return part;
    };
    for (const Piece& piece : pieces(text)) {
        const QString candidate =
            line.isEmpty() ? piece.text
                           : line + (piece.spaceBefore ? QStringLiteral(" ") : QString()) + piece.text;
        if (measure(candidate) <= width) {
            line = candidate;
            continue;
        }
        if (!line.isEmpty())
            lines << line;
        line = measure(piece.text) <= width ? piece.text : hardBreak(piece.text);
    }
    if (!line.isEmpty() || lines.isEmpty())
        lines << line;
    return lines;
}

LegendLayout LegendLayout::fit(const QStringList& labels, const TextWidth& measure, double width,
                               double lineHeight, double swatch, int maxColumns)
{
    constexpr double kColumnGap = 6;
    LegendLayout layout;
    const int most = std::max(1, std::min(maxColumns, static_cast<int>(labels.size())));
    std::vector<QStringList> wrapped;
    auto tryColumns = [&](int columns, int maxLines) {
        const double columnWidth = width / columns;
        const double textWidth = std::max(1.0, columnWidth - swatch - kColumnGap);
        std::vector<QStringList> lines;
        lines.reserve(static_cast<std::size_t>(labels.size()));
        for (const QString& label : labels) {
            lines.push_back(wrapText(label, measure, textWidth));
            if (lines.back().size() > maxLines)
                return false;
        }
        layout.columns = columns;
        layout.columnWidth = columnWidth;
        wrapped = std::move(lines);
        return true;
    };
    bool placed = false;
    for (const int maxLines : {1, 2}) {
        for (int columns = most; columns >= 1 && !placed; --columns)
            placed = tryColumns(columns, maxLines);
        if (placed)
            break;
    }
    if (!placed)
        tryColumns(1, static_cast<int>(1e9));

    double rowTop = 0;
    for (std::size_t first = 0; first < wrapped.size(); first += static_cast<std::size_t>(layout.columns)) {
        qsizetype rowLines = 1;
        for (std::size_t i = first;
             i < std::min(wrapped.size(), first + static_cast<std::size_t>(layout.columns)); ++i) {
            Entry e;
            e.row = static_cast<int>(first / static_cast<std::size_t>(layout.columns));
            e.column = static_cast<int>(i - first);
            e.x = layout.columnWidth * e.column;
            e.y = rowTop;
            e.lines = wrapped[i];
            rowLines = std::max(rowLines, e.lines.size());
            layout.entries.push_back(e);
        }
        rowTop += lineHeight * static_cast<double>(rowLines) + lineHeight * 0.25;
    }
    layout.height = rowTop;
    return layout;
}

ColourRange ColourRange::fit(double minValue, double maxValue)
{
    ColourRange r;
    if (!(maxValue > 0))
        return r;
    if (!(minValue > 0) || minValue > maxValue)
        minValue = maxValue;
    r.high = niceUp(maxValue);
    r.low = niceDown(std::max(std::min(minValue, r.high / kMinSpread), r.high / kMaxSpread));
    r.clippedBelow = minValue < r.low * (1 - kEpsilon);
    return r;
}

} // namespace iolab::report
