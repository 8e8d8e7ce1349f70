// SPDX-License-Identifier: MIT
#include "app/report/verdict_text.h"

#include <QRegularExpression>

namespace iolab::report {

QString keepUnitsWithNumbers(const QString& text)
{
    static const QRegularExpression numberSpaceUnit(
        QStringLiteral("(\\d) ((?:[kKMGTP]i?)?B(?:/s)?|[mµn]?s|files/s|x|%)(?=$|[^\\w/])"));
    // Line breaking may also split a unit at its slash ("GB/" then "s"): a word joiner after it forbids that.
    static const QRegularExpression perSecond(QStringLiteral("(\u00A0\\S*)/s"));
    QString out = text;
    out.replace(numberSpaceUnit, QStringLiteral("\\1\u00A0\\2"));
    return out.replace(perSecond, QStringLiteral("\\1/\u2060s"));
}

} // namespace iolab::report
