// SPDX-License-Identifier: MIT
#include "app/gui/export_choice.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

namespace iolab::gui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ExportChoice", text);
}

} // namespace

QStringList exportNameFilters()
{
    return {tr("PDF report (*.pdf)"), tr("Result JSON (*.json)"), tr("CSV, repetitions and samples (*.csv)")};
}

QString extensionOfFilter(const QString& nameFilter)
{
    static const QRegularExpression pattern(QStringLiteral(R"(\*\.([A-Za-z0-9]+))"));
    const auto match = pattern.match(nameFilter);
    return match.hasMatch() ? match.captured(1).toLower() : QString();
}

QString fileNameForFilter(const QString& fileName, const QString& nameFilter)
{
    const QString wanted = extensionOfFilter(nameFilter);
    if (wanted.isEmpty() || fileName.isEmpty())
        return fileName;
    const QFileInfo info(fileName);
    const QString suffix = info.suffix().toLower();
    if (suffix == wanted)
        return fileName;
    bool known = false;
    for (const QString& filter : exportNameFilters())
        known = known || extensionOfFilter(filter) == suffix;
    // "run.2024" keeps its dot-part and gains ".pdf"; "run.json" becomes "run.pdf".
    const QString stem =
        known ? fileName.left(fileName.size() - static_cast<int>(suffix.size()) - 1) : fileName;
    return stem + QLatin1Char('.') + wanted;
}

QString exportStatusText(const QString& path, const QString& error)
{
    return error.isEmpty() ? tr("Exported to %1").arg(path) : tr("Export to %1 failed: %2").arg(path, error);
}

} // namespace iolab::gui
