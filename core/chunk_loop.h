// SPDX-License-Identifier: MIT
#pragma once

#include "core/strategy.h"

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace iolab {

enum class LoopEnd
{
    Completed,
    Cancelled,
    Failed
};

// The shared shape of every write loop. `write(offset, length)` and `sync()` return false on failure (the
// strategy keeps the error). Inside a batch there is nothing but the strategy's call: progress, the stop flag
// and one clock read happen once per batch. A batch starts at 64 KiB (at least one write) and shrinks when
// writes are slow, so that a stop lands within ~20 ms even when every write waits for the device.
template <class WriteFn, class SyncFn>
LoopEnd runChunks(std::uint64_t totalBytes, std::uint64_t chunkBytes, std::uint32_t syncEveryWrites,
                  Progress& progress, WriteFn&& write, SyncFn&& sync)
{
    using Clock = std::chrono::steady_clock;
    constexpr std::uint64_t kGrainBytes = std::uint64_t{64} * 1024;
    constexpr auto kSlowBatch = std::chrono::milliseconds(20);
    constexpr auto kFastBatch = std::chrono::milliseconds(2);

    const std::uint64_t fullWrites = totalBytes / chunkBytes;
    const std::uint64_t tailBytes = totalBytes % chunkBytes;
    const std::uint64_t maxBatch = std::max<std::uint64_t>(1, kGrainBytes / chunkBytes);
    std::uint64_t batch = maxBatch;
    std::uint64_t untilSync = syncEveryWrites;
    std::uint64_t offset = 0;
    std::uint64_t done = 0;

    while (done < fullWrites) {
        std::uint64_t count = std::min(batch, fullWrites - done);
        if (syncEveryWrites != 0)
            count = std::min(count, untilSync);
        const auto started = Clock::now();
        const std::uint64_t batchStart = offset;
        // Unrolled so that the engine's own loop work (counter, bound, branch) is amortised over four calls.
#pragma GCC unroll 4
        for (std::uint64_t i = 0; i < count; ++i) {
            if (!write(offset, chunkBytes)) [[unlikely]] {
                progress.add(offset - batchStart);
                return LoopEnd::Failed;
            }
            offset += chunkBytes;
        }
        done += count;
        if (syncEveryWrites != 0) {
            untilSync -= count;
            if (untilSync == 0) {
                if (!sync())
                    return LoopEnd::Failed;
                untilSync = syncEveryWrites;
            }
        }
        progress.add(offset - batchStart);
        if (progress.stopRequested())
            return LoopEnd::Cancelled;
        const auto took = Clock::now() - started;
        if (took > kSlowBatch && batch > 1)
            batch = std::max<std::uint64_t>(1, batch / 4);
        else if (took < kFastBatch && batch < maxBatch)
            batch = std::min(maxBatch, batch * 2);
    }
    if (tailBytes != 0) {
        if (!write(offset, tailBytes))
            return LoopEnd::Failed;
        progress.add(tailBytes);
    }
    return LoopEnd::Completed;
}

} // namespace iolab
