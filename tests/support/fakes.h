// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "core/engine/probe.h"
#include "core/engine/registry.h"
#include "core/engine/workspace.h"

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace iolab::test {

// A strategy that "writes" into memory with the real chunk loop, and can be told to fail or to block.
struct FakeBehaviour
{
    int failOnRepetition = -1; // fail every thread of this repetition index with `failErrno`
    int failErrno = 1;         // EPERM
    bool waitForStop = false;  // spin (polling the stop flag through the loop) until cancelled
    int sleepPerWriteMs = 0;   // make each write take this long
    std::atomic<int> executions{0};
    std::atomic<std::uint64_t> bytesSeen{0};
};

class FakeStrategy final : public Strategy
{
public:
    FakeStrategy(std::string id, FakeBehaviour& behaviour,
                 std::vector<TargetKind> targets = {TargetKind::Directory})
        : m_behaviour(behaviour)
    {
        m_info.id = std::move(id);
        m_info.description = "in-memory test strategy";
        m_info.targets = std::move(targets);
        m_info.syncModes = {SyncMode::None, SyncMode::FsyncEnd};
        m_info.syncRefusal = "the fake syncs only at the end";
    }
    const StrategyInfo& info() const override { return m_info; }
    StrategyInfo& mutableInfo() { return m_info; }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome&) const override;

private:
    StrategyInfo m_info;
    FakeBehaviour& m_behaviour;
};

class FakeWorkspace final : public Workspace
{
public:
    explicit FakeWorkspace(TargetInfo target = {}) : m_target(std::move(target)) {}
    const TargetInfo& target() const override { return m_target; }
    std::string pathFor(const std::string& name, Outcome&) override
    {
        std::lock_guard lock(m_mutex);
        m_folder = "/fake/run";
        const auto path = m_folder + "/" + name;
        m_live.insert(path);
        return path;
    }
    std::uint64_t freeBytes() override { return free; }
    Outcome settle() override
    {
        ++settleCalls;
        return Outcome::success();
    }
    Outcome makeDurable(const std::string& path) override
    {
        std::lock_guard lock(m_mutex);
        durableCalls.push_back(path);
        return Outcome::success();
    }
    Outcome verify(const std::string&, std::uint64_t, const Pattern&, std::uint64_t, bool) override
    {
        ++verifyCalls;
        return Outcome::success();
    }
    Outcome readBack(const std::string& path,
                     const std::function<void(const std::byte*, std::size_t)>& consume) override
    {
        const auto it = contents.find(path);
        if (it == contents.end())
            return {Status::Failed, 2, "read back", path + ": no such file in the fake"};
        consume(it->second.data(), it->second.size());
        return Outcome::success();
    }
    std::string directoryFor(const std::string& name, Outcome&) override
    {
        std::lock_guard lock(m_mutex);
        m_folder = "/fake/run";
        const auto path = m_folder + "/" + name;
        m_live.insert(path + "/");
        return path;
    }
    void removeDirectory(const std::string& path) override
    {
        std::lock_guard lock(m_mutex);
        m_live.erase(path + "/");
    }
    Outcome writeDataFile(const std::string& path, std::uint64_t bytes, std::uint64_t, const Pattern&,
                          const std::atomic<bool>&, std::uint64_t) override
    {
        std::lock_guard lock(m_mutex);
        dataFiles.emplace_back(path, bytes);
        return Outcome::success();
    }
    Outcome evict(const std::string&) override
    {
        ++evictCalls;
        return Outcome::success();
    }
    Outcome dropCaches() override { return {Status::Unsupported, 0, "drop caches", "not in the fake"}; }
    std::optional<std::uint64_t> cachedBytes(const std::string&) override { return cached; }
    std::string evictionMethod(bool) const override { return "fake eviction"; }
    void remove(const std::string& path) override
    {
        std::lock_guard lock(m_mutex);
        m_live.erase(path);
        ++removeCalls;
    }
    void close() override
    {
        closed = true;
        m_folder.clear();
    }
    std::string folder() const override { return m_folder; }
    std::set<std::string> live() const { return m_live; }

    std::uint64_t free = 1ULL << 40;
    std::vector<std::string> durableCalls;
    int verifyCalls = 0;
    std::atomic<int> settleCalls{0};
    int removeCalls = 0;
    int evictCalls = 0;
    std::vector<std::pair<std::string, std::uint64_t>> dataFiles;
    std::optional<std::uint64_t> cached;
    bool closed = false;
    std::map<std::string, std::vector<std::byte>> contents; // what readBack() hands out, by path

private:
    TargetInfo m_target;
    std::string m_folder;
    std::set<std::string> m_live;
    std::mutex m_mutex;
};

class FakeProbe final : public SystemProbe
{
public:
    ProcessCounters process() override
    {
        std::lock_guard lock(m_mutex);
        m_cpu += 0.01;
        return {m_cpu, m_cpu / 2, 10 << 20};
    }
    MemoryCounters memory() override { return {1 << 20, 0}; }
    std::optional<MemoryCounters> writeBacklog() override { return backlog; }
    std::optional<DeviceCounters> device(const std::string& name) override
    {
        if (name.empty())
            return std::nullopt;
        return DeviceCounters{0, 0};
    }
    HostInfo host() override { return {"testhost", "TestOS", "0.0", "TestCPU", 2, 1ULL << 30}; }
    // The drive's heat: each call the next of `thermalReadings` (the last again once they run out), none
    // when empty; `thermalDevices` the device each call named.
    std::optional<ThermalReading> thermal(const std::string& device) override
    {
        std::lock_guard lock(m_mutex);
        thermalDevices.push_back(device);
        if (thermalReadings.empty())
            return std::nullopt;
        const std::size_t at = std::min(m_thermalCalls++, thermalReadings.size() - 1);
        return thermalReadings[at];
    }

    std::optional<MemoryCounters> backlog = MemoryCounters{1 << 20, 0};
    std::vector<ThermalReading> thermalReadings;
    std::vector<std::string> thermalDevices;

private:
    std::mutex m_mutex;
    double m_cpu = 0;
    std::size_t m_thermalCalls = 0;
};

} // namespace iolab::test
