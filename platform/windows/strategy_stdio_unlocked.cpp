// SPDX-License-Identifier: MIT
// stdio-unlocked: _fwrite_nolock per chunk, fwrite without the per-call FILE lock. The Universal CRT (MSVC,
// or mingw-w64 built for UCRT) has it; the old msvcrt.dll that Debian's mingw-w64 links does not, and this
// strategy then says so instead of quietly running the locked call.
#include "platform/basic_strategy.h"
#include "platform/windows/stdio_job.h"
#include "platform/windows/strategies.h"
#include "platform/windows/win_io.h"

#if defined(_MSC_VER) || defined(_UCRT)
#define IOLAB_HAS_FWRITE_NOLOCK 1
#else
#define IOLAB_HAS_FWRITE_NOLOCK 0
#endif

namespace iolab::windows_backend {

namespace {

#if IOLAB_HAS_FWRITE_NOLOCK
struct UnlockedWrite
{
    std::size_t operator()(const std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return ::_fwrite_nolock(data, 1, size, file);
    }
};
#endif

StrategyInfo unlockedInfo()
{
    StrategyInfo info{.id = "stdio-unlocked",
                      .description = "_fwrite_nolock per chunk: stdio without the per-call FILE lock",
                      .usesStdioBuffer = true,
                      .targets = {TargetKind::Directory, TargetKind::Null},
                      .syncModes = win::windowsSyncModes(),
                      .syncRefusal = win::windowsSyncRefusal()};
    if (!IOLAB_HAS_FWRITE_NOLOCK)
        info.unavailable =
            "this build links msvcrt.dll, which has no _fwrite_nolock; the MSVC (Universal CRT) "
            "build of IOLab runs it";
    return info;
}

class StdioUnlockedStrategy final : public BasicStrategy
{
public:
    StdioUnlockedStrategy() : BasicStrategy(unlockedInfo()) {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        return stdioBufferRefusal(c.buffer);
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
#if IOLAB_HAS_FWRITE_NOLOCK
        return StdioJob<UnlockedWrite>::create(spec, outcome);
#else
        (void)spec;
        outcome = {Status::Unsupported, 0, "_fwrite_nolock", *info().unavailable};
        return nullptr;
#endif
    }
};

} // namespace

std::unique_ptr<Strategy> makeStdioUnlockedStrategy()
{
    return std::make_unique<StdioUnlockedStrategy>();
}

} // namespace iolab::windows_backend
