// SPDX-License-Identifier: MIT
// read: ReadFile per chunk from the front of each thread's file, through the cache, with the hint's
// CreateFile flag (FILE_FLAG_SEQUENTIAL_SCAN / FILE_FLAG_RANDOM_ACCESS).
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/read_jobs.h"

namespace iolab::windows_backend {

namespace {

class ReadStrategy final : public BasicStrategy
{
public:
    ReadStrategy() : BasicStrategy(readDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return HandleReadJob::create(spec, ReadOrder::Sequential, false, outcome);
    }
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeReadStrategy()
{
    return std::make_unique<windows_backend::ReadStrategy>();
}

} // namespace iolab
