// SPDX-License-Identifier: MIT
// What the strategies' declarations read where Linux differs from Windows (platform/strategy_declarations.h).
#include "platform/posix/basic_strategy.h"
#include "platform/posix/posix_io.h"
#include "platform/posix/stdio_job.h"
#include "platform/strategy_declarations.h"

namespace iolab {

const OsTerms& osTerms()
{
    static const OsTerms terms{.syncModes = posix::kEverySyncMode,
                               .syncRefusal = {},
                               .readHints = posix::fadviseHints(),
                               .hintRefusal = {},
                               .directHintRefusal =
                                   "O_DIRECT bypasses the page cache, so there is no readahead to advise",
                               .stdioRuntime = posix::StdioCrt::runtime()};
    return terms;
}

} // namespace iolab
