// SPDX-License-Identifier: MIT
#pragma once

#include "core/result.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

namespace iolab::gui {

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

class HeatmapWidget : public QWidget
{
    Q_OBJECT

public:
    explicit HeatmapWidget(QWidget* parent = nullptr);
    void setData(HeatmapData data);
    const HeatmapData& data() const { return m_data; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // Colour for a rate on a logarithmic scale between the smallest and largest rate shown.
    static QColor colourFor(double mbps, double minMBps, double maxMBps);

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect cellRect(int row, int column) const;
    int labelWidth() const;

    HeatmapData m_data;
};

} // namespace iolab::gui
