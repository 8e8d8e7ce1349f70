// SPDX-License-Identifier: MIT
#include "core/engine/sampler.h"

#include "core/base/units.h"

#include <algorithm>
#include <utility>

namespace iolab {

using Clock = std::chrono::steady_clock;

Sampler::Sampler(SystemProbe& probe, std::string device, std::chrono::milliseconds interval,
                 Clock::time_point runStart, Callback callback)
    : m_probe(probe), m_device(std::move(device)), m_interval(interval), m_runStart(runStart),
      m_callback(std::move(callback)), m_thread([this] { loop(); })
{}

Sampler::~Sampler()
{
    {
        const std::lock_guard lock(m_mutex);
        m_ending = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void Sampler::begin(std::uint32_t caseIndex, std::int32_t repetition, bool warmup, const Progress* progress,
                    std::size_t count, ExposurePlan exposure, CaseChild* child)
{
    // Baselines are read before taking the lock so the sampler thread never waits on /proc reads.
    auto process = child != nullptr ? child->process().value_or(ProcessCounters{}) : m_probe.process();
    auto device = m_device.empty() ? std::nullopt : m_probe.device(m_device);
    std::lock_guard lock(m_mutex);
    m_active = true;
    m_syncing = false;
    m_caseIndex = caseIndex;
    m_repetition = repetition;
    m_warmup = warmup;
    m_progress = progress;
    m_progressCount = count;
    m_exposure = std::move(exposure);
    m_last = Clock::now();
    m_lastBytes = 0;
    m_lastProcess = process;
    m_deviceBase = device;
    m_lastDeviceWritten = 0;
    m_lastDeviceRead = 0;
    m_peakRss = process.rssBytes;
    m_child = child;
    m_budgetPeak = {};
}

void Sampler::setSyncing(bool syncing)
{
    std::lock_guard lock(m_mutex);
    m_syncing = syncing;
}

std::uint64_t Sampler::end()
{
    std::lock_guard lock(m_mutex);
    const auto rss = m_child != nullptr ? 0 : m_probe.process().rssBytes;
    m_active = false;
    m_progress = nullptr;
    m_child = nullptr;
    m_peakRss = std::max(m_peakRss, rss);
    return m_peakRss;
}

BudgetCounters Sampler::takeBudgetPeak()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_budgetPeak, {});
}

std::vector<Sample> Sampler::takeSamples()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_samples, {});
}

void Sampler::loop()
{
    std::unique_lock lock(m_mutex);
    while (!m_ending) {
        if (m_wake.wait_for(lock, m_interval, [this] { return m_ending; }))
            break;
        if (!m_active)
            continue;
        lock.unlock();
        tick();
        lock.lock();
    }
}

void Sampler::tick()
{
    // Read the OS counters without the lock; the lock only guards the bookkeeping. A case child's counters
    // are read under it, so that end() never returns while its child is being read.
    auto process = m_probe.process();
    const auto memory = m_probe.memory();
    const auto device = m_device.empty() ? std::nullopt : m_probe.device(m_device);

    Sample sample;
    {
        std::lock_guard lock(m_mutex);
        if (!m_active)
            return;
        std::optional<BudgetCounters> budget;
        if (m_child != nullptr) {
            process = m_child->process().value_or(m_lastProcess);
            budget = m_child->budget();
        }
        const auto now = Clock::now();
        if (budget) {
            sample.budgetUsageBytes = budget->usageBytes;
            sample.budgetPageCacheBytes = budget->pageCacheBytes;
            sample.budgetDirtyBytes = budget->dirtyBytes;
            sample.budgetWritebackBytes = budget->writebackBytes;
            m_budgetPeak.usageBytes = std::max(m_budgetPeak.usageBytes, budget->usageBytes);
            m_budgetPeak.pageCacheBytes = std::max(m_budgetPeak.pageCacheBytes, budget->pageCacheBytes);
            m_budgetPeak.dirtyBytes = std::max(m_budgetPeak.dirtyBytes, budget->dirtyBytes);
            m_budgetPeak.writebackBytes = std::max(m_budgetPeak.writebackBytes, budget->writebackBytes);
        }
        std::uint64_t bytes = 0;
        for (std::size_t i = 0; i < m_progressCount; ++i)
            bytes += m_progress[i].bytes.load(std::memory_order_relaxed);
        const double seconds = std::chrono::duration<double>(now - m_last).count();
        sample.runSeconds = std::chrono::duration<double>(now - m_runStart).count();
        sample.caseIndex = m_caseIndex;
        sample.repetition = m_repetition;
        sample.warmup = m_warmup;
        sample.bytesDone = bytes;
        sample.intervalMBps = m_syncing ? 0.0 : toMBps(bytes - m_lastBytes, seconds);
        if (seconds > 0) {
            sample.cpuUserPercent = 100.0 * (process.userSeconds - m_lastProcess.userSeconds) / seconds;
            sample.cpuSystemPercent = 100.0 * (process.systemSeconds - m_lastProcess.systemSeconds) / seconds;
        }
        sample.rssBytes = process.rssBytes;
        sample.dirtyBytes = memory.dirtyBytes;
        sample.writebackBytes = memory.writebackBytes;
        if (device && m_deviceBase) {
            sample.deviceReadBytes = device->readBytes - m_deviceBase->readBytes;
            sample.deviceWrittenBytes = device->writtenBytes - m_deviceBase->writtenBytes;
            sample.deviceWriteMBps = toMBps(sample.deviceWrittenBytes - m_lastDeviceWritten, seconds);
            m_lastDeviceWritten = sample.deviceWrittenBytes;
            sample.deviceReadMBps = toMBps(sample.deviceReadBytes - m_lastDeviceRead, seconds);
            m_lastDeviceRead = sample.deviceReadBytes;
        }
        sample.syncing = m_syncing;
        sample.atRiskBytes = atRiskNow(m_exposure, m_progress, m_progressCount);
        m_last = now;
        m_lastBytes = bytes;
        m_lastProcess = process;
        m_peakRss = std::max(m_peakRss, process.rssBytes);
        m_samples.push_back(sample);
    }
    if (m_callback)
        m_callback(sample);
}

} // namespace iolab
