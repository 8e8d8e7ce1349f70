// SPDX-License-Identifier: MIT
// iolab: the desktop app.
#include "app/gui/launch.h"
#include "app/gui/live_charts.h"
#include "app/gui/log_model.h"
#include "app/gui/main_window.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/qt_environment.h"
#include "app/gui/report_command.h"
#include "app/gui/run_controller.h"
#include "app/gui/stall_monitor.h"
#include "app/gui/target_model.h"
#include "app/gui/workers.h"
#include "core/base/log.h"
#include "core/version.h"
#include "platform/platform.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QStandardPaths>
#include <QTimer>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
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

void nameApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("iolab"));
    QCoreApplication::setOrganizationName(QStringLiteral("IOLab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(IOLAB_VERSION));
}

} // namespace

int main(int argc, char** argv)
{
    // A case child of this program's own run (the kill -9 probe) does its case and nothing else.
    if (const auto code = iolab::runCaseChildIfAsked(argc, argv, iolab::builtinRegistry()))
        return *code;
    attachParentConsole(); // a windowed .exe on Windows: print --help and reports to the console it came from
    applyQtEnvironmentDefaults();
    if (argc > 1 && std::string_view(argv[1]) == "report")
        return reportCommand(argc, argv);
    if (asksForHelpOrVersion(argc, argv)) {
        QCoreApplication console(argc, argv);
        nameApplication();
        parseLaunchOptions(); // prints the help or the version and exits
        return 0;
    }
    QElapsedTimer sinceStart;
    sinceStart.start();
    // Qt aborts the process when its platform plugin finds no display: say so before it tries.
    if (const QString problem = noDisplayProblem(argc, argv); !problem.isEmpty()) {
        std::fprintf(stderr, "iolab: %s\n%s", problem.toLocal8Bit().constData(),
                     withoutADisplayHint().toLocal8Bit().constData());
        return 2;
    }
    QApplication app(argc, argv);
    nameApplication();
    // Wayland compositors and docks match the window to iolab's .desktop entry (and its icon) by this name.
    QGuiApplication::setDesktopFileName(QStringLiteral(IOLAB_APP_ID));
    const LaunchOptions options = parseLaunchOptions();
    if (const QString problem = launchPathProblem(options); !problem.isEmpty()) {
        std::fprintf(stderr, "iolab: %s\n", problem.toLocal8Bit().constData());
        return 2;
    }

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
    paths.calibrate = options.calibrate;
    MainWindow window(paths, &logModel);
    const QStringList launchProblems = applyLaunchOptions(window, options);
    for (const QString& problem : launchProblems)
        std::fprintf(stderr, "iolab: %s\n", problem.toLocal8Bit().constData());

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
        if (options.quitAfterShown && window.isOpeningResult())
            // The result named at launch is still being read: quit once it is shown or its problem is.
            QObject::connect(&window, &MainWindow::resultOpened, &app, &QApplication::quit,
                             Qt::QueuedConnection);
        else if (options.quitAfterShown)
            QTimer::singleShot(0, &app, &QApplication::quit);
        if (options.runAtStart && !launchProblems.isEmpty()) {
            // The run would not be the one asked for (another preset or matrix): it does not start.
            std::fprintf(stderr, "iolab: the run cannot start: the launch options above have problems\n");
            if (options.quitAfterRun)
                QTimer::singleShot(0, &app, [] { QCoreApplication::exit(1); });
        } else if (options.runAtStart)
            startRunWhenReady(window, [&options](const QString& why) {
                std::fprintf(stderr, "iolab: the run cannot start: %s\n", why.toLocal8Bit().constData());
                if (options.quitAfterRun)
                    QCoreApplication::exit(1);
            });
    });
    if (options.quitAfterRun)
        QObject::connect(
            &window, &MainWindow::runEnded, &app,
            [&window] {
                if (!window.lastRunProblem().isEmpty())
                    std::fprintf(stderr, "iolab: %s\n", window.lastRunProblem().toLocal8Bit().constData());
                QCoreApplication::exit(window.lastRunProblem().isEmpty() ? 0 : 1);
            },
            Qt::QueuedConnection);

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
    window.stopCalibration(); // its folder is removed within the workers' grace below
    // A run still going was stopped by the window's close, its files removed. Work that cannot end (a look
    // at a hung mount) does not hold the exit.
    const bool workersEnded = finishWorkers(std::chrono::seconds(2));

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
    if (!workersEnded) {
        // The work left behind may still read objects that a normal return would destroy under it: end
        // without running destructors, once everything said is written out.
        spdlog::apply_all([](const std::shared_ptr<spdlog::logger>& l) { l->flush(); });
        std::fflush(nullptr);
        std::_Exit(status);
    }
    return status;
}
