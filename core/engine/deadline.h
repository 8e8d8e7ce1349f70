// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <stop_token>
#include <thread>

namespace iolab {

// A case's time limit: sets `timeUp` once `limitMs` have passed since construction, from a thread of its own
// that sleeps until then; destroying it before then wakes that thread and ends it without setting the flag.
// The loops poll the flag with the stop flag (Progress), once per batch, so the timed part ends within a
// batch (~20 ms at most) of the limit.
class Deadline
{
public:
    Deadline(std::uint64_t limitMs, std::atomic<bool>& timeUp)
        : m_thread([this, limitMs, &timeUp](const std::stop_token& stop) {
              const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(limitMs);
              std::unique_lock lock(m_mutex);
              if (!m_wake.wait_until(lock, stop, until, [] { return false; }))
                  timeUp.store(!stop.stop_requested(), std::memory_order_relaxed);
          })
    {}
    ~Deadline()
    {
        m_thread.request_stop(); // wakes the wait through the stop token
        m_thread.join();
    }
    Deadline(const Deadline&) = delete;
    Deadline& operator=(const Deadline&) = delete;

private:
    std::mutex m_mutex;
    std::condition_variable_any m_wake;
    std::jthread m_thread; // last: started once the mutex and the condition variable exist
};

} // namespace iolab
