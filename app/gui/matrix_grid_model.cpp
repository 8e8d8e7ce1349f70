// SPDX-License-Identifier: MIT
#include "app/gui/matrix_grid_model.h"
#include "app/gui/text_helpers.h"

#include "core/base/units.h"
#include "core/engine/registry.h"
#include "core/model/axes.h"

#include <QStringList>

#include <algorithm>

namespace iolab::gui {

QString axesSummary(const StrategyDraft& row)
{
    // The axes with an editor field that the row takes, in their summary order.
    std::vector<const AxisSpec*> axes;
    for (const auto& axis : caseAxes()) {
        if (axis.editedPerStrategy() && axis.editorField && row.takes(axis.matrixKey))
            axes.push_back(&axis);
    }
    std::stable_sort(axes.begin(), axes.end(), [](const AxisSpec* a, const AxisSpec* b) {
        return a->editorField->summaryRank < b->editorField->summaryRank;
    });
    QStringList parts;
    for (const AxisSpec* axis : axes)
        parts << qs(axis->editorField->summary).arg(joined(axis->groupValues(row), [](const std::string& v) {
            return qs(v);
        }));
    return parts.join(QStringLiteral("  ·  "));
}

MatrixGridModel::MatrixGridModel(const Registry& registry, QObject* parent)
    : QAbstractTableModel(parent), m_registry(registry), m_draft(MatrixDraft::fresh(registry)),
      m_chunks(standardChunkSizes())
{}

void MatrixGridModel::setDraft(const MatrixDraft& draft)
{
    beginResetModel();
    m_draft = draft;
    for (auto chunk : m_draft.chunksInUse())
        insertSorted(m_chunks, chunk);
    endResetModel();
    Q_EMIT draftChanged();
}

void MatrixGridModel::updateRow(const StrategyDraft& row)
{
    StrategyDraft* target = m_draft.find(row.strategy);
    if (target == nullptr)
        return;
    const auto chunks = target->chunks;
    *target = row;
    target->chunks = chunks;
    for (int r = 0; r < rowCount(); ++r) {
        if (m_draft.strategies[static_cast<std::size_t>(r)].strategy == row.strategy)
            Q_EMIT dataChanged(index(r, axesColumn()), index(r, axesColumn()));
    }
    Q_EMIT draftChanged();
}

int MatrixGridModel::columnForChunk(std::uint64_t bytes) const
{
    const auto it = std::find(m_chunks.begin(), m_chunks.end(), bytes);
    return it == m_chunks.end() ? -1 : static_cast<int>(it - m_chunks.begin()) + 1;
}

void MatrixGridModel::addChunkColumn(std::uint64_t bytes)
{
    if (columnForChunk(bytes) >= 0)
        return;
    const auto at = std::lower_bound(m_chunks.begin(), m_chunks.end(), bytes);
    const int column = static_cast<int>(at - m_chunks.begin()) + 1;
    beginInsertColumns({}, column, column);
    m_chunks.insert(at, bytes);
    endInsertColumns();
}

const StrategyInfo& MatrixGridModel::infoFor(int row) const
{
    return m_registry.find(m_draft.strategies[static_cast<std::size_t>(row)].strategy)->info();
}

int MatrixGridModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_draft.strategies.size());
}

int MatrixGridModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_chunks.size()) + 2;
}

QVariant MatrixGridModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const StrategyDraft& row = m_draft.strategies[static_cast<std::size_t>(index.row())];
    const StrategyInfo& info = infoFor(index.row());
    const int column = index.column();
    if (role == Qt::ToolTipRole) {
        if (info.unavailable)
            return tr("%1: not available here (%2)").arg(qs(info.id), qs(*info.unavailable));
        if (column == StrategyColumn || column == axesColumn())
            return qs(info.description);
        return tr("%1 in %2 chunks")
            .arg(qs(info.id), qs(formatBytes(m_chunks[static_cast<std::size_t>(column - 1)])));
    }
    if (column == StrategyColumn)
        return role == Qt::DisplayRole ? qs(info.id) : QVariant();
    if (column == axesColumn()) {
        if (role == Qt::DisplayRole)
            return row.enabled() ? axesSummary(row) : QString();
        return {};
    }
    if (role == Qt::CheckStateRole) {
        const auto chunk = m_chunks[static_cast<std::size_t>(column - 1)];
        return containsValue(row.chunks, chunk) ? Qt::Checked : Qt::Unchecked;
    }
    return {};
}

bool MatrixGridModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::CheckStateRole || !index.isValid() || index.column() == StrategyColumn ||
        index.column() >= axesColumn() || !(flags(index) & Qt::ItemIsEnabled))
        return false;
    StrategyDraft& row = m_draft.strategies[static_cast<std::size_t>(index.row())];
    const auto chunk = m_chunks[static_cast<std::size_t>(index.column() - 1)];
    const bool checked = value.value<Qt::CheckState>() == Qt::Checked;
    const bool wasEnabled = row.enabled();
    if (checked)
        insertSorted(row.chunks, chunk);
    else
        eraseValue(row.chunks, chunk);
    Q_EMIT dataChanged(index, index, {Qt::CheckStateRole});
    if (wasEnabled != row.enabled())
        Q_EMIT dataChanged(this->index(index.row(), axesColumn()), this->index(index.row(), axesColumn()));
    Q_EMIT draftChanged();
    return true;
}

Qt::ItemFlags MatrixGridModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsSelectable;
    if (!infoFor(index.row()).unavailable)
        f |= Qt::ItemIsEnabled;
    if (index.column() != StrategyColumn && index.column() != axesColumn())
        f |= Qt::ItemIsUserCheckable;
    return f;
}

QVariant MatrixGridModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (section == StrategyColumn)
        return role == Qt::DisplayRole ? tr("Strategy") : QVariant();
    if (section == axesColumn())
        return role == Qt::DisplayRole ? tr("Size · buffer · sync or hint, cache · threads") : QVariant();
    if (section < 0 || section > static_cast<int>(m_chunks.size()))
        return {};
    const auto chunk = m_chunks[static_cast<std::size_t>(section - 1)];
    if (role == Qt::DisplayRole)
        return qs(formatBytesCompact(chunk));
    if (role == Qt::ToolTipRole)
        return tr("Chunk size: %1 per write call").arg(qs(formatBytes(chunk)));
    return {};
}

} // namespace iolab::gui
