// SPDX-License-Identifier: MIT
// The queued family of this OS, built from its declarations (platform/common/queued_strategies.h):
// overlapped I/O on an I/O completion port. The mingw build has no IoRing import library (README), so the
// completion port is what the Windows build keeps requests in flight with.
#include "platform/common/queued_strategies.h"
#include "platform/windows/overlapped_strategies.h"

#include <string_view>

namespace iolab {

std::unique_ptr<Strategy> builtin::makeQueuedStrategy(const OneOsStrategy& declaration)
{
    using windows_backend::Order;
    const StrategyInfo& info = declaration.info;
    const std::string_view id = info.id;
    const Order order = id.starts_with("overlapped-random-") ? Order::Random : Order::Sequential;
    if (!id.starts_with("overlapped-"))
        return makeUnavailableStrategy(declaration);
    if (info.direction == Direction::Write)
        return windows_backend::makeOverlappedWriteStrategy(info, order);
    return windows_backend::makeOverlappedReadStrategy(info, order);
}

} // namespace iolab
