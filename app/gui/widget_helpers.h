// SPDX-License-Identifier: MIT
#pragma once

// Small helpers the GUI's files share: engine text into QString, lists joined for display, and the one way
// IOLab's tables look.
#include <QHeaderView>
#include <QString>
#include <QStringList>
#include <QTableView>

#include "app/report/qt_text.h"

#include <string>
#include <vector>

namespace iolab::gui {

using report::qs;

// "a, b, c" from any list and a function that turns one value into text.
template <class T, class F> QString joined(const std::vector<T>& values, F&& toText)
{
    QStringList parts;
    for (const auto& v : values)
        parts << toText(v);
    return parts.join(QStringLiteral(", "));
}

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
