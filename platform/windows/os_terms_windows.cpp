// SPDX-License-Identifier: MIT
// What the strategies' declarations read where Windows differs from Linux (platform/strategy_declarations.h).
#include "platform/strategy_declarations.h"
#include "platform/windows/stdio_job.h"
#include "platform/windows/win_io.h"

namespace iolab {

const OsTerms& osTerms()
{
    static const OsTerms terms{
        .syncModes = win::windowsSyncModes(),
        .syncRefusal = win::windowsSyncRefusal(),
        .readHints = win::windowsReadHints(),
        .hintRefusal = win::windowsHintRefusal(),
        .directHintRefusal = "FILE_FLAG_NO_BUFFERING bypasses the cache, so there is no read-ahead to advise",
        .stdioRuntime = windows_backend::StdioCrt::runtime()};
    return terms;
}

} // namespace iolab
