// SPDX-License-Identifier: MIT
// stdio: fwrite per chunk, with the case's setvbuf.
#include "platform/basic_strategy.h"
#include "platform/windows/stdio_job.h"
#include "platform/windows/strategies.h"
#include "platform/windows/win_io.h"

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

class StdioStrategy final : public BasicStrategy
{
public:
    StdioStrategy()
        : BasicStrategy(
              {.id = "stdio",
               .description = "fwrite per chunk through a FILE with setvbuf (none, default or N bytes)",
               .usesStdioBuffer = true,
               .targets = {TargetKind::Directory, TargetKind::Null},
               .syncModes = win::windowsSyncModes(),
               .syncRefusal = win::windowsSyncRefusal()})
    {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        return stdioBufferRefusal(c.buffer);
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return StdioJob<LockedWrite>::create(spec, outcome);
    }
};

} // namespace

std::unique_ptr<Strategy> makeStdioStrategy()
{
    return std::make_unique<StdioStrategy>();
}

} // namespace iolab::windows_backend
