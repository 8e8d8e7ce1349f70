// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QWidget>

#include <functional>

class QLabel;
class QPushButton;

namespace iolab::gui {

// The bar above the panes that says what went wrong or what was done: its text, at most one button that does
// what that message says (no message falls back to another message's action), and Dismiss.
class Banner : public QWidget
{
    Q_OBJECT

public:
    explicit Banner(QWidget* parent = nullptr);

    // An error is logged as a warning. With `actionText` and `action`, a button that runs `action`.
    void showMessage(const QString& text, bool error, const QString& actionText = {},
                     std::function<void()> action = {});
    void dismiss();
    // The message shown, or "" when the banner is hidden.
    QString text() const;
    // Follows the window's palette (a theme change).
    void followPalette(const QPalette& palette);

private:
    QLabel* m_text = nullptr;
    QPushButton* m_action = nullptr;
    std::function<void()> m_callback;
};

} // namespace iolab::gui
