// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/strategy.h"
#include "platform/pipe_reader.h"
#include "platform/thread_placement.h"

#include <optional>
#include <utility>

namespace iolab {

// The job of the pipe writers, on every OS: the writing thread pinned where the reader CPU axis puts it, a
// reader thread (or process: the reader kind axis) draining the pipe (PipeReader), and a timed part that ends
// when the reader has seen the end of the stream, i.e. when every byte has been delivered. `Writer` is the
// backend's writing loop, held by the job (built in place from what its create() made):
//   using ReadCalls                          the PipeReader's calls; ReadCalls::Handle is a pipe end
//   LoopEnd write(spec, writeEnd, progress, Outcome& error)
//                                            every chunk of the spec into the pipe (runChunks), `error`
//                                            set when it fails
template <class Writer> class PipeWriteJob final : public Job
{
public:
    using Handle = typename Writer::ReadCalls::Handle;

    // Starts the reader (a thread, or a process: pipeReaderMode): the job exists only once it drains the
    // pipe; nullptr with `outcome` set when the reader cannot be started.
    template <class... Made>
    static std::unique_ptr<Job> start(const JobSpec& spec, const PipePlacement& placement, Outcome& outcome,
                                      Handle readEnd, Handle writeEnd, Made&&... made)
    {
        auto job = std::unique_ptr<PipeWriteJob>(new PipeWriteJob(
            spec, placement, std::move(readEnd), std::move(writeEnd), std::forward<Made>(made)...));
        if (!job->m_reader.start(outcome))
            return nullptr; // the destructor closes the write end and waits for a reader already started
        return job;
    }

    // The reader process's id while the job lives (0: a thread).
    long readerProcessId() const { return m_reader.processId(); }

    ~PipeWriteJob() override { stopReader(); }
    PipeWriteJob(const PipeWriteJob&) = delete;
    PipeWriteJob& operator=(const PipeWriteJob&) = delete;

    Outcome execute(Progress& progress) override
    {
        const ThreadPin pin(m_writerCpu); // given back when the timed part returns
        if (!pin.outcome().ok()) {
            stopReader();
            return pin.outcome();
        }
        const LoopEnd end = m_writer.write(m_spec, m_writeEnd, progress, m_writeError);
        m_sent = progress.bytes.load(std::memory_order_relaxed); // short of m_spec.bytes at a time limit
        stopReader(); // in the timed part: the data counts once the reader has it
        if (end == LoopEnd::Failed)
            return std::move(m_writeError);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        return Outcome::success();
    }

    Outcome finish() override
    {
        stopReader();
        return m_reader.outcome(m_sent);
    }

private:
    template <class... Made>
    PipeWriteJob(const JobSpec& spec, const PipePlacement& placement, Handle readEnd, Handle writeEnd,
                 Made&&... made)
        : m_spec(spec), m_writerCpu(placement.writer), m_writeEnd(std::move(writeEnd)),
          m_writer(std::forward<Made>(made)...),
          m_reader(std::move(readEnd), *spec.pattern, spec.verifyStream, placement.reader,
                   pipeReaderMode(spec.testCase))
    {}

    void stopReader()
    {
        m_writeEnd.reset(); // the end of the stream for the reader
        m_reader.join();
    }

    std::uint64_t m_sent = 0; // what the writer handed over: what the reader must have received
    JobSpec m_spec;
    std::optional<unsigned> m_writerCpu; // the reader CPU axis: where the writing thread is pinned
    Handle m_writeEnd;
    Outcome m_writeError;
    Writer m_writer;
    PipeReader<typename Writer::ReadCalls> m_reader;
};

} // namespace iolab
