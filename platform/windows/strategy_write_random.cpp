// SPDX-License-Identifier: MIT
// write-random, direct-random: WriteFile at an offset (an OVERLAPPED offset on a synchronous handle), every
// chunk of the thread's file once in a random order; through the cache, or with FILE_FLAG_NO_BUFFERING from
// a page-aligned copy of the pattern. Sync policies as write's and direct's.
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/handle_write_job.h"
#include "platform/windows/win_io.h"

namespace iolab::windows_backend {

namespace {

class WriteRandomStrategy final : public BasicStrategy
{
public:
    explicit WriteRandomStrategy(bool direct)
        : BasicStrategy(direct ? directRandomDeclaration() : writeRandomDeclaration()), m_direct(direct)
    {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return HandleWriteJob::create(spec, m_direct, outcome, WriteOrder::Random);
    }

private:
    bool m_direct;
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeWriteRandomStrategy()
{
    return std::make_unique<windows_backend::WriteRandomStrategy>(false);
}

std::unique_ptr<Strategy> builtin::makeDirectRandomStrategy()
{
    return std::make_unique<windows_backend::WriteRandomStrategy>(true);
}

} // namespace iolab
