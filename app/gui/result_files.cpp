// SPDX-License-Identifier: MIT
#include "app/gui/result_files.h"

#include "app/gui/banner.h"
#include "app/gui/history.h"
#include "app/gui/history_controller.h"
#include "app/gui/run_presenter.h"
#include "app/gui/workers.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace iolab::gui {

namespace {

// A result file as read on a worker thread: the run, or why it did not read.
struct Loaded
{
    std::optional<RunResult> result;
    QString error;
};

// The work of reading `path` with the history's loader, for runOffGuiThread (Open and Add to History).
auto readResult(HistoryController::Loader load, QString path)
{
    return [load = std::move(load), path = std::move(path)] {
        Loaded loaded;
        loaded.result = load(path, &loaded.error);
        return loaded;
    };
}

} // namespace

ResultFiles::ResultFiles(HistoryController* history, RunPresenter* presenter, Banner* banner, QObject* parent)
    : QObject(parent), m_history(history), m_presenter(presenter), m_banner(banner)
{}

void ResultFiles::open(const QString& path, const QString& failureText)
{
    const quint64 serial = ++m_openSerial;
    m_opening = true;
    m_presenter->setText(tr("Opening %1...").arg(QFileInfo(path).fileName()));
    // Several at once: a file on a hung mount holds back no other open.
    runOffGuiThread(targetPool(), this, readResult(m_history->loader(), path),
                    [serial, path, failureText](ResultFiles& files, Loaded loaded) {
                        if (serial != files.m_openSerial)
                            return; // a newer open, or a run, came since: this one is no longer wanted
                        files.m_opening = false;
                        if (loaded.result) {
                            Q_EMIT files.resultRead(*loaded.result, QFileInfo(path).fileName());
                        } else {
                            files.m_presenter->setText(
                                tr("Could not open %1.").arg(QFileInfo(path).fileName()));
                            files.m_banner->showMessage(failureText.arg(loaded.error), true);
                        }
                        Q_EMIT files.opened(path, loaded.result ? QString() : loaded.error);
                    });
}

void ResultFiles::dropOpen()
{
    ++m_openSerial;
    m_opening = false;
}

void ResultFiles::import(const QString& path)
{
    const QString name = QFileInfo(path).fileName();
    if (QFileInfo(path).absoluteDir() == QDir(m_history->store().folder())) {
        m_banner->showMessage(tr("%1 is in History already.").arg(name), false);
        Q_EMIT imported(QString(), tr("already in History"));
        return;
    }
    runOffGuiThread(
        targetPool(), this, readResult(m_history->loader(), path), [name](ResultFiles& files, Loaded loaded) {
            if (!loaded.result) {
                files.m_banner->showMessage(tr("Cannot add %1 to History: %2").arg(name, loaded.error), true);
                Q_EMIT files.imported(QString(), loaded.error);
                return;
            }
            files.m_importing = true;
            files.m_history->save(*loaded.result);
        });
}

bool ResultFiles::importSaved(const QString& path, const QString& error)
{
    if (!std::exchange(m_importing, false))
        return false;
    if (path.isEmpty())
        m_banner->showMessage(tr("Cannot add the result to History: %1").arg(error), true);
    else
        m_banner->showMessage(
            tr("Added to History: select it and another run there, then Compare to set them side by "
               "side, their machines' facts too."),
            false);
    Q_EMIT imported(path, error);
    return true;
}

void ResultFiles::chooseOpen(QWidget* parent)
{
    const QString path = QFileDialog::getOpenFileName(parent, tr("Open result"), m_history->store().folder(),
                                                      tr("Result JSON (*.json)"));
    if (!path.isEmpty())
        open(path, tr("Cannot open the result: %1"));
}

void ResultFiles::chooseImport(QWidget* parent)
{
    const QString path = QFileDialog::getOpenFileName(parent, tr("Add result to History"), QString(),
                                                      tr("Result JSON (*.json)"));
    if (!path.isEmpty())
        import(path);
}

} // namespace iolab::gui
