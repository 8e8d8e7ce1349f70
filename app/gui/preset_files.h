// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/matrix.h"
#include "core/model/matrix_draft.h"

#include <QObject>
#include <QString>
#include <QStringList>

namespace iolab {
class Registry;
}

namespace iolab::gui {

// The matrix files the matrix editor reads and writes, off the GUI thread as every file operation in the app:
// the user's presets (the CLI's matrix JSON in the presets folder; saved, deleted and listed one at a time
// and in order on the history's pool, so that a save under way finishes at exit) and matrix files imported or
// exported anywhere (several at once: one on a hung mount holds back no other). Each says what is under way
// in statusChanged, then, queued, where it went or why not in statusChanged again, failed when it failed, and
// the operation's own signal.
class PresetFiles : public QObject
{
    Q_OBJECT

public:
    // `registry` is the process's one registry; it outlives the work on the workers.
    PresetFiles(const Registry& registry, QString folder, QObject* parent = nullptr);

    const QString& folder() const { return m_folder; }
    // The file of the user preset `name` (without the "user: " of the list).
    QString pathOf(const QString& name) const;
    // The user's presets by name as last listed (the folder is listed at first and after each save or
    // delete).
    const QStringList& userPresets() const { return m_userPresets; }
    // True while a save or a delete of a preset is under way.
    bool isBusy() const { return m_presetWork > 0; }
    // True while an import or an export is under way.
    bool isMovingFiles() const { return m_fileWork > 0; }

    void list();
    void save(const QString& name, const Matrix& matrix);
    void remove(const QString& name);
    // Reads and checks a matrix file; a newer import makes an older one moot (dropped).
    void import(const QString& path);
    void exportTo(const QString& path, const Matrix& matrix);

Q_SIGNALS:
    void statusChanged(const QString& text);
    void failed(const QString& text);
    // The list of the user's presets changed.
    void listed();
    // Each operation is over: `error` is "" when it worked.
    void saved(const QString& name, const QString& error);
    void removed(const QString& name, const QString& error);
    void imported(const QString& path, const MatrixDraft& draft, const QString& error);
    void exported(const QString& path, const QString& error);

private:
    // What a save, delete or listing of the presets folder returns to the GUI thread.
    struct FolderWork
    {
        QString error;
        QStringList presets; // the folder's presets after the work, listed on the worker
    };
    void folderWorkDone(const QString& done, const FolderWork& work);
    void say(const QString& text, const QString& error);

    const Registry& m_registry;
    QString m_folder;
    QStringList m_userPresets;
    int m_presetWork = 0;
    int m_fileWork = 0;
    quint64 m_importSerial = 0;
};

} // namespace iolab::gui
