// SPDX-License-Identifier: MIT
#include "core/engine/job_execution.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace iolab {

namespace {

// Releases the writer threads and the timing thread together. Not std::latch: libstdc++ 12 builds its wait on
// Windows (no futex) from a shared table of condition variables, and under wine two writers slept on after
// the last arrival, hanging a three-thread case. A mutex and a condition variable have no such corner.
class StartGate
{
public:
    explicit StartGate(std::uint32_t parties) : m_waiting(parties) {}

    void arriveAndWait()
    {
        std::unique_lock lock(m_mutex);
        if (--m_waiting == 0) {
            m_open = true;
            m_opened.notify_all();
            return;
        }
        m_opened.wait(lock, [this] { return m_open; });
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_opened;
    std::uint32_t m_waiting;
    bool m_open = false;
};

} // namespace

std::chrono::steady_clock::time_point executeThreads(std::uint32_t threads,
                                                     const std::function<void(std::uint32_t)>& runThread,
                                                     const std::function<void()>& onStart)
{
    using Clock = std::chrono::steady_clock;
    if (threads == 1) {
        const auto started = Clock::now();
        onStart();
        runThread(0);
        return started;
    }
    StartGate ready(threads + 1);
    std::vector<std::thread> workers;
    workers.reserve(threads);
    for (std::uint32_t t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            ready.arriveAndWait();
            runThread(t);
        });
    }
    ready.arriveAndWait();
    const auto started = Clock::now();
    onStart();
    for (auto& w : workers)
        w.join();
    return started;
}

Outcome executeJob(Job& job, Progress& progress, bool jobEndsDurable, ThreadExposure& exposure)
{
    progress.durableAt = TimingClock::now(); // nothing is waiting yet
    Outcome outcome = job.execute(progress);
    exposure.ended = TimingClock::now();
    exposure.bytes = progress.bytes.load(std::memory_order_relaxed);
    exposure.durable = progress.durable.load(std::memory_order_relaxed);
    exposure.durableAt = progress.durableAt;
    exposure.longestWait = progress.longestWait;
    if (jobEndsDurable && outcome.ok())
        progress.durable.store(exposure.bytes, std::memory_order_relaxed);
    return outcome;
}

void mergeOutcome(Outcome& into, Outcome&& from)
{
    auto rank = [](Status s) {
        switch (s) {
        case Status::Ok:
            return 0;
        case Status::Cancelled:
            return 1;
        case Status::Unsupported:
        case Status::Refused:
            return 2;
        case Status::Failed:
            return 3;
        }
        return 0;
    };
    if (rank(from.status) > rank(into.status))
        into = std::move(from);
}

} // namespace iolab
