// SPDX-License-Identifier: MIT
// The memory budget (article 001): a write case under a memory limit runs in a child process in a memory
// cgroup of its own, so that its page cache counts against the limit. What the case needs of the limit, the
// cgroup's counters as the platform reads them, and how an OOM kill is told.
#pragma once

#include "core/base/units.h"
#include "core/model/case.h"
#include "core/model/result.h"
#include "core/model/strategy_info.h"

#include <cstdint>
#include <string>

namespace iolab {

// The case child itself under a limit, before any buffer of its case: code, heap, thread stacks (measured
// at about 6 MiB for iolab-cli on Linux; the rest is headroom).
inline constexpr std::uint64_t kChildProgramBytes = 12 * kMiB;
// The smallest limit the memory-limit axis takes.
inline constexpr std::uint64_t kMinMemoryLimitBytes = 16 * kMiB;

// What the case holds in memory of its own beyond the page cache, which the limit may reclaim: per thread its
// chunk buffer, its stdio buffer, its mapped window or batch; plus the program (kChildProgramBytes).
std::uint64_t memoryLimitNeeds(const Case& c, const StrategyInfo& info);

// A memory cgroup's counters now (cgroup v2 memory.current and memory.stat's file, file_dirty,
// file_writeback; v1 memory.usage_in_bytes and memory.stat's cache, dirty, writeback).
struct BudgetCounters
{
    std::uint64_t usageBytes = 0;
    std::uint64_t pageCacheBytes = 0;
    std::uint64_t dirtyBytes = 0;
    std::uint64_t writebackBytes = 0;
};

// What the cgroup says once its process has gone: its peak usage (v2 memory.peak, v1
// memory.max_usage_in_bytes; 0 where the kernel does not keep one) and the OOM kills inside it.
struct BudgetEnd
{
    std::uint64_t peakBytes = 0;
    std::uint64_t oomKills = 0;
};

// "killed by the kernel's OOM killer at 251 MiB of the 256 MiB limit" (the peak left out when unknown).
std::string oomKillSentence(std::uint64_t peakBytes, std::uint64_t limitBytes);

// The higher of each figure: a repetition's peaks into the case's.
void keepPeaks(MemoryBudgetUse& into, const MemoryBudgetUse& from);

} // namespace iolab
