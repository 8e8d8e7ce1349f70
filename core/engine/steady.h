// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/case.h"
#include "core/model/result.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace iolab {

// How a rate counts as steady, fio's steady-state test made robust:
// - the window (SteadyRule::windowMs, 10 s unless set) is cut into ten bins, each bin's rate taken from the
//   bytes written across it;
// - its trend: the least-squares line through the ten bin rates changes by at most kSteadySlope of the
//   window's mean rate from one end of the window to the other (fio's bw_slope criterion, over the window
//   rather than per second);
// - its spread: the median distance of a bin's rate from the mean is at most kSteadySpread of the mean
//   (fio's bw criterion asks every bin to lie within the band, which one stalled bin on a busy machine
//   breaks; the median asks it of most of them);
// - the first min(2 s, a quarter window) are a ramp that no window covers;
// - past-cache also asks the window's mean to be kSteadyDropFactor times below the fastest stretch seen
//   (three tenths of a window), so that a flat rate inside a fast cache does not end the write, and its first
//   bin to be within twice the spread of the mean, so that the window does not begin inside the fall.
inline constexpr double kSteadySlope = 0.10;
inline constexpr double kSteadySpread = 0.10;
inline constexpr double kSteadyDropFactor = 1.5;
inline constexpr int kSteadyBins = 10;
inline constexpr int kSteadyStretchBins = 3;

// Fed the bytes written so far at increasing times; says once the rate is steady. Pure: tests feed it.
class SteadyDetector
{
public:
    SteadyDetector(SteadyRule rule, bool deviceRate);

    // `seconds` since the timed part began, `bytes` written by then. Returns true once steady (and after).
    bool add(double seconds, std::uint64_t bytes);
    const std::optional<SteadyState>& state() const { return m_state; }

private:
    double bytesAt(double seconds) const; // linear between the readings

    SteadyRule m_rule;
    bool m_deviceRate;
    double m_window;
    double m_ramp;
    std::vector<std::pair<double, std::uint64_t>> m_points;
    double m_fastest = 0;
    std::optional<SteadyState> m_state;
};

// Watches a repetition's rate from a thread of its own, reading `bytesNow` every few milliseconds, and sets
// `steady` (the loops' time-up flag) once the detector says so. Destroying it ends the thread.
class SteadyWatch
{
public:
    SteadyWatch(SteadyRule rule, bool deviceRate, std::function<std::uint64_t()> bytesNow,
                std::atomic<bool>& steady);
    ~SteadyWatch();
    SteadyWatch(const SteadyWatch&) = delete;
    SteadyWatch& operator=(const SteadyWatch&) = delete;

    std::optional<SteadyState> state();

private:
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_ending = false;     // under m_mutex
    SteadyDetector m_detector; // under m_mutex
    std::thread m_thread;      // last: started once the rest exists
};

} // namespace iolab
