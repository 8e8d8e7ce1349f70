// SPDX-License-Identifier: MIT
// group-commit on Windows: WriteFile at an offset into one shared file, committed by FlushFileBuffers rounds
// (platform/group_commit_job.h).
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/group_commit_job.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/win_io.h"

namespace iolab::windows_backend {

namespace {

class SharedFile
{
public:
    static constexpr const char* kWriteCall = "WriteFile";
    static constexpr const char* kSyncCall = "FlushFileBuffers";

    SharedFile(const JobSpec& spec, win::UniqueHandle file) : m_file(std::move(file)), m_path(spec.path) {}

    bool writeAt(const std::byte* data, std::uint64_t size, std::uint64_t offset) noexcept
    {
        return win::writeAt(m_file.get(), data, size, offset);
    }
    bool sync() noexcept { return ::FlushFileBuffers(m_file.get()) != 0; }
    Outcome failure(const char* call) const { return win::errorOutcome(::GetLastError(), call, m_path); }
    Outcome close()
    {
        if (const DWORD error = m_file.close(); error != 0)
            return win::errorOutcome(error, "CloseHandle", m_path);
        return Outcome::success();
    }

private:
    win::UniqueHandle m_file;
    std::string m_path;
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
        win::UniqueHandle file = win::openOutput(spec, GENERIC_WRITE, false, outcome);
        if (!file)
            return nullptr;
        return std::make_unique<GroupCommitJob<SharedFile>>(spec, spec, std::move(file));
    }
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeGroupCommitStrategy()
{
    return std::make_unique<windows_backend::GroupCommitStrategy>();
}

} // namespace iolab
