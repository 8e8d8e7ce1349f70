// SPDX-License-Identifier: MIT
// pipe-write: WriteFile per chunk into an anonymous pipe drained by a reader thread (platform/pipe_reader.h).
// The timed part ends when the reader has seen the end of the stream, i.e. when every byte has been
// delivered.
#include "core/base/units.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "core/engine/stream_check.h"
#include "platform/basic_strategy.h"
#include "platform/pipe_reader.h"
#include "platform/thread_placement.h"
#include "platform/windows/strategies.h"
#include "platform/windows/win_io.h"

#include <fmt/format.h>

namespace iolab::windows_backend {

namespace {

constexpr DWORD kPipeBytes = 64 * 1024; // Linux's default pipe size, so the two backends compare

// The pipe reader's calls on Windows (platform/pipe_reader.h): ReadFile, until the writer closes its end
// (ERROR_BROKEN_PIPE). Nothing discards a pipe's data cheaper than reading it.
struct PipeReadCalls
{
    using Handle = win::UniqueHandle;
    static constexpr std::size_t kReadBytes = std::size_t{1024} * 1024;

    static bool discardAll(const Handle&, StreamCheck&) { return false; }

    static std::int64_t read(const Handle& readEnd, std::byte* into, std::size_t bytes, Outcome& error)
    {
        for (;;) {
            DWORD n = 0;
            if (::ReadFile(readEnd.get(), into, static_cast<DWORD>(bytes), &n, nullptr) == 0) {
                const DWORD code = ::GetLastError();
                if (code == ERROR_BROKEN_PIPE)
                    return 0;
                error = win::errorOutcome(code, "ReadFile (pipe reader)", {});
                return -1;
            }
            if (n > 0)
                return n;
        }
    }
};

class PipeWriteJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, Outcome& outcome)
    {
        const auto placement = pipePlacement(spec.testCase.readerCpu, spec.thread, allowedCpus(), outcome);
        if (!placement)
            return nullptr;
        HANDLE readEnd = nullptr;
        HANDLE writeEnd = nullptr;
        if (::CreatePipe(&readEnd, &writeEnd, nullptr, kPipeBytes) == 0) {
            outcome = win::errorOutcome(::GetLastError(), "CreatePipe", {});
            return nullptr;
        }
        auto job = std::unique_ptr<PipeWriteJob>(
            new PipeWriteJob(spec, *placement, win::UniqueHandle(readEnd), win::UniqueHandle(writeEnd)));
        job->m_reader.start();
        return job;
    }

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
        const Pattern::View pattern = m_spec.pattern->view();
        const HANDLE pipe = m_writeEnd.get();
        const auto end = runChunks(
            m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress,
            [&](std::uint64_t offset, std::uint64_t size) {
                if (win::writeFully(pipe, pattern.at(offset), size)) [[likely]]
                    return true;
                m_writeError = win::errorOutcome(::GetLastError(), "WriteFile (pipe)", {});
                return false;
            },
            [] { return true; });
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
        return m_reader.outcome(m_spec.bytes);
    }

private:
    PipeWriteJob(const JobSpec& spec, const PipePlacement& placement, win::UniqueHandle readEnd,
                 win::UniqueHandle writeEnd)
        : m_spec(spec), m_writerCpu(placement.writer), m_writeEnd(std::move(writeEnd)),
          m_reader(std::move(readEnd), spec.verifyStream, placement.reader)
    {}

    void stopReader()
    {
        m_writeEnd.reset(); // the end of the stream for the reader
        m_reader.join();
    }

    JobSpec m_spec;
    std::optional<unsigned> m_writerCpu; // the reader CPU axis: where the writing thread is pinned
    win::UniqueHandle m_writeEnd;
    Outcome m_writeError;
    PipeReader<PipeReadCalls> m_reader;
};

class PipeWriteStrategy final : public BasicStrategy
{
public:
    PipeWriteStrategy()
        : BasicStrategy(
              {.id = "pipe-write",
               .description = "WriteFile per chunk into an anonymous pipe drained by a reader thread",
               .targets = {TargetKind::Pipe},
               .syncModes = {SyncMode::None},
               .syncRefusal = "a pipe has nothing to sync"})
    {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return PipeWriteJob::create(spec, outcome);
    }
};

} // namespace

std::unique_ptr<Strategy> makePipeWriteStrategy()
{
    return std::make_unique<PipeWriteStrategy>();
}

} // namespace iolab::windows_backend
