// SPDX-License-Identifier: MIT
#pragma once

// The one way IOLab's tables look, and the helpers the models share (text_helpers.h).
#include <QHeaderView>
#include <QTableView>

#include "app/gui/text_helpers.h"

namespace iolab::gui {

// Compact rows, no row numbers, columns sized to their contents with the last one taking the rest.
inline void styleTable(QTableView* view)
{
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
}

} // namespace iolab::gui
