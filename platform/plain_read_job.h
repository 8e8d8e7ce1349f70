// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/offset_picker.h"
#include "core/engine/pattern.h"
#include "core/engine/read_buffer.h"

#include <memory>
#include <optional>
#include <utility>

namespace iolab {

// How a read job walks its file: front to back, or at random chunk-aligned offsets over the whole file.
enum class ReadOrder
{
    Sequential,
    Random
};

// One plain read call per chunk into a chunk-sized, 4 KiB-aligned buffer: from the front of the thread's
// file, or at random chunk-aligned offsets of the shared file; through the cache with the case's hint, or
// with the OS's direct-I/O flag. `Os` holds the OS's calls, all static, so that the loop inlines them:
//   using File                                     the open file: get(), false when not open, close()
//                                                  returning the error it got (0 when none)
//   File open(spec, direct, buffer, outcome)       the thread's file with the hint applied; a direct job's
//                                                  buffer is checked first where the OS does not check it
//   bool read(file, buffer, size, got)             up to `size` bytes at the file position, fewer only at
//                                                  the end of the file; `got` is what arrived
//   bool readAt(file, buffer, size, offset, got)   the same at `offset`
//   bool writeAt(file, data, size, offset)         all of `size` bytes written at `offset` (a mix's writes)
//   const char* readCall(direct), readAtCall(direct), writeAtCall(direct)   their names in errors
//   bool directTransferFits(spec, buffer, offset, size, error)
//                                                  a direct transfer keeps the OS's direct-I/O rules (when
//                                                  the OS does not enforce them itself); sets `error` if not
//   Outcome failure(call, path)                    a failed call, from the OS's last error
//   Outcome closeFailure(error, path)              the error closing the file returned (not 0)
template <class Os> class PlainReadJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, ReadOrder order, bool direct, Outcome& outcome)
    {
        auto job = std::unique_ptr<PlainReadJob>(new PlainReadJob(spec, order, direct));
        job->m_file = Os::open(spec, direct, job->m_buffer.data(), outcome);
        if (!job->m_file)
            return nullptr;
        return job;
    }

    Outcome execute(Progress& progress) override
    {
        const auto file = m_file.get();
        std::byte* const buffer = m_buffer.data();
        const std::uint64_t chunk = m_spec.testCase.chunkBytes;
        LoopEnd end = LoopEnd::Completed;
        if (m_order == ReadOrder::Sequential) {
            end = withCallTimer(m_spec.latency, [&](const auto& timer) {
                return runChunks(
                    m_spec.bytes, chunk, 0, progress, timer,
                    [&](std::uint64_t offset, std::uint64_t size) {
                        if (m_direct && !Os::directTransferFits(m_spec, buffer, offset, size, m_error))
                            return false;
                        std::uint64_t got = 0;
                        const bool read = Os::read(file, buffer, size, got);
                        if (read && got == size) [[likely]]
                            return !m_spec.verifyData || check(offset, buffer, size);
                        return fail(read, got, offset, Os::readCall(m_direct));
                    },
                    [] { return true; });
            });
        } else {
            const RandomDist& dist = m_spec.testCase.randomDist;
            end = withOffsetPicker(dist, m_spec.thread, m_spec.testCase.totalBytes, chunk, [&](auto offsets) {
                if (mixes(m_spec.testCase))
                    return withCallTimer(m_spec.latency, [&](const auto& timer) {
                        return runMix(progress, timer, offsets, buffer, file);
                    });
                return withCallTimer(m_spec.latency, [&](const auto& timer) {
                    return runChunks(
                        m_spec.bytes, chunk, 0, progress, timer,
                        [&](std::uint64_t, std::uint64_t size) {
                            const std::uint64_t at = offsets.next();
                            if (m_direct && !Os::directTransferFits(m_spec, buffer, at, size, m_error))
                                return false;
                            std::uint64_t got = 0;
                            const bool read = Os::readAt(file, buffer, size, at, got);
                            if (read && got == size) [[likely]]
                                return !m_spec.verifyData || check(at, buffer, size);
                            return fail(read, got, at, Os::readAtCall(m_direct));
                        },
                        [] { return true; });
                });
            });
        }
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (const auto error = m_file.close(); error != 0)
            return Os::closeFailure(error, m_spec.path);
        return Outcome::success();
    }

    std::optional<MixCounts> mixCounts() const override
    {
        return mixes(m_spec.testCase) ? std::optional<MixCounts>(m_mix) : std::nullopt;
    }

