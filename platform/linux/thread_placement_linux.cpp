// SPDX-License-Identifier: MIT
// CPU affinity on Linux: sched_getaffinity(2) and pthread_setaffinity_np(3).
#include "platform/posix/posix_io.h"
#include "platform/thread_placement.h"

#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>

namespace iolab {

namespace {

bool setAffinity(const std::vector<unsigned>& cpus, int& error)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    for (const unsigned cpu : cpus) {
        if (cpu < CPU_SETSIZE)
            CPU_SET(cpu, &set);
    }
    error = ::pthread_setaffinity_np(::pthread_self(), sizeof set, &set);
    return error == 0;
}

} // namespace

std::vector<unsigned> allowedCpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) != 0)
        return {};
    std::vector<unsigned> cpus;
    for (unsigned cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (CPU_ISSET(cpu, &set))
            cpus.push_back(cpu);
    }
    return cpus;
}

ThreadPin::ThreadPin(std::optional<unsigned> cpu)
{
    if (!cpu)
        return;
    std::vector<unsigned> previous = allowedCpus();
    if (previous.empty()) {
        m_outcome = {Status::Failed, errno, "sched_getaffinity",
                     fmt::format("could not pin a thread to CPU {}: the system did not say which CPUs the "
                                 "thread may run on",
                                 *cpu)};
        return;
    }
    int error = 0;
    if (!setAffinity({*cpu}, error)) {
        m_outcome = posix::errnoOutcome(error, "pthread_setaffinity_np", {});
        m_outcome.message = fmt::format("could not pin a thread to CPU {}: {}", *cpu, m_outcome.message);
        return;
    }
    m_previous = std::move(previous);
}

ThreadPin::~ThreadPin()
{
    int error = 0;
    if (!m_previous.empty())
        setAffinity(m_previous, error);
}

} // namespace iolab
