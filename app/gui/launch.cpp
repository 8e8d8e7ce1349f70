// SPDX-License-Identifier: MIT
#include "app/gui/launch.h"

#include "app/gui/main_window.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/target_model.h"
#include "core/base/log.h"
#include "platform/platform.h"

#include <cstdio>
#include <cstdlib>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QTemporaryFile>
#include <QTimer>

#include <memory>
#include <string_view>

namespace iolab::gui {

LaunchOptions parseLaunchOptions()
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("IOLab: how the way you write changes what you get."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption target(QStringLiteral("target"),
                                    QStringLiteral("Select this folder as the target."),
                                    QStringLiteral("folder"));
    const QCommandLineOption preset(QStringLiteral("preset"), QStringLiteral("Load this preset."),
                                    QStringLiteral("name"));
    const QCommandLineOption matrix(QStringLiteral("matrix"), QStringLiteral("Load this matrix JSON file."),
                                    QStringLiteral("file"));
    const QCommandLineOption run(QStringLiteral("run"),
                                 QStringLiteral("Start the run once the window is up."));
    const QCommandLineOption quit(
        QStringLiteral("quit-after-run"),
        QStringLiteral("Quit when the run ends; exit status 1 if it could not start or failed to save."));
    const QCommandLineOption quitShown(QStringLiteral("quit-after-shown"),
                                       QStringLiteral("Quit once the window is up (for start-up timing)."));
    const QCommandLineOption theme(QStringLiteral("theme"), QStringLiteral("system, light or dark."),
                                   QStringLiteral("theme"));
    const QCommandLineOption data(
        QStringLiteral("data-dir"),
        QStringLiteral("Keep history and presets here instead of the app data folder."),
        QStringLiteral("folder"));
    const QCommandLineOption settings(QStringLiteral("settings"),
                                      QStringLiteral("Read and write settings in this INI file."),
                                      QStringLiteral("file"));
    const QCommandLineOption perf(
        QStringLiteral("perf-report"),
        QStringLiteral("At exit, write start-up time, GUI stalls and memory as JSON here."),
        QStringLiteral("file"));
    const QCommandLineOption noCalibration(
        QStringLiteral("no-calibration"),
        QStringLiteral(
            "Never write to a target to calibrate the time estimate (about a second of I/O before a "
            "long plan); the estimate then stands on typical figures."));
    parser.addOptions(
        {target, preset, matrix, run, quit, quitShown, theme, data, settings, perf, noCalibration});
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QStringLiteral("A result JSON to open, or a trace of a program (.iolab-trace) "
                       "to open in the Program tab."),
        QStringLiteral("[result.json | program.iolab-trace]"));
    // parse(), not process(): an unknown option exits 2, as iolab-cli's do, not with Qt's 1.
    if (!parser.parse(QCoreApplication::arguments())) {
        std::fprintf(stderr, "iolab: %s\nRun 'iolab --help' for usage.\n",
                     parser.errorText().toLocal8Bit().constData());
        std::exit(2);
    }
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();
    LaunchOptions o;
    if (!parser.positionalArguments().isEmpty())
        o.openResult = parser.positionalArguments().constFirst();
    o.target = parser.value(target);
    o.preset = parser.value(preset);
    o.matrix = parser.value(matrix);
    o.runAtStart = parser.isSet(run);
    o.quitAfterRun = parser.isSet(quit);
    o.quitAfterShown = parser.isSet(quitShown);
    o.theme = parser.value(theme);
    o.dataFolder = parser.value(data);
    o.settingsFile = parser.value(settings);
    o.perfReport = parser.value(perf);
    o.calibrate = !parser.isSet(noCalibration);
    if (o.quitAfterRun && !o.runAtStart) {
        // Without a run to end, the window would never quit: a script waiting for it would hang.
        std::fprintf(stderr,
                     "iolab: --quit-after-run quits when the run started by --run ends; give --run too.\n"
                     "Run 'iolab --help' for usage.\n");
        std::exit(2);
    }
    return o;
}

bool asksForHelpOrVersion(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        if (arg == "--")
            return false;
        if (arg == "-h" || arg == "--help" || arg == "-?" || arg == "--help-all" || arg == "-v" ||
            arg == "--version")
            return true;
    }
    return false;
}

