// SPDX-License-Identifier: MIT
// stdio-unlocked: _fwrite_nolock per chunk, fwrite without the per-call FILE lock. The Universal CRT (MSVC,
// or mingw-w64 built for UCRT) has it; the old msvcrt.dll that Debian's mingw-w64 links does not, and this
// strategy then says so instead of quietly running the locked call.
// Unlike glibc's fwrite_unlocked, _fwrite_nolock has no inline form for small constant sizes: the Universal
// CRT's FILE is opaque (one placeholder pointer), so neither its header nor the compiler can expand the call,
// and a user's `_fwrite_nolock(&c, 1, 1, f)` is a call into ucrtbase.dll like any other. stdio-unlocked and
// stdio-unlocked-call are therefore the same loop on Windows.
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
    static constexpr const char* kCall = "_fwrite_nolock";
    static constexpr bool kFixedChunks = false; // nothing to expand: see above
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
