// SPDX-License-Identifier: MIT
// The built-in strategies both OSes have, each declared once (platform/common/strategy_declarations.cpp):
// its id, description, needs, axes and the facts callers ask of it. Each backend builds the strategy from
// its declaration with its own job (platform/<os>/strategy_*.cpp). Where the OSes word or offer a fact
// differently, the one declaration reads this OS's value: the backend's OsTerms, or both wordings side by
// side in the declaration.
#pragma once

#include "core/engine/strategy.h"

#include <string>
#include <vector>

namespace iolab {

// What declarations read where the OSes differ, defined once by each backend
// (platform/linux/os_terms_linux.cpp, platform/windows/os_terms_windows.cpp) from the values its own code
// uses.
struct OsTerms
{
    std::vector<SyncMode> syncModes; // the sync policies a plain file write takes
    std::string syncRefusal;         // why the others do not apply; "" when it takes every one
    std::vector<ReadHint> readHints; // the hints a read through the cache takes
    std::string hintRefusal;         // why the others do not apply; "" when it takes every one
    std::string directHintRefusal;   // why a direct read takes no hint
    StdioRuntime stdioRuntime;       // how the C runtime buffers a FILE
};
const OsTerms& osTerms();

// The writers through a FILE.
StrategyInfo stdioDeclaration();
StrategyInfo stdioUnlockedDeclaration();
StrategyInfo stdioUnlockedCallDeclaration();
StrategyInfo putcDeclaration();
StrategyInfo putcUnlockedDeclaration();
StrategyInfo fputcDeclaration();
// The writers through the OS's own write call.
StrategyInfo writeDeclaration();
StrategyInfo directDeclaration();
StrategyInfo writeRandomDeclaration();
StrategyInfo directRandomDeclaration();
StrategyInfo mmapWindowDeclaration();
StrategyInfo mmapBatchDirectDeclaration();
StrategyInfo groupCommitDeclaration();
StrategyInfo pipeWriteDeclaration();
// The readers.
StrategyInfo readDeclaration();
StrategyInfo freadDeclaration();
StrategyInfo freadUnlockedDeclaration();
StrategyInfo readDirectDeclaration();
StrategyInfo mmapReadDeclaration();
StrategyInfo readRandomDeclaration();
StrategyInfo readRandomDirectDeclaration();
// files-serial (Parallelism::Single), files-pool (Threads) and files-per-thread (PerFile).
StrategyInfo filesDeclaration(Parallelism parallelism);

} // namespace iolab
