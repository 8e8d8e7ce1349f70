// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/axes.h"
#include "core/model/result.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iolab::report {

// A case's value on a chart's axis; nullopt: it has none (a strategy that does not take the axis).
using AxisValue = std::optional<std::uint64_t>;

// The axis a chart's columns (the heatmap) or groups (the bar chart) stand for: a declared axis whose values
// are numbers (core/model/axes.h, AxisChart). Held by value, so that a chart's data outlives a change to the
// declarations; no chart names an axis by hand.
struct ChartAxis
{
    std::string key; // the axis's result key: "chunkBytes", "threads"
    QString name;    // in titles and tooltips: "chunk size", "threads"
    AxisValueKind kind = AxisValueKind::Count;

    static ChartAxis of(const AxisSpec& axis);
    // The charts' first choice (the lowest AxisChart::automaticRank: chunk size); the bar chart's groups.
    static ChartAxis first();

    // A case's value on it (nullopt also when the axis is no longer declared).
    AxisValue valueOf(const Case& c) const;
    // A column's label from the axis's kind: "4K" (a byte count), "16" (a count), "n/a" (none).
    QString label(AxisValue value) const;
    // The value with the axis named, for tooltips: "4 KiB chunk size", "16 threads", "no queue depth".
    QString words(AxisValue value) const;
    // The name capitalised, for menus: "Chunk size".
    QString title() const;

    bool operator==(const ChartAxis& other) const { return key == other.key; }
};

// The distinct values the cases take on `axis`, ascending (nullopt first).
std::vector<AxisValue> axisValues(const std::vector<CaseResult>& cases, const ChartAxis& axis);
// The numeric axes whose value varies among `cases`, in the results table's column order: what the heatmap's
// "Columns" menu offers.
std::vector<ChartAxis> varyingAxes(const std::vector<CaseResult>& cases);
// The heatmap's automatic columns: the first axis in the declared preference order (AxisChart::automaticRank)
// whose value varies among `cases`, else the first (chunk size; threads when only the thread count varies,
// as in the small-files sweep).
ChartAxis preferredAxis(const std::vector<CaseResult>& cases);

} // namespace iolab::report
