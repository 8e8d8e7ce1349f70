// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/cdm_grid.h"

#include <QWidget>

#include <array>
#include <optional>

class QLabel;
class QPushButton;

namespace iolab::gui {

// The CrystalDiskMark-style grid of a run that has one: four rows (SEQ1M Q8T1 to RND4K Q1T1) by read and
// write, each cell its median MB/s in large figures with the spread of its repetitions and "IOPS · p99"
// under it, the cell's note in its tooltip and a mark on a stand-in or an empty cell. "Copy as text" puts
// cdmGridText() on the clipboard.
class CdmGridView : public QWidget
{
    Q_OBJECT

public:
    explicit CdmGridView(QWidget* parent = nullptr);

    void setGrid(const CdmGrid& grid, const RunResult& result);
    void setDark(bool dark);

    // A cell's large figure and its small lines (row 0..3, column 0 read / 1 write), for tests.
    QString figureText(int row, int column) const;
    QString detailText(int row, int column) const;
    QString cellToolTip(int row, int column) const;
    QString gridText() const { return m_text; }
    QPushButton* copyButton() const { return m_copy; }

    void copyAsText() const;

private:
    struct Cell
    {
        QWidget* frame = nullptr;
        QLabel* figure = nullptr;
        QLabel* detail = nullptr;
    };
    void restyle();

    std::array<QLabel*, 4> m_rowNames{};
    std::array<std::array<Cell, 2>, 4> m_cells{};
    std::array<std::array<bool, 2>, 4> m_measured{};
    QLabel* m_caption = nullptr;
    QPushButton* m_copy = nullptr;
    QString m_text;
    bool m_dark = false;
};

} // namespace iolab::gui
