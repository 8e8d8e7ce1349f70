// SPDX-License-Identifier: MIT
#pragma once

#include "app/report/chart_axis.h"
#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace iolab::report {

// Bars in groups by a numeric axis (ChartAxis: chunk size, the charts' first choice, unless told), one per
// variant (a strategy with its stdio buffer, sync policy, threads...: its other axes): per bar the best
// ranked median among the cases there, and its speed-up over its plain baseline when the cases hold one. The
// rate is the ranked one (rankedRate()): durable for writes to a file under Ranking::Durable. Give it the
// cases of one comparison group, as HeatmapData; the PDF and the app's bar chart both draw from it.
struct BarChartData
{
    struct Bar
    {
        double mbps = 0;
        std::size_t caseIndex = 0;     // the case drawn, as an index into the cases given
        std::optional<double> speedUp; // over the case's baseline (at the same chunk size), when measured
    };
    ChartAxis axis;                                    // what the groups are
    std::vector<AxisValue> groups;                     // the axis's values, ascending
    QStringList variants;                              // in the order the cases first show them: the legend
    std::vector<std::vector<std::optional<Bar>>> bars; // [variant][group]
    double minMBps = 0;                                // the smallest and largest bar
    double maxMBps = 0;

    bool empty() const noexcept { return groups.empty(); }
    // How many variants have a bar in group `column`.
    std::size_t barsAt(std::size_t column) const;
    // A group's label: "4K", "16".
    QString groupLabel(std::size_t column) const;

    // Groups by `axis`; nullopt: ChartAxis::first().
    static BarChartData from(const std::vector<CaseResult>& cases, Ranking ranking,
                             const std::optional<ChartAxis>& axis = {});
};

// A bar's legend name, the case's short name without its part on `groups` (by default, the charts' first
// axis): the strategy, its stdio buffer unless the default, its sync policy unless none, and its thread count
// above one ("stdio buf=64K", "write fsync-end", "write x4").
QString barVariant(const Case& c, const std::optional<ChartAxis>& groups = {});

} // namespace iolab::report
