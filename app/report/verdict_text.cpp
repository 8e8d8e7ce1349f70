// SPDX-License-Identifier: MIT
#include "app/report/verdict_text.h"

#include <QRegularExpression>

namespace iolab::report {

QString keepUnitsWithNumbers(const QString& text)
{
    static const QRegularExpression numberSpaceUnit(
        QStringLiteral("(\\d) ((?:[kKMGTP]i?)?B(?:/s)?|[mµn]?s|files/s|x|%)(?=$|[^\\w/])"));
    QString out = text;
    return out.replace(numberSpaceUnit, QStringLiteral("\\1\u00A0\\2"));
}

} // namespace iolab::report
