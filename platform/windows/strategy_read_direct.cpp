// SPDX-License-Identifier: MIT
// read-direct: ReadFile per chunk with FILE_FLAG_NO_BUFFERING into a sector-aligned buffer.
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/read_jobs.h"

namespace iolab::windows_backend {

namespace {

class ReadDirectStrategy final : public BasicStrategy
{
public:
    ReadDirectStrategy() : BasicStrategy(readDirectDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return HandleReadJob::create(spec, ReadOrder::Sequential, true, outcome);
    }
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeReadDirectStrategy()
{
    return std::make_unique<windows_backend::ReadDirectStrategy>();
}

} // namespace iolab
