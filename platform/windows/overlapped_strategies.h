// SPDX-License-Identifier: MIT
// The overlapped-* families, built by platform/windows/strategy_queued.cpp from their declarations
// (platform/common/queued_strategies.h).
#pragma once

#include "core/engine/strategy.h"

#include <memory>

namespace iolab::windows_backend {

enum class Order
{
    Sequential,
    Random
};

// overlapped-write(-direct) and overlapped-random-write(-direct); direct when info.needsDirectIo.
std::unique_ptr<Strategy> makeOverlappedWriteStrategy(StrategyInfo info, Order order);
// overlapped-read(-direct) and overlapped-random-read(-direct); direct when info.needsDirectIo.
std::unique_ptr<Strategy> makeOverlappedReadStrategy(StrategyInfo info, Order order);

} // namespace iolab::windows_backend
