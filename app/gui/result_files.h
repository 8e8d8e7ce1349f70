// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <QObject>
#include <QString>

class QWidget;

namespace iolab::gui {

class Banner;
class HistoryController;
class RunPresenter;

// Result files asked for by the user: Open (read off the GUI thread and shown) and Add to History (read off
// the GUI thread and saved into History, where Compare can set it beside any other run). What is under way
// and what went wrong is said in the status bar and, for a failure, in the banner.
class ResultFiles : public QObject
{
    Q_OBJECT

public:
    // The history, the presenter and the banner are the window's; they outlive this.
    ResultFiles(HistoryController* history, RunPresenter* presenter, Banner* banner,
                QObject* parent = nullptr);

    // Reads `path` and hands it to resultRead; opened follows, with the error also in the banner as
    // `failureText` (its %1). An open asked for later, or dropOpen, makes it moot: dropped.
    void open(const QString& path, const QString& failureText);
    bool isOpening() const { return m_opening; }
    // A run started: the result still being read would replace the run's.
    void dropOpen();
    // Reads `path` and saves a copy into History; imported follows.
    void import(const QString& path);
    // The history's save came in: true when it was an import's (said and answered here), false for a run's.
    bool importSaved(const QString& path, const QString& error);

    // The file dialogs over `parent`, then open or import.
    void chooseOpen(QWidget* parent);
    void chooseImport(QWidget* parent);

Q_SIGNALS:
    void resultRead(const RunResult& result, const QString& origin);
    // An open is over: `error` is "" when it was read and shown.
    void opened(const QString& path, const QString& error);
    // An import is over: the copy in History, or "" and why not.
    void imported(const QString& path, const QString& error);

private:
    HistoryController* m_history;
    RunPresenter* m_presenter;
    Banner* m_banner;
    quint64 m_openSerial = 0; // the open asked for last; an answer for an older one is dropped
    bool m_opening = false;
    bool m_importing = false; // the next save is an import's, not a run's
};

} // namespace iolab::gui
