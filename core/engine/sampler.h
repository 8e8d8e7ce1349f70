// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/case_child.h"
#include "core/engine/exposure.h"
#include "core/engine/probe.h"
#include "core/engine/strategy.h"
#include "core/model/memory_budget.h"
#include "core/model/result.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace iolab {

// Samples the running repetition every interval on its own thread: bytes done and at risk (from the
// per-thread progress and durable counters), process CPU and RSS, system Dirty/Writeback and the target
// device's counters. The hot loops never see it beyond the relaxed counters they already bump.
class Sampler
{
public:
    using Callback = std::function<void(const Sample&)>;

    Sampler(SystemProbe& probe, std::string device, std::chrono::milliseconds interval,
            std::chrono::steady_clock::time_point runStart, Callback callback);
    ~Sampler();
    Sampler(const Sampler&) = delete;
    Sampler& operator=(const Sampler&) = delete;

    // `exposure`: how the threads' durable counters are read into each sample's at-risk bytes. `child`: the
    // case child running the repetition, whose CPU, memory and memory cgroup the samples then show (it must
    // outlive end()).
    void begin(std::uint32_t caseIndex, std::int32_t repetition, bool warmup, const Progress* progress,
               std::size_t count, ExposurePlan exposure = {}, CaseChild* child = nullptr);
    void setSyncing(bool syncing);
    // Stops sampling the repetition; returns the highest RSS seen while it ran.
    std::uint64_t end();
    // The highest memory cgroup figures a child's samples showed since begin(), each its own.
    BudgetCounters takeBudgetPeak();
    // The samples of the current case so far, leaving none behind.
    std::vector<Sample> takeSamples();

private:
    void loop();
    void tick();

    SystemProbe& m_probe;
    std::string m_device;
    std::chrono::milliseconds m_interval;
    std::chrono::steady_clock::time_point m_runStart;
    Callback m_callback;

    std::mutex m_mutex;
    // A plain condition variable and a flag: core/engine/deadline.h says why not a stop token's wait.
    std::condition_variable m_wake;
    bool m_ending = false; // under m_mutex
    bool m_active = false;
    bool m_syncing = false;
    std::uint32_t m_caseIndex = 0;
    std::int32_t m_repetition = 0;
    bool m_warmup = false;
    const Progress* m_progress = nullptr;
    std::size_t m_progressCount = 0;
    ExposurePlan m_exposure;
    std::chrono::steady_clock::time_point m_last;
    std::uint64_t m_lastBytes = 0;
    ProcessCounters m_lastProcess;
    std::optional<DeviceCounters> m_deviceBase;
    std::uint64_t m_lastDeviceWritten = 0;
    std::uint64_t m_lastDeviceRead = 0;
    std::uint64_t m_peakRss = 0;
    CaseChild* m_child = nullptr;
    BudgetCounters m_budgetPeak;
    std::vector<Sample> m_samples;
    std::thread m_thread; // last: it starts after every member above exists
};

} // namespace iolab
