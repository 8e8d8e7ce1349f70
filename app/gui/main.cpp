// SPDX-License-Identifier: MIT
// iolab: the desktop app.
#include "app/gui/live_charts.h"
#include "app/gui/log_model.h"
#include "app/gui/main_window.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/report_command.h"
#include "app/gui/run_controller.h"
#include "app/gui/stall_monitor.h"
#include "app/gui/target_model.h"
#include "core/log.h"
#include "core/version.h"
#include "platform/platform.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QStandardPaths>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <string_view>

using namespace iolab;
using namespace iolab::gui;

namespace {

// Set by the signal handler, polled by a timer on the GUI thread: a lock-free atomic is safe for both.
std::atomic<bool> g_terminationRequested{false};

void onTerminationSignal(int signal)
{
    g_terminationRequested.store(true);
    std::signal(signal, SIG_DFL); // a second signal ends the process at once
}

struct Options
{
    QString perfReport;
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

Options parseOptions(QApplication& app)
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
    const QCommandLineOption quit(QStringLiteral("quit-after-run"),
                                  QStringLiteral("Quit when the run ends."));
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
    parser.process(app);
    Options o;
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

} // namespace

int main(int argc, char** argv)
{
    attachParentConsole(); // a windowed .exe on Windows: print --help and reports to the console it came from
    if (argc > 1 && std::string_view(argv[1]) == "report")
        return reportCommand(argc, argv);
    QElapsedTimer sinceStart;
    sinceStart.start();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("iolab"));
    QApplication::setOrganizationName(QStringLiteral("IOLab"));
    QApplication::setApplicationVersion(QStringLiteral(IOLAB_VERSION));
    // Wayland compositors and docks match the window to iolab's .desktop entry (and its icon) by this name.
    QGuiApplication::setDesktopFileName(QStringLiteral(IOLAB_APP_ID));
    const Options options = parseOptions(app);

    LogModel logModel;
    LogConfig config;
    QDir().mkpath(QString::fromStdString(defaultLogDirectory()));
    config.filePath = defaultLogDirectory() + "/iolab.log";
    config.extraSinks.push_back(logModel.sink());
    if (const auto error = configureLogging(config); !error.empty())
        std::fprintf(stderr, "iolab: cannot open the log file (%s); logging to the log panel only\n",
                     error.c_str());
    logger(LogModule::Gui).info("IOLab {} started", IOLAB_VERSION);

    AppPaths paths;
    paths.dataFolder = options.dataFolder.isEmpty()
                           ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
                           : options.dataFolder;
    paths.settingsFile = options.settingsFile;
    MainWindow window(paths, &logModel);
    if (!options.theme.isEmpty())
        window.setTheme(themeFromName(options.theme));
    if (!options.preset.isEmpty()) {
        QString error;
        if (!window.matrixEditor()->loadPreset(options.preset, &error))
            std::fprintf(stderr, "iolab: %s\n", error.toLocal8Bit().constData());
    }
    if (!options.matrix.isEmpty()) {
        QString error;
        if (!window.matrixEditor()->importMatrixFile(options.matrix, &error))
            std::fprintf(stderr, "iolab: %s\n", error.toLocal8Bit().constData());
    }
    if (!options.target.isEmpty())
        window.chooseFolder(options.target);
    if (!options.openResult.isEmpty()) {
        QString error;
        if (!window.openResultFile(options.openResult, &error))
            std::fprintf(stderr, "iolab: %s\n", error.toLocal8Bit().constData());
    }

    StallMonitor stalls;
    std::size_t samplesSeen = 0;
    std::uint64_t rssAtOneMinute =
        0; // the process as the sampler saw it a minute into the run, and at its end
    std::uint64_t rssAtLastSample = 0;
    QObject::connect(window.controller(), &RunController::sampleArrived, &window, [&](const Sample& sample) {
        ++samplesSeen;
        if (sample.runSeconds <= 60)
            rssAtOneMinute = sample.rssBytes;
        rssAtLastSample = sample.rssBytes;
    });
    qint64 shownMs = -1;
    QObject::connect(&window, &MainWindow::firstShown, &window, [&] {
        shownMs = sinceStart.elapsed();
        stalls.start();
        logger(LogModule::Gui).info("window shown {} ms after start", shownMs);
        if (options.quitAfterShown)
            QTimer::singleShot(0, &app, &QApplication::quit);
        if (options.runAtStart) {
            // The mount scan may still be going; the run starts once a target is selected and the plan
            // allows.
            auto tryStart = std::make_shared<QTimer>();
            tryStart->setInterval(100);
            QObject::connect(tryStart.get(), &QTimer::timeout, &window, [&window, tryStart] {
                if (!window.runBlockedReason().isEmpty() &&
                    window.runBlockedReason() != QObject::tr("Select a target."))
                    std::fprintf(stderr, "iolab: waiting to run: %s\n",
                                 window.runBlockedReason().toLocal8Bit().constData());
                if (window.startRun())
                    tryStart->stop();
            });
            tryStart->start();
        }
    });
    if (options.quitAfterRun)
        QObject::connect(&window, &MainWindow::runEnded, &app, &QApplication::quit, Qt::QueuedConnection);

    // Ctrl-C or a logout's SIGTERM closes the window as the user would: a run stops and removes its files
    // first.
    std::signal(SIGINT, onTerminationSignal);
    std::signal(SIGTERM, onTerminationSignal);
    QTimer terminationPoll;
    QObject::connect(&terminationPoll, &QTimer::timeout, &window, [&window] {
        if (g_terminationRequested.exchange(false)) {
            logger(LogModule::Gui).info("termination signal: closing");
            window.close();
        }
    });
    terminationPoll.start(200);

    window.show();
    const int status = QApplication::exec();

    if (!options.perfReport.isEmpty()) {
        nlohmann::json report;
        report["startToShownMs"] = shownMs;
        report["stallTicks"] = stalls.ticks();
        report["stallP50Ms"] = stalls.percentileMs(50);
        report["stallP99Ms"] = stalls.percentileMs(99);
        report["stallMaxMs"] = stalls.maxMs();
        report["rssBytes"] = makeSystemProbe()->process().rssBytes;
        report["chartPointsHeld"] = window.liveCharts()->pointsHeld();
        report["samplesSeen"] = samplesSeen;
        report["rssAtOneMinuteBytes"] = rssAtOneMinute;
        report["rssAtLastSampleBytes"] = rssAtLastSample;
        report["lastSavedRun"] = window.lastSavedRun().toStdString();
        QFile out(options.perfReport);
        if (out.open(QIODevice::WriteOnly | QIODevice::Truncate))
            out.write(QByteArray::fromStdString(report.dump(2) + "\n"));
        else
            std::fprintf(stderr, "iolab: cannot write %s\n", options.perfReport.toLocal8Bit().constData());
    }
    return status;
}
