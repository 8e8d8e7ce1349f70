// SPDX-License-Identifier: MIT
// write: one WriteFile per chunk, through the system cache.
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/handle_write_job.h"
#include "platform/windows/win_io.h"

namespace iolab::windows_backend {

namespace {

class WriteStrategy final : public BasicStrategy
{
public:
    WriteStrategy() : BasicStrategy(writeDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return HandleWriteJob::create(spec, false, outcome);
    }
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeWriteStrategy()
{
    return std::make_unique<windows_backend::WriteStrategy>();
}

} // namespace iolab
