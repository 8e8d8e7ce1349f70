// SPDX-License-Identifier: MIT
// mmap-batch-direct: memcpy each chunk into one small mapped batch buffer (backed by a scratch file) and,
// when it is full, pwrite it to an O_DIRECT data file (the Optane article, experiment 4).
#include "core/base/units.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/mapped_copy.h"
#include "core/engine/pattern.h"
#include "platform/linux/strategies.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/posix_io.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>

#include <cstring>

namespace iolab::linux_backend {

namespace {

class MmapBatchJob final : public Job
{
public:
    MmapBatchJob(const JobSpec& spec, posix::UniqueFd data, std::byte* mapping)
        : m_spec(spec), m_data(std::move(data)), m_batch{mapping, kMmapWindowBytes, 0}
    {}
    ~MmapBatchJob() override { ::munmap(m_batch.data, kMmapWindowBytes); }
    MmapBatchJob(const MmapBatchJob&) = delete;
    MmapBatchJob& operator=(const MmapBatchJob&) = delete;

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern = m_spec.pattern->view();
        const auto end = runChunks(
            m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress,
            [&](std::uint64_t offset, std::uint64_t size) {
                return m_batch.append(pattern.at(offset), size, [this] { return flush(); });
            },
            [] { return true; });
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (m_batch.used > 0 && !flush())
            return std::move(m_error);
        if (!posix::syncForPolicy(m_data.get(), m_spec.testCase.sync.mode))
            return posix::errnoOutcome(errno, "fsync", m_spec.path);
        if (const int error = m_data.close(); error != 0)
            return posix::errnoOutcome(error, "close", m_spec.path);
        return Outcome::success();
    }

private:
    bool flush()
    {
        std::uint64_t done = 0;
        while (done < m_batch.used) {
            const ssize_t n = ::pwrite(m_data.get(), m_batch.data + done, m_batch.used - done,
                                       static_cast<off_t>(m_fileOffset + done));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                m_error = posix::errnoOutcome(errno, "pwrite(O_DIRECT)", m_spec.path);
                return false;
            }
            done += static_cast<std::uint64_t>(n);
        }
        m_fileOffset += m_batch.used;
        m_batch.used = 0;
        return true;
    }

    JobSpec m_spec;
    posix::UniqueFd m_data;
    BatchBuffer m_batch; // the mapped 16 KiB
    std::uint64_t m_fileOffset = 0;
    Outcome m_error;
};

class MmapBatchDirectStrategy final : public BasicStrategy
{
public:
    MmapBatchDirectStrategy()
        : BasicStrategy(
              {.id = "mmap-batch-direct",
               .description = "memcpy into a 16 KiB mapped batch buffer, pwrite it to an O_DIRECT file "
                              "when full",
               .needsDirectIo = true,
               .needsFallocate = true,
               .targets = {TargetKind::Directory},
               .syncModes = {SyncMode::None, SyncMode::FsyncEnd, SyncMode::FdatasyncEnd, SyncMode::OSync,
                             SyncMode::ODsync},
               .syncRefusal = "fsync-every counts write calls, and this strategy's chunks are copies into "
                              "a mapping"})
    {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo& target) const override
    {
        const std::uint64_t block = target.logicalBlockBytes;
        if (kMmapWindowBytes % block != 0)
            return fmt::format("the 16 KiB batch is not a multiple of the target's logical block size ({})",
                               formatBytes(block));
        for (std::uint32_t t = 0; t < c.threads; ++t) {
            if (c.bytesForThread(t) % block != 0)
                return fmt::format(
                    "each thread's share ({}) must be a multiple of the logical block size ({}) "
                    "for the last O_DIRECT pwrite",
                    formatBytes(c.bytesForThread(t)), formatBytes(block));
        }
        return std::nullopt;
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        posix::UniqueFd data = posix::openOutput(spec, O_WRONLY, true, outcome);
        if (!data)
            return nullptr;
        if (!posix::reserveSpace(data.get(), spec.bytes, spec.path, outcome))
            return nullptr;
        posix::UniqueFd batch = posix::createScratch(spec.auxPath, O_RDWR, outcome);
        if (!batch)
            return nullptr;
        if (!posix::reserveSpace(batch.get(), kMmapWindowBytes, spec.auxPath, outcome))
            return nullptr;
        void* mapping = ::mmap(nullptr, kMmapWindowBytes, PROT_READ | PROT_WRITE, MAP_SHARED, batch.get(), 0);
        if (mapping == MAP_FAILED) {
            outcome = posix::errnoOutcome(errno, "mmap", spec.auxPath);
            return nullptr;
        }
        // The mapping keeps the batch file referenced; its descriptor is not needed any more.
        return std::make_unique<MmapBatchJob>(spec, std::move(data), static_cast<std::byte*>(mapping));
    }
};

} // namespace

std::unique_ptr<Strategy> makeMmapBatchDirectStrategy()
{
    return std::make_unique<MmapBatchDirectStrategy>();
}

} // namespace iolab::linux_backend
