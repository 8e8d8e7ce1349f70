// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/file_set.h"
#include "core/engine/read_buffer.h"
#include "core/engine/strategy.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace iolab {

// Reads every file of a generated set, the way the .NET reading article's scenarios do: in order on the
// calling thread (Single), by a pool of `threads` workers taking the next file from a shared index (Threads),
// or by a new thread per file, all started at once (PerFile). Each file is timed from open to close. The
// platform gives `ReadFile`, callable as Outcome(const DataFile&, ReadBuffer&, std::uint64_t& bytesRead),
// which opens, reads to the end in buffer-sized calls and closes.
template <class ReadFile> class FileSetJob final : public Job
{
public:
    FileSetJob(const JobSpec& spec, Parallelism parallelism, ReadFile readFile)
        : m_files(*spec.files), m_chunk(spec.testCase.chunkBytes), m_threads(spec.testCase.threads),
          m_parallelism(parallelism), m_readFile(std::move(readFile))
    {}

    Outcome execute(Progress& progress) override
    {
        m_seconds.reserve(m_files.size());
        switch (m_parallelism) {
        case Parallelism::Single:
            work(progress, m_seconds);
            break;
        case Parallelism::Threads:
            runThreads(progress, std::min<std::size_t>(m_threads, m_files.size()), false);
            break;
        case Parallelism::PerFile:
            runThreads(progress, m_files.size(), true);
            break;
        }
        if (!m_failure.ok())
            return m_failure;
        if (progress.stopRequested())
            return Outcome::cancelled();
        return Outcome::success();
    }

    std::vector<double> takeFileSeconds() override { return std::move(m_seconds); }

private:
    using Clock = std::chrono::steady_clock;

    // Reads files from the shared index until none is left, a read fails or a stop is asked for.
    void work(Progress& progress, std::vector<double>& seconds)
    {
        auto buffer = allocate();
        if (!buffer)
            return;
        for (;;) {
            if (m_failed.load(std::memory_order_relaxed) || progress.stopRequested())
                return;
            const std::size_t index = m_next.fetch_add(1, std::memory_order_relaxed);
            if (index >= m_files.size())
                return;
            if (!readOne(m_files[index], *buffer, progress, seconds))
                return;
        }
    }

    bool readOne(const DataFile& file, ReadBuffer& buffer, Progress& progress, std::vector<double>& seconds)
    {
        std::uint64_t bytes = 0;
        const auto start = Clock::now();
        Outcome outcome = m_readFile(file, buffer, bytes);
        seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
        progress.add(bytes);
        if (!outcome.ok()) {
            fail(std::move(outcome));
            return false;
        }
        return true;
    }

    // A worker's buffer; on failure the job fails with the reason instead of an exception ending the process
    // inside a thread (which would leave the run folder behind).
    std::optional<ReadBuffer> allocate()
    {
        try {
            return std::optional<ReadBuffer>(std::in_place, m_chunk);
        } catch (const std::bad_alloc&) {
            fail({Status::Failed, 0, "allocate",
                  fmt::format("could not allocate a {}-byte read buffer for a worker thread", m_chunk)});
            return std::nullopt;
        }
    }

    void fail(Outcome outcome)
    {
        std::lock_guard lock(m_mutex);
        if (m_failure.ok())
            m_failure = std::move(outcome);
        m_failed.store(true, std::memory_order_relaxed);
    }

    void runThreads(Progress& progress, std::size_t count, bool onePerFile)
    {
        std::vector<std::vector<double>> seconds(count);
        std::vector<std::thread> workers;
        workers.reserve(count);
        try {
            for (std::size_t t = 0; t < count; ++t) {
                if (onePerFile)
                    workers.emplace_back([this, &progress, &seconds, t] {
                        if (m_failed.load(std::memory_order_relaxed) || progress.stopRequested())
                            return;
                        if (auto buffer = allocate())
                            readOne(m_files[t], *buffer, progress, seconds[t]);
                    });
                else
                    workers.emplace_back([this, &progress, &seconds, t] { work(progress, seconds[t]); });
            }
        } catch (const std::system_error& e) {
            fail({Status::Failed, e.code().value(), "start thread",
                  fmt::format("could not start thread {} of {}: {}", workers.size() + 1, count, e.what())});
        }
        for (auto& w : workers)
            w.join();
        for (auto& s : seconds)
            m_seconds.insert(m_seconds.end(), s.begin(), s.end());
    }

    const std::vector<DataFile>& m_files;
    std::size_t m_chunk;
    std::uint32_t m_threads;
    Parallelism m_parallelism;
    ReadFile m_readFile;
    std::atomic<std::size_t> m_next{0};
    std::atomic<bool> m_failed{false};
    std::mutex m_mutex;
    Outcome m_failure;
    std::vector<double> m_seconds;
};

} // namespace iolab
