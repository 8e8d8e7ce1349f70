// SPDX-License-Identifier: MIT
// A strategy of the test programs only: "test-memory-hog" takes its case's whole size as memory of its own,
// 1 MiB at a time, each page touched (and counted as written), then writes nothing. Under a memory limit
// below its size, the kernel's OOM killer must end the case child that runs it.
#pragma once

#include "core/base/units.h"
#include "core/engine/registry.h"
#include "core/engine/strategy.h"
#include "platform/platform.h"

#include <csignal>
#include <cstring>
#include <memory>
#include <vector>

namespace iolab::test {

class MemoryHog final : public Strategy
{
public:
    MemoryHog()
    {
        m_info.id = "test-memory-hog";
        m_info.description = "takes its size as memory of its own (tests only)";
        m_info.targets = {TargetKind::Directory};
        m_info.syncModes = {SyncMode::None};
        m_info.preallocations = {Preallocate::None};
        m_info.timesCalls = false;
    }
    const StrategyInfo& info() const override { return m_info; }
    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome&) const override
    {
        return std::make_unique<HogJob>(spec.bytes);
    }

private:
    class HogJob final : public Job
    {
    public:
        explicit HogJob(std::uint64_t bytes) : m_bytes(bytes) {}
        Outcome execute(Progress& progress) override
        {
            for (std::uint64_t taken = 0; taken < m_bytes; taken += kMiB) {
                m_pieces.push_back(std::make_unique<char[]>(kMiB));
                std::memset(m_pieces.back().get(), 1, kMiB);
                progress.bytes.store(taken + kMiB, std::memory_order_relaxed);
            }
            return Outcome::success();
        }

    private:
        std::uint64_t m_bytes;
        std::vector<std::unique_ptr<char[]>> m_pieces;
    };

    StrategyInfo m_info;
};

#ifndef _WIN32
// "test-self-kill" counts its first MiB, then ends its own process with SIGKILL: a case child that dies of
// something other than the OOM killer, which must not be blamed on it.
class SelfKill final : public Strategy
{
public:
    SelfKill()
    {
        m_info.id = "test-self-kill";
        m_info.description = "kills its own process (tests only)";
        m_info.targets = {TargetKind::Directory};
        m_info.syncModes = {SyncMode::None};
        m_info.preallocations = {Preallocate::None};
        m_info.timesCalls = false;
    }
    const StrategyInfo& info() const override { return m_info; }
    std::unique_ptr<Job> prepare(const JobSpec&, Outcome&) const override
    {
        return std::make_unique<KillJob>();
    }

private:
    class KillJob final : public Job
    {
    public:
        Outcome execute(Progress& progress) override
        {
            progress.bytes.store(kMiB, std::memory_order_relaxed);
            std::raise(SIGKILL);
            return Outcome::success();
        }
    };

    StrategyInfo m_info;
};
#endif

// The built-in strategies and the test ones: the registry of the test programs that start case children,
// in the parent and in the child alike.
inline const Registry& testRegistry()
{
    static const Registry registry = [] {
        Registry r;
        registerBuiltinStrategies(r);
        r.add(std::make_unique<MemoryHog>());
#ifndef _WIN32
        r.add(std::make_unique<SelfKill>());
#endif
        return r;
    }();
    return registry;
}

} // namespace iolab::test
