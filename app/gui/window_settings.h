// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <memory>

class QSettings;

namespace iolab {
class Registry;
}

namespace iolab::gui {

class MainWindow;

// What the window keeps between sessions in its QSettings: its geometry and state, the lab's splitters and
// tab, the theme, the target, the matrix (a preset's name, or the matrix itself) and the run options.
class WindowSettings
{
public:
    // "" = the platform's default QSettings; otherwise an INI file (tests point it at a temporary folder).
    explicit WindowSettings(const QString& file);
    ~WindowSettings();
    WindowSettings(const WindowSettings&) = delete;
    WindowSettings& operator=(const WindowSettings&) = delete;

    void restore(MainWindow& window, const Registry& registry);
    void save(MainWindow& window);
    // The target's key as last saved; "" when none was.
    QString target() const;

private:
    std::unique_ptr<QSettings> m_settings;
};

} // namespace iolab::gui
