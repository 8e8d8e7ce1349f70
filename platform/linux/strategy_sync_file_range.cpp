// SPDX-License-Identifier: MIT
// sync-file-range: write(2) each chunk, then sync_file_range(2) over it, waiting for the write-out (the sync
// lab's "not durable" row: data only, no flush of the device cache, no metadata).
#include "platform/builtin_strategies.h"
#include "platform/common/one_os_strategies.h"
#include "platform/linux/sync_call_job.h"
#include "platform/posix/basic_strategy.h"

#include <fcntl.h>

namespace iolab::linux_backend {

namespace {

struct WriteThenSyncFileRange
{
    static constexpr const char* kName = "pwrite + sync_file_range";

    bool operator()(int fd, const std::byte* data, std::uint64_t size, std::uint64_t offset) const noexcept
    {
        if (!posix::pwriteFully(fd, data, size, offset))
            return false;
        constexpr unsigned kFlags =
            SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER;
        return ::sync_file_range(fd, static_cast<off_t>(offset), static_cast<off_t>(size), kFlags) == 0;
    }
};

class SyncFileRangeStrategy final : public BasicStrategy
{
public:
    SyncFileRangeStrategy() : BasicStrategy(syncFileRangeDeclaration().info) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return SyncCallJob<WriteThenSyncFileRange>::create(spec, outcome);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeSyncFileRangeStrategy()
{
    return std::make_unique<linux_backend::SyncFileRangeStrategy>();
}

} // namespace iolab
