// SPDX-License-Identifier: MIT
// pwritev2-dsync: pwritev2(2) with RWF_DSYNC per chunk, the per-call form of O_DSYNC (the sync lab).
#include "platform/builtin_strategies.h"
#include "platform/common/one_os_strategies.h"
#include "platform/linux/sync_call_job.h"
#include "platform/posix/basic_strategy.h"

#include <sys/uio.h>

namespace iolab::linux_backend {

namespace {

struct Pwritev2Dsync
{
    static constexpr const char* kName = "pwritev2(RWF_DSYNC)";

    // The rest of a short write goes again with the flag: every byte returns durable.
    bool operator()(int fd, const std::byte* data, std::uint64_t size, std::uint64_t offset) const noexcept
    {
        while (size > 0) {
            iovec iov{const_cast<std::byte*>(data), size};
            const ssize_t n = ::pwritev2(fd, &iov, 1, static_cast<off_t>(offset), RWF_DSYNC);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return false;
            }
            if (n == 0) {
                errno = EIO;
                return false;
            }
            data += n;
            size -= static_cast<std::uint64_t>(n);
            offset += static_cast<std::uint64_t>(n);
        }
        return true;
    }
};

class Pwritev2DsyncStrategy final : public BasicStrategy
{
public:
    Pwritev2DsyncStrategy() : BasicStrategy(pwritev2DsyncDeclaration().info) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return SyncCallJob<Pwritev2Dsync>::create(spec, outcome);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makePwritev2DsyncStrategy()
{
    return std::make_unique<linux_backend::Pwritev2DsyncStrategy>();
}

} // namespace iolab
