// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/file_set_job.h"
#include "core/engine/pattern.h"
#include "core/engine/read_buffer.h"
#include "platform/windows/win_io.h"

#include <fmt/format.h>

#include <cstring>
#include <memory>

namespace iolab::windows_backend {

enum class ReadOrder
{
    Sequential,
    Random
};

// ReadFile per chunk from the front of the thread's file, or at random chunk-aligned offsets of the shared
// file (an OVERLAPPED offset on a synchronous handle); through the cache with the hint's flag, or with
// FILE_FLAG_NO_BUFFERING into a 4 KiB-aligned buffer. Wine does not enforce NO_BUFFERING's rules, so the job
// checks every transfer against them itself.
class HandleReadJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, ReadOrder order, bool direct, Outcome& outcome)
    {
        auto job = std::unique_ptr<HandleReadJob>(new HandleReadJob(spec, order, direct));
        if (direct) {
            const auto address = reinterpret_cast<std::uintptr_t>(job->m_buffer.data());
            const auto sector = spec.target.logicalBlockBytes;
            auto problem = win::noBufferingProblem(0, spec.testCase.chunkBytes, address, sector);
            if (!problem)
                problem = win::noBufferingProblem(0, spec.bytes, address, sector);
            if (problem) {
                outcome = {Status::Refused, 0, "FILE_FLAG_NO_BUFFERING", *problem};
                return nullptr;
            }
        }
        job->m_file = win::openInput(spec.path, spec.testCase.hint, direct, outcome);
        if (!job->m_file)
            return nullptr;
        return job;
    }

    Outcome execute(Progress& progress) override
    {
        const HANDLE file = m_file.get();
        std::byte* const buffer = m_buffer.data();
        const std::uint64_t chunk = m_spec.testCase.chunkBytes;
        LoopEnd end = LoopEnd::Completed;
        if (m_order == ReadOrder::Sequential) {
            end = withCallTimer(m_spec.latency, [&](const auto& timer) {
                return runChunks(
                    m_spec.bytes, chunk, 0, progress, timer,
                    [&](std::uint64_t offset, std::uint64_t size) {
                        std::uint64_t got = 0;
                        if (m_direct && !aligned(offset, size))
                            return false;
                        const bool read = win::readFully(file, buffer, size, got);
                        if (read && got == size) [[likely]]
                            return !m_spec.verifyData || check(offset, buffer, size);
                        return fail(read, got, offset, "ReadFile");
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
                        std::uint64_t got = 0;
                        if (m_direct && !aligned(at, size))
                            return false;
                        const bool read = win::readAt(file, buffer, size, at, got);
                        if (read && got == size) [[likely]]
                            return !m_spec.verifyData || check(at, buffer, size);
                        return fail(read, got, at, "ReadFile (offset)");
                    },
                    [] { return true; });
            });
        }
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (const DWORD error = m_file.close(); error != 0)
            return win::errorOutcome(error, "CloseHandle", m_spec.path);
        return Outcome::success();
    }

private:
    HandleReadJob(const JobSpec& spec, ReadOrder order, bool direct)
        : m_spec(spec), m_order(order), m_direct(direct), m_buffer(spec.testCase.chunkBytes)
    {}

    bool aligned(std::uint64_t offset, std::uint64_t size)
    {
        const auto problem = win::noBufferingProblem(
            offset, size, reinterpret_cast<std::uintptr_t>(m_buffer.data()), m_spec.target.logicalBlockBytes);
        if (problem)
            m_error = {Status::Failed, 0, "ReadFile(NO_BUFFERING)", *problem};
        return !problem;
    }

    bool check(std::uint64_t offset, const std::byte* data, std::uint64_t size)
    {
        m_error = checkReadBytes(*m_spec.pattern, m_spec.path, m_spec.patternOffset, offset, data, size);
        return m_error.ok();
    }

    // `read`: the call worked but the file ended early (it changed during the run); otherwise the call
    // failed.
    bool fail(bool read, std::uint64_t got, std::uint64_t offset, const char* call)
    {
        const DWORD error = ::GetLastError();
        if (read)
            m_error =
                checkReadLength(m_spec.path, offset + got,
                                m_order == ReadOrder::Sequential ? m_spec.bytes : m_spec.testCase.totalBytes);
        else
            m_error = win::errorOutcome(error, m_direct ? fmt::format("{}(NO_BUFFERING)", call) : call,
                                        m_spec.path);
        return false;
    }

    JobSpec m_spec;
    ReadOrder m_order;
    bool m_direct;
    ReadBuffer m_buffer;
    win::UniqueHandle m_file;
    Outcome m_error;
};

// Reads one file of a set: CreateFile with the hint's flag, ReadFile of the buffer's size until the end of
// the file, CloseHandle; every byte compared with the pattern when verifying.
struct FileReader
{
    ReadHint hint = ReadHint::NotApplicable;
    const Pattern* pattern = nullptr; // set: verify

    Outcome operator()(const DataFile& file, ReadBuffer& buffer, std::uint64_t& bytes) const
    {
        Outcome outcome;
        win::UniqueHandle handle = win::openInput(file.relativePath, hint, false, outcome);
        if (!handle)
            return outcome;
        for (;;) {
            std::uint64_t got = 0;
            if (!win::readFully(handle.get(), buffer.data(), buffer.size(), got))
                return win::errorOutcome(::GetLastError(), "ReadFile", file.relativePath);
            if (pattern != nullptr) {
                outcome = checkReadBytes(*pattern, file.relativePath, file.patternOffset, bytes,
                                         buffer.data(), got);
                if (!outcome.ok())
                    return outcome;
            }
            bytes += got;
            if (got < buffer.size())
                break;
        }
        if (const DWORD error = handle.close(); error != 0)
            return win::errorOutcome(error, "CloseHandle", file.relativePath);
        return checkReadLength(file.relativePath, bytes, file.bytes);
    }
};

} // namespace iolab::windows_backend
