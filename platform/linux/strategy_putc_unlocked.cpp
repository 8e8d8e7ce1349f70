// SPDX-License-Identifier: MIT
// putc-unlocked: putc_unlocked(3) per byte. glibc's <stdio.h> defines it inline: a store into the FILE's
// buffer, and a library call only when the buffer is full.
#include "core/chunk_loop.h"
#include "platform/linux/strategies.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/stdio_job.h"

namespace iolab::linux_backend {

namespace {

struct PutcUnlockedWrite
{
    static constexpr const char* kCall = "putc_unlocked";
    static constexpr bool kFixedChunks = true; // the chunk is always 1 byte: the loop is compiled for it

    template <class Size>
    std::size_t operator()(const std::byte* data, Size size, std::FILE* file) const noexcept
    {
        for (std::size_t i = 0; i < size; ++i) {
            if (putc_unlocked(std::to_integer<unsigned char>(data[i]), file) == EOF) [[unlikely]]
                return i;
        }
        return size;
    }
};

class PutcUnlockedStrategy final : public BasicStrategy
{
public:
    PutcUnlockedStrategy()
        : BasicStrategy(
              {.id = "putc-unlocked",
               .description =
                   "putc_unlocked(3) per byte: the per-character write without the FILE lock, expanded "
                   "inline by glibc's <stdio.h> (a library call only when the buffer is full)",
               .usesStdioBuffer = true,
               .targets = {TargetKind::Directory, TargetKind::Null},
               .syncModes = posix::kEverySyncMode})
    {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        return perCharacterRefusal(c);
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return posix::StdioJob<PutcUnlockedWrite>::create(spec, outcome);
    }
};

} // namespace

std::unique_ptr<Strategy> makePutcUnlockedStrategy()
{
    return std::make_unique<PutcUnlockedStrategy>();
}

} // namespace iolab::linux_backend
