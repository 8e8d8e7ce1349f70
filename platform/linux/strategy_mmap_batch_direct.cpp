// SPDX-License-Identifier: MIT
// mmap-batch-direct: memcpy each chunk into one small mapped batch buffer (backed by a scratch file) and,
// when it is full, pwrite it to an O_DIRECT data file (the Optane article, experiment 4).
#include "core/base/units.h"
#include "platform/builtin_strategies.h"
#include "platform/mapped_jobs.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/posix_io.h"
#include "platform/strategy_declarations.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>

#include <cstring>

namespace iolab::linux_backend {

namespace {

// The O_DIRECT data file and the mapped batch buffer, for MmapBatchJob (platform/mapped_jobs.h).
class DirectBatch
{
public:
    DirectBatch(const JobSpec& spec, posix::UniqueFd data, std::byte* mapping)
        : m_path(spec.path), m_sync(spec.testCase.sync.mode), m_data(std::move(data)), m_mapping(mapping)
    {}
    ~DirectBatch() { ::munmap(m_mapping, kMmapWindowBytes); }
    DirectBatch(const DirectBatch&) = delete;
    DirectBatch& operator=(const DirectBatch&) = delete;

    std::byte* buffer() const noexcept { return m_mapping; }

    bool write(const std::byte* data, std::uint64_t bytes, std::uint64_t fileOffset, Outcome& error)
    {
        std::uint64_t done = 0;
        while (done < bytes) {
            const ssize_t n =
                ::pwrite(m_data.get(), data + done, bytes - done, static_cast<off_t>(fileOffset + done));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                error = posix::errnoOutcome(errno, "pwrite(O_DIRECT)", m_path);
                return false;
            }
            done += static_cast<std::uint64_t>(n);
        }
        return true;
    }

    Outcome finish(CallLatency* latency) { return posix::syncAndClose(m_data, m_sync, m_path, latency); }

private:
    std::string m_path;
    SyncMode m_sync;
    posix::UniqueFd m_data;
    std::byte* m_mapping;
};

class MmapBatchDirectStrategy final : public BasicStrategy
{
public:
    MmapBatchDirectStrategy() : BasicStrategy(mmapBatchDirectDeclaration()) {}

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
        return std::make_unique<MmapBatchJob<DirectBatch>>(spec, std::move(data),
                                                           static_cast<std::byte*>(mapping));
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeMmapBatchDirectStrategy()
{
    return std::make_unique<linux_backend::MmapBatchDirectStrategy>();
}

} // namespace iolab
