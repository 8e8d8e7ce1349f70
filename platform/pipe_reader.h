// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/pattern.h"
#include "core/engine/strategy.h"
#include "core/engine/stream_check.h"
#include "core/model/axes.h"
#include "platform/thread_placement.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

namespace iolab {

// How a pipe case's reader runs: a thread of IOLab's process or a process of its own (the reader kind axis),
// asleep in its calls until data comes or spinning on non-blocking ones (the reader wait axis).
struct PipeReaderMode
{
    bool process = false;
    bool spin = false;
};

inline PipeReaderMode pipeReaderMode(const Case& c)
{
    return {extraAxisValue(c, "readerKinds", "thread") == "process",
            extraAxisValue(c, "readerWaits", "block") == "spin"};
}

// What a reader process leaves in the block it shares with the writer's: plain data only.
struct PipeReaderReport
{
    StreamCheck::Tally tally;
    bool finished = false; // it drained the pipe to the end (or to its read error)
    Status status = Status::Ok;
    int errorCode = 0;
    char operation[64] = {};
    char message[512] = {};

    void setError(const Outcome& error) noexcept
    {
        status = error.status;
        errorCode = error.errorCode;
        const auto copy = [](char* to, std::size_t room, const std::string& from) {
            const std::size_t n = std::min(room - 1, from.size());
            std::memcpy(to, from.data(), n);
            to[n] = '\0';
        };
        copy(operation, sizeof operation, error.operation);
        copy(message, sizeof message, error.message);
    }
    Outcome error() const { return {status, errorCode, operation, message}; }
};

// The backend's reader process type, or an empty one where it has none.
struct NoReaderProcess
{};
template <class Os, class = void> struct ReaderProcessOf
{
    using type = NoReaderProcess;
};
template <class Os> struct ReaderProcessOf<Os, std::void_t<typename Os::ReaderProcess>>
{
    using type = typename Os::ReaderProcess;
};

// The reader thread of the pipe writers, on every OS: it drains the pipe's read end until the writer closes
// its end, then closes the read end (so that a writer still writing into a full pipe fails instead of
// waiting forever). With verification it checks every byte against the pattern the writer copies from, a
// read at a time with a memcmp per span of the pattern's buffer, each read landing at the same offset modulo
// 64 as the pattern bytes it is compared with; without, the OS may discard the stream its cheapest way. The
// writer's own pattern, not a copy: with both threads on one CPU its bytes are in that CPU's cache already,
// and comparing against a second copy of 512 KiB made a plain loop 5-10% slower (tests/perf/README.md).
// The same loop runs in a process of its own when the case asks (PipeReaderMode::process): forked, it
// drains the pipe with its copy of the check and leaves the tally and any error in a block it shares with
// the writer's process, which join() reads back. Spinning (PipeReaderMode::spin), its calls do not block
// and are retried at once until data or the end of the stream comes.
// `Os` supplies, all static:
//   Handle                                   the read end (moved in; reset() closes it)
//   kReadBytes                               one read's size
//   bool discardAll(handle, StreamCheck&)    drains to the end without looking, counting with skip();
//                                            false when it cannot (the read loop then finishes the job)
//   std::int64_t read(handle, into, bytes, Outcome& error)
//                                            bytes read (> 0), 0 at the end of the stream, or < 0 with
//                                            `error` set; interrupted reads, and on a spinning handle
//                                            reads that found no data, are retried inside
// and, where the backend has them (a case asking for one without is refused before it gets here):
//   ReaderProcess                            a forked child (platform/linux/reader_process.h)
//   int fd(handle)                           the read end's descriptor, which the child keeps
//   bool spinOn(handle, Outcome&)            makes the handle's calls return at once without data
template <class Os> class PipeReader
{
public:
    using Handle = typename Os::Handle;

    // `pattern`: what the stream must match, the writer's (looked at only with `verify`). `cpu`: the CPU the
    // reader thread is pinned to (the reader CPU axis); none: where the scheduler puts it.
    PipeReader(Handle readEnd, const Pattern& pattern, bool verify, std::optional<unsigned> cpu,
               PipeReaderMode mode = {})
        : m_readEnd(std::move(readEnd)), m_verify(verify), m_cpu(cpu), m_mode(mode),
          m_check(pattern, "the pipe reader")
    {}
    ~PipeReader() { join(); }
    PipeReader(const PipeReader&) = delete;
    PipeReader& operator=(const PipeReader&) = delete;

    // Starts the reader; false with `outcome` set when its process (or its way of waiting) cannot be had.
    bool start(Outcome& outcome)
    {
        if (m_mode.spin) {
            if constexpr (requires(Handle & h, Outcome & o) { Os::spinOn(h, o); }) {
                if (!Os::spinOn(m_readEnd, outcome))
                    return false;
            } else {
                outcome = {Status::Unsupported, 0, "pipe reader", "this backend's pipe reader cannot spin"};
                return false;
            }
        }
        if (!m_mode.process) {
            m_thread = std::thread([this] { drain(); });
            return true;
        }
        if constexpr (requires { typename Os::ReaderProcess; }) {
            m_process = std::make_unique<typename Os::ReaderProcess>();
            const bool started = m_process->start(
                Os::fd(m_readEnd), sizeof(PipeReaderReport),
                [this](void* block) {
                    drain();
                    auto* report = new (block) PipeReaderReport();
                    report->tally = m_check.tally();
                    report->setError(m_readError);
                    report->finished = true;
                },
                outcome);
            m_readEnd.reset(); // the child's now: a writer whose reader died fails instead of waiting
            return started;
        } else {
            outcome = {Status::Unsupported, 0, "pipe reader",
                       "this backend runs the pipe's reader as a thread"};
            return false;
        }
    }

    // Waits for the reader; the writer must have closed its end first.
    void join()
    {
        if (m_thread.joinable())
            m_thread.join();
        if constexpr (requires { typename Os::ReaderProcess; }) {
            if (m_process && !m_processJoined) {
                m_processJoined = true;
                const Outcome end = m_process->join();
                const auto* report = static_cast<const PipeReaderReport*>(m_process->block());
                if (report != nullptr && report->finished) {
                    m_check.setTally(report->tally);
                    m_readError = report->error();
                }
                if (!end.ok() && m_readError.ok())
                    m_readError = end;
                else if (m_readError.ok() && (report == nullptr || !report->finished))
                    m_readError = {Status::Failed, 0, "pipe reader process",
                                   "the pipe's reader process ended without saying what it saw"};
            }
        }
    }

    // The reader process's id while it may run (0 for a thread): tests look for it.
    long processId() const
    {
        if constexpr (requires { typename Os::ReaderProcess; })
            return m_process ? static_cast<long>(m_process->pid()) : 0;
        else
            return 0;
    }

    // After join(): what the reader saw, against the `bytes` the writer wrote.
    Outcome outcome(std::uint64_t bytes) const
    {
        if (!m_readError.ok())
            return m_readError;
        return m_check.outcome(bytes, "verify (pipe)");
    }

private:
    // Page aligned, with room to shift a read by up to kCoAlignBytes - 1.
    static constexpr std::size_t kCoAlignBytes = 64;
    struct AlignedFree
    {
        void operator()(std::byte* p) const noexcept
        {
            ::operator delete[](p, std::align_val_t{Pattern::kAlignment});
        }
    };

    void drain()
    {
        // A reader that could not be pinned still drains the pipe, so that the writer finishes; the case then
        // fails with the reason, since its figure would not be the placement it names.
        const ThreadPin pin(m_cpu);
        if (!pin.outcome().ok())
            m_readError = pin.outcome();
        if (m_verify || !Os::discardAll(m_readEnd, m_check))
            readAll();
        m_readEnd.reset();
    }

    void readAll()
    {
        const std::unique_ptr<std::byte, AlignedFree> buffer(static_cast<std::byte*>(
            ::operator new[](Os::kReadBytes + kCoAlignBytes, std::align_val_t{Pattern::kAlignment})));
        for (;;) {
            std::byte* const into = buffer.get() + m_check.received() % kCoAlignBytes;
            const std::int64_t n = Os::read(m_readEnd, into, Os::kReadBytes, m_readError);
            if (n <= 0)
                return;
            if (m_verify)
                m_check.add(into, static_cast<std::size_t>(n));
            else
                m_check.skip(static_cast<std::uint64_t>(n));
        }
    }

    // Owned by the reader thread until it is joined.
    Handle m_readEnd;
    bool m_verify;
    std::optional<unsigned> m_cpu;
    PipeReaderMode m_mode;
    StreamCheck m_check; // what the reader received
    Outcome m_readError;
    std::thread m_thread;
    // The reader's process, where the backend has one.
    std::unique_ptr<typename ReaderProcessOf<Os>::type> m_process;
    bool m_processJoined = false;
};

} // namespace iolab
