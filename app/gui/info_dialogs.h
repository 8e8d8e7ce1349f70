// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QDialog;
class QIcon;
class QWidget;

namespace iolab::gui {

// The About dialog's text: version, build, system, where the log and `dataFolder` (history and presets) are.
// What a support engineer pastes into a ticket.
QString aboutText(const QString& dataFolder);
// About IOLab, modal over `parent`, with a button that copies `text`.
void showAboutDialog(QWidget* parent, const QIcon& icon, const QString& text);

// Help > How to read the results: a window beside the results, not modal, hidden when closed.
QDialog* makeReadingGuideWindow(QWidget* parent);

} // namespace iolab::gui
