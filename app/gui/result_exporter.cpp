// SPDX-License-Identifier: MIT
#include "app/gui/result_exporter.h"

#include "app/gui/widget_helpers.h"
#include "core/formats/result_redact.h"

#include "app/gui/export_choice.h"
#include "app/gui/report_command.h"
#include "app/gui/workers.h"
#include "core/base/log.h"
#include "platform/platform.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace iolab::gui {

ResultExporter::ResultExporter(const Registry& registry, QObject* parent)
    : QObject(parent),
      // The registry is the process's: it outlives a write that finds the exporter gone.
      m_writer([registry = &registry](const RunResult& result, const QString& path) {
          return exportResultFile(result, path, registry);
      })
{}

void ResultExporter::exportTo(const RunResult& result, const QString& path)
{
    ++m_writing;
    Q_EMIT statusChanged(tr("Exporting to %1...").arg(QDir::toNativeSeparators(path)));
    // Every export asked for is written and answered (each wrote or failed to write its own file); the answer
    // is dropped only when the exporter is gone. Several at once: one stuck on a hung mount holds no other.
    runOffGuiThread(
        targetPool(), this, [writer = m_writer, result, path] { return writer(result, path); },
        [path](ResultExporter& exporter, const QString& error) { exporter.written(path, error); });
}

void ResultExporter::written(const QString& path, const QString& error)
{
    --m_writing;
    const QString text = exportStatusText(QDir::toNativeSeparators(path), error);
    Q_EMIT statusChanged(text);
    if (!error.isEmpty()) {
        Q_EMIT failed(text);
    } else {
        m_lastFolder = QFileInfo(path).absolutePath();
        logger(LogModule::Gui).info("exported to {}", path.toStdString());
    }
    Q_EMIT finished(path, error);
}

void ResultExporter::choose(QWidget* parent, const RunResult& result, bool forSharing)
{
    QFileDialog dialog(parent, forSharing ? tr("Export for sharing: names replaced, every figure kept")
                                          : tr("Export results"));
    dialog.setObjectName(QStringLiteral("exportDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setFileMode(QFileDialog::AnyFile);
    const QStringList filters = exportNameFilters();
    dialog.setNameFilters(filters);
    dialog.selectNameFilter(filters.constFirst());
    // Where the last export went, or the home folder: never the folder the app happened to start in.
    dialog.setDirectory(m_lastFolder.isEmpty() ? qs(homeDirectory()) : m_lastFolder);
    dialog.selectFile(forSharing ? QStringLiteral("iolab-report-shared.pdf")
                                 : QStringLiteral("iolab-report.pdf"));
    // The name follows the type: choosing JSON turns iolab-report.pdf into iolab-report.json.
    connect(&dialog, &QFileDialog::filterSelected, &dialog, [&dialog](const QString& filter) {
        const QStringList chosen = dialog.selectedFiles();
        const QString name = chosen.isEmpty() ? QString() : QFileInfo(chosen.constFirst()).fileName();
        if (!name.isEmpty())
            dialog.selectFile(fileNameForFilter(name, filter));
    });
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    const QString path = fileNameForFilter(dialog.selectedFiles().constFirst(), dialog.selectedNameFilter());
    exportTo(forSharing ? redactResult(result) : result, path);
}

} // namespace iolab::gui
