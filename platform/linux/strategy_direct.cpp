// SPDX-License-Identifier: MIT
// direct: write(2) per chunk on an O_DIRECT descriptor, from a buffer aligned to the logical block size.
#include "platform/builtin_strategies.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/fd_write_job.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

class DirectStrategy final : public BasicStrategy
{
public:
    DirectStrategy() : BasicStrategy(directDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        // The pattern buffer is page aligned and every write starts at a multiple of the (block-aligned)
        // chunk, so each source address is block aligned; check it rather than trust it, since a misaligned
        // buffer is a silent EINVAL on one filesystem and a silent copy on another.
        const auto address = reinterpret_cast<std::uintptr_t>(spec.pattern->at(0));
        if (address % spec.target.logicalBlockBytes != 0) {
            outcome = {Status::Failed, EINVAL, "align", "the O_DIRECT source buffer is not block aligned"};
            return nullptr;
        }
        return posix::FdWriteJob::create(spec, true, outcome);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeDirectStrategy()
{
    return std::make_unique<linux_backend::DirectStrategy>();
}

} // namespace iolab
