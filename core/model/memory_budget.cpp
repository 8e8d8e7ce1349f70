// SPDX-License-Identifier: MIT
#include "core/model/memory_budget.h"

#include <fmt/format.h>

#include <algorithm>

namespace iolab {

std::uint64_t memoryLimitNeeds(const Case& c, const StrategyInfo& info)
{
    std::uint64_t perThread = c.chunkBytes + info.holdsBackBytes + info.windowBytes;
    if (c.buffer.mode == BufferMode::Bytes)
        perThread += c.buffer.bytes;
    else if (c.buffer.mode == BufferMode::Default)
        perThread += 64 * kKiB; // the C library's own: a block or BUFSIZ, well under this
    return kChildProgramBytes + perThread * c.threads;
}

std::string oomKillSentence(std::uint64_t peakBytes, std::uint64_t limitBytes)
{
    if (peakBytes == 0)
        return fmt::format("killed by the kernel's OOM killer under the {} limit", formatBytes(limitBytes));
    return fmt::format("killed by the kernel's OOM killer at {} of the {} limit", formatBytes(peakBytes),
                       formatBytes(limitBytes));
}

void keepPeaks(MemoryBudgetUse& into, const MemoryBudgetUse& from)
{
    into.limitBytes = std::max(into.limitBytes, from.limitBytes);
    into.peakBytes = std::max(into.peakBytes, from.peakBytes);
    into.peakPageCacheBytes = std::max(into.peakPageCacheBytes, from.peakPageCacheBytes);
    into.peakDirtyBytes = std::max(into.peakDirtyBytes, from.peakDirtyBytes);
}

} // namespace iolab
