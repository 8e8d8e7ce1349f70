// SPDX-License-Identifier: MIT
#pragma once

#include "core/result.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace iolab::report {

// Strategy x chunk size: per cell the best median MB/s among the cases there (several when buffer, sync or
// threads vary), with how many cases it covers and whether any failed.
struct HeatmapData
{
    struct Cell
    {
        std::optional<double> bestMBps;
        QString bestLabel;
        int cases = 0;
        int failed = 0;
    };
    QStringList strategies;
    std::vector<std::uint64_t> chunks;
    std::vector<std::vector<Cell>> cells; // [strategy][chunk]
    double minMBps = 0;
    double maxMBps = 0;

    static HeatmapData from(const std::vector<CaseResult>& cases);
};

// Colour for a rate on a logarithmic scale between the smallest and largest rate shown: dark blue through
// teal and green to yellow, monotonic in lightness and readable for the colour-blind (viridis stops).
QColor heatColour(double mbps, double minMBps, double maxMBps);
// Black or white, whichever reads better on `fill` (by perceived luminance).
QColor heatTextColour(const QColor& fill);

} // namespace iolab::report
