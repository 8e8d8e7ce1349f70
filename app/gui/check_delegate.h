// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace iolab::gui {

// Draws a checkable cell as a centred box and toggles it on a click anywhere in the cell or on Space: a grid
// of small tick boxes is quicker to use when the whole cell is the target.
class CheckDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    bool editorEvent(QEvent* event, QAbstractItemModel* model, const QStyleOptionViewItem& option,
                     const QModelIndex& index) override;
};

} // namespace iolab::gui
