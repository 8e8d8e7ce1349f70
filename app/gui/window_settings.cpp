// SPDX-License-Identifier: MIT
#include "app/gui/window_settings.h"
#include "app/gui/widget_helpers.h"

#include "app/gui/lab_view.h"
#include "app/gui/main_window.h"
#include "app/gui/matrix_editor.h"
#include "core/base/error.h"
#include "core/base/log.h"
#include "core/formats/matrix_json.h"

#include <QDir>
#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>

#include <nlohmann/json.hpp>

namespace iolab::gui {

WindowSettings::WindowSettings(const QString& file)
    : m_settings(file.isEmpty() ? std::make_unique<QSettings>()
                                : std::make_unique<QSettings>(file, QSettings::IniFormat))
{}

WindowSettings::~WindowSettings() = default;

QString WindowSettings::target() const
{
    return m_settings->value(QStringLiteral("target")).toString();
}

void WindowSettings::restore(MainWindow& window, const Registry& registry)
{
    QSettings& s = *m_settings;
    MatrixEditor& editor = *window.matrixEditor();
    const QByteArray geometry = s.value(QStringLiteral("window/geometry")).toByteArray();
    const bool placed = !geometry.isEmpty() && window.restoreGeometry(geometry);
    if (!placed || window.isMaximized()) {
        // First start, or maximized when it closed: the whole of the screen's available area (a window
        // manager maximizes it; without one, the geometry alone fills it).
        if (const QScreen* screen = placed ? window.screen() : QGuiApplication::primaryScreen();
            screen != nullptr)
            window.setGeometry(screen->availableGeometry());
        window.setWindowState(window.windowState() | Qt::WindowMaximized);
    }
    window.restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    window.lab()->readSplitters(s);
    window.tabs()->setCurrentIndex(s.value(QStringLiteral("window/tab"), 0).toInt());
    window.setTheme(themeFromName(s.value(QStringLiteral("theme")).toString()));

    const QString preset = s.value(QStringLiteral("matrix/preset")).toString();
    const QString json = s.value(QStringLiteral("matrix/json")).toString();
    bool restored = false;
    if (!preset.isEmpty())
        restored = editor.loadPreset(preset);
    if (!restored && !json.isEmpty()) {
        try {
            editor.setDraft(
                MatrixDraft::fromMatrix(parseMatrixJson(json.toStdString(), "settings"), registry));
            restored = true;
        } catch (const InputError& e) {
            logger(LogModule::Gui).warn("the matrix saved in the settings is not usable: {}", e.what());
        }
    }
    RunOptions options;
    // Nothing remembered: the repetitions the restored matrix asks for.
    options.repetitions =
        s.value(QStringLiteral("run/repetitions"), editor.runOptions().repetitions).toUInt();
    options.warmups = s.value(QStringLiteral("run/warmups"), 1).toUInt();
    options.verifyFiles = s.value(QStringLiteral("run/verify"), false).toBool();
    editor.setRunOptions(options);

    // Until the mount scan is in, the remembered folder is shown on its own.
    const QString key = s.value(QStringLiteral("target")).toString();
    // A folder's key is its absolute path ("/home/me", "D:\\data"); pipe and null have words.
    if (!key.isEmpty() && !window.selectTarget(key) && QDir::isAbsolutePath(key))
        window.chooseFolder(key);
}

void WindowSettings::save(MainWindow& window)
{
    QSettings& s = *m_settings;
    MatrixEditor& editor = *window.matrixEditor();
    s.setValue(QStringLiteral("window/geometry"), window.saveGeometry());
    s.setValue(QStringLiteral("window/state"), window.saveState());
    window.lab()->writeSplitters(s);
    s.setValue(QStringLiteral("window/tab"), window.tabs()->currentIndex());
    s.setValue(QStringLiteral("theme"), themeName(window.theme()));
    s.setValue(QStringLiteral("target"), window.currentTargetKey());
    s.setValue(QStringLiteral("matrix/preset"), editor.currentPreset());
    const MatrixDraft draft = editor.draft();
    s.setValue(QStringLiteral("matrix/json"),
               draft.problem().empty() ? qs(matrixToJson(draft.toMatrix()).dump()) : QString());
    const RunOptions options = editor.runOptions();
    s.setValue(QStringLiteral("run/repetitions"), options.repetitions);
    s.setValue(QStringLiteral("run/warmups"), options.warmups);
    s.setValue(QStringLiteral("run/verify"), options.verifyFiles);
    s.sync();
}

} // namespace iolab::gui
