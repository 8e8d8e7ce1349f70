// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "core/engine/stream_check.h"
#include "platform/posix/posix_io.h"

#include <memory>
#include <thread>

namespace iolab::linux_backend {

// A pipe whose read end a reader thread drains: with verification it read(2)s and checks every byte against
// the pattern, a whole read at a time with one memcmp against its own expanded copy of the pattern; without,
// it splice(2)s into /dev/null so that the reader costs as little as possible. The timed part ends when the
// reader has seen end-of-file, i.e. when every byte has been delivered.
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
    PipeJob(const JobSpec& spec, Mode mode, posix::UniqueFd readEnd, posix::UniqueFd writeEnd);
    bool makeRing(Outcome& outcome);
    void drain();
    void stopReader();

    struct RingFree
    {
        std::size_t bytes;
        void operator()(std::byte* p) const noexcept;
    };
    struct AlignedFree
    {
        void operator()(std::byte* p) const noexcept;
    };

    JobSpec m_spec;
    Mode m_mode;
    posix::UniqueFd m_readEnd;
    posix::UniqueFd m_writeEnd;
    Outcome m_writeError;
    // vmsplice: the ring of page-aligned buffers the writer fills in turn; a buffer is refilled only after
    // the pipe has let go of its pages (see makeRing).
    std::unique_ptr<std::byte, RingFree> m_ring{nullptr, RingFree{0}};
    std::size_t m_ringStride = 0;
    std::size_t m_ringCount = 0;
    // Owned by the reader thread until it is joined.
    Pattern m_readPattern; // one period plus a whole read: every read compares in one span
    StreamCheck m_check;   // what the reader received
    Outcome m_readError;
    std::thread m_reader;
};

} // namespace iolab::linux_backend
