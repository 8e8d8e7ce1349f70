// SPDX-License-Identifier: MIT
// mmap-batch-direct: memcpy each chunk into one small mapped batch buffer (a view of a scratch file) and,
// when it is full, write it at its offset to a FILE_FLAG_NO_BUFFERING data file (the Optane article,
// experiment 4).
#include "core/base/units.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/mapped_copy.h"
#include "core/engine/pattern.h"
#include "platform/basic_strategy.h"
#include "platform/windows/strategies.h"
#include "platform/windows/win_io.h"

#include <fmt/format.h>

#include <cstring>

namespace iolab::windows_backend {

namespace {

class MmapBatchJob final : public Job
{
public:
    MmapBatchJob(const JobSpec& spec, win::UniqueHandle data, void* view)
        : m_spec(spec), m_data(std::move(data)),
          m_view(view), m_batch{static_cast<std::byte*>(view), kMmapWindowBytes, 0}
    {}
    ~MmapBatchJob() override { ::UnmapViewOfFile(m_view); }
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
        if (!win::syncForPolicy(m_data.get(), m_spec.testCase.sync.mode))
            return win::errorOutcome(::GetLastError(), "FlushFileBuffers", m_spec.path);
        if (const DWORD error = m_data.close(); error != 0)
            return win::errorOutcome(error, "CloseHandle", m_spec.path);
        return Outcome::success();
    }

private:
    bool flush()
    {
        // Full batches are aligned by construction (a 16 KiB view at offsets of 16 KiB); the last, partial
        // one is where a share that slipped past the matrix would break NO_BUFFERING's rules, so check it
        // here.
        if (m_batch.used != kMmapWindowBytes) {
            if (auto problem = win::noBufferingProblem(m_fileOffset, m_batch.used,
                                                       reinterpret_cast<std::uintptr_t>(m_batch.data),
                                                       m_spec.target.logicalBlockBytes)) {
                m_error = {Status::Failed, ERROR_INVALID_PARAMETER, "align", *problem};
                return false;
            }
        }
        if (!win::writeAt(m_data.get(), m_batch.data, m_batch.used, m_fileOffset)) {
            m_error = win::errorOutcome(::GetLastError(), "WriteFile(NO_BUFFERING)", m_spec.path);
            return false;
        }
        m_fileOffset += m_batch.used;
        m_batch.used = 0;
        return true;
    }

    JobSpec m_spec;
    win::UniqueHandle m_data;
    void* m_view;
    BatchBuffer m_batch; // the view's 16 KiB
    std::uint64_t m_fileOffset = 0;
    Outcome m_error;
};

class MmapBatchDirectStrategy final : public BasicStrategy
{
public:
    MmapBatchDirectStrategy()
        : BasicStrategy(
              {.id = "mmap-batch-direct",
               .description = "memcpy into a 16 KiB mapped batch buffer, WriteFile it at its offset to "
                              "a FILE_FLAG_NO_BUFFERING file when full",
               .needsDirectIo = true,
               .needsFallocate = true,
               .targets = {TargetKind::Directory},
               .syncModes = {SyncMode::None, SyncMode::FsyncEnd, SyncMode::ODsync},
               .syncRefusal = "fsync-every counts write calls, and this strategy's chunks are copies "
                              "into a mapping (and Windows has no fdatasync or O_SYNC)"})
    {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo& target) const override
    {
        const std::uint64_t sector = target.logicalBlockBytes;
        if (sector == 0 || kMmapWindowBytes % sector != 0)
            return fmt::format("the 16 KiB batch is not a multiple of the volume's sector size ({})",
                               formatBytes(sector));
        for (std::uint32_t t = 0; t < c.threads; ++t) {
            if (c.bytesForThread(t) % sector != 0)
                return fmt::format("each thread's share ({}) must be a multiple of the volume's sector size "
                                   "({}) for the last FILE_FLAG_NO_BUFFERING write",
                                   formatBytes(c.bytesForThread(t)), formatBytes(sector));
        }
        return std::nullopt;
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        win::UniqueHandle data = win::openOutput(spec, GENERIC_WRITE, true, outcome);
        if (!data)
            return nullptr;
        if (!win::reserveSpace(data.get(), spec.bytes, spec.path, outcome))
            return nullptr;
        win::UniqueHandle batch = win::createScratch(spec.auxPath, outcome);
        if (!batch)
            return nullptr;
        win::UniqueHandle mapping(
            ::CreateFileMappingW(batch.get(), nullptr, PAGE_READWRITE, 0, kMmapWindowBytes, nullptr));
        if (!mapping) {
            outcome = win::errorOutcome(::GetLastError(), "CreateFileMapping", spec.auxPath);
            return nullptr;
        }
        void* view = ::MapViewOfFile(mapping.get(), FILE_MAP_WRITE, 0, 0, kMmapWindowBytes);
        if (view == nullptr) {
            outcome = win::errorOutcome(::GetLastError(), "MapViewOfFile", spec.auxPath);
            return nullptr;
        }
        // The view keeps the section and the scratch file referenced; neither handle is needed any more.
        return std::make_unique<MmapBatchJob>(spec, std::move(data), view);
    }
};

} // namespace

std::unique_ptr<Strategy> makeMmapBatchDirectStrategy()
{
    return std::make_unique<MmapBatchDirectStrategy>();
}

} // namespace iolab::windows_backend
