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
// Every chunk of the thread's file written once in a random order, through the cache and direct.
std::unique_ptr<Strategy> makeWriteRandomStrategy();
std::unique_ptr<Strategy> makeDirectRandomStrategy();
std::unique_ptr<Strategy> makeMmapWindowStrategy();
std::unique_ptr<Strategy> makeMmapBatchDirectStrategy();
std::unique_ptr<Strategy> makePipeWriteStrategy();
// Linux only (platform/common/one_os_strategies.h), defined by the Linux backend: elsewhere the list
// (platform/common/register.cpp) holds makeUnavailableStrategy(vmspliceDeclaration()) in its place.
std::unique_ptr<Strategy> makeVmspliceStrategy();
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

} // namespace iolab::builtin
