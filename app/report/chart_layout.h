// SPDX-License-Identifier: MIT
#pragma once

// Layout decisions for charts, kept as small pure functions so that the PDF and the app draw alike and tests
// can check them without painting: the value axis of a bar chart, a legend that wraps instead of
// truncating, and the range a heatmap's colour scale spans.

#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace iolab::report {

// The value axis of a bar chart. Linear from zero while the bars are within kLogSpread of each other; on a
// log scale beyond that (from a whole decade, ticks at decades, the top at a 1, 2 or 5 step), so that a bar
// hundreds of times smaller than the largest still stands clear of the axis.
struct BarScale
{
    static constexpr double kLogSpread = 30; // largest / smallest above this: log scale

    bool logScale = false;
    double min = 0; // the axis' bottom (0 on a linear scale)
    double max = 1; // the axis' top
    std::vector<double> ticks;

    // `low` and `high`: the smallest and largest value drawn (> 0). `headroom`: room above the largest bar
    // for its label, as a factor (1.15 = 15% on a linear scale, as much of a decade on a log one).
    static BarScale fit(double low, double high, double headroom = 1.15);

    // Where `value` sits, from 0 (the axis) to 1 (the top); values below the axis' bottom sit at 0.
    double position(double value) const;
    // "median MB/s" -> "median MB/s (log scale)" on a log scale.
    QString axisTitle(const QString& quantity) const;
    // A tick's label: "0.1", "25", "1000", "12000".
    static QString tickLabel(double value);
};

// Measures a text's width in the unit the caller lays out in (points, pixels).
using TextWidth = std::function<double(const QString&)>;

// Breaks `text` into lines no wider than `width`: between words, after a '-', '=', ',', '/' or '_' where a
// word is too long, and inside a word only where nothing else fits. Joined again, the lines are the text
// with no character lost (spaces at a break are dropped).
QStringList wrapText(const QString& text, const TextWidth& measure, double width);

// A legend of coloured swatches with their names, in as many columns as fit, each name wrapped onto as
// many lines as it needs: nothing is truncated.
struct LegendLayout
{
    struct Entry
    {
        int row = 0;
        int column = 0;
        double x = 0; // of the swatch, from the legend's left
        double y = 0; // of the first line, from the legend's top
        QStringList lines;
    };

    int columns = 1;
    double columnWidth = 0;
    double height = 0; // of the whole legend
    std::vector<Entry> entries;

    // `swatch`: the width taken by the swatch and its gap before the text. Prefers the most columns (up to
    // `maxColumns`) in which no name needs more than two lines; one column when none does.
    static LegendLayout fit(const QStringList& labels, const TextWidth& measure, double width,
                            double lineHeight, double swatch = 12, int maxColumns = 4);
};

// The rates a heatmap's colours span, on a log scale: at least a factor kMinSpread (so that cells a few
// percent apart are not painted as far apart as the whole scale), at most kMaxSpread (anything slower takes
// the darkest colour), with ends rounded out to 1, 2, 5 times a power of ten.
struct ColourRange
{
    static constexpr double kMinSpread = 4;
    static constexpr double kMaxSpread = 1000;

    double low = 0;
    double high = 0;
    bool clippedBelow = false; // some value was below `low`

    static ColourRange fit(double minValue, double maxValue);
};

} // namespace iolab::report
