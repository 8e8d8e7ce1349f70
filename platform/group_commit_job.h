// SPDX-License-Identifier: MIT
// group-commit (the sync lab, issue 17): N writer threads append to one shared file, and a write counts as
// committed only once a sync that began after it returned has completed. Syncs are shared: a writer that
// finds no sync running leads one for every write completed so far; the others wait for it, as a database's
// log writers do. The job runs its threads itself, on one file, so the runner gives it the case's whole size
// (StrategyInfo::threadsShareOneFile). Once for every OS; each backend brings its file as a small class:
//   bool writeAt(const std::byte* data, std::uint64_t size, std::uint64_t offset)   false on failure
//   bool sync()                                       the case's sync (fdatasync, fsync, FlushFileBuffers)
//   Outcome failure(const char* call)                 the error of the call that just failed
//   Outcome close()
//   static constexpr const char* kWriteCall, kSyncCall   names in errors
#pragma once

#include "core/engine/call_timing.h"
#include "core/engine/pattern.h"
#include "core/engine/strategy.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace iolab {

// Its declaration is groupCommitDeclaration (platform/strategy_declarations.h); its one rule beyond it:
inline std::optional<std::string> groupCommitRefusal(const Case& c)
{
    if (syncsEveryN(c.sync.mode) && c.sync.everyWrites != 1)
        return fmt::format(
            "group-commit commits every write, so its sync policy is {}:1, not every {} writes",
            c.sync.mode == SyncMode::FsyncEvery ? "fsync-every" : "fdatasync-every", c.sync.everyWrites);
    return std::nullopt;
}

template <class File> class GroupCommitJob final : public Job
{
public:
    template <class... Opened>
    explicit GroupCommitJob(const JobSpec& spec, Opened&&... opened)
        : m_spec(spec), m_file(std::forward<Opened>(opened)...)
    {
        // Each writer times into its own histograms (no lock on the hot path); merged in finish(), untimed.
        if (spec.latency != nullptr) {
            for (std::uint32_t t = 0; t < spec.testCase.threads; ++t)
                m_latency.push_back(std::make_unique<CallLatency>());
        }
    }

    Outcome execute(Progress& progress) override
    {
        const std::uint32_t threads = std::max<std::uint32_t>(1, m_spec.testCase.threads);
        {
            std::vector<std::jthread> writers;
            writers.reserve(threads);
            for (std::uint32_t t = 0; t < threads; ++t)
                writers.emplace_back([this, t, &progress] { writeAndCommit(t, progress); });
        } // joined
        if (m_failed)
            return std::move(m_error);
        if (progress.stopRequested() && progress.stoppedEnd() == LoopEnd::Cancelled)
            return Outcome::cancelled();
        return m_file.close();
    }

    Outcome finish() override
    {
        if (m_spec.latency != nullptr) {
            for (const auto& l : m_latency) {
                m_spec.latency->calls.merge(l->calls);
                m_spec.latency->syncs.merge(l->syncs);
            }
        }
        return Outcome::success();
    }

private:
    // One writer: takes the next chunk of the file, writes it, and commits it; until the file is full, the
    // time is up, the user stops or another writer failed.
    void writeAndCommit(std::uint32_t thread, Progress& progress)
    {
        const std::uint64_t total = m_spec.bytes;
        const std::uint64_t chunk = m_spec.testCase.chunkBytes;
        const Pattern::View pattern = m_spec.pattern->view();
        CallLatency* latency = m_latency.empty() ? nullptr : m_latency[thread].get();
        while (!progress.stopRequested() && !m_failed.load(std::memory_order_relaxed)) {
            const std::uint64_t offset = m_next.fetch_add(chunk, std::memory_order_relaxed);
            if (offset >= total)
                return;
            const std::uint64_t size = std::min(chunk, total - offset);
            const auto started = TimingClock::now();
            if (!m_file.writeAt(pattern.at(offset), size, offset)) {
                fail(m_file.failure(File::kWriteCall));
                return;
            }
            if (!commit(latency))
                return;
            if (latency != nullptr)
                latency->calls.record(elapsedNs(started, TimingClock::now()));
            // The threads share one count: once it reaches the kill -9 probe's point, each stops right
            // after its own next commit.
            progress.addAndHoldAtPoint(size);
        }
    }

    // Waits until a sync that began after this writer's write completed has returned, leading one when none
    // is running. False when a sync failed.
    bool commit(CallLatency* latency)
    {
        std::unique_lock lock(m_mutex);
        const std::uint64_t mine = ++m_written;
        while (m_synced < mine) {
            if (m_failed.load(std::memory_order_relaxed))
                return false;
            if (m_syncing) {
                m_roundDone.wait(lock);
                continue;
            }
            // Lead a round for every write completed so far, this one included.
            m_syncing = true;
            const std::uint64_t covers = m_written;
            lock.unlock();
            const auto started = TimingClock::now();
            const bool ok = m_file.sync();
            if (latency != nullptr)
                latency->syncs.record(elapsedNs(started, TimingClock::now()));
            Outcome error = ok ? Outcome::success() : m_file.failure(File::kSyncCall);
            lock.lock();
            m_syncing = false;
            if (ok)
                m_synced = covers;
            else
                failLocked(std::move(error));
            m_roundDone.notify_all();
        }
        return true;
    }

    void fail(Outcome error)
    {
        std::lock_guard lock(m_mutex);
        failLocked(std::move(error));
        m_roundDone.notify_all();
    }

    void failLocked(Outcome error)
    {
        if (!m_failed.exchange(true))
            m_error = std::move(error);
    }

    JobSpec m_spec;
    File m_file;
    std::atomic<std::uint64_t> m_next{0}; // the next chunk's offset
    std::mutex m_mutex;
    std::condition_variable m_roundDone;
    std::uint64_t m_written = 0; // writes completed, in the order they reported
    std::uint64_t m_synced = 0;  // writes covered by the last sync that returned
    bool m_syncing = false;
    std::atomic<bool> m_failed{false};
    Outcome m_error; // the first failure
    std::vector<std::unique_ptr<CallLatency>> m_latency;
};

} // namespace iolab
