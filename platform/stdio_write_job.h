// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "platform/basic_strategy.h"
#include "platform/per_character_write.h"
#include "platform/stdio_buffer.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace iolab {

// A stdio call per chunk into a FILE the backend opened on the job's output, with the case's setvbuf.
// `Write` is the call, a function object so that the loop inlines it: write(data, size, file) returns the
// bytes written, kCall names it in errors, and with kFixedChunks set, chunks of 1 to 8 bytes run a loop
// compiled for that constant size (Write then also takes a FixedChunk). `Crt` is the OS's C runtime
// around the loop, all static:
//   std::FILE* open(spec, outcome)                  a new file, as the other writers open theirs
//   Outcome setvbufFailure(spec)                    after applyStdioBuffer refused
//   void clearErrors()                              before the loop: stale error values name no cause
//   Outcome failure(spec, call, wantedBytes)        a failed stdio call (0 bytes: not a write)
//   bool sync(file, mode, spec, Outcome& error)     after fflush: the OS's sync for the policy
//   Outcome close(file, spec)                       fclose, and its failure
template <class Write, class Crt> class StdioWriteJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, Outcome& outcome)
    {
        std::FILE* file = Crt::open(spec, outcome);
        if (file == nullptr)
            return nullptr;
        auto job = std::unique_ptr<StdioWriteJob>(new StdioWriteJob(spec, file));
        if (applyStdioBuffer(file, spec.testCase.buffer, job->m_buffer) != 0) {
            outcome = Crt::setvbufFailure(spec);
            return nullptr;
        }
        return job;
    }

    ~StdioWriteJob() override
    {
        if (m_file != nullptr)
            std::fclose(m_file);
    }
    StdioWriteJob(const StdioWriteJob&) = delete;
    StdioWriteJob& operator=(const StdioWriteJob&) = delete;

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern = m_spec.pattern->view();
        const SyncPolicy sync = m_spec.testCase.sync;
        std::FILE* const file = m_file;
        const std::uint32_t every = sync.loopSyncEvery();
        Crt::clearErrors();
        const Write write{};
        const auto loop = [&](auto chunk) {
            return withCallTimer(m_spec.latency, [&](const auto& timer) {
                return runChunks(
                    m_spec.bytes, chunk, every, progress, timer,
                    // The pattern's base and the FILE by value: held in registers, not reloaded through a
                    // reference after every byte stored into the FILE's buffer (a char store may alias them).
                    [pattern, file, write, this](std::uint64_t offset, auto size) {
                        if (write(pattern.at(offset), size, file) == size) [[likely]]
                            return true;
                        return fail(Write::kCall, size);
                    },
                    [&] { return flushAndSync(sync.mode); });
            });
        };
        LoopEnd end = LoopEnd::Completed;
        if constexpr (Write::kFixedChunks)
            end = withFixedChunk(m_spec.testCase.chunkBytes, loop);
        else
            end = loop(m_spec.testCase.chunkBytes);
        if (end == LoopEnd::Failed)
            return closeAfter(std::move(m_error));
        if (end == LoopEnd::Cancelled)
            return closeAfter(Outcome::cancelled());
        if (sync.mode == SyncMode::FsyncEnd || sync.mode == SyncMode::FdatasyncEnd) {
            if (!timedFinalSync(m_spec.latency, sync.mode, [&] { return flushAndSync(sync.mode); }))
                return closeAfter(std::move(m_error));
        }
        return Crt::close(std::exchange(m_file, nullptr), m_spec);
    }

private:
    StdioWriteJob(const JobSpec& spec, std::FILE* file) : m_spec(spec), m_file(file) {}

    bool fail(const char* call, std::uint64_t wantedBytes = 0)
    {
        m_error = Crt::failure(m_spec, call, wantedBytes);
        return false;
    }

    bool flushAndSync(SyncMode mode)
    {
        if (std::fflush(m_file) != 0)
            return fail("fflush");
        return Crt::sync(m_file, mode, m_spec, m_error);
    }

    Outcome closeAfter(Outcome outcome)
    {
        std::fclose(std::exchange(m_file, nullptr));
        return outcome;
    }

    JobSpec m_spec;
    std::FILE* m_file = nullptr;
    std::unique_ptr<char[]> m_buffer; // outlives the FILE: the destructor body closes it first
    Outcome m_error;
};

// A stdio writer as a strategy: its declaration (platform/strategy_declarations.h) and the job. `Crt` also
// supplies bufferRefusal(case), why this C runtime cannot take the case's stdio buffer.
template <class Write, class Crt> class StdioWriteStrategy final : public BasicStrategy
{
public:
    explicit StdioWriteStrategy(StrategyInfo declaration) : BasicStrategy(std::move(declaration)) {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        return Crt::bufferRefusal(c);
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return StdioWriteJob<Write, Crt>::create(spec, outcome);
    }
};

// The per-character writers (putc, fputc and their unlocked forms): one byte per call, so a 1-byte chunk.
template <class Put, class Crt> class PerCharacterStrategy final : public BasicStrategy
{
public:
    explicit PerCharacterStrategy(StrategyInfo declaration) : BasicStrategy(std::move(declaration)) {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        if (auto reason = perCharacterRefusal(c))
            return reason;
        return Crt::bufferRefusal(c);
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return StdioWriteJob<PerCharacterWrite<Put>, Crt>::create(spec, outcome);
    }
};

// putc and fputc, the same C call on every OS.
struct Putc
{
    static constexpr const char* kCall = "putc";
    static int put(int c, std::FILE* file) noexcept { return std::putc(c, file); }
};
struct Fputc
{
    static constexpr const char* kCall = "fputc";
    static int put(int c, std::FILE* file) noexcept { return std::fputc(c, file); }
};

} // namespace iolab
