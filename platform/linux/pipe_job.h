// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/units.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "platform/pipe_reader.h"
#include "platform/posix/posix_io.h"
#include "platform/thread_placement.h"

#include <memory>

namespace iolab::linux_backend {

// The pipe reader's calls on Linux (platform/pipe_reader.h): read(2), and splice(2) into /dev/null when the
// stream is not verified, so that the reader costs as little as possible.
struct PipeReadCalls
{
    using Handle = posix::UniqueFd;
    // With the 256 KiB pattern period that a verifying read is compared against, what one read brings in
    // stays in a core's L2 cache (512 KiB in all) while it is checked, so the check runs at cache speed
    // rather than re-reading a 1 MiB buffer from memory.
    static constexpr std::size_t kReadBytes = 256 * kKiB;
    static bool discardAll(const Handle& readEnd, StreamCheck& check);
    static std::int64_t read(const Handle& readEnd, std::byte* into, std::size_t bytes, Outcome& error);
};

// A pipe whose read end a reader thread drains (PipeReader). The timed part ends when the reader has seen
// end-of-file, i.e. when every byte has been delivered.
class PipeJob final : public Job
{
public:
    enum class Mode
    {
        Write,
        Vmsplice
    };

    static std::unique_ptr<Job> create(const JobSpec& spec, Mode mode, Outcome& outcome);
    ~PipeJob() override;
    PipeJob(const PipeJob&) = delete;
    PipeJob& operator=(const PipeJob&) = delete;

    Outcome execute(Progress& progress) override;
    Outcome finish() override;

private:
    PipeJob(const JobSpec& spec, Mode mode, const PipePlacement& placement, posix::UniqueFd readEnd,
            posix::UniqueFd writeEnd);
    bool makeRing(Outcome& outcome);
    void stopReader();

    struct RingFree
    {
        std::size_t bytes;
        void operator()(std::byte* p) const noexcept;
    };

    JobSpec m_spec;
    Mode m_mode;
    std::optional<unsigned> m_writerCpu; // the reader CPU axis: where the writing thread is pinned
    posix::UniqueFd m_writeEnd;
    Outcome m_writeError;
    // vmsplice: the ring of page-aligned buffers the writer fills in turn; a buffer is refilled only after
    // the pipe has let go of its pages (see makeRing).
    std::unique_ptr<std::byte, RingFree> m_ring{nullptr, RingFree{0}};
    std::size_t m_ringStride = 0;
    std::size_t m_ringCount = 0;
    PipeReader<PipeReadCalls> m_reader;
};

} // namespace iolab::linux_backend
