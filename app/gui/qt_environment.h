// SPDX-License-Identifier: MIT
#pragma once

#include "platform/platform.h"

#include <QByteArray>
#include <QtGlobal>

namespace iolab::gui {

// Before the QApplication (the app, `iolab report`, the GUI tests): the variables this platform's Qt needs
// (platform.h says why), each left as the user set it.
inline void applyQtEnvironmentDefaults()
{
    for (const EnvironmentDefault& variable : qtEnvironmentDefaults())
        if (!qEnvironmentVariableIsSet(variable.name))
            qputenv(variable.name, QByteArray(variable.value));
}

} // namespace iolab::gui