QString noDisplayProblem(const QString& platform, const QString& sessionType, bool waylandPluginInstalled,
                         const DisplayServers& servers)
{
    if (!servers.needsServer)
        return {};
    QStringList named; // "xcb", "wayland": Qt tries a list separated by ';', each name before its ':' options
    for (const QString& part : platform.split(QLatin1Char(';'), Qt::SkipEmptyParts))
        named << part.section(QLatin1Char(':'), 0, 0).trimmed();
    const auto isWayland = [](const QString& name) {
        return name.startsWith(QStringLiteral("wayland"));
    };
    QStringList problems;
    if (!named.isEmpty()) {
        bool x11 = false;
        bool wayland = false;
        for (const QString& name : named) {
            if (name == QStringLiteral("xcb"))
                x11 = true;
            else if (isWayland(name))
                wayland = true;
            else
                return {}; // offscreen, minimal, vnc, eglfs, linuxfb: no display server needed
        }
        if ((x11 && servers.x11) || (wayland && servers.wayland))
            return {};
        if (x11)
            problems << QString::fromStdString(servers.x11Problem);
        if (wayland)
            problems << QString::fromStdString(servers.waylandProblem);
    } else {
        const bool waylandSession = sessionType == QStringLiteral("wayland");
        if (servers.x11 || (servers.wayland && waylandSession && waylandPluginInstalled))
            return {};
        problems << QString::fromStdString(servers.x11Problem);
        if (!servers.wayland)
            problems << QString::fromStdString(servers.waylandProblem);
        else if (!waylandPluginInstalled)
            problems << QStringLiteral(
                "a Wayland compositor is running, but Qt's Wayland platform plugin is not "
                "installed");
        else
            problems << QStringLiteral(
                "a Wayland compositor is running, but XDG_SESSION_TYPE is not wayland, "
                "so Qt does not try it (QT_QPA_PLATFORM=wayland does)");
    }
    return QStringLiteral("there is no display to open the window on (%1).")
        .arg(problems.join(QStringLiteral("; ")));
}

namespace {

bool waylandPluginInstalled()
{
    QStringList folders{QLibraryInfo::path(QLibraryInfo::PluginsPath) + QStringLiteral("/platforms")};
    if (const QString extra = qEnvironmentVariable("QT_QPA_PLATFORM_PLUGIN_PATH"); !extra.isEmpty())
        folders << extra;
    for (const QString& folder : folders) {
        if (!QDir(folder).entryList({QStringLiteral("*qwayland*")}, QDir::Files).isEmpty())
            return true;
    }
    return false;
}

} // namespace

QString noDisplayProblem(int argc, char** argv)
{
    QString platform = qEnvironmentVariable("QT_QPA_PLATFORM");
    for (int i = 1; i + 1 < argc; ++i) {
        const std::string_view arg(argv[i]);
        if (arg == "-platform" || arg == "--platform")
            platform = QString::fromLocal8Bit(argv[i + 1]);
    }
    return noDisplayProblem(platform, qEnvironmentVariable("XDG_SESSION_TYPE"), waylandPluginInstalled(),
                            probeDisplayServers());
}

QString withoutADisplayHint()
{
    return QStringLiteral(
        "Without a display:\n"
        "  iolab-cli runs the same benchmarks:  iolab-cli run --target DIR --preset quick\n"
        "  iolab report needs none (offscreen): iolab report RESULT.json --pdf REPORT.pdf\n"
        "  the app runs with no window:         QT_QPA_PLATFORM=offscreen iolab --target DIR --preset quick "
        "--run --quit-after-run\n");
}

namespace {

// Why IOLab cannot keep files in `folder` ("" when it can, or can make it): it is a file, or the folder (or
// the nearest existing one above it, where IOLab would make the rest) takes no new file. Nothing is left.
QString folderProblem(const QString& folder)
{
    const QFileInfo info(folder);
    if (info.exists() && !info.isDir())
        return QObject::tr("it is a file, not a folder");
    QString existing = QDir::cleanPath(info.absoluteFilePath());
    while (!QFileInfo::exists(existing) && existing != QDir::rootPath())
        existing = QFileInfo(existing).absolutePath();
    if (!QFileInfo(existing).isDir())
        return QObject::tr("it cannot be made, since %1 is a file, not a folder").arg(existing);
    // Permissions do not tell everything (root passes them on a read-only mount): make a file and remove it.
    QTemporaryFile probe(QDir(existing).filePath(QStringLiteral(".iolab-check-XXXXXX")));
    if (probe.open())
        return {};
    const QString why = probe.errorString();
    return existing == QDir::cleanPath(info.absoluteFilePath())
               ? QObject::tr("no file can be written in it (%1)").arg(why)
               : QObject::tr("it cannot be made, since no folder can be made in %1 (%2)").arg(existing, why);
}

} // namespace

