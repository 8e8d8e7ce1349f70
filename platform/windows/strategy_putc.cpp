// SPDX-License-Identifier: MIT
// putc: putc per byte, the per-character write of bonnie++; a C runtime call that locks the FILE every byte.
#include "core/chunk_loop.h"
#include "platform/basic_strategy.h"
#include "platform/windows/stdio_job.h"
#include "platform/windows/strategies.h"
#include "platform/windows/win_io.h"

namespace iolab::windows_backend {

namespace {

struct PutcWrite
{
    static constexpr const char* kCall = "putc";
    static constexpr bool kFixedChunks = true; // the chunk is always 1 byte: the loop is compiled for it

    template <class Size>
    std::size_t operator()(const std::byte* data, Size size, std::FILE* file) const noexcept
    {
        for (std::size_t i = 0; i < size; ++i) {
            if (std::putc(std::to_integer<unsigned char>(data[i]), file) == EOF) [[unlikely]]
                return i;
        }
        return size;
    }
};

class PutcStrategy final : public BasicStrategy
{
public:
    PutcStrategy()
        : BasicStrategy({.id = "putc",
                         .description = "putc per byte through a FILE with setvbuf: the per-character write "
                                        "bonnie++ times, taking the FILE lock on every call",
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
        return StdioJob<PutcWrite>::create(spec, outcome);
    }
};

} // namespace

std::unique_ptr<Strategy> makePutcStrategy()
{
    return std::make_unique<PutcStrategy>();
}

} // namespace iolab::windows_backend
