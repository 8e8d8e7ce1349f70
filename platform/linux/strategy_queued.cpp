// SPDX-License-Identifier: MIT
// The queued family of this OS, built from its declarations (platform/common/queued_strategies.h): each
// uring-* id goes to the writer or the reader with its access order.
#include "platform/common/queued_strategies.h"
#include "platform/linux/uring_strategies.h"

#include <string_view>

namespace iolab {

std::unique_ptr<Strategy> builtin::makeQueuedStrategy(const OneOsStrategy& declaration)
{
    const StrategyInfo& info = declaration.info;
    const bool random = std::string_view(info.id).find("-random-") != std::string_view::npos;
    if (info.direction == Direction::Read)
        return linux_backend::makeUringReadStrategy(info, random);
    return linux_backend::makeUringWriteStrategy(info, random);
}

} // namespace iolab
