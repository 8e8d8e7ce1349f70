// SPDX-License-Identifier: MIT
#include "core/engine/steady.h"

#include "core/base/stats.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace iolab {

SteadyDetector::SteadyDetector(SteadyRule rule, bool deviceRate)
    : m_rule(rule), m_deviceRate(deviceRate), m_window(rule.windowMs / 1000.0),
      m_ramp(steadyRampSeconds(rule))
{}

double SteadyDetector::bytesAt(double seconds) const
{
    const auto after = std::lower_bound(m_points.begin(), m_points.end(), seconds,
                                        [](const auto& p, double t) { return p.first < t; });
    if (after == m_points.end())
        return static_cast<double>(m_points.back().second);
    if (after == m_points.begin() || after->first == seconds)
        return static_cast<double>(after->second);
    const auto& [t1, b1] = *after;
    const auto& [t0, b0] = *(after - 1);
    const double f = (seconds - t0) / (t1 - t0);
    return static_cast<double>(b0) + f * (static_cast<double>(b1) - static_cast<double>(b0));
}

bool SteadyDetector::add(double seconds, std::uint64_t bytes)
{
    if (m_state)
        return true;
    if (!m_rule.on() || m_window <= 0)
        return false;
    if (!m_points.empty() && seconds <= m_points.back().first)
        return false;
    m_points.emplace_back(seconds, bytes);
    const double bin = m_window / kSteadyBins;
    const auto mbpsBetween = [this](double from, double to) {
        return (bytesAt(to) - bytesAt(from)) / (to - from) / 1e6;
    };
    const double stretch = bin * kSteadyStretchBins;
    if (seconds - stretch >= m_ramp)
        m_fastest = std::max(m_fastest, mbpsBetween(seconds - stretch, seconds));
    const double from = seconds - m_window;
    if (from < m_ramp)
        return false;
    std::vector<double> rates(kSteadyBins);
    for (int i = 0; i < kSteadyBins; ++i)
        rates[static_cast<std::size_t>(i)] = mbpsBetween(from + i * bin, from + (i + 1) * bin);
    const double mean = mbpsBetween(from, seconds);
    if (mean <= 0)
        return false;
    // The least-squares slope per bin against the bin's index.
    const double centre = (kSteadyBins - 1) / 2.0;
    double num = 0;
    double den = 0;
    for (int i = 0; i < kSteadyBins; ++i) {
        num += (i - centre) * (rates[static_cast<std::size_t>(i)] - mean);
        den += (i - centre) * (i - centre);
    }
    const double change = std::abs(num / den) * kSteadyBins;
    std::vector<double> distances;
    distances.reserve(rates.size());
    for (double r : rates)
        distances.push_back(std::abs(r - mean));
    const double spread = median(distances);
    if (change > kSteadySlope * mean || spread > kSteadySpread * mean)
        return false;
    // Past a cache, the rate behind it: a window 1.5x below the fastest stretch, and not one whose first bin
    // still holds the end of the fall (the median spread forgives one such bin, but its mean would not).
    if (m_rule.mode == SteadyMode::PastCache &&
        (mean * kSteadyDropFactor > m_fastest || rates.front() > mean * (1 + 2 * kSteadySpread)))
        return false;
    SteadyState s;
    s.fromSeconds = from;
    s.fromBytes = static_cast<std::uint64_t>(bytesAt(from));
    s.reachedSeconds = seconds;
    s.mbps = mean;
    s.fastestMBps = m_fastest;
    s.deviceRate = m_deviceRate;
    m_state = s;
    return true;
}

SteadyWatch::SteadyWatch(SteadyRule rule, bool deviceRate, std::function<std::uint64_t()> bytesNow,
                         std::atomic<bool>& steady)
    : m_detector(rule, deviceRate), m_thread([this, rule, bytesNow = std::move(bytesNow), &steady] {
          // Fifty readings a window at least, ten a second at most often enough for a 10 s window.
          const auto every =
              std::chrono::milliseconds(std::clamp<std::uint32_t>(rule.windowMs / 50, 10, 100));
          const auto start = std::chrono::steady_clock::now();
          std::unique_lock lock(m_mutex);
          for (;;) {
              if (m_wake.wait_for(lock, every, [this] { return m_ending; }))
                  return;
              const double seconds =
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
              if (m_detector.add(seconds, bytesNow())) {
                  steady.store(true, std::memory_order_relaxed);
                  return;
              }
          }
      })
{}

SteadyWatch::~SteadyWatch()
{
    {
        const std::lock_guard lock(m_mutex);
        m_ending = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

std::optional<SteadyState> SteadyWatch::state()
{
    const std::lock_guard lock(m_mutex);
    return m_detector.state();
}

} // namespace iolab
