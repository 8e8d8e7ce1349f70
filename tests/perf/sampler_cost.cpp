// SPDX-License-Identifier: MIT
// What the 10 Hz sampler costs: runs the real Sampler with the real system probe at a fast tick for a while
// and reports the CPU time per tick and, from that, the share of one core it takes at 10 Hz. Unlike a
// wall-clock A/B on a noisy VM, this resolves far below 1%.
#include "core/engine/sampler.h"
#include "platform/platform.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace {

double cpuSeconds()
{
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

} // namespace

int main(int argc, char** argv)
{
    const char* folder = argc > 1 ? argv[1] : "/tmp";
    const auto target = iolab::inspectTarget(folder);
    auto probe = iolab::makeSystemProbe();
    iolab::Progress progress[4];
    std::size_t ticks = 0;
    const auto start = std::chrono::steady_clock::now();
    const double cpuBefore = cpuSeconds();
    {
        iolab::Sampler sampler(*probe, target.device, std::chrono::milliseconds(2), start,
                               [&ticks](const iolab::Sample&) { ++ticks; });
        sampler.begin(0, 1, false, progress, 4);
        std::this_thread::sleep_for(std::chrono::seconds(3));
        sampler.end();
    }
    const double cpu = cpuSeconds() - cpuBefore;
    const double perTick = cpu / static_cast<double>(ticks);
    std::printf("device %s: %zu ticks, %.1f us CPU per tick; at 10 Hz that is %.4f%% of one core\n",
                target.device.empty() ? "(none)" : target.device.c_str(), ticks, perTick * 1e6,
                perTick * 10 * 100);
}
