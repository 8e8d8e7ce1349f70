// SPDX-License-Identifier: MIT
// fread, fread-unlocked: fread(3) / fread_unlocked(3) per chunk from a FILE with the case's setvbuf buffer
// and posix_fadvise hint.
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/posix/posix_io.h"
#include "platform/stdio_read_job.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

struct LockedRead
{
    std::size_t operator()(std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return std::fread(data, 1, size, file);
    }
};

struct UnlockedRead
{
    std::size_t operator()(std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return ::fread_unlocked(data, 1, size, file);
    }
};

template <class Read> class FreadStrategy final : public BasicStrategy
{
public:
    explicit FreadStrategy(StrategyInfo declaration) : BasicStrategy(std::move(declaration)) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        posix::UniqueFd fd = posix::openInput(spec.path, false, outcome);
        if (!fd || !posix::adviseRead(fd.get(), spec.testCase.hint, spec.path, outcome))
            return nullptr;
        std::FILE* file = ::fdopen(fd.get(), "rb");
        if (file == nullptr) {
            outcome = posix::errnoOutcome(errno, "fdopen", spec.path);
            return nullptr;
        }
        fd.release(); // the FILE owns it now
        return StdioReadJob<Read>::adopt(spec, file, outcome);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeFreadStrategy()
{
    return std::make_unique<linux_backend::FreadStrategy<linux_backend::LockedRead>>(freadDeclaration());
}

std::unique_ptr<Strategy> builtin::makeFreadUnlockedStrategy()
{
    return std::make_unique<linux_backend::FreadStrategy<linux_backend::UnlockedRead>>(
        freadUnlockedDeclaration());
}

} // namespace iolab
