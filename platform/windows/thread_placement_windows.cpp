// SPDX-License-Identifier: MIT
// CPU affinity on Windows: the process's affinity mask and SetThreadAffinityMask (the first 64 CPUs of the
// process's processor group, which is where a process's threads start).
#include "platform/thread_placement.h"
#include "platform/windows/win_io.h"

#include <fmt/format.h>

namespace iolab {

namespace {

constexpr unsigned kMaskBits = sizeof(DWORD_PTR) * 8;

DWORD_PTR maskOf(const std::vector<unsigned>& cpus)
{
    DWORD_PTR mask = 0;
    for (const unsigned cpu : cpus) {
        if (cpu < kMaskBits)
            mask |= DWORD_PTR{1} << cpu;
    }
    return mask;
}

std::vector<unsigned> cpusOf(DWORD_PTR mask)
{
    std::vector<unsigned> cpus;
    for (unsigned cpu = 0; cpu < kMaskBits; ++cpu) {
        if ((mask >> cpu) & 1)
            cpus.push_back(cpu);
    }
    return cpus;
}

} // namespace

std::vector<unsigned> allowedCpus()
{
    DWORD_PTR process = 0;
    DWORD_PTR system = 0;
    if (::GetProcessAffinityMask(::GetCurrentProcess(), &process, &system) == 0)
        return {};
    return cpusOf(process);
}

ThreadPin::ThreadPin(std::optional<unsigned> cpu)
{
    if (!cpu)
        return;
    const DWORD_PTR previous =
        *cpu < kMaskBits ? ::SetThreadAffinityMask(::GetCurrentThread(), DWORD_PTR{1} << *cpu) : 0;
    if (previous == 0) {
        m_outcome = win::errorOutcome(*cpu < kMaskBits ? ::GetLastError() : ERROR_INVALID_PARAMETER,
                                      "SetThreadAffinityMask", {});
        m_outcome.message = fmt::format("could not pin a thread to CPU {}: {}", *cpu, m_outcome.message);
        return;
    }
    m_previous = cpusOf(previous);
}

ThreadPin::~ThreadPin()
{
    if (!m_previous.empty())
        ::SetThreadAffinityMask(::GetCurrentThread(), maskOf(m_previous));
}

} // namespace iolab
