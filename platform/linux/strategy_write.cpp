// SPDX-License-Identifier: MIT
// write: one write(2) per chunk, through the page cache.
#include "platform/builtin_strategies.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/fd_write_job.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

class WriteStrategy final : public BasicStrategy
{
public:
    WriteStrategy() : BasicStrategy(writeDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return posix::FdWriteJob::create(spec, false, outcome);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeWriteStrategy()
{
    return std::make_unique<linux_backend::WriteStrategy>();
}

} // namespace iolab
