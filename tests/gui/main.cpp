// SPDX-License-Identifier: MIT
// The GUI tests share one QApplication (offscreen: ctest sets QT_QPA_PLATFORM) and keep their settings and
// data out of the user's folders.
#include "app/gui/qt_environment.h"
#include "app/gui/workers.h"

#include <QApplication>
#include <QStandardPaths>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string_view>
#include <thread>

int main(int argc, char** argv)
{
    // A stand-in for another program that lives a while (another IOLab run in a target): the same on Linux
    // and Windows, where a Linux /bin/sleep started from wine is not a Windows process at all.
    if (argc == 3 && std::string_view(argv[1]) == "--sleep-seconds") {
        std::this_thread::sleep_for(std::chrono::seconds(std::atoi(argv[2])));
        return 0;
    }
    // Also when ctest lists the tests (discovery runs without the test's environment) and there is no
    // display.
    // Windows (under wine): the windows plugin, as the offscreen one finds no fonts there.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
#ifdef _WIN32
        qputenv("QT_QPA_PLATFORM", "windows");
#else
        qputenv("QT_QPA_PLATFORM", "offscreen");
#endif
    iolab::gui::applyQtEnvironmentDefaults(); // as the app does
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setApplicationName(QStringLiteral("iolab-tests"));
    QApplication::setOrganizationName(QStringLiteral("IOLab"));
    QApplication app(argc, argv);
    ::testing::InitGoogleMock(&argc, argv);
    const int status = RUN_ALL_TESTS();
    // As the app does at exit: the looks at targets a test started (a model's rescan) end before the
    // program's statics are destroyed under them.
    iolab::gui::finishWorkers(std::chrono::seconds(10));
    return status;
}
