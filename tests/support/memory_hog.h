// SPDX-License-Identifier: MIT
// A strategy of the test programs only: "test-memory-hog" takes its case's whole size as memory of its own,
// 1 MiB at a time, each page touched (and counted as written), then writes nothing. Under a memory limit
// below its size, the kernel's OOM killer must end the case child that runs it. "test-probe-hog" does so
// only in a kill -9 probe's run (Progress::everyCall); in a measured one it counts its size after 2 s into
// an empty file. A probe child outside the case's cgroup would not be stopped. Also "test-self-kill" and
// "test-deaf" (FirstMiBThen, below).
#pragma once

#include "core/base/units.h"
#include "core/engine/registry.h"
#include "core/engine/strategy.h"
#include "platform/platform.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace iolab::test {

class MemoryHog final : public Strategy
{
public:
    explicit MemoryHog(bool onlyWhenProbed = false) : m_onlyWhenProbed(onlyWhenProbed)
    {
        m_info.id = onlyWhenProbed ? "test-probe-hog" : "test-memory-hog";
        m_info.description = "takes its size as memory of its own (tests only)";
        m_info.targets = {TargetKind::Directory};
        m_info.syncModes = {SyncMode::None};
        m_info.preallocations = {Preallocate::None};
        m_info.timesCalls = false;
    }
    const StrategyInfo& info() const override { return m_info; }
    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome&) const override
    {
        // The runner syncs and closes the data file after the timed part: an empty one is enough.
        if (m_onlyWhenProbed)
            std::ofstream(spec.path, std::ios::binary);
        return std::make_unique<HogJob>(spec.bytes, m_onlyWhenProbed);
    }

private:
    class HogJob final : public Job
    {
    public:
        HogJob(std::uint64_t bytes, bool onlyWhenProbed) : m_bytes(bytes), m_onlyWhenProbed(onlyWhenProbed) {}
        Outcome execute(Progress& progress) override
        {
            if (m_onlyWhenProbed && !progress.everyCall) {
                // Long enough that the probe's kill, due at 10-90% of this (200 ms at the earliest), comes
                // after the hog's cap even when its child is slow: at 500 ms a fresh clone's ASan run, two
                // test programs at once, saw the kill land first.
                std::this_thread::sleep_for(std::chrono::milliseconds(2000));
                progress.bytes.store(m_bytes, std::memory_order_relaxed);
                return Outcome::success();
            }
            for (std::uint64_t taken = 0; taken < m_bytes; taken += kMiB) {
                m_pieces.push_back(std::make_unique<char[]>(kMiB));
                std::memset(m_pieces.back().get(), 1, kMiB);
                progress.bytes.store(taken + kMiB, std::memory_order_relaxed);
            }
            return Outcome::success();
        }

    private:
        std::uint64_t m_bytes;
        bool m_onlyWhenProbed;
        std::vector<std::unique_ptr<char[]>> m_pieces;
    };

    bool m_onlyWhenProbed;
    StrategyInfo m_info;
};

// A test strategy that counts its first MiB, then does `then` in its case child's process:
// - "test-self-kill" ends its own process with SIGKILL: a child that dies of something other than the OOM
//   killer, which must not be blamed on it (not on Windows);
// - "test-deaf" sleeps for a minute without looking at the stop flag: a child stuck where a cancel cannot
//   reach it (a sync on a dying disk, a hung mount), which the runner must kill.
class FirstMiBThen final : public Strategy
{
public:
    FirstMiBThen(std::string id, std::string description, void (*then)()) : m_then(then)
    {
        m_info.id = std::move(id);
        m_info.description = std::move(description);
        m_info.targets = {TargetKind::Directory};
        m_info.syncModes = {SyncMode::None};
        m_info.preallocations = {Preallocate::None};
        m_info.timesCalls = false;
    }
    const StrategyInfo& info() const override { return m_info; }
    std::unique_ptr<Job> prepare(const JobSpec&, Outcome&) const override
    {
        return std::make_unique<ThenJob>(m_then);
    }

private:
    class ThenJob final : public Job
    {
    public:
        explicit ThenJob(void (*then)()) : m_then(then) {}
        Outcome execute(Progress& progress) override
        {
            progress.bytes.store(kMiB, std::memory_order_relaxed);
            m_then();
            return Outcome::success();
        }

    private:
        void (*m_then)();
    };

    void (*m_then)();
    StrategyInfo m_info;
};

// The built-in strategies and the test ones: the registry of the test programs that start case children,
// in the parent and in the child alike.
inline const Registry& testRegistry()
{
    static const Registry registry = [] {
        Registry r;
        registerBuiltinStrategies(r);
        r.add(std::make_unique<MemoryHog>());
        r.add(std::make_unique<MemoryHog>(true));
        r.add(std::make_unique<FirstMiBThen>("test-deaf", "ignores a cancel for a minute (tests only)",
                                             [] { std::this_thread::sleep_for(std::chrono::seconds(60)); }));
#ifndef _WIN32
        r.add(std::make_unique<FirstMiBThen>("test-self-kill", "kills its own process (tests only)",
                                             [] { std::raise(SIGKILL); }));
#endif
        return r;
    }();
    return registry;
}

} // namespace iolab::test
