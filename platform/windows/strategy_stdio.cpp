// SPDX-License-Identifier: MIT
// stdio: fwrite per chunk, with the case's setvbuf.
#include "platform/builtin_strategies.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/stdio_job.h"

namespace iolab::windows_backend {

namespace {

struct LockedWrite
{
    static constexpr const char* kCall = "fwrite";
    static constexpr bool kFixedChunks = false;
    std::size_t operator()(const std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return std::fwrite(data, 1, size, file);
    }
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeStdioStrategy()
{
    return std::make_unique<windows_backend::StdioStrategy<windows_backend::LockedWrite>>(stdioDeclaration());
}

} // namespace iolab
