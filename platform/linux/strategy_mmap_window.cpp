// SPDX-License-Identifier: MIT
// mmap-window: fallocate the file, map a fixed window, memcpy each chunk into it, unmap and map the next
// window when it is full (the Optane article, experiment 3).
#include "core/engine/chunk_loop.h"
#include "core/engine/mapped_copy.h"
#include "core/engine/pattern.h"
#include "platform/linux/strategies.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/posix_io.h"

#include <fcntl.h>
#include <sys/mman.h>

#include <cstring>

namespace iolab::linux_backend {

namespace {

class MmapWindowJob final : public Job
{
public:
    MmapWindowJob(const JobSpec& spec, posix::UniqueFd fd) : m_spec(spec), m_fd(std::move(fd)) {}
    ~MmapWindowJob() override { unmap(); }
    MmapWindowJob(const MmapWindowJob&) = delete;
    MmapWindowJob& operator=(const MmapWindowJob&) = delete;

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern = m_spec.pattern->view();
        const auto end = runChunks(
            m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress,
            [&](std::uint64_t offset, std::uint64_t size) {
                return m_window.copy(offset, pattern.at(offset), size, kMmapWindowBytes,
                                     [this](std::uint64_t start) { return mapWindow(start); });
            },
            [] { return true; });
        unmap();
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (!posix::syncForPolicy(m_fd.get(), m_spec.testCase.sync.mode))
            return posix::errnoOutcome(errno, "fsync", m_spec.path);
        if (const int error = m_fd.close(); error != 0)
            return posix::errnoOutcome(error, "close", m_spec.path);
        return Outcome::success();
    }

private:
    bool mapWindow(std::uint64_t start)
    {
        unmap();
        void* p = ::mmap(nullptr, kMmapWindowBytes, PROT_READ | PROT_WRITE, MAP_SHARED, m_fd.get(),
                         static_cast<off_t>(start));
        if (p == MAP_FAILED) {
            m_error = posix::errnoOutcome(errno, "mmap", m_spec.path);
            return false;
        }
        m_window = {static_cast<std::byte*>(p), start, start + kMmapWindowBytes};
        return true;
    }

    void unmap() noexcept
    {
        if (m_window.data != nullptr)
            ::munmap(m_window.data, kMmapWindowBytes);
        m_window = {};
    }

    JobSpec m_spec;
    posix::UniqueFd m_fd;
    FileWindow m_window;
    Outcome m_error;
};

class MmapWindowStrategy final : public BasicStrategy
{
public:
    MmapWindowStrategy()
        : BasicStrategy(
              {.id = "mmap-window",
               .description = "fallocate, then memcpy into a 16 KiB MAP_SHARED window remapped as it fills",
               .needsFallocate = true,
               .targets = {TargetKind::Directory},
               .syncModes = {SyncMode::None, SyncMode::FsyncEnd, SyncMode::FdatasyncEnd},
               .syncRefusal = "stores into a mapping bypass write(2), so O_SYNC, O_DSYNC and fsync-every "
                              "do not apply"})
    {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        posix::UniqueFd fd = posix::openOutput(spec, O_RDWR, false, outcome);
        if (!fd)
            return nullptr;
        // The space is reserved up front: a store into a hole on a full disk would be a SIGBUS, not an error.
        if (!posix::reserveSpace(fd.get(), spec.bytes, spec.path, outcome))
            return nullptr;
        return std::make_unique<MmapWindowJob>(spec, std::move(fd));
    }
};

} // namespace

std::unique_ptr<Strategy> makeMmapWindowStrategy()
{
    return std::make_unique<MmapWindowStrategy>();
}

} // namespace iolab::linux_backend
