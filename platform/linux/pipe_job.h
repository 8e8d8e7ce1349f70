// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/units.h"
#include "core/engine/strategy.h"
#include "core/engine/stream_check.h"
#include "platform/linux/reader_process.h"
#include "platform/posix/posix_io.h"

#include <memory>

namespace iolab::linux_backend {

// The pipe reader's calls on Linux (platform/pipe_reader.h): read(2), and splice(2) into /dev/null when the
// stream is not verified, so that the reader costs as little as possible. A reader process is forked
// (ReaderProcess); a spinning reader's read end is O_NONBLOCK and its calls are retried at once on EAGAIN.
struct PipeReadCalls
{
    using Handle = posix::UniqueFd;
    using ReaderProcess = linux_backend::ReaderProcess;
    static int fd(const Handle& readEnd) { return readEnd.get(); }
    static bool spinOn(const Handle& readEnd, Outcome& outcome);
    // With the 256 KiB pattern period that a verifying read is compared against, what one read brings in
    // stays in a core's L2 cache (512 KiB in all) while it is checked, so the check runs at cache speed
    // rather than re-reading a 1 MiB buffer from memory.
    static constexpr std::size_t kReadBytes = 256 * kKiB;
    static bool discardAll(const Handle& readEnd, StreamCheck& check);
    static std::int64_t read(const Handle& readEnd, std::byte* into, std::size_t bytes, Outcome& error);
};

enum class PipeMode
{
    Write,   // write(2) per chunk
    Vmsplice // vmsplice(2) per chunk, from a ring of buffers the pipe may still hold pages of
};

// A pipe whose read end a reader thread (or process) drains, written by `mode` (platform/pipe_write_job.h);
// nullptr with `outcome` set when the pipe, its placement, its reader or the vmsplice ring cannot be had.
std::unique_ptr<Job> makePipeJob(const JobSpec& spec, PipeMode mode, Outcome& outcome);

// The pages of the vmsplice writer's ring (the pipe pages axis).
enum class PipePages
{
    Normal,
    Thp,    // transparent huge pages: a 2 MiB-aligned ring with madvise(MADV_HUGEPAGE)
    Hugetlb // MAP_HUGETLB, from the huge pages reserved in /proc/sys/vm/nr_hugepages
};
PipePages pipePages(const Case& c);
// Why this machine cannot give the ring such pages now ("" = it can, as far as can be told before trying).
std::string pipePagesProblem(PipePages pages);

} // namespace iolab::linux_backend
