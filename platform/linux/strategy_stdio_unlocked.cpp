// SPDX-License-Identifier: MIT
// stdio-unlocked: fwrite_unlocked(3) per chunk: fwrite without taking the FILE lock on every call.
#include "platform/linux/strategies.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/stdio_job.h"

namespace iolab::linux_backend {

namespace {

struct UnlockedWrite
{
    std::size_t operator()(const std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return ::fwrite_unlocked(data, 1, size, file);
    }
};

class StdioUnlockedStrategy final : public BasicStrategy
{
public:
    StdioUnlockedStrategy()
        : BasicStrategy({.id = "stdio-unlocked",
                         .description = "fwrite_unlocked(3) per chunk: stdio without the per-call FILE lock",
                         .usesStdioBuffer = true,
                         .targets = {TargetKind::Directory, TargetKind::Null},
                         .syncModes = posix::kEverySyncMode})
    {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return posix::StdioJob<UnlockedWrite>::create(spec, outcome);
    }
};

} // namespace

std::unique_ptr<Strategy> makeStdioUnlockedStrategy()
{
    return std::make_unique<StdioUnlockedStrategy>();
}

} // namespace iolab::linux_backend
