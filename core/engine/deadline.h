// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace iolab {

// A case's time limit: sets `timeUp` once `limitMs` have passed since construction, from a thread of its own
// that sleeps until then; destroying it before then wakes that thread and ends it without setting the flag.
// The loops poll the flag with the stop flag (Progress), once per batch, so the timed part ends within a
// batch (~20 ms at most) of the limit.
//
// A plain condition variable with a flag, not condition_variable_any with a stop token: its wait registers a
// stop_callback whose removal waits on a semaphore, and MinGW's libstdc++ (an atomic wait on a condition
// variable, no futex) lost that wake-up now and then: the waiting thread never ended and the run hung in the
// join (seen under wine, in the Sampler's identical wait).
class Deadline
{
public:
    Deadline(std::uint64_t limitMs, std::atomic<bool>& timeUp)
        : m_thread([this, limitMs, &timeUp] {
              const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(limitMs);
              std::unique_lock lock(m_mutex);
              if (!m_wake.wait_until(lock, until, [this] { return m_ending; }))
                  timeUp.store(true, std::memory_order_relaxed);
          })
    {}
    ~Deadline()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_ending = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }
    Deadline(const Deadline&) = delete;
    Deadline& operator=(const Deadline&) = delete;

private:
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_ending = false; // under m_mutex
    std::thread m_thread;  // last: started once the mutex, the condition variable and the flag exist
};

} // namespace iolab
