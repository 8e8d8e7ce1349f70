// SPDX-License-Identifier: MIT
// read-direct: read(2) per chunk with O_DIRECT into a 4 KiB-aligned buffer: the device, not the page cache.
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/posix/fd_read_job.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

class ReadDirectStrategy final : public BasicStrategy
{
public:
    ReadDirectStrategy() : BasicStrategy(readDirectDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return posix::FdReadJob::create(spec, ReadOrder::Sequential, true, outcome);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeReadDirectStrategy()
{
    return std::make_unique<linux_backend::ReadDirectStrategy>();
}

} // namespace iolab
