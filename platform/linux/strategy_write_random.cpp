// SPDX-License-Identifier: MIT
// write-random, direct-random: pwrite(2) of every chunk of a file per thread exactly once, in a random order
// (fio's randwrite with norandommap off), through the page cache or with O_DIRECT.
#include "platform/builtin_strategies.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/fd_write_job.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

class WriteRandomStrategy final : public BasicStrategy
{
public:
    explicit WriteRandomStrategy(bool direct)
        : BasicStrategy(direct ? directRandomDeclaration() : writeRandomDeclaration()), m_direct(direct)
    {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return posix::FdWriteJob::create(spec, m_direct, outcome, WriteOrder::Random);
    }

private:
    bool m_direct;
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeWriteRandomStrategy()
{
    return std::make_unique<linux_backend::WriteRandomStrategy>(false);
}

std::unique_ptr<Strategy> builtin::makeDirectRandomStrategy()
{
    return std::make_unique<linux_backend::WriteRandomStrategy>(true);
}

} // namespace iolab
