// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/units.h"
#include "core/engine/strategy.h"

#include <memory>

namespace iolab::windows_backend {

std::unique_ptr<Strategy> makeStdioStrategy();
std::unique_ptr<Strategy> makeStdioUnlockedStrategy();
std::unique_ptr<Strategy> makeStdioUnlockedCallStrategy();
std::unique_ptr<Strategy> makePutcStrategy();
std::unique_ptr<Strategy> makePutcUnlockedStrategy();
std::unique_ptr<Strategy> makeFputcStrategy();
std::unique_ptr<Strategy> makeWriteStrategy();
std::unique_ptr<Strategy> makeDirectStrategy();
std::unique_ptr<Strategy> makeMmapWindowStrategy();
std::unique_ptr<Strategy> makeMmapBatchDirectStrategy();
std::unique_ptr<Strategy> makePipeWriteStrategy();
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

} // namespace iolab::windows_backend
