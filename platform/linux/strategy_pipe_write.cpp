// SPDX-License-Identifier: MIT
// pipe-write: write(2) per chunk into a pipe drained by a reader thread.
#include "platform/builtin_strategies.h"
#include "platform/linux/pipe_job.h"
#include "platform/posix/basic_strategy.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

class PipeWriteStrategy final : public BasicStrategy
{
public:
    PipeWriteStrategy() : BasicStrategy(pipeWriteDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return makePipeJob(spec, PipeMode::Write, outcome);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makePipeWriteStrategy()
{
    return std::make_unique<linux_backend::PipeWriteStrategy>();
}

} // namespace iolab
