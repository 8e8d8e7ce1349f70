// SPDX-License-Identifier: MIT
// mmap-window: fallocate the file, map a fixed window, memcpy each chunk into it, unmap and map the next
// window when it is full (the Optane article, experiment 3).
#include "platform/builtin_strategies.h"
#include "platform/mapped_jobs.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/posix_io.h"
#include "platform/strategy_declarations.h"

#include <fcntl.h>
#include <sys/mman.h>

#include <cstring>

namespace iolab::linux_backend {

namespace {

// The file and its window mapping, for MmapWindowJob (platform/mapped_jobs.h).
class MappedFile
{
public:
    MappedFile(const JobSpec& spec, posix::UniqueFd fd)
        : m_path(spec.path), m_sync(spec.testCase.sync.mode), m_fd(std::move(fd))
    {}
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    bool map(std::uint64_t start, FileWindow& window, Outcome& error)
    {
        void* p = ::mmap(nullptr, kMmapWindowBytes, PROT_READ | PROT_WRITE, MAP_SHARED, m_fd.get(),
                         static_cast<off_t>(start));
        if (p == MAP_FAILED) {
            error = posix::errnoOutcome(errno, "mmap", m_path);
            return false;
        }
        m_mapped = p;
        window = {static_cast<std::byte*>(p), start, start + kMmapWindowBytes};
        return true;
    }

    bool unmap(Outcome&) noexcept
    {
        if (m_mapped != nullptr)
            ::munmap(m_mapped, kMmapWindowBytes);
        m_mapped = nullptr;
        return true;
    }

    Outcome finish(CallLatency* latency) { return posix::syncAndClose(m_fd, m_sync, m_path, latency); }

private:
    std::string m_path;
    SyncMode m_sync;
    posix::UniqueFd m_fd;
    void* m_mapped = nullptr;
};

class MmapWindowStrategy final : public BasicStrategy
{
public:
    MmapWindowStrategy() : BasicStrategy(mmapWindowDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        posix::UniqueFd fd = posix::openOutput(spec, O_RDWR, false, outcome);
        if (!fd)
            return nullptr;
        // The space is reserved up front: a store into a hole on a full disk would be a SIGBUS, not an error.
        if (!posix::reserveSpace(fd.get(), spec.bytes, spec.path, outcome))
            return nullptr;
        return std::make_unique<MmapWindowJob<MappedFile>>(spec, std::move(fd));
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeMmapWindowStrategy()
{
    return std::make_unique<linux_backend::MmapWindowStrategy>();
}

} // namespace iolab
