// SPDX-License-Identifier: MIT
// group-commit on Linux: pwrite(2) into one shared file, committed by fdatasync or fsync rounds
// (platform/group_commit_job.h).
#include "platform/builtin_strategies.h"
#include "platform/group_commit_job.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/posix_io.h"
#include "platform/strategy_declarations.h"

#include <cerrno>

namespace iolab::linux_backend {

namespace {

class SharedFile
{
public:
    static constexpr const char* kWriteCall = "pwrite";
    static constexpr const char* kSyncCall = "fdatasync";

    SharedFile(const JobSpec& spec, posix::UniqueFd fd)
        : m_fd(std::move(fd)), m_path(spec.path), m_mode(spec.testCase.sync.mode)
    {}

    bool writeAt(const std::byte* data, std::uint64_t size, std::uint64_t offset) noexcept
    {
        return posix::pwriteFully(m_fd.get(), data, size, offset);
    }
    bool sync() noexcept { return posix::syncForPolicy(m_fd.get(), m_mode); }
    Outcome failure(const char* call) const
    {
        const bool syncCall = std::string_view(call) == kSyncCall;
        return posix::errnoOutcome(errno, syncCall ? syncCallName(m_mode) : call, m_path);
    }
    Outcome close()
    {
        if (const int error = m_fd.close(); error != 0)
            return posix::errnoOutcome(error, "close", m_path);
        return Outcome::success();
    }

private:
    posix::UniqueFd m_fd;
    std::string m_path;
    SyncMode m_mode;
};

class GroupCommitStrategy final : public BasicStrategy
{
public:
    GroupCommitStrategy() : BasicStrategy(groupCommitDeclaration()) {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        return groupCommitRefusal(c);
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        posix::UniqueFd fd = posix::openOutput(spec, O_WRONLY, false, outcome);
        if (!fd)
            return nullptr;
        return std::make_unique<GroupCommitJob<SharedFile>>(spec, spec, std::move(fd));
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeGroupCommitStrategy()
{
    return std::make_unique<linux_backend::GroupCommitStrategy>();
}

} // namespace iolab
