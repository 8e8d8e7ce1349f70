// SPDX-License-Identifier: MIT
// stdio-unlocked: _fwrite_nolock per chunk, fwrite without the per-call FILE lock (unavailable where the
// build links msvcrt.dll: see platform/windows/stdio_nolock.h).
// Unlike glibc's fwrite_unlocked, _fwrite_nolock has no inline form for small constant sizes: the Universal
// CRT's FILE is opaque (one placeholder pointer), so neither its header nor the compiler can expand the call,
// and a user's `_fwrite_nolock(&c, 1, 1, f)` is a call into ucrtbase.dll like any other. stdio-unlocked and
// stdio-unlocked-call are therefore the same loop on Windows.
#include "platform/builtin_strategies.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/stdio_nolock.h"

namespace iolab {

std::unique_ptr<Strategy> builtin::makeStdioUnlockedStrategy()
{
    return windows_backend::makeFwriteNolockStrategy(stdioUnlockedDeclaration(),
                                                     windows_backend::NolockCall::Direct);
}

} // namespace iolab
