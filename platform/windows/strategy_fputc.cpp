// SPDX-License-Identifier: MIT
// fputc: fputc per byte; like putc, a C runtime call that locks the FILE every byte.
#include "core/chunk_loop.h"
#include "platform/basic_strategy.h"
#include "platform/windows/stdio_job.h"
#include "platform/windows/strategies.h"
#include "platform/windows/win_io.h"

namespace iolab::windows_backend {

namespace {

struct FputcWrite
{
    static constexpr const char* kCall = "fputc";
    static constexpr bool kFixedChunks = true; // the chunk is always 1 byte: the loop is compiled for it

    template <class Size>
    std::size_t operator()(const std::byte* data, Size size, std::FILE* file) const noexcept
    {
        for (std::size_t i = 0; i < size; ++i) {
            if (std::fputc(std::to_integer<unsigned char>(data[i]), file) == EOF) [[unlikely]]
                return i;
        }
        return size;
    }
};

class FputcStrategy final : public BasicStrategy
{
public:
    FputcStrategy()
        : BasicStrategy({.id = "fputc",
                         .description = "fputc per byte through a FILE with setvbuf: as putc, a C runtime "
                                        "call that takes the FILE lock on every byte",
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
        return StdioJob<FputcWrite>::create(spec, outcome);
    }
};

} // namespace

std::unique_ptr<Strategy> makeFputcStrategy()
{
    return std::make_unique<FputcStrategy>();
}

} // namespace iolab::windows_backend
