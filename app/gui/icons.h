// SPDX-License-Identifier: MIT
#pragma once

#include <QIcon>
#include <QString>

namespace iolab::gui {

// An icon from resources/icons in every size rendered there, so that Qt picks a sharp one at any scale.
QIcon loadIcon(const QString& name);

} // namespace iolab::gui
