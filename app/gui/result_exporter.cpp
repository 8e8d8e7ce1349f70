// SPDX-License-Identifier: MIT
#include "app/gui/result_exporter.h"
#include "app/gui/widget_helpers.h"

#include "app/gui/export_choice.h"
#include "app/gui/report_command.h"
#include "core/base/log.h"
#include "platform/platform.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace iolab::gui {

ResultExporter::ResultExporter(const Registry& registry, QObject* parent)
    : QObject(parent), m_registry(registry)
{}

QString ResultExporter::write(const RunResult& result, const QString& path) const
{
    return exportResultFile(result, path, &m_registry);
}

bool ResultExporter::exportTo(const RunResult& result, const QString& path)
{
    const QString error = write(result, path);
    const QString text = exportStatusText(QDir::toNativeSeparators(path), error);
    Q_EMIT statusChanged(text);
    if (!error.isEmpty()) {
        Q_EMIT failed(text);
        return false;
    }
    m_lastFolder = QFileInfo(path).absolutePath();
    logger(LogModule::Gui).info("exported to {}", path.toStdString());
    return true;
}

void ResultExporter::choose(QWidget* parent, const RunResult& result)
{
    QFileDialog dialog(parent, tr("Export results"));
    dialog.setObjectName(QStringLiteral("exportDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setFileMode(QFileDialog::AnyFile);
    const QStringList filters = exportNameFilters();
    dialog.setNameFilters(filters);
    dialog.selectNameFilter(filters.constFirst());
    // Where the last export went, or the home folder: never the folder the app happened to start in.
    dialog.setDirectory(m_lastFolder.isEmpty() ? qs(homeDirectory()) : m_lastFolder);
    dialog.selectFile(QStringLiteral("iolab-report.pdf"));
    // The name follows the type: choosing JSON turns iolab-report.pdf into iolab-report.json.
    connect(&dialog, &QFileDialog::filterSelected, &dialog, [&dialog](const QString& filter) {
        const QStringList chosen = dialog.selectedFiles();
        const QString name = chosen.isEmpty() ? QString() : QFileInfo(chosen.constFirst()).fileName();
        if (!name.isEmpty())
            dialog.selectFile(fileNameForFilter(name, filter));
    });
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    exportTo(result, fileNameForFilter(dialog.selectedFiles().constFirst(), dialog.selectedNameFilter()));
}

} // namespace iolab::gui
