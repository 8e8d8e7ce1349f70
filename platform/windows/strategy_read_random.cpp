// SPDX-License-Identifier: MIT
// read-random, read-random-direct: ReadFile of one chunk at a random chunk-aligned offset of one shared file
// from every thread; through the cache with the hint's flag, or with FILE_FLAG_NO_BUFFERING.
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/read_jobs.h"

namespace iolab::windows_backend {

namespace {

class ReadRandomStrategy final : public BasicStrategy
{
public:
    explicit ReadRandomStrategy(bool direct)
        : BasicStrategy(direct ? readRandomDirectDeclaration() : readRandomDeclaration()), m_direct(direct)
    {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return HandleReadJob::create(spec, ReadOrder::Random, m_direct, outcome);
    }

private:
    bool m_direct;
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeReadRandomStrategy()
{
    return std::make_unique<windows_backend::ReadRandomStrategy>(false);
}

std::unique_ptr<Strategy> builtin::makeReadRandomDirectStrategy()
{
    return std::make_unique<windows_backend::ReadRandomStrategy>(true);
}

} // namespace iolab
