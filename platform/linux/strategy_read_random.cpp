// SPDX-License-Identifier: MIT
// read-random, read-random-direct: pread(2) of one chunk at a random chunk-aligned offset of one shared file,
// from every thread (fio's randread with numjobs; CrystalDiskMark's RND4K runs through the cache's back
// door, which read-random-direct matches).
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/posix/fd_read_job.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

class ReadRandomStrategy final : public BasicStrategy
{
public:
    explicit ReadRandomStrategy(bool direct)
        : BasicStrategy(direct ? readRandomDirectDeclaration() : readRandomDeclaration()), m_direct(direct)
    {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return posix::FdReadJob::create(spec, ReadOrder::Random, m_direct, outcome);
    }

private:
    bool m_direct;
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeReadRandomStrategy()
{
    return std::make_unique<linux_backend::ReadRandomStrategy>(false);
}

std::unique_ptr<Strategy> builtin::makeReadRandomDirectStrategy()
{
    return std::make_unique<linux_backend::ReadRandomStrategy>(true);
}

} // namespace iolab
