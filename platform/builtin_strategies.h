// SPDX-License-Identifier: MIT
// The built-in strategies, declared once for every OS: each backend defines these factories in its
// strategy_*.cpp files, and platform/common/register.cpp lists them in the order the front ends show.
#pragma once

#include "core/engine/strategy.h"

#include <memory>

namespace iolab::builtin {

std::unique_ptr<Strategy> makeStdioStrategy();
std::unique_ptr<Strategy> makeStdioUnlockedStrategy();
std::unique_ptr<Strategy> makeStdioUnlockedCallStrategy();
std::unique_ptr<Strategy> makePutcStrategy();
std::unique_ptr<Strategy> makePutcUnlockedStrategy();
std::unique_ptr<Strategy> makeFputcStrategy();
std::unique_ptr<Strategy> makeWriteStrategy();
std::unique_ptr<Strategy> makeDirectStrategy();
// write and direct with every chunk written once at a random place (core/engine/chunk_order.h).
std::unique_ptr<Strategy> makeWriteRandomStrategy();
std::unique_ptr<Strategy> makeDirectRandomStrategy();
std::unique_ptr<Strategy> makeMmapWindowStrategy();
std::unique_ptr<Strategy> makeMmapBatchDirectStrategy();
std::unique_ptr<Strategy> makePipeWriteStrategy();
// Linux only (platform/common/one_os_strategies.h), defined by the Linux backend: elsewhere the list
// (platform/common/register.cpp) holds makeUnavailableStrategy(vmspliceDeclaration()) in its place.
std::unique_ptr<Strategy> makeVmspliceStrategy();
// The sync lab's Linux-only writers, listed unavailable elsewhere like vmsplice.
std::unique_ptr<Strategy> makePwritev2DsyncStrategy();
std::unique_ptr<Strategy> makeSyncFileRangeStrategy();
std::unique_ptr<Strategy> makeUringLinkedSyncStrategy();
// N threads appending to one file, committed by shared syncs (platform/group_commit_job.h).
std::unique_ptr<Strategy> makeGroupCommitStrategy();
std::unique_ptr<Strategy> makeReadStrategy();
std::unique_ptr<Strategy> makeFreadStrategy();
std::unique_ptr<Strategy> makeFreadUnlockedStrategy();
std::unique_ptr<Strategy> makeReadDirectStrategy();
std::unique_ptr<Strategy> makeMmapReadStrategy();
std::unique_ptr<Strategy> makeReadRandomStrategy();
std::unique_ptr<Strategy> makeReadRandomDirectStrategy();
std::unique_ptr<Strategy> makeFilesSerialStrategy();
std::unique_ptr<Strategy> makeFilesPoolStrategy();
std::unique_ptr<Strategy> makeFilesPerThreadStrategy();
// A recorded program's calls re-issued (iolab-cli run --replay): registered unlisted (Registry::addUnlisted).
std::unique_ptr<Strategy> makeReplayStrategy();

} // namespace iolab::builtin
