// SPDX-License-Identifier: MIT
// The uring-* strategies, built from their declarations (platform/common/queued_strategies.h) by
// strategy_queued.cpp: the writers in strategy_uring_write.cpp, the readers in strategy_uring_read.cpp.
#pragma once

#include "platform/basic_strategy.h"
#include "platform/linux/uring_setup.h"

#include <memory>

namespace iolab::linux_backend {

// What every uring-* strategy shares: its declaration, and the refusal of a case whose ring the kernel
// will not set up (io_uring disabled or filtered, a queue depth above the ring's limit). The alignment
// O_DIRECT needs is the matrix's general check (needsBlockAlignedChunks), not repeated here.
class UringStrategy : public BasicStrategy
{
public:
    using BasicStrategy::BasicStrategy;

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        if (c.queueDepth == 0)
            return std::nullopt; // the queue-depth axis refuses it with its own reason
        return probeRing(ringEntries(c.queueDepth));
    }
};

// uring-write, uring-random-write and their -direct variants.
std::unique_ptr<Strategy> makeUringWriteStrategy(StrategyInfo info, bool random);
// uring-read, uring-random-read and their -direct variants.
std::unique_ptr<Strategy> makeUringReadStrategy(StrategyInfo info, bool random);

} // namespace iolab::linux_backend
