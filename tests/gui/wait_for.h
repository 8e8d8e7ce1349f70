// SPDX-License-Identifier: MIT
// Waits for the window's work done off the GUI thread: open a result, export it, compare two runs. Each
// returns "" or why it did not happen; the event loop runs while it waits.
#pragma once

#include "app/gui/history_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/result_exporter.h"

#include <QSignalSpy>
#include <QString>

namespace iolab::test {

inline constexpr int kDiskAnswerMs = 60'000; // a PDF on a loaded machine under a sanitizer

inline QString answerOf(QSignalSpy& spy, int errorArgument)
{
    if (spy.isEmpty() && !spy.wait(kDiskAnswerMs))
        return QStringLiteral("no answer came");
    return spy.takeFirst().at(errorArgument).toString();
}

inline QString openAndWait(gui::MainWindow& window, const QString& path)
{
    QSignalSpy opened(&window, &gui::MainWindow::resultOpened);
    window.openResultFile(path);
    return answerOf(opened, 1);
}

inline QString exportAndWait(gui::MainWindow& window, const QString& path)
{
    QSignalSpy finished(window.exporter(), &gui::ResultExporter::finished);
    window.exportTo(path);
    return answerOf(finished, 1);
}

inline QString compareAndWait(gui::MainWindow& window, int first, int second)
{
    QSignalSpy compared(window.history(), &gui::HistoryController::compared);
    window.history()->compareRows(first, second);
    return answerOf(compared, 0);
}

} // namespace iolab::test
