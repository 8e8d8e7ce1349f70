// SPDX-License-Identifier: MIT
// Article 001's question answered in one table: for each write case under a memory limit, the rate it kept
// under the cap, what its memory cgroup held at most, and whether it survives kill -9 (the probe); then the
// answer in a sentence. Shared by the CLI and the PDF.
#pragma once

#include "core/model/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

struct MemoryBudgetRow
{
    std::uint32_t caseIndex = 0;
    std::string method; // "write, 4 threads"
    std::uint64_t limitBytes = 0;
    bool measured = false;   // ok, with a rate
    std::string reason;      // why not (an OOM kill, a refusal)
    double durableMBps = 0;  // the median
    double apparentMBps = 0; // the median
    std::uint64_t peakBytes = 0;
    std::uint64_t peakPageCacheBytes = 0;
    std::optional<bool> survivesKill; // the probe's answer; nullopt when it did not run or could not tell
    std::string killText; // "yes", "yes (batch in scratch file)", "no: loses up to 64 KiB", "not probed"
};

// The cases with a memory limit, in case order.
std::vector<MemoryBudgetRow> memoryBudgetRows(const RunResult& result);

// The answer, with numbers: the fastest case by durable rate under each limit that lost nothing on kill -9,
// and the fastest of all when that one lost something; "" without rows.
std::string memoryBudgetAnswer(const std::vector<MemoryBudgetRow>& rows);

// The table and the answer as plain text, for the CLI; "" without rows.
std::string memoryBudgetText(const RunResult& result);

} // namespace iolab
