// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

namespace iolab::gui {

class LogFilterModel;
class LogModel;

// The Log tab: the app's log lines from a chosen level up, Clear, and where the full log file is; it follows
// new lines while it is scrolled to the bottom.
class LogPage : public QWidget
{
    Q_OBJECT

public:
    // `log` may be null (no log panel sink); it outlives the page.
    explicit LogPage(LogModel* log, QWidget* parent = nullptr);

private:
    LogModel* m_log = nullptr;
    LogFilterModel* m_filter = nullptr;
};

} // namespace iolab::gui
