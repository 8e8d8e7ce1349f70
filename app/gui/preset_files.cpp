// SPDX-License-Identifier: MIT
#include "app/gui/preset_files.h"

#include "app/gui/text_helpers.h"
#include "app/gui/workers.h"
#include "core/base/error.h"
#include "core/base/log.h"
#include "core/formats/matrix_json.h"
#include "platform/platform.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace iolab::gui {

namespace {

QStringList presetsIn(const QString& folder)
{
    QStringList names;
    for (const auto& file : QDir(folder).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        names << file.completeBaseName();
    return names;
}

std::string matrixFileText(const Matrix& matrix)
{
    return matrixToJson(matrix).dump(2) + "\n";
}

// A matrix file read and checked on a worker thread: the draft, or why not.
struct ReadMatrix
{
    MatrixDraft draft;
    QString error;
};

ReadMatrix readMatrixFile(const QString& path, const Registry& registry)
{
    ReadMatrix read;
    if (QFileInfo(path).isDir()) {
        read.error = PresetFiles::tr("%1 is a folder; give a matrix JSON file").arg(path);
        return read;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        read.error = PresetFiles::tr("cannot read %1: %2").arg(path, file.errorString());
        return read;
    }
    try {
        const Matrix matrix = parseMatrixJson(file.readAll().toStdString(), path.toStdString());
        read.draft = MatrixDraft::fromMatrix(matrix, registry);
    } catch (const InputError& e) {
        read.error = qs(e.what());
    }
    return read;
}

} // namespace

PresetFiles::PresetFiles(const Registry& registry, QString folder, QObject* parent)
    : QObject(parent), m_registry(registry), m_folder(std::move(folder))
{}

QString PresetFiles::pathOf(const QString& name) const
{
    return QDir(m_folder).filePath(name + QStringLiteral(".json"));
}

void PresetFiles::say(const QString& text, const QString& error)
{
    Q_EMIT statusChanged(text);
    if (!error.isEmpty())
        Q_EMIT failed(text);
}

void PresetFiles::list()
{
    ++m_presetWork;
    runOffGuiThread(
        historyPool(), this,
        [folder = m_folder] {
            return FolderWork{{}, presetsIn(folder)};
        },
        [](PresetFiles& files, const FolderWork& work) {
            --files.m_presetWork;
            files.m_userPresets = work.presets;
            Q_EMIT files.listed();
        });
}

void PresetFiles::save(const QString& name, const Matrix& matrix)
{
    ++m_presetWork;
    Q_EMIT statusChanged(tr("Saving the preset '%1'...").arg(name));
    runOffGuiThread(
        historyPool(), this,
        [folder = m_folder, path = pathOf(name), text = matrixFileText(matrix)] {
            FolderWork work;
            if (!QDir().mkpath(folder)) {
                work.error = tr("Cannot create the preset folder %1.").arg(folder);
            } else if (const Outcome outcome = writeFileAtomically(path.toStdString(), text); !outcome.ok()) {
                work.error = tr("Preset not saved: %1").arg(qs(outcome.message));
            }
            work.presets = presetsIn(folder);
            return work;
        },
        [name](PresetFiles& files, const FolderWork& work) {
            files.folderWorkDone(
                tr("Saved the preset '%1' to %2.").arg(name, QDir::toNativeSeparators(files.pathOf(name))),
                work);
            if (work.error.isEmpty())
                logger(LogModule::Gui)
                    .info("saved preset '{}' to {}", name.toStdString(), files.pathOf(name).toStdString());
            Q_EMIT files.saved(name, work.error);
        });
}

void PresetFiles::remove(const QString& name)
{
    ++m_presetWork;
    Q_EMIT statusChanged(tr("Deleting the preset '%1'...").arg(name));
    runOffGuiThread(
        historyPool(), this,
        [folder = m_folder, path = pathOf(name)] {
            FolderWork work;
            QFile file(path);
            if (!file.remove())
                work.error = tr("Cannot delete %1: %2").arg(file.fileName(), file.errorString());
            work.presets = presetsIn(folder);
            return work;
        },
        [name](PresetFiles& files, const FolderWork& work) {
            files.folderWorkDone(tr("Deleted the preset '%1'.").arg(name), work);
            Q_EMIT files.removed(name, work.error);
        });
}

void PresetFiles::folderWorkDone(const QString& done, const FolderWork& work)
{
    --m_presetWork;
    m_userPresets = work.presets;
    say(work.error.isEmpty() ? done : work.error, work.error);
    Q_EMIT listed();
}

void PresetFiles::import(const QString& path)
{
    const quint64 serial = ++m_importSerial;
    ++m_fileWork;
    const QString name = QFileInfo(path).fileName();
    Q_EMIT statusChanged(tr("Importing %1...").arg(name));
    runOffGuiThread(
        targetPool(), this, [path, registry = &m_registry] { return readMatrixFile(path, *registry); },
        [serial, path, name](PresetFiles& files, const ReadMatrix& read) {
            --files.m_fileWork;
            if (serial != files.m_importSerial)
                return; // a newer import came since: this one is no longer wanted
            files.say(read.error.isEmpty() ? tr("Imported the matrix %1.").arg(name)
                                           : tr("Cannot import %1: %2").arg(name, read.error),
                      read.error);
            Q_EMIT files.imported(path, read.draft, read.error);
        });
}

void PresetFiles::exportTo(const QString& path, const Matrix& matrix)
{
    ++m_fileWork;
    Q_EMIT statusChanged(tr("Exporting the matrix to %1...").arg(QDir::toNativeSeparators(path)));
    runOffGuiThread(
        targetPool(), this,
        [path, text = matrixFileText(matrix)] {
            if (const auto problem = outputPathProblem(path.toStdString()); !problem.empty())
                return qs(problem);
            const Outcome outcome = writeFileAtomically(path.toStdString(), text);
            return outcome.ok() ? QString() : qs(outcome.message);
        },
        [path](PresetFiles& files, const QString& error) {
            --files.m_fileWork;
            const QString shown = QDir::toNativeSeparators(path);
            files.say(error.isEmpty() ? tr("Exported the matrix to %1.").arg(shown)
                                      : tr("Cannot export the matrix to %1: %2").arg(shown, error),
                      error);
            Q_EMIT files.exported(path, error);
        });
}

} // namespace iolab::gui
