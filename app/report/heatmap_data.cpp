// SPDX-License-Identifier: MIT
#include "app/report/heatmap_data.h"

#include "core/model/axes.h"

#include <algorithm>
#include <cmath>

namespace iolab::report {

namespace {

// A row: the strategy and the machine's arrangement for it (AxisSpec::arrangement: where a pipe's reader ran,
// "vmsplice cpu=same"). A cell keeps the best of the buffers and sync policies it covers, which are ways of
// writing; an arrangement can move a pipe's rate threefold, so the best of two would pass one off as the
// other.
// An axis declared with its own rows (AxisSpec::ownHeatmapRow: io_uring's options, a spinning reader, huge
// pages) adds its short text too: the best of a plain ring and an SQPOLL one would hide the difference asked
// about.
QString rowName(const Case& c)
{
    QString name = QString::fromStdString(c.strategy);
    if (const std::string arrangement = arrangementText(c); !arrangement.empty())
        name += QLatin1Char(' ') + QString::fromStdString(arrangement);
    for (const AxisSpec& axis : caseAxes()) {
        if (!axis.ownHeatmapRow || !axis.shortText)
            continue;
        if (const std::string part = axis.shortText(c); !part.empty())
            name += QLatin1Char(' ') + QString::fromStdString(part);
    }
    return name;
}

} // namespace

QString HeatmapData::columnLabel(std::size_t column) const
{
    return axis.label(columns[column]);
}

HeatmapData HeatmapData::from(const std::vector<CaseResult>& cases, const std::optional<ChartAxis>& axis,
                              Ranking ranking)
{
    HeatmapData d;
    d.axis = axis ? *axis : preferredAxis(cases);
    for (const auto& c : cases) {
        if (!ratesAsThroughput(c.testCase.preallocate))
            continue; // its rate is ops on one chunk (the sync lab's), no cell among file writes
        const QString s = rowName(c.testCase);
        if (!d.strategies.contains(s))
            d.strategies << s;
    }
    d.columns = axisValues(cases, d.axis);
    d.cells.assign(static_cast<std::size_t>(d.strategies.size()), std::vector<Cell>(d.columns.size()));
    bool any = false;
    for (const auto& c : cases) {
        if (!ratesAsThroughput(c.testCase.preallocate))
            continue;
        const auto row = static_cast<std::size_t>(d.strategies.indexOf(rowName(c.testCase)));
        const auto column = static_cast<std::size_t>(
            std::find(d.columns.begin(), d.columns.end(), d.axis.valueOf(c.testCase)) - d.columns.begin());
        Cell& cell = d.cells[row][column];
        ++cell.cases;
        const Summary& ranked = rankedRate(c, ranking);
        const bool ok = c.status == Status::Ok && ranked.count > 0;
        if (!ok) {
            if (c.status == Status::Failed)
                ++cell.failed;
            continue;
        }
        if (ranksDurable(c.testCase, ranking))
            d.rateName = QStringLiteral("durable median");
        const double v = ranked.median;
        if (!cell.bestMBps || v > *cell.bestMBps) {
            cell.bestMBps = v;
            cell.bestLabel = QString::fromStdString(c.testCase.label());
        }
        d.minMBps = any ? std::min(d.minMBps, v) : v;
        d.maxMBps = any ? std::max(d.maxMBps, v) : v;
        any = true;
    }
    return d;
}

QColor heatColour(double mbps, double minMBps, double maxMBps)
{
    // From a dark blue through teal and green to yellow: monotonic in lightness, readable for the
    // colour-blind.
    static const QColor stops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b),
                                   QColor(0x21, 0x90, 0x8d), QColor(0x5d, 0xc8, 0x63),
                                   QColor(0xfd, 0xe7, 0x25)};
    double t = 1;
    if (maxMBps > minMBps && minMBps > 0 && mbps > 0)
        t = std::clamp((std::log(mbps) - std::log(minMBps)) / (std::log(maxMBps) - std::log(minMBps)), 0.0,
                       1.0);
    const double scaled = t * 4;
    const int i = std::min(3, static_cast<int>(scaled));
    const double f = scaled - i;
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QColor heatTextColour(const QColor& fill)
{
    const double luminance = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
    return luminance > 0.5 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace iolab::report
