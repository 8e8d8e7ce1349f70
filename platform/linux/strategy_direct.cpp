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
