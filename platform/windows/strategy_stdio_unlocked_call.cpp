// SPDX-License-Identifier: MIT
// stdio-unlocked-call: _fwrite_nolock per chunk, called through a pointer the compiler cannot see through. On
// Windows the call is never expanded inline anyway (see strategy_stdio_unlocked.cpp), so this measures the
// same loop as stdio-unlocked; it exists so that a matrix naming it runs on both systems. Unavailable, as
// stdio-unlocked is, when the build links msvcrt.dll.
#include "platform/builtin_strategies.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/stdio_nolock.h"

namespace iolab {

std::unique_ptr<Strategy> builtin::makeStdioUnlockedCallStrategy()
{
    return windows_backend::makeFwriteNolockStrategy(stdioUnlockedCallDeclaration(),
                                                     windows_backend::NolockCall::ThroughPointer);
}

} // namespace iolab
