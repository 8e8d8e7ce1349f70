// SPDX-License-Identifier: MIT
// stdio: fwrite(3) per chunk, with the case's setvbuf.
#include "platform/builtin_strategies.h"
#include "platform/posix/stdio_job.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

struct LockedWrite
{
    static constexpr const char* kCall = "fwrite";
    static constexpr bool kFixedChunks = false; // glibc has no inline form of the locked fwrite
    std::size_t operator()(const std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return std::fwrite(data, 1, size, file);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeStdioStrategy()
{
    return std::make_unique<posix::StdioStrategy<linux_backend::LockedWrite>>(stdioDeclaration());
}

} // namespace iolab
