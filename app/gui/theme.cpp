// SPDX-License-Identifier: MIT
#include "app/gui/theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>

namespace iolab::gui {

namespace {

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x27, 0x29, 0x2c));
    p.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x3f, 0x41));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3b));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Link, QColor(0x4f, 0xc3, 0xf7));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x45, 0x47, 0x4b));
    p.setColor(QPalette::Dark, QColor(0x19, 0x1a, 0x1c));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4c, 0x50));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

QPalette lightPalette(const QStyle& fusion)
{
    QPalette p = fusion.standardPalette();
    p.setColor(QPalette::AlternateBase, QColor(0xf3, 0xf5, 0xf7));
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x8a, 0x8a));
    return p;
}

} // namespace

bool applyTheme(QApplication& app, Theme theme)
{
    // What the platform (desktop theme, QT_QPA_PLATFORMTHEME) gave, before IOLab changed anything.
    static const QPalette platformPalette = QApplication::palette();
    QApplication::setStyle(QStringLiteral("Fusion"));
    QPalette palette;
    switch (theme) {
    case Theme::Dark:
        palette = darkPalette();
        break;
    case Theme::Light:
        palette = lightPalette(*app.style());
        break;
    case Theme::System:
        palette = platformPalette;
        break;
    }
    QApplication::setPalette(palette);
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

Theme themeFromName(const QString& name)
{
    if (name == QStringLiteral("light"))
        return Theme::Light;
    if (name == QStringLiteral("dark"))
        return Theme::Dark;
    return Theme::System;
}

} // namespace iolab::gui