private:
    PlainReadJob(const JobSpec& spec, ReadOrder order, bool direct)
        : m_spec(spec), m_order(order), m_direct(direct), m_buffer(spec.testCase.chunkBytes)
    {}

    // A read/write mix (fio's rwmixread): each request reads with the case's read share, else writes the
    // pattern's bytes for that place back where they are, so the file's content, and every later read's
    // check, stay as they were. Each call is timed on its own (two clock reads) into the reads' or the
    // writes' histogram: a mix's calls are system calls, which dwarf a clock read.
    template <class Timer, class Offsets, class Handle>
    LoopEnd runMix(Progress& progress, const Timer& timer, Offsets& offsets, std::byte* buffer, Handle file)
    {
        MixChooser chooser(*m_spec.testCase.readPercent, m_spec.thread);
        const Pattern::View pattern = m_spec.pattern->view();
        return runChunks(
            m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress, NoCallTimer{},
            [&](std::uint64_t, std::uint64_t size) {
                const std::uint64_t at = offsets.next();
                const bool reads = chooser.nextIsRead();
                const std::byte* source = pattern.at(m_spec.patternOffset + at);
                if (m_direct && !Os::directTransferFits(m_spec, reads ? buffer : source, at, size, m_error))
                    return false;
                [[maybe_unused]] TimingClock::time_point started{};
                if constexpr (Timer::kOn)
                    started = TimingClock::now();
                if (reads) {
                    std::uint64_t got = 0;
                    const bool read = Os::readAt(file, buffer, size, at, got);
                    if (!read || got != size) [[unlikely]]
                        return fail(read, got, at, Os::readAtCall(m_direct));
                    if constexpr (Timer::kOn)
                        timer.calls->record(elapsedNs(started, TimingClock::now()));
                    ++m_mix.readOps;
                    m_mix.readBytes += size;
                    return !m_spec.verifyData || check(at, buffer, size);
                }
                if (!Os::writeAt(file, source, size, at)) [[unlikely]] {
                    m_error = Os::failure(Os::writeAtCall(m_direct), m_spec.path);
                    return false;
                }
                if constexpr (Timer::kOn)
                    timer.writes->record(elapsedNs(started, TimingClock::now()));
                ++m_mix.writeOps;
                m_mix.writeBytes += size;
                return true;
            },
            [] { return true; });
    }

    bool check(std::uint64_t offset, const std::byte* data, std::uint64_t size)
    {
        m_error = checkReadBytes(*m_spec.pattern, m_spec.path, m_spec.patternOffset, offset, data, size);
        return m_error.ok();
    }

    // `read`: the call worked but the file ended early (it changed, or vanished and was replaced, during the
    // run); otherwise the call failed.
    bool fail(bool read, std::uint64_t got, std::uint64_t offset, const char* call)
    {
        if (read)
            m_error =
                checkReadLength(m_spec.path, offset + got,
                                m_order == ReadOrder::Sequential ? m_spec.bytes : m_spec.testCase.totalBytes);
        else
            m_error = Os::failure(call, m_spec.path);
        return false;
    }

    JobSpec m_spec;
    ReadOrder m_order;
    bool m_direct;
    ReadBuffer m_buffer;
    typename Os::File m_file;
    Outcome m_error;
    MixCounts m_mix;
};

} // namespace iolab
