// SPDX-License-Identifier: MIT
// stdio-unlocked-call: _fwrite_nolock per chunk, called through a pointer the compiler cannot see through. On
// Windows the call is never expanded inline anyway (see strategy_stdio_unlocked.cpp), so this measures the
// same loop as stdio-unlocked; it exists so that a matrix naming it runs on both systems. Unavailable, as
// stdio-unlocked is, when the build links msvcrt.dll.
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
using FwriteFn = std::size_t(__cdecl*)(const void*, std::size_t, std::size_t, std::FILE*);

// Read through a volatile, so that no compiler can know which function the loop calls.
FwriteFn volatile g_fwriteNolock = &::_fwrite_nolock;

struct CalledUnlockedWrite
{
    static constexpr const char* kCall = "_fwrite_nolock";
    static constexpr bool kFixedChunks = false;

    FwriteFn call = g_fwriteNolock; // read once per job, before the loop

    std::size_t operator()(const std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return call(data, 1, size, file);
    }
};
#endif

StrategyInfo calledInfo()
{
    StrategyInfo info{.id = "stdio-unlocked-call",
                      .description = "_fwrite_nolock per chunk, always called in the C runtime (on Windows, "
                                     "the same loop as stdio-unlocked)",
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

class StdioUnlockedCallStrategy final : public BasicStrategy
{
public:
    StdioUnlockedCallStrategy() : BasicStrategy(calledInfo()) {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        return stdioBufferRefusal(c.buffer);
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
#if IOLAB_HAS_FWRITE_NOLOCK
        return StdioJob<CalledUnlockedWrite>::create(spec, outcome);
#else
        (void)spec;
        outcome = {Status::Unsupported, 0, "_fwrite_nolock", *info().unavailable};
        return nullptr;
#endif
    }
};

} // namespace

std::unique_ptr<Strategy> makeStdioUnlockedCallStrategy()
{
    return std::make_unique<StdioUnlockedCallStrategy>();
}

} // namespace iolab::windows_backend
