// SPDX-License-Identifier: MIT
// stdio: fwrite per chunk, with the case's setvbuf.
#include "platform/windows/stdio_job.h"
#include "platform/windows/strategies.h"

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

std::unique_ptr<Strategy> makeStdioStrategy()
{
    return std::make_unique<StdioStrategy<LockedWrite>>(
        "stdio", "fwrite per chunk through a FILE with setvbuf (none, default or N bytes)",
        CallCost::BufferedStdio);
}

} // namespace iolab::windows_backend
