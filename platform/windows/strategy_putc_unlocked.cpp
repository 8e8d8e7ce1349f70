// SPDX-License-Identifier: MIT
// putc-unlocked: _putc_nolock per byte. With the Universal CRT (MSVC) it is a call into ucrtbase.dll, whose
// FILE is opaque; mingw-w64's headers for msvcrt.dll define it as a macro on the FILE's public _ptr and _cnt
// that calls _flsbuf only when the buffer is full, so there it is inline, as putc_unlocked is in glibc.
#include "core/chunk_loop.h"
#include "platform/basic_strategy.h"
#include "platform/windows/stdio_job.h"
#include "platform/windows/strategies.h"
#include "platform/windows/win_io.h"

namespace iolab::windows_backend {

namespace {

struct PutcUnlockedWrite
{
    static constexpr const char* kCall = "_putc_nolock";
    static constexpr bool kFixedChunks = true; // the chunk is always 1 byte: the loop is compiled for it

    template <class Size>
    std::size_t operator()(const std::byte* data, Size size, std::FILE* file) const noexcept
    {
        for (std::size_t i = 0; i < size; ++i) {
            if (_putc_nolock(std::to_integer<unsigned char>(data[i]), file) == EOF) [[unlikely]]
                return i;
        }
        return size;
    }
};

class PutcUnlockedStrategy final : public BasicStrategy
{
public:
    PutcUnlockedStrategy()
        : BasicStrategy({.id = "putc-unlocked",
                         .description = "_putc_nolock per byte: the per-character write without the FILE "
                                        "lock (a call into the Universal CRT; inline on msvcrt.dll builds)",
                         .usesStdioBuffer = true,
                         .targets = {TargetKind::Directory, TargetKind::Null},
                         .syncModes = win::windowsSyncModes(),
                         .syncRefusal = win::windowsSyncRefusal()})
    {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        if (auto reason = perCharacterRefusal(c))
            return reason;
        return stdioBufferRefusal(c.buffer);
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return StdioJob<PutcUnlockedWrite>::create(spec, outcome);
    }
};

} // namespace

std::unique_ptr<Strategy> makePutcUnlockedStrategy()
{
    return std::make_unique<PutcUnlockedStrategy>();
}

} // namespace iolab::windows_backend
