// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace iolab::report {

// Bars by chunk size, one per variant (a strategy with its stdio buffer, sync policy and threads): per bar
// the best ranked median among the cases there, and its speed-up over its plain baseline when the cases hold
// one. The rate is the ranked one (rankedRate()): durable for writes to a file under Ranking::Durable. Give
// it the cases of one comparison group, as HeatmapData; the PDF and the app's bar chart both draw from it.
struct BarChartData
{
    struct Bar
    {
        double mbps = 0;
        std::size_t caseIndex = 0;     // the case drawn, as an index into the cases given
        std::optional<double> speedUp; // over the baseline at the same chunk size, when measured there
    };
    std::vector<std::uint64_t> chunks;                 // ascending
    QStringList variants;                              // in the order the cases first show them: the legend
    std::vector<std::vector<std::optional<Bar>>> bars; // [variant][chunk]
    double minMBps = 0;                                // the smallest and largest bar
    double maxMBps = 0;

    bool empty() const noexcept { return chunks.empty(); }
    // How many variants have a bar at chunk `column`.
    std::size_t barsAt(std::size_t column) const;

    static BarChartData from(const std::vector<CaseResult>& cases, Ranking ranking);
};

// A bar's legend name: the strategy, its stdio buffer unless the default, its sync policy unless none, and
// its thread count above one ("stdio buf=64K", "write fsync-end", "write x4").
QString barVariant(const Case& c);

} // namespace iolab::report
