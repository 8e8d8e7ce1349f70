// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace iolab::report {

// What a heatmap's columns are: chunk sizes, or thread counts (the parallelism of file-set readers, the
// writers and readers per case).
enum class HeatmapAxis
{
    Chunk,
    Threads
};

// Strategy x chunk size (or x threads), a pipe strategy's row per reader CPU it was placed on: per cell the
// best median MB/s among the cases there (several when buffer, sync, hint or the other axis vary), with how
// many cases it covers and whether any failed. The rate is the ranked one (rankedRate()): durable for writes
// to a file under Ranking::Durable. Give it the cases of one comparison group: a pipe is no rival of a file.
struct HeatmapData
{
    struct Cell
    {
        std::optional<double> bestMBps;
        QString bestLabel;
        int cases = 0;
        int failed = 0;
    };
    HeatmapAxis axis = HeatmapAxis::Chunk;
    QStringList strategies;               // the rows: "write", "vmsplice cpu=same"
    std::vector<std::uint64_t> columns;   // chunk bytes or thread counts, ascending
    std::vector<std::vector<Cell>> cells; // [strategy][column]
    double minMBps = 0;
    double maxMBps = 0;
    QString rateName = QStringLiteral("median"); // "durable median" where a cell holds a durable rate

    static HeatmapData from(const std::vector<CaseResult>& cases, HeatmapAxis axis = HeatmapAxis::Chunk,
                            Ranking ranking = Ranking::Apparent);
    // "4K" or "16"; the axis named: "chunk size" or "threads".
    QString columnLabel(std::size_t column) const;
    QString axisName() const;
};

// Threads is the axis to show when the cases vary in threads but not in chunk size (the small-files sweep);
// chunk size otherwise.
HeatmapAxis preferredAxis(const std::vector<CaseResult>& cases);

// Colour for a rate on a logarithmic scale between the smallest and largest rate shown: dark blue through
// teal and green to yellow, monotonic in lightness and readable for the colour-blind (viridis stops).
QColor heatColour(double mbps, double minMBps, double maxMBps);
// Black or white, whichever reads better on `fill` (by perceived luminance).
QColor heatTextColour(const QColor& fill);

} // namespace iolab::report
