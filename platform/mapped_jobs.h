// SPDX-License-Identifier: MIT
// The jobs of the two mapping writers (the Optane article, experiments 3 and 4), once for every OS: the chunk
// loop, when a window or batch is let go, the order of the last steps and which error wins. Each backend
// brings the mapping and writing calls as a small class the job holds (built in place from the JobSpec and
// what its prepare() opened).
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/mapped_copy.h"
#include "core/engine/pattern.h"

#include <utility>

namespace iolab {

// mmap-window: memcpy each chunk into a kMmapWindowBytes window of the file, mapping the next as it fills.
// `Mapped` holds the file and its mapping:
//   bool map(start, FileWindow& window, Outcome& error)  maps the window at `start` (a multiple of
//                                                        kMmapWindowBytes) into `window`
//   bool unmap(Outcome& error) noexcept                  lets the current window go (true with none)
//   Outcome finish(CallLatency*)                         after the last window: sync by policy (timed), close
template <class Mapped> class MmapWindowJob final : public Job
{
public:
    template <class... Opened>
    explicit MmapWindowJob(const JobSpec& spec, Opened&&... opened)
        : m_spec(spec), m_mapped(spec, std::forward<Opened>(opened)...)
    {}
    ~MmapWindowJob() override { unmap(); }
    MmapWindowJob(const MmapWindowJob&) = delete;
    MmapWindowJob& operator=(const MmapWindowJob&) = delete;

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern = m_spec.pattern->view();
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            return runChunks(
                m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress, timer,
                [pattern, this](std::uint64_t offset, std::uint64_t size) { // by value: see stdio_write_job.h
                    return m_window.copy(offset, pattern.at(offset), size, kMmapWindowBytes,
                                         [this](std::uint64_t start) { return mapWindow(start); });
                },
                [] { return true; });
        });
        const bool unmapped = unmap();
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (!unmapped)
            return std::move(m_error);
        return m_mapped.finish(m_spec.latency);
    }

private:
    bool mapWindow(std::uint64_t start)
    {
        if (!unmap())
            return false;
        return m_mapped.map(start, m_window, m_error);
    }

    bool unmap() noexcept
    {
        const bool ok = m_mapped.unmap(m_error);
        m_window = {};
        return ok;
    }

    JobSpec m_spec;
    Mapped m_mapped;
    FileWindow m_window;
    Outcome m_error;
};

// mmap-batch-direct: memcpy each chunk into one kMmapWindowBytes mapped batch buffer and, when it is full,
// write it at its offset to the direct (unbuffered) data file. `Batch` holds both:
//   std::byte* buffer()                                     the mapped kMmapWindowBytes
//   bool write(data, bytes, fileOffset, Outcome& error)     the batch to the data file
//   Outcome finish(CallLatency*)                            after the last batch: sync by policy (timed),
//   close
template <class Batch> class MmapBatchJob final : public Job
{
public:
    template <class... Opened>
    explicit MmapBatchJob(const JobSpec& spec, Opened&&... opened)
        : m_spec(spec),
          m_target(spec, std::forward<Opened>(opened)...), m_batch{m_target.buffer(), kMmapWindowBytes, 0}
    {}
    ~MmapBatchJob() override = default;
    MmapBatchJob(const MmapBatchJob&) = delete;
    MmapBatchJob& operator=(const MmapBatchJob&) = delete;

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern = m_spec.pattern->view();
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            return runChunks(
                m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress, timer,
                [pattern, this](std::uint64_t offset, std::uint64_t size) { // by value: see stdio_write_job.h
                    return m_batch.append(pattern.at(offset), size, [this] { return flush(); });
                },
                [] { return true; });
        });
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (m_batch.used > 0 && !flush())
            return std::move(m_error);
        return m_target.finish(m_spec.latency);
    }

private:
    bool flush()
    {
        if (!m_target.write(m_batch.data, m_batch.used, m_fileOffset, m_error))
            return false;
        m_fileOffset += m_batch.used;
        m_batch.used = 0;
        return true;
    }

    JobSpec m_spec;
    Batch m_target;
    BatchBuffer m_batch; // the mapped 16 KiB
    std::uint64_t m_fileOffset = 0;
    Outcome m_error;
};

} // namespace iolab
