// SPDX-License-Identifier: MIT
// direct: WriteFile per chunk with FILE_FLAG_NO_BUFFERING, from VirtualAlloc memory, every transfer a
// multiple of the volume's sector size (the matrix refuses other chunks; the job checks again).
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/handle_write_job.h"
#include "platform/windows/win_io.h"

namespace iolab::windows_backend {

namespace {

class DirectStrategy final : public BasicStrategy
{
public:
    DirectStrategy() : BasicStrategy(directDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return HandleWriteJob::create(spec, true, outcome);
    }
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeDirectStrategy()
{
    return std::make_unique<windows_backend::DirectStrategy>();
}

} // namespace iolab
