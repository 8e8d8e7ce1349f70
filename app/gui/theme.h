// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/icons.h"

#include <QString>

class QApplication;

namespace iolab::gui {

enum class Theme
{
    System,
    Light,
    Dark
};

// Fusion with a light or dark palette (System follows the platform's palette). Returns whether the palette
// is dark, for the charts to follow.
bool applyTheme(QApplication& app, Theme theme);
QString themeName(Theme theme);
Theme themeFromName(const QString& name);

} // namespace iolab::gui