QString launchPathProblem(const LaunchOptions& options)
{
    if (!options.dataFolder.isEmpty()) {
        if (const QString problem = folderProblem(options.dataFolder); !problem.isEmpty())
            return QObject::tr("--data-dir %1: %2; give a folder IOLab can keep its history and presets in.")
                .arg(options.dataFolder, problem);
    }
    if (!options.settingsFile.isEmpty()) {
        const QFileInfo info(options.settingsFile);
        QString problem;
        if (info.isDir())
            problem = QObject::tr("it is a folder; give the path of an INI file");
        else if (info.exists() && !info.isWritable())
            problem = QObject::tr("the file is not writable, so no setting could be saved");
        else if (const QString folder = folderProblem(info.absolutePath()); !folder.isEmpty())
            problem = QObject::tr("its folder %1: %2, so no setting could be saved")
                          .arg(info.absolutePath(), folder);
        if (!problem.isEmpty())
            return QObject::tr("--settings %1: %2.").arg(options.settingsFile, problem);
    }
    return {};
}

namespace {

// Reads the result file named at launch off the GUI thread, like any open (a file on a hung mount must not
// freeze the window before it is even up). If it does not read, its problem joins the launch's other
// problems in the banner and goes to stderr, as theirs did.
void openAtLaunch(MainWindow& window, const QString& path, const QStringList& otherProblems)
{
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = QObject::connect(
        &window, &MainWindow::resultOpened, &window,
        [&window, path, otherProblems, connection](const QString& opened, const QString& error) {
            if (opened != path)
                return;
            QObject::disconnect(*connection);
            if (error.isEmpty())
                return;
            const QString problem = QObject::tr("Cannot open %1: %2").arg(path, error);
            std::fprintf(stderr, "iolab: %s\n", problem.toLocal8Bit().constData());
            QStringList all = otherProblems;
            all << problem;
            window.showProblem(all.join(QLatin1Char('\n')));
        });
    window.openResultFile(path);
}

} // namespace

QStringList applyLaunchOptions(MainWindow& window, const LaunchOptions& options)
{
    QStringList problems;
    if (!options.theme.isEmpty()) {
        const QString name = options.theme.toLower();
        if (name == QStringLiteral("system") || name == QStringLiteral("light") ||
            name == QStringLiteral("dark"))
            window.setTheme(themeFromName(name));
        else
            problems << QObject::tr("--theme %1: give system, light or dark").arg(options.theme);
    }
    if (!options.preset.isEmpty()) {
        QString error;
        if (!window.matrixEditor()->loadPreset(options.preset, &error))
            problems << QObject::tr("--preset %1: %2").arg(options.preset, error);
    }
    if (!options.matrix.isEmpty()) {
        QString error;
        if (!window.matrixEditor()->loadMatrixFile(options.matrix, &error))
            problems << QObject::tr("--matrix %1: %2").arg(options.matrix, error);
    }
    if (!options.preset.isEmpty() || !options.matrix.isEmpty())
        window.showLab(); // a matrix asked for by name is one to see, not the start page's questions
    if (!options.target.isEmpty())
        window.chooseFolder(options.target); // its problem, if any, is in the banner already
    if (!problems.isEmpty()) {
        const QString target = window.bannerText();
        if (!target.isEmpty())
            problems << target;
        window.showProblem(problems.join(QLatin1Char('\n')));
    }
    // A trace (iolab app.iolab-trace, a file manager's Open With) opens in the Program tab; anything else is
    // a result.
    if (options.openResult.endsWith(QStringLiteral(".iolab-trace"), Qt::CaseInsensitive))
        window.openTrace(options.openResult);
    else if (!options.openResult.isEmpty())
        openAtLaunch(window, options.openResult, problems);
    return problems;
}

void startRunWhenReady(MainWindow& window, std::function<void(const QString&)> cannotStart)
{
    auto timer = std::make_shared<QTimer>();
    timer->setInterval(100);
    QObject::connect(
        timer.get(), &QTimer::timeout, &window, [&window, timer, cannotStart = std::move(cannotStart)] {
            // The mount scan may still be going; a target is selected once it is in.
            if (window.targetPanel()->model()->isScanning() || window.currentTargetKey().isEmpty())
                return;
            timer->stop();
            if (!window.startRun())
                cannotStart(window.runBlockedReason().isEmpty() ? window.bannerText()
                                                                : window.runBlockedReason());
        });
    timer->start();
}

} // namespace iolab::gui
