// SPDX-License-Identifier: MIT
// pipe-write: WriteFile per chunk into an anonymous pipe drained by a reader thread
// (platform/pipe_write_job.h). The timed part ends when the reader has seen the end of the stream, i.e. when
// every byte has been delivered.
#include "core/base/units.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "core/engine/stream_check.h"
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/pipe_write_job.h"
#include "platform/strategy_declarations.h"
#include "platform/thread_placement.h"
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

// WriteFile per chunk.
struct PipeWrite
{
    using ReadCalls = PipeReadCalls;

    static LoopEnd write(const JobSpec& spec, const win::UniqueHandle& writeEnd, Progress& progress,
                         Outcome& error)
    {
        const Pattern::View pattern = spec.pattern->view();
        const HANDLE pipe = writeEnd.get();
        return withCallTimer(spec.latency, [&](const auto& timer) {
            return runChunks(
                spec.bytes, spec.testCase.chunkBytes, 0, progress, timer,
                [&](std::uint64_t offset, std::uint64_t size) {
                    if (win::writeFully(pipe, pattern.at(offset), size)) [[likely]]
                        return true;
                    error = win::errorOutcome(::GetLastError(), "WriteFile (pipe)", {});
                    return false;
                },
                [] { return true; });
        });
    }
};

std::unique_ptr<Job> makePipeWriteJob(const JobSpec& spec, Outcome& outcome)
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
    return PipeWriteJob<PipeWrite>::start(spec, *placement, outcome, win::UniqueHandle(readEnd),
                                          win::UniqueHandle(writeEnd));
}

class PipeWriteStrategy final : public BasicStrategy
{
public:
    PipeWriteStrategy() : BasicStrategy(pipeWriteDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return makePipeWriteJob(spec, outcome);
    }
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makePipeWriteStrategy()
{
    return std::make_unique<windows_backend::PipeWriteStrategy>();
}

} // namespace iolab
