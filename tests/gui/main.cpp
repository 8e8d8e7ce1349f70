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

int main(int argc, char** argv)
{
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
