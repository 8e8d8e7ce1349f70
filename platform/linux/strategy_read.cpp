// SPDX-License-Identifier: MIT
// read: read(2) per chunk from the front of each thread's file, through the page cache, with the case's
// posix_fadvise hint.
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/posix/fd_read_job.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

class ReadStrategy final : public BasicStrategy
{
public:
    ReadStrategy() : BasicStrategy(readDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return posix::FdReadJob::create(spec, ReadOrder::Sequential, false, outcome);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeReadStrategy()
{
    return std::make_unique<linux_backend::ReadStrategy>();
}

} // namespace iolab
