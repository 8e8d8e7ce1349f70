// SPDX-License-Identifier: MIT
// mmap-read: CreateFileMapping + MapViewOfFile of each thread's whole file, every chunk copied out of the
// view (the page faults do the reading). Windows has no madvise; the hint is the file's CreateFile flag,
// which the cache manager's read-ahead for the mapped section follows.
#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "core/engine/read_buffer.h"
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/win_io.h"

#include <cstring>

namespace iolab::windows_backend {

namespace {

class MmapReadJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, Outcome& outcome)
    {
        auto job = std::unique_ptr<MmapReadJob>(new MmapReadJob(spec));
        job->m_file = win::openInput(spec.path, spec.testCase.hint, false, outcome);
        if (!job->m_file)
            return nullptr;
        LARGE_INTEGER size{};
        if (::GetFileSizeEx(job->m_file.get(), &size) == 0) {
            outcome = win::errorOutcome(::GetLastError(), "GetFileSizeEx", spec.path);
            return nullptr;
        }
        if (static_cast<std::uint64_t>(size.QuadPart) < spec.bytes) {
            outcome = checkReadLength(spec.path, static_cast<std::uint64_t>(size.QuadPart), spec.bytes);
            return nullptr;
        }
        job->m_mapping =
            win::UniqueHandle(::CreateFileMappingW(job->m_file.get(), nullptr, PAGE_READONLY, 0, 0, nullptr));
        if (!job->m_mapping) {
            outcome = win::errorOutcome(::GetLastError(), "CreateFileMapping", spec.path);
            return nullptr;
        }
        job->m_view = static_cast<const std::byte*>(
            ::MapViewOfFile(job->m_mapping.get(), FILE_MAP_READ, 0, 0, static_cast<SIZE_T>(spec.bytes)));
        if (job->m_view == nullptr) {
            outcome = win::errorOutcome(::GetLastError(), "MapViewOfFile", spec.path);
            return nullptr;
        }
        return job;
    }

    ~MmapReadJob() override
    {
        if (m_view != nullptr)
            ::UnmapViewOfFile(m_view);
    }
    MmapReadJob(const MmapReadJob&) = delete;
    MmapReadJob& operator=(const MmapReadJob&) = delete;

    Outcome execute(Progress& progress) override
    {
        const std::byte* const view = m_view;
        std::byte* const buffer = m_buffer.data();
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            return runChunks(
                m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress, timer,
                [&](std::uint64_t offset, std::uint64_t size) {
                    std::memcpy(buffer, view + offset, size);
                    // The copy is the point: a volatile read keeps the compiler from dropping it.
                    m_sink = m_sink ^ static_cast<unsigned char>(buffer[size - 1]);
                    if (!m_spec.verifyData) [[likely]]
                        return true;
                    m_error = checkReadBytes(*m_spec.pattern, m_spec.path, m_spec.patternOffset, offset,
                                             buffer, size);
                    return m_error.ok();
                },
                [] { return true; });
        });
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        return Outcome::success();
    }

private:
    explicit MmapReadJob(const JobSpec& spec) : m_spec(spec), m_buffer(spec.testCase.chunkBytes) {}

    JobSpec m_spec;
    win::UniqueHandle m_file;
    win::UniqueHandle m_mapping;
    const std::byte* m_view = nullptr;
    ReadBuffer m_buffer;
    volatile unsigned char m_sink = 0;
    Outcome m_error;
};

class MmapReadStrategy final : public BasicStrategy
{
public:
    MmapReadStrategy() : BasicStrategy(mmapReadDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return MmapReadJob::create(spec, outcome);
    }
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeMmapReadStrategy()
{
    return std::make_unique<windows_backend::MmapReadStrategy>();
}

} // namespace iolab
