// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <vector>

namespace iolab::gui {

// Measures how long the GUI thread's event loop goes without turning: a precise 10 ms timer notes how late
// each tick comes. A late tick means the thread was busy (painting, a model reset, a slow slot) for that
// long.
class StallMonitor : public QObject
{
    Q_OBJECT

public:
    static constexpr int kTickMs = 10;
    static constexpr double kReportMs = 200; // longer stalls are logged as they happen

    explicit StallMonitor(QObject* parent = nullptr);
    void start();
    void stop();
    bool isActive() const { return m_timer.isActive(); }

    std::size_t ticks() const { return m_stallsMs.size(); }
    // Lateness of the ticks, in milliseconds.
    double percentileMs(double p) const;
    double maxMs() const;

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = 0;
    std::vector<double> m_stallsMs;
};

} // namespace iolab::gui
