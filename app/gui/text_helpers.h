// SPDX-License-Identifier: MIT
#pragma once

// Small helpers the GUI's models and widgets share: engine text into QString, lists joined for display.
#include <QString>
#include <QStringList>

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

} // namespace iolab::gui
