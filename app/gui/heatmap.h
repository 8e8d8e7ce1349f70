// SPDX-License-Identifier: MIT
#pragma once

#include "app/report/heatmap_data.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

namespace iolab::gui {

using report::HeatmapData;

class HeatmapWidget : public QWidget
{
    Q_OBJECT

public:
    explicit HeatmapWidget(QWidget* parent = nullptr);
    void setData(HeatmapData data);
    const HeatmapData& data() const { return m_data; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect cellRect(int row, int column) const;
    int labelWidth() const;

    HeatmapData m_data;
};

} // namespace iolab::gui
