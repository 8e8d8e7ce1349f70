// SPDX-License-Identifier: MIT
// pipe-write: WriteFile per chunk into an anonymous pipe drained by a reader thread. The timed part ends when
// the reader has seen the end of the stream, i.e. when every byte has been delivered.
#include "core/base/units.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "core/engine/stream_check.h"
#include "platform/basic_strategy.h"
#include "platform/windows/strategies.h"
#include "platform/windows/win_io.h"

#include <fmt/format.h>

#include <thread>
#include <vector>

namespace iolab::windows_backend {

namespace {

constexpr DWORD kPipeBytes = 64 * 1024; // Linux's default pipe size, so the two backends compare
constexpr DWORD kReadBytes = 1024 * 1024;

class PipeWriteJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, Outcome& outcome)
    {
        HANDLE readEnd = nullptr;
        HANDLE writeEnd = nullptr;
        if (::CreatePipe(&readEnd, &writeEnd, nullptr, kPipeBytes) == 0) {
            outcome = win::errorOutcome(::GetLastError(), "CreatePipe", {});
            return nullptr;
        }
        auto job = std::unique_ptr<PipeWriteJob>(
            new PipeWriteJob(spec, win::UniqueHandle(readEnd), win::UniqueHandle(writeEnd)));
        job->m_reader = std::thread([raw = job.get()] { raw->drain(); });
        return job;
    }

    ~PipeWriteJob() override { stopReader(); }
    PipeWriteJob(const PipeWriteJob&) = delete;
    PipeWriteJob& operator=(const PipeWriteJob&) = delete;

    Outcome execute(Progress& progress) override
    {
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
        if (!m_readError.ok())
            return m_readError;
        return m_check.outcome(m_spec.bytes, "verify (pipe)");
    }

private:
    PipeWriteJob(const JobSpec& spec, win::UniqueHandle readEnd, win::UniqueHandle writeEnd)
        : m_spec(spec), m_readEnd(std::move(readEnd)), m_writeEnd(std::move(writeEnd)),
          m_check(*spec.pattern, "the pipe reader")
    {}

    void stopReader()
    {
        m_writeEnd.reset(); // the end of the stream for the reader
        if (m_reader.joinable())
            m_reader.join();
    }

    // Reads until the writer closes its end (ERROR_BROKEN_PIPE), checking every byte when asked to. On a read
    // error it closes the read end, so that a writer blocked on a full pipe fails instead of waiting forever.
    void drain()
    {
        std::vector<std::byte> buffer(kReadBytes);
        for (;;) {
            DWORD n = 0;
            if (::ReadFile(m_readEnd.get(), buffer.data(), kReadBytes, &n, nullptr) == 0) {
                const DWORD error = ::GetLastError();
                if (error != ERROR_BROKEN_PIPE)
                    m_readError = win::errorOutcome(error, "ReadFile (pipe reader)", {});
                m_readEnd.reset();
                return;
            }
            if (m_spec.verifyStream)
                m_check.add(buffer.data(), n);
            else
                m_check.skip(n);
        }
    }

    JobSpec m_spec;
    win::UniqueHandle m_readEnd; // owned by the reader thread until it is joined
    win::UniqueHandle m_writeEnd;
    Outcome m_writeError;
    StreamCheck m_check; // what the reader received
    Outcome m_readError;
    std::thread m_reader;
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
