// SPDX-License-Identifier: MIT
// mmap-batch-direct: memcpy each chunk into one small mapped batch buffer (a view of a scratch file) and,
// when it is full, write it at its offset to a FILE_FLAG_NO_BUFFERING data file (the Optane article,
// experiment 4).
#include "core/base/units.h"
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/mapped_jobs.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/win_io.h"

#include <fmt/format.h>

#include <cstring>

namespace iolab::windows_backend {

namespace {

// The FILE_FLAG_NO_BUFFERING data file and the batch view, for MmapBatchJob (platform/mapped_jobs.h).
class DirectBatch
{
public:
    DirectBatch(const JobSpec& spec, win::UniqueHandle data, void* view)
        : m_path(spec.path), m_sync(spec.testCase.sync.mode), m_sectorBytes(spec.target.logicalBlockBytes),
          m_data(std::move(data)), m_view(view)
    {}
    ~DirectBatch() { ::UnmapViewOfFile(m_view); }
    DirectBatch(const DirectBatch&) = delete;
    DirectBatch& operator=(const DirectBatch&) = delete;

    std::byte* buffer() const noexcept { return static_cast<std::byte*>(m_view); }

    bool write(const std::byte* data, std::uint64_t bytes, std::uint64_t fileOffset, Outcome& error)
    {
        // Full batches are aligned by construction (a 16 KiB view at offsets of 16 KiB); the last, partial
        // one is where a share that slipped past the matrix would break NO_BUFFERING's rules, so check it
        // here.
        if (bytes != kMmapWindowBytes) {
            if (auto problem = win::noBufferingProblem(
                    fileOffset, bytes, reinterpret_cast<std::uintptr_t>(data), m_sectorBytes)) {
                error = {Status::Failed, ERROR_INVALID_PARAMETER, "align", *problem};
                return false;
            }
        }
        if (!win::writeAt(m_data.get(), data, bytes, fileOffset)) {
            error = win::errorOutcome(::GetLastError(), "WriteFile(NO_BUFFERING)", m_path);
            return false;
        }
        return true;
    }

    Outcome finish(CallLatency* latency) { return win::syncAndClose(m_data, m_sync, m_path, latency); }

private:
    std::string m_path;
    SyncMode m_sync;
    std::uint32_t m_sectorBytes;
    win::UniqueHandle m_data;
    void* m_view;
};

class MmapBatchDirectStrategy final : public BasicStrategy
{
public:
    MmapBatchDirectStrategy() : BasicStrategy(mmapBatchDirectDeclaration()) {}

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
        return std::make_unique<MmapBatchJob<DirectBatch>>(spec, std::move(data), view);
    }
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeMmapBatchDirectStrategy()
{
    return std::make_unique<windows_backend::MmapBatchDirectStrategy>();
}

} // namespace iolab
