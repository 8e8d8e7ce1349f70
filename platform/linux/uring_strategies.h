// SPDX-License-Identifier: MIT
// The uring-* strategies, built from their declarations (platform/common/queued_strategies.h) by
// strategy_queued.cpp: the writers in strategy_uring_write.cpp, the readers in strategy_uring_read.cpp.
#pragma once

#include "platform/basic_strategy.h"
#include "platform/linux/uring_poll.h"
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

    std::optional<std::string> refusal(const Case& c, const TargetInfo& target) const override
    {
        if (c.queueDepth == 0)
            return std::nullopt; // the queue-depth axis refuses it with its own reason
        if (auto problem = probeRing(ringEntries(c.queueDepth), {c.uring.sqPoll, c.uring.ioPoll}))
            return problem;
        // IOPOLL on a device whose completions come by interrupt: fio's hipri sets the ring up and then
        // fails its requests (EOPNOTSUPP); IOLab says why before the run.
        if (c.uring.ioPoll)
            if (auto problem = pollQueueProblem("", target.device))
                return "iopoll: " + *problem;
        return std::nullopt;
    }
};

// uring-write, uring-random-write and their -direct variants.
std::unique_ptr<Strategy> makeUringWriteStrategy(StrategyInfo info, bool random);
// uring-read, uring-random-read and their -direct variants.
std::unique_ptr<Strategy> makeUringReadStrategy(StrategyInfo info, bool random);

} // namespace iolab::linux_backend
