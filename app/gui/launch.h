// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <functional>

class QCoreApplication;

namespace iolab {
struct DisplayServers;
}

namespace iolab::gui {

class MainWindow;

// iolab's command line.
struct LaunchOptions
{
    QString perfReport;
    bool calibrate = true; // --no-calibration: never write to a target for the time estimate
    QString target;
    QString preset;
    QString matrix;
    QString dataFolder;
    QString settingsFile;
    QString theme;
    QString openResult;
    bool runAtStart = false;
    bool quitAfterRun = false;
    bool quitAfterShown = false;
};

// Parses QCoreApplication::arguments() (so an application must exist). --help and --version print and exit
// here; so do unknown options, with the reason.
LaunchOptions parseLaunchOptions();

// True when argv asks only for --help or --version, which need no display.
bool asksForHelpOrVersion(int argc, char** argv);

// Why the window would have no display ("" when it has one): asked before QApplication is made, since Qt
// aborts the process when its platform plugin cannot connect. `platform` is what the user named (-platform,
// else QT_QPA_PLATFORM); one that needs no display server (offscreen, vnc, eglfs) is taken at its word.
// Without one, Qt tries Wayland first in a Wayland session (when its plugin is installed), then X11.
QString noDisplayProblem(const QString& platform, const QString& sessionType, bool waylandPluginInstalled,
                         const DisplayServers& servers);
// The same for this process: its arguments, its environment and the display servers it can reach.
QString noDisplayProblem(int argc, char** argv);
// What to use instead, printed after the problem: iolab-cli, iolab report, the offscreen platform.
QString withoutADisplayHint();

// Why the folders and files the options name cannot hold what the app keeps there ("" when they can): a
// --data-dir that is a file or cannot be written or made, a --settings that is a folder or not writable, or
// whose folder cannot be written or made. Nothing is created.
QString launchPathProblem(const LaunchOptions& options);

// Loads the preset, matrix and target the options name, and starts reading the result file it names off the
// GUI thread. Each problem shows in the window's banner (a user who opened a file from the file manager has
// no terminal); those found now are returned for stderr, and a result file that does not read is printed
// there when the read ends (MainWindow::resultOpened), its problem joining the others in the banner.
QStringList applyLaunchOptions(MainWindow& window, const LaunchOptions& options);

// --run: starts the run once the mount scan is in and a target is selected. If it cannot start, says why
// once through `cannotStart` and stops trying.
void startRunWhenReady(MainWindow& window, std::function<void(const QString&)> cannotStart);

} // namespace iolab::gui
