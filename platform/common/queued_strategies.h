// SPDX-License-Identifier: MIT
#pragma once

#include "platform/common/one_os_strategies.h"

#include <memory>
#include <vector>

namespace iolab {

// The queued strategies: requests kept in flight up to the case's queue depth, each OS through its own
// asynchronous interface. io_uring is Linux's (the uring-* strategies), overlapped I/O on a completion port
// Windows's (the overlapped-* strategies). Each family is declared once here; the OS that has it builds it
// from the declaration (builtin::makeQueuedStrategy), the other lists it unavailable with the reason. In
// each family: sequential writes, random writes (every chunk of the file once, in a random order), sequential
// reads of a file per thread and random reads of one shared file, each through the page cache or direct
// (O_DIRECT / FILE_FLAG_NO_BUFFERING, the "-direct" ids).
const std::vector<OneOsStrategy>& uringDeclarations();
const std::vector<OneOsStrategy>& overlappedDeclarations();

// The largest queue depth a queued strategy's declaration takes (a ring or a port may allow less: its
// strategy refuses a deeper case with the reason).
inline constexpr std::uint32_t kQueuedStrategyMaxDepth = kMaxQueueDepth;

} // namespace iolab

namespace iolab::builtin {

// Defined by the backend whose OS has the family: the strategy `declaration` declares.
std::unique_ptr<Strategy> makeQueuedStrategy(const OneOsStrategy& declaration);

} // namespace iolab::builtin
