// SPDX-License-Identifier: MIT
#include "app/report/heatmap_data.h"

#include <algorithm>
#include <cmath>

namespace iolab::report {

HeatmapData HeatmapData::from(const std::vector<CaseResult>& cases)
{
    HeatmapData d;
    for (const auto& c : cases) {
        const QString s = QString::fromStdString(c.testCase.strategy);
        if (!d.strategies.contains(s))
            d.strategies << s;
        if (std::find(d.chunks.begin(), d.chunks.end(), c.testCase.chunkBytes) == d.chunks.end())
            d.chunks.push_back(c.testCase.chunkBytes);
    }
    std::sort(d.chunks.begin(), d.chunks.end());
    d.cells.assign(static_cast<std::size_t>(d.strategies.size()), std::vector<Cell>(d.chunks.size()));
    bool any = false;
    for (const auto& c : cases) {
        const auto row =
            static_cast<std::size_t>(d.strategies.indexOf(QString::fromStdString(c.testCase.strategy)));
        const auto column = static_cast<std::size_t>(
            std::find(d.chunks.begin(), d.chunks.end(), c.testCase.chunkBytes) - d.chunks.begin());
        Cell& cell = d.cells[row][column];
        ++cell.cases;
        const bool ok = c.status == Status::Ok && c.apparentMBps.count > 0;
        if (!ok) {
            if (c.status == Status::Failed)
                ++cell.failed;
            continue;
        }
        const double v = c.apparentMBps.median;
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
