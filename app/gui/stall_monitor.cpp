// SPDX-License-Identifier: MIT
#include "app/gui/stall_monitor.h"

#include "core/base/log.h"

#include <algorithm>
#include <cmath>

namespace iolab::gui {

StallMonitor::StallMonitor(QObject* parent) : QObject(parent)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(kTickMs);
    connect(&m_timer, &QTimer::timeout, this, &StallMonitor::tick);
}

void StallMonitor::start()
{
    m_clock.start();
    m_lastNs = 0;
    m_timer.start();
}

void StallMonitor::stop()
{
    m_timer.stop();
}

void StallMonitor::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const double gapMs = static_cast<double>(now - m_lastNs) / 1e6;
    m_lastNs = now;
    const double stallMs = std::max(0.0, gapMs - kTickMs);
    m_stallsMs.push_back(stallMs);
    if (stallMs > kReportMs)
        logger(LogModule::Gui).warn("the GUI thread was busy for {:.0f} ms", stallMs);
}

double StallMonitor::percentileMs(double p) const
{
    if (m_stallsMs.empty())
        return 0;
    std::vector<double> sorted = m_stallsMs;
    std::sort(sorted.begin(), sorted.end());
    const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
    return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

double StallMonitor::maxMs() const
{
    return m_stallsMs.empty() ? 0 : *std::max_element(m_stallsMs.begin(), m_stallsMs.end());
}

} // namespace iolab::gui
