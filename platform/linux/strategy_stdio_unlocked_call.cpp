// SPDX-License-Identifier: MIT
// stdio-unlocked-call: fwrite_unlocked(3) per chunk, always as a call into the C library, whatever the chunk
// size: what stdio-unlocked costs when the compiler cannot expand it (a size known only at run time, or C++).
#include "platform/builtin_strategies.h"
#include "platform/posix/stdio_job.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

using FwriteFn = std::size_t (*)(const void*, std::size_t, std::size_t, std::FILE*);

// Read through a volatile, so that no compiler can know which function the loop calls and expand it.
FwriteFn volatile g_fwriteUnlocked = &::fwrite_unlocked;

struct CalledUnlockedWrite
{
    static constexpr const char* kCall = "fwrite_unlocked";
    static constexpr bool kFixedChunks = false;

    FwriteFn call = g_fwriteUnlocked; // read once per job, before the loop

    std::size_t operator()(const std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return call(data, 1, size, file);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeStdioUnlockedCallStrategy()
{
    return std::make_unique<posix::StdioStrategy<linux_backend::CalledUnlockedWrite>>(
        stdioUnlockedCallDeclaration());
}

} // namespace iolab
