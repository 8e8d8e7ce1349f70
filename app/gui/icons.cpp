// SPDX-License-Identifier: MIT
#include "app/gui/icons.h"

#include <QFile>

namespace iolab::gui {

QIcon loadIcon(const QString& name)
{
    QIcon icon;
    for (int size : {16, 24, 32, 48, 64, 128, 256}) {
        const QString path = QStringLiteral(":/icons/%1-%2.png").arg(name).arg(size);
        if (QFile::exists(path))
            icon.addFile(path, QSize(size, size));
    }
    return icon;
}

} // namespace iolab::gui
