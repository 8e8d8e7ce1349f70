// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/matrix_draft.h"

#include <QAbstractTableModel>

namespace iolab {
class Registry;
}

namespace iolab::gui {

// The strategy x chunk-size grid: one row per strategy, a checkable column per chunk size, and a last column
// summing up the row's other axes. Ticking a cell adds that chunk size to the strategy's row of the draft.
class MatrixGridModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    static constexpr int StrategyColumn = 0;

    MatrixGridModel(const Registry& registry, QObject* parent = nullptr);

    const MatrixDraft& draft() const { return m_draft; }
    void setDraft(const MatrixDraft& draft);
    // Changes one row's axes (not its chunks); the summary column follows.
    void updateRow(const StrategyDraft& row);

    // The chunk-size columns: the standard sizes plus any the draft or the user added.
    const std::vector<std::uint64_t>& chunkColumns() const { return m_chunks; }
    int columnForChunk(std::uint64_t bytes) const; // -1 if none
    void addChunkColumn(std::uint64_t bytes);
    int axesColumn() const { return static_cast<int>(m_chunks.size()) + 1; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void draftChanged();

private:
    const StrategyInfo& infoFor(int row) const;

    const Registry& m_registry;
    MatrixDraft m_draft;
    std::vector<std::uint64_t> m_chunks;
};

// "256M · buffer default, 64K · sync none · 1, 4 threads": a row's axes on one line.
QString axesSummary(const StrategyDraft& row);

} // namespace iolab::gui
