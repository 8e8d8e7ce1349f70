// SPDX-License-Identifier: MIT
#pragma once

#include "app/report/chart_axis.h"
#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace iolab::report {

// Strategy x a numeric axis (chunk size, threads, or any declared axis whose values are numbers: ChartAxis),
// a pipe strategy's row per reader CPU it was placed on: per cell the best median MB/s among the cases there
// (several when buffer, sync, hint or the other axes vary), with how many cases it covers and whether any
// failed. The rate is the ranked one (rankedRate()): durable for writes to a file under Ranking::Durable.
// Give it the cases of one comparison group: a pipe is no rival of a file.
struct HeatmapData
{
    struct Cell
    {
        std::optional<double> bestMBps;
        QString bestLabel;
        int cases = 0;
        int failed = 0;
    };
    ChartAxis axis;                       // the columns' axis
    QStringList strategies;               // the rows: "write", "vmsplice cpu=same"
    std::vector<AxisValue> columns;       // the axis's values, ascending (none first)
    std::vector<std::vector<Cell>> cells; // [strategy][column]
    double minMBps = 0;
    double maxMBps = 0;
    QString rateName = QStringLiteral("median"); // "durable median" where a cell holds a durable rate

    // Columns by `axis`; nullopt: preferredAxis(cases).
    static HeatmapData from(const std::vector<CaseResult>& cases, const std::optional<ChartAxis>& axis = {},
                            Ranking ranking = Ranking::Apparent);
    // "4K" or "16", from the axis's kind.
    QString columnLabel(std::size_t column) const;
};

// Colour for a rate on a logarithmic scale between the smallest and largest rate shown: dark blue through
// teal and green to yellow, monotonic in lightness and readable for the colour-blind (viridis stops).
QColor heatColour(double mbps, double minMBps, double maxMBps);
// Black or white, whichever reads better on `fill` (by perceived luminance).
QColor heatTextColour(const QColor& fill);

} // namespace iolab::report
