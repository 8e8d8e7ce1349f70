// SPDX-License-Identifier: MIT
// vmsplice: fill a ring of buffers and vmsplice(2) each into a pipe sized to the chunk (the fast-yes
// article).
#include "platform/builtin_strategies.h"
#include "platform/common/one_os_strategies.h"
#include "platform/linux/pipe_job.h"
#include "platform/posix/basic_strategy.h"

namespace iolab::linux_backend {

namespace {

class VmspliceStrategy final : public BasicStrategy
{
public:
    VmspliceStrategy() : BasicStrategy(vmspliceDeclaration().info) {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        std::string problem = pipePagesProblem(pipePages(c));
        return problem.empty() ? std::nullopt : std::optional<std::string>(std::move(problem));
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return makePipeJob(spec, PipeMode::Vmsplice, outcome);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeVmspliceStrategy()
{
    return std::make_unique<linux_backend::VmspliceStrategy>();
}

} // namespace iolab
