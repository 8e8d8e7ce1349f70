// SPDX-License-Identifier: MIT
// The two _fwrite_nolock writers, stdio-unlocked and stdio-unlocked-call: the same loop on Windows, one
// calling _fwrite_nolock directly, one through a pointer no compiler can see through. The Universal CRT
// (MSVC, or mingw-w64 built for UCRT) has _fwrite_nolock; the old msvcrt.dll that Debian's mingw-w64 links
// does not, and both strategies then say so instead of quietly running the locked call.
#pragma once

#include "platform/windows/stdio_job.h"

#include <cstdio>
#include <memory>
#include <string>

#if defined(_MSC_VER) || defined(_UCRT)
#define IOLAB_HAS_FWRITE_NOLOCK 1
#else
#define IOLAB_HAS_FWRITE_NOLOCK 0
#endif

namespace iolab::windows_backend {

enum class NolockCall
{
    Direct,        // _fwrite_nolock by name
    ThroughPointer // read once per job from a volatile pointer
};

#if IOLAB_HAS_FWRITE_NOLOCK
using FwriteFn = std::size_t(__cdecl*)(const void*, std::size_t, std::size_t, std::FILE*);

// Read through a volatile, so that no compiler can know which function the loop calls.
inline FwriteFn volatile g_fwriteNolock = &::_fwrite_nolock;

struct DirectNolockWrite
{
    static constexpr const char* kCall = "_fwrite_nolock";
    static constexpr bool kFixedChunks = false; // nothing to expand: the Universal CRT's FILE is opaque
    std::size_t operator()(const std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return ::_fwrite_nolock(data, 1, size, file);
    }
};

struct PointerNolockWrite
{
    static constexpr const char* kCall = "_fwrite_nolock";
    static constexpr bool kFixedChunks = false;

    FwriteFn call = g_fwriteNolock; // read once per job, before the loop

    std::size_t operator()(const std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return call(data, 1, size, file);
    }
};
#else
// A build without _fwrite_nolock lists both strategies, unavailable with the reason.
class NolockUnavailableStrategy final : public BasicStrategy
{
public:
    explicit NolockUnavailableStrategy(StrategyInfo declaration)
        : BasicStrategy(unavailable(std::move(declaration)))
    {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        return StdioCrt::bufferRefusal(c);
    }

    std::unique_ptr<Job> prepare(const JobSpec&, Outcome& outcome) const override
    {
        outcome = {Status::Unsupported, 0, "_fwrite_nolock", *info().unavailable};
        return nullptr;
    }

private:
    static StrategyInfo unavailable(StrategyInfo info)
    {
        info.unavailable =
            "this build links msvcrt.dll, which has no _fwrite_nolock; the MSVC (Universal CRT) "
            "build of IOLab runs it";
        return info;
    }
};
#endif

inline std::unique_ptr<Strategy> makeFwriteNolockStrategy(StrategyInfo declaration, NolockCall call)
{
#if IOLAB_HAS_FWRITE_NOLOCK
    if (call == NolockCall::ThroughPointer)
        return std::make_unique<StdioStrategy<PointerNolockWrite>>(std::move(declaration));
    return std::make_unique<StdioStrategy<DirectNolockWrite>>(std::move(declaration));
#else
    (void)call;
    return std::make_unique<NolockUnavailableStrategy>(std::move(declaration));
#endif
}

} // namespace iolab::windows_backend
