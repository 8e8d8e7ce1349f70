// SPDX-License-Identifier: MIT
// The models' tests: the models library alone, over a QGuiApplication (no widget; offscreen as the widgets'
// tests).
#include "app/gui/qt_environment.h"
#include "app/gui/workers.h"

#include <QGuiApplication>
#include <QStandardPaths>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

int main(int argc, char** argv)
{
    // Windows (under wine): the windows plugin, as the offscreen one finds no fonts there.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
#ifdef _WIN32
        qputenv("QT_QPA_PLATFORM", "windows");
#else
        qputenv("QT_QPA_PLATFORM", "offscreen");
#endif
    iolab::gui::applyQtEnvironmentDefaults(); // as the app does
    QStandardPaths::setTestModeEnabled(true);
    QGuiApplication::setApplicationName(QStringLiteral("iolab-model-tests"));
    QGuiApplication::setOrganizationName(QStringLiteral("IOLab"));
    QGuiApplication app(argc, argv);
    ::testing::InitGoogleMock(&argc, argv);
    const int status = RUN_ALL_TESTS();
    // The looks at targets a model started (a rescan) end before the program's statics go.
    iolab::gui::finishWorkers(std::chrono::seconds(10));
    return status;
}
