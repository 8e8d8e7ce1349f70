// SPDX-License-Identifier: MIT
// mmap-window: size the file through its mapping, memcpy each chunk into a 16 KiB view, unmap it and map the
// next as it fills (the Optane article, experiment 3). A view must start at a multiple of the allocation
// granularity (64 KiB), so the view starts there and the 16 KiB window is the part of it the chunk goes to.
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

std::uint64_t allocationGranularity()
{
    SYSTEM_INFO info{};
    ::GetSystemInfo(&info);
    return info.dwAllocationGranularity;
}

// The file, its mapping and the current view, for MmapWindowJob (platform/mapped_jobs.h). A view must start
// at a multiple of the allocation granularity, so it starts there and the window is the part the chunk goes
// to.
class MappedFile
{
public:
    MappedFile(const JobSpec& spec, win::UniqueHandle file, win::UniqueHandle mapping)
        : m_path(spec.path), m_sync(spec.testCase.sync.mode), m_fileBytes(spec.bytes),
          m_file(std::move(file)), m_mapping(std::move(mapping)), m_granularity(allocationGranularity()),
          m_flushViews(spec.testCase.sync.mode == SyncMode::FsyncEnd)
    {}
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    bool map(std::uint64_t start, FileWindow& window, Outcome& error)
    {
        const std::uint64_t viewStart = start - start % m_granularity;
        const std::uint64_t end = std::min(start + kMmapWindowBytes, m_fileBytes);
        void* view = ::MapViewOfFile(m_mapping.get(), FILE_MAP_WRITE, static_cast<DWORD>(viewStart >> 32),
                                     static_cast<DWORD>(viewStart), static_cast<SIZE_T>(end - viewStart));
        if (view == nullptr) {
            error = win::errorOutcome(::GetLastError(), "MapViewOfFile", m_path);
            return false;
        }
        m_view = view;
        window = {static_cast<std::byte*>(view) + (start - viewStart), start, end};
        return true;
    }

    // With fsync-end, each view's dirty pages are queued for writing as it is let go (FlushViewOfFile), so
    // that the final FlushFileBuffers covers them: Windows documents both steps for a durable mapped write.
    bool unmap(Outcome& error) noexcept
    {
        bool ok = true;
        if (m_view != nullptr) {
            if (m_flushViews && ::FlushViewOfFile(m_view, 0) == 0) {
                error = win::errorOutcome(::GetLastError(), "FlushViewOfFile", m_path);
                ok = false;
            }
            ::UnmapViewOfFile(m_view);
        }
        m_view = nullptr;
        return ok;
    }

    Outcome finish(CallLatency* latency)
    {
        m_mapping.reset();
        return win::syncAndClose(m_file, m_sync, m_path, latency);
    }

private:
    std::string m_path;
    SyncMode m_sync;
    std::uint64_t m_fileBytes;
    win::UniqueHandle m_file;
    win::UniqueHandle m_mapping;
    std::uint64_t m_granularity;
    bool m_flushViews;
    void* m_view = nullptr; // the view, which starts at or before the window
};

// A store into a view cannot report a full disk: it is an in-page error that ends the process. NTFS allocates
// the file's clusters when the mapping sizes it, so a full volume fails CreateFileMapping; a file system that
// extends files sparsely (wine on Linux does) would not, so the free space for this thread's file and those
// of the threads still to be prepared is checked first.
bool enoughSpace(const JobSpec& spec, Outcome& outcome)
{
    std::uint64_t needed = 0;
    for (std::uint32_t t = spec.thread; t < spec.testCase.threads; ++t)
        needed += spec.testCase.bytesForThread(t);
    ULARGE_INTEGER available{};
    if (::GetDiskFreeSpaceExW(win::widen(spec.target.path).c_str(), &available, nullptr, nullptr) == 0 ||
        available.QuadPart >= needed)
        return true;
    outcome = win::errorOutcome(ERROR_DISK_FULL, "CreateFileMapping", spec.path);
    outcome.message +=
        fmt::format(" ({} free, the mapped files need {}: a store into a full mapped file would "
                    "end the process, so the case stops before it)",
                    formatBytes(available.QuadPart), formatBytes(needed));
    return false;
}

class MmapWindowStrategy final : public BasicStrategy
{
public:
    MmapWindowStrategy() : BasicStrategy(mmapWindowDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        if (!enoughSpace(spec, outcome))
            return nullptr;
        win::UniqueHandle file = win::openOutput(spec, GENERIC_READ | GENERIC_WRITE, false, outcome);
        if (!file)
            return nullptr;
        // The mapping's size extends the file up front: on a full disk that fails here, with a clear error,
        // instead of an in-page exception on a store later.
        win::UniqueHandle mapping(::CreateFileMappingW(file.get(), nullptr, PAGE_READWRITE,
                                                       static_cast<DWORD>(spec.bytes >> 32),
                                                       static_cast<DWORD>(spec.bytes), nullptr));
        if (!mapping) {
            outcome = win::errorOutcome(::GetLastError(), "CreateFileMapping", spec.path);
            return nullptr;
        }
        return std::make_unique<MmapWindowJob<MappedFile>>(spec, std::move(file), std::move(mapping));
    }
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeMmapWindowStrategy()
{
    return std::make_unique<windows_backend::MmapWindowStrategy>();
}

} // namespace iolab
