// SPDX-License-Identifier: MIT
// fputc: fputc(3) per byte. In glibc it is the same library call as putc, which C allows to be a macro and
// fputc does not; both take the FILE's lock on every byte.
#include "core/chunk_loop.h"
#include "platform/linux/strategies.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/stdio_job.h"

namespace iolab::linux_backend {

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
                         .description = "fputc(3) per byte through a FILE with setvbuf: as putc, a library "
                                        "call that takes the FILE lock on every byte",
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
        return posix::StdioJob<FputcWrite>::create(spec, outcome);
    }
};

} // namespace

std::unique_ptr<Strategy> makeFputcStrategy()
{
    return std::make_unique<FputcStrategy>();
}

} // namespace iolab::linux_backend
