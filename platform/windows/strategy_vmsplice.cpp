// SPDX-License-Identifier: MIT
// vmsplice is Linux-only. It is listed all the same, unavailable with the reason, so that a matrix or preset
// naming it says why its cases do not run here instead of failing to parse.
#include "platform/basic_strategy.h"
#include "platform/windows/strategies.h"

namespace iolab::windows_backend {

namespace {

class VmspliceStrategy final : public BasicStrategy
{
public:
    VmspliceStrategy()
        : BasicStrategy({.id = "vmsplice",
                         .description = "vmsplice(2) into a pipe (Linux only)",
                         .targets = {TargetKind::Pipe},
                         .syncModes = {SyncMode::None},
                         .syncRefusal = "a pipe has nothing to sync",
                         .unavailable =
                             "vmsplice(2) is Linux-only: a Windows pipe cannot take a writer's pages; "
                             "pipe-write is the Windows pipe case"})
    {}

    std::unique_ptr<Job> prepare(const JobSpec&, Outcome& outcome) const override
    {
        outcome = {Status::Unsupported, 0, "vmsplice", *info().unavailable};
        return nullptr;
    }
};

} // namespace

std::unique_ptr<Strategy> makeVmspliceStrategy()
{
    return std::make_unique<VmspliceStrategy>();
}

} // namespace iolab::windows_backend
