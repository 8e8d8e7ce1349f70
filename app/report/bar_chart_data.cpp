// SPDX-License-Identifier: MIT
#include "app/report/bar_chart_data.h"
#include "app/report/qt_text.h"

#include "core/analysis/findings.h"
#include "core/model/axes.h"

#include <algorithm>

namespace iolab::report {

namespace {

bool drawn(const CaseResult& c, Ranking ranking)
{
    return hasRate(c) && ratesAsThroughput(c.testCase.preallocate) && rankedRate(c, ranking).median > 0;
}

} // namespace

QString barVariant(const Case& c, const std::optional<ChartAxis>& groups)
{
    // The bars stand in groups by an axis: a variant is the rest of the case's short name, each declared
    // axis's part (core/model/axes.h).
    const std::string groupKey = groups ? groups->key : ChartAxis::first().key;
    QStringList parts;
    for (const AxisSpec* axis : axesInShortNameOrder()) {
        if (axis->resultKey == groupKey)
            continue;
        if (const std::string part = axis->shortText(c); !part.empty())
            parts << qs(part);
    }
    return parts.join(QStringLiteral(" "));
}

std::size_t BarChartData::barsAt(std::size_t column) const
{
    return static_cast<std::size_t>(std::count_if(
        bars.begin(), bars.end(), [column](const auto& row) { return row[column].has_value(); }));
}

QString BarChartData::groupLabel(std::size_t column) const
{
    return axis.label(groups[column]);
}

BarChartData BarChartData::from(const std::vector<CaseResult>& cases, Ranking ranking,
                                const std::optional<ChartAxis>& axis)
{
    BarChartData d;
    d.axis = axis ? *axis : ChartAxis::first();
    for (const auto& c : cases) {
        if (!drawn(c, ranking))
            continue;
        if (const QString v = barVariant(c.testCase, d.axis); !d.variants.contains(v))
            d.variants << v;
        if (const AxisValue g = d.axis.valueOf(c.testCase);
            std::find(d.groups.begin(), d.groups.end(), g) == d.groups.end())
            d.groups.push_back(g);
    }
    std::sort(d.groups.begin(), d.groups.end());
    d.bars.assign(static_cast<std::size_t>(d.variants.size()),
                  std::vector<std::optional<Bar>>(d.groups.size()));
    if (d.empty())
        return d;
    RunResult run; // the baselines are looked up among the cases given
    run.cases = cases;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const CaseResult& c = cases[i];
        if (!drawn(c, ranking))
            continue;
        const double mbps = rankedRate(c, ranking).median;
        const auto v = static_cast<std::size_t>(d.variants.indexOf(barVariant(c.testCase, d.axis)));
        const auto column = static_cast<std::size_t>(
            std::find(d.groups.begin(), d.groups.end(), d.axis.valueOf(c.testCase)) - d.groups.begin());
        std::optional<Bar>& slot = d.bars[v][column];
        if (slot && slot->mbps >= mbps)
            continue; // several cases of one variant in one group (other sizes): the best shows
        slot = Bar{mbps, i, std::nullopt};
        if (const auto base = baselineCase(run, i); base && *base != i && drawn(cases[*base], ranking))
            slot->speedUp = mbps / rankedRate(cases[*base], ranking).median;
        d.minMBps = d.minMBps == 0 ? mbps : std::min(d.minMBps, mbps);
        d.maxMBps = std::max(d.maxMBps, mbps);
    }
    return d;
}

} // namespace iolab::report
