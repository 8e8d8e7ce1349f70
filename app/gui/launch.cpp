// SPDX-License-Identifier: MIT
#include "app/gui/launch.h"

#include "app/gui/main_window.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/target_model.h"
#include "core/base/log.h"

#include <cstdio>
#include <cstdlib>

#include <QCommandLineParser>
#include <QCoreApplication>
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
    parser.addOptions({target, preset, matrix, run, quit, quitShown, theme, data, settings, perf});
    parser.addPositionalArgument(QStringLiteral("result"), QStringLiteral("A result JSON to open."),
                                 QStringLiteral("[result.json]"));
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
        if (!window.matrixEditor()->importMatrixFile(options.matrix, &error))
            problems << QObject::tr("--matrix %1: %2").arg(options.matrix, error);
    }
    if (!options.target.isEmpty())
        window.chooseFolder(options.target); // its problem, if any, is in the banner already
    if (!problems.isEmpty()) {
        const QString target = window.bannerText();
        if (!target.isEmpty())
            problems << target;
        window.showProblem(problems.join(QLatin1Char('\n')));
    }
    if (!options.openResult.isEmpty())
        openAtLaunch(window, options.openResult, problems);
    return problems;
}

void startRunWhenReady(MainWindow& window, std::function<void(const QString&)> cannotStart)
{
    auto timer = std::make_shared<QTimer>();
    timer->setInterval(100);
    QObject::connect(timer.get(), &QTimer::timeout, &window,
                     [&window, timer, cannotStart = std::move(cannotStart)] {
                         // The mount scan may still be going; a target is selected once it is in.
                         if (window.targetModel()->isScanning() || window.currentTargetKey().isEmpty())
                             return;
                         timer->stop();
                         if (!window.startRun())
                             cannotStart(window.runBlockedReason().isEmpty() ? window.bannerText()
                                                                             : window.runBlockedReason());
                     });
    timer->start();
}

} // namespace iolab::gui
