// SPDX-License-Identifier: MIT
#include "platform/common/one_os_strategies.h"

#include "platform/basic_strategy.h"

namespace iolab {

namespace {

class UnavailableStrategy final : public BasicStrategy
{
public:
    explicit UnavailableStrategy(StrategyInfo info) : BasicStrategy(std::move(info)) {}

    std::unique_ptr<Job> prepare(const JobSpec&, Outcome& outcome) const override
    {
        outcome = {Status::Unsupported, 0, info().id, info().unavailable.value_or("")};
        return nullptr;
    }
};

} // namespace

const OneOsStrategy& vmspliceDeclaration()
{
    static const OneOsStrategy declaration{
        {.id = "vmsplice",
         .description =
             "memcpy into a ring of page-aligned buffers (double-buffered when the pipe is one chunk), "
             "vmsplice(2) each into a pipe sized to the chunk with F_SETPIPE_SZ, drained by a reader "
             "thread",
         .targets = {TargetKind::Pipe},
         .syncModes = {SyncMode::None},
         .syncRefusal = "a pipe has nothing to sync"},
        "vmsplice(2) is Linux-only: a Windows pipe cannot take a writer's pages; pipe-write is the Windows "
        "pipe "
        "case"};
    return declaration;
}

std::unique_ptr<Strategy> makeUnavailableStrategy(const OneOsStrategy& declaration)
{
    StrategyInfo info = declaration.info;
    info.unavailable = declaration.elsewhere;
    return std::make_unique<UnavailableStrategy>(std::move(info));
}

} // namespace iolab
