// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "core/engine/read_buffer.h"
#include "platform/posix/posix_io.h"

#include <memory>

namespace iolab::posix {

// How a read job walks its file: front to back, or at random chunk-aligned offsets over the whole file.
enum class ReadOrder
{
    Sequential,
    Random
};

// read(2) per chunk from the front of the thread's file, or pread(2) per chunk at random chunk-aligned
// offsets of the shared file; through the page cache, or with O_DIRECT into a 4 KiB-aligned buffer. The
// case's hint goes to posix_fadvise once, when the file is opened.
class FdReadJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, ReadOrder order, bool direct, Outcome& outcome)
    {
        UniqueFd fd = openInput(spec.path, direct, outcome);
        if (!fd || !adviseRead(fd.get(), spec.testCase.hint, spec.path, outcome))
            return nullptr;
        return std::unique_ptr<Job>(new FdReadJob(spec, std::move(fd), order, direct));
    }

    Outcome execute(Progress& progress) override
    {
        const int fd = m_fd.get();
        std::byte* const buffer = m_buffer.data();
        const std::uint64_t chunk = m_spec.testCase.chunkBytes;
        const char* call = m_direct ? "read(O_DIRECT)" : "read";
        LoopEnd end = LoopEnd::Completed;
        if (m_order == ReadOrder::Sequential) {
            end = withCallTimer(m_spec.latency, [&](const auto& timer) {
                return runChunks(
                    m_spec.bytes, chunk, 0, progress, timer,
                    [&](std::uint64_t offset, std::uint64_t size) {
                        const ssize_t n = readFully(fd, buffer, size);
                        if (static_cast<std::uint64_t>(n) == size) [[likely]]
                            return !m_spec.verifyData || check(offset, buffer, size);
                        return fail(n, offset, call);
                    },
                    [] { return true; });
            });
        } else {
            RandomOffsets offsets(m_spec.thread, m_spec.testCase.totalBytes, chunk);
            end = withCallTimer(m_spec.latency, [&](const auto& timer) {
                return runChunks(
                    m_spec.bytes, chunk, 0, progress, timer,
                    [&](std::uint64_t, std::uint64_t size) {
                        const std::uint64_t at = offsets.next();
                        const ssize_t n = preadFully(fd, buffer, size, at);
                        if (static_cast<std::uint64_t>(n) == size) [[likely]]
                            return !m_spec.verifyData || check(at, buffer, size);
                        return fail(n, at, m_direct ? "pread(O_DIRECT)" : "pread");
                    },
                    [] { return true; });
            });
        }
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (const int error = m_fd.close(); error != 0)
            return errnoOutcome(error, "close", m_spec.path);
        return Outcome::success();
    }

private:
    FdReadJob(const JobSpec& spec, UniqueFd fd, ReadOrder order, bool direct)
        : m_spec(spec), m_fd(std::move(fd)), m_order(order), m_direct(direct),
          m_buffer(spec.testCase.chunkBytes)
    {}

    bool check(std::uint64_t offset, const std::byte* data, std::uint64_t size)
    {
        m_error = checkReadBytes(*m_spec.pattern, m_spec.path, m_spec.patternOffset, offset, data, size);
        return m_error.ok();
    }

    // A short read is the file ending early: it changed (or vanished and was replaced) during the run.
    bool fail(ssize_t got, std::uint64_t offset, const char* call)
    {
        if (got < 0)
            m_error = errnoOutcome(errno, call, m_spec.path);
        else
            m_error =
                checkReadLength(m_spec.path, offset + static_cast<std::uint64_t>(got),
                                m_order == ReadOrder::Sequential ? m_spec.bytes : m_spec.testCase.totalBytes);
        return false;
    }

    JobSpec m_spec;
    UniqueFd m_fd;
    ReadOrder m_order;
    bool m_direct;
    ReadBuffer m_buffer;
    Outcome m_error;
};

} // namespace iolab::posix
