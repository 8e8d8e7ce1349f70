// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/pattern.h"
#include "core/engine/strategy.h"
#include "core/engine/stream_check.h"
#include "platform/thread_placement.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <thread>
#include <utility>

namespace iolab {

// The reader thread of the pipe writers, on every OS: it drains the pipe's read end until the writer closes
// its end, then closes the read end (so that a writer still writing into a full pipe fails instead of
// waiting forever). With verification it checks every byte against the pattern the writer copies from, a
// read at a time with a memcmp per span of the pattern's buffer, each read landing at the same offset modulo
// 64 as the pattern bytes it is compared with; without, the OS may discard the stream its cheapest way. The
// writer's own pattern, not a copy: with both threads on one CPU its bytes are in that CPU's cache already,
// and comparing against a second copy of 512 KiB made a plain loop 5-10% slower (tests/perf/README.md).
// `Os` supplies, all static:
//   Handle                                   the read end (moved in; reset() closes it)
//   kReadBytes                               one read's size
//   bool discardAll(handle, StreamCheck&)    drains to the end without looking, counting with skip();
//                                            false when it cannot (the read loop then finishes the job)
//   std::int64_t read(handle, into, bytes, Outcome& error)
//                                            bytes read (> 0), 0 at the end of the stream, or < 0 with
//                                            `error` set; interrupted reads are retried inside
template <class Os> class PipeReader
{
public:
    using Handle = typename Os::Handle;

    // `pattern`: what the stream must match, the writer's (looked at only with `verify`). `cpu`: the CPU the
    // reader thread is pinned to (the reader CPU axis); none: where the scheduler puts it.
    PipeReader(Handle readEnd, const Pattern& pattern, bool verify, std::optional<unsigned> cpu)
        : m_readEnd(std::move(readEnd)), m_verify(verify), m_cpu(cpu), m_check(pattern, "the pipe reader")
    {}
    ~PipeReader() { join(); }
    PipeReader(const PipeReader&) = delete;
    PipeReader& operator=(const PipeReader&) = delete;

    void start()
    {
        m_thread = std::thread([this] { drain(); });
    }

    // Waits for the reader; the writer must have closed its end first.
    void join()
    {
        if (m_thread.joinable())
            m_thread.join();
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
    StreamCheck m_check; // what the reader received
    Outcome m_readError;
    std::thread m_thread;
};

} // namespace iolab
