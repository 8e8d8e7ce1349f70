// SPDX-License-Identifier: MIT
// What every plain benchmark loop shares: arguments, a source buffer holding the same kind of never-zero
// pattern IOLab writes (one 256 KiB period plus a chunk, page aligned), the clock, and the result line.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#ifdef _WIN32
#include <malloc.h>
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#else
#include <sys/resource.h>
#endif
#include <future>
#include <string>
#include <thread>

namespace plain {

constexpr std::uint64_t kPeriod = 256 * 1024;
constexpr std::uint64_t kMask = kPeriod - 1;

struct Args
{
    std::string path; // file to create (or unused for pipes)
    std::uint64_t chunk = 0;
    std::uint64_t total = 0;
    std::uint64_t extra = 0; // stdio buffer bytes (0 = default, 1 = none), pipe: verify flag
};

inline Args parse(int argc, char** argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s PATH CHUNK_BYTES TOTAL_BYTES [EXTRA]\n", argv[0]);
        std::exit(2);
    }
    Args a;
    a.path = argv[1];
    a.chunk = std::strtoull(argv[2], nullptr, 10);
    a.total = std::strtoull(argv[3], nullptr, 10);
    a.extra = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 0;
    return a;
}

inline unsigned char* sourceBuffer(std::uint64_t chunk)
{
    const std::uint64_t size = kPeriod + ((chunk + 4095) / 4096) * 4096;
#ifdef _WIN32
    auto* p = static_cast<unsigned char*>(::_aligned_malloc(size, 4096)); // msvcrt has no aligned_alloc
#else
    auto* p = static_cast<unsigned char*>(std::aligned_alloc(4096, size));
#endif
    for (std::uint64_t i = 0; i < size; ++i)
        p[i] = static_cast<unsigned char>(1 + ((i & kMask) * 2654435761ULL >> 13) % 255);
    return p;
}

using Clock = std::chrono::steady_clock;

// This process's CPU time so far (user + system, every thread), in seconds; with `children`, that of its
// children that have been waited for too.
inline double cpuSeconds(bool children = false)
{
#ifdef _WIN32
    FILETIME created, exited, kernel, user;
    ::GetProcessTimes(::GetCurrentProcess(), &created, &exited, &kernel, &user);
    const auto ticks = [](FILETIME t) {
        return static_cast<double>((static_cast<std::uint64_t>(t.dwHighDateTime) << 32) | t.dwLowDateTime);
    };
    return (ticks(kernel) + ticks(user)) * 1e-7;
#else
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](timeval t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
    };
    double total = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    if (children) {
        rusage theirs{};
        ::getrusage(RUSAGE_CHILDREN, &theirs);
        total += seconds(theirs.ru_utime) + seconds(theirs.ru_stime);
    }
    return total;
#endif
}

// When the timed part starts: the clock and the CPU time used so far.
struct Start
{
    Clock::time_point wall;
    double cpu;
};

inline Start start(bool children = false)
{
    return {Clock::now(), cpuSeconds(children)};
}

// The result line: MB/s over the wall clock, and MB per CPU second of this process (IOLab's result files hold
// the CPU time of each repetition, so the two can be compared when the machine is loaded). `children`: count
// the CPU of the children waited for since start(children) too.
inline void report(std::uint64_t bytes, Start begin, Clock::time_point end, bool children = false)
{
    const double cpu = cpuSeconds(children) - begin.cpu;
    const double seconds = std::chrono::duration<double>(end - begin.wall).count();
    std::printf("%.3f %.3f\n", static_cast<double>(bytes) / seconds / 1e6,
                cpu > 0 ? static_cast<double>(bytes) / cpu / 1e6 : 0.0);
}

// A second thread that only waits while it lives. IOLab always has more than one thread (the sampler, the
// runner), and on Linux a process whose threads share their file table pays more per read(2) and write(2) of
// a file: fdget_pos takes a reference to the file and its position lock, which a one-thread process skips.
// With the flag, the plain loop pays the same, so a row compares the engine and not the thread count.
class IdleThread
{
public:
    explicit IdleThread(bool start)
    {
        if (start)
            m_thread = std::thread([done = m_quit.get_future()] { done.wait(); });
    }
    ~IdleThread()
    {
        if (m_thread.joinable()) {
            m_quit.set_value();
            m_thread.join();
        }
    }
    IdleThread(const IdleThread&) = delete;
    IdleThread& operator=(const IdleThread&) = delete;

private:
    std::promise<void> m_quit;
    std::thread m_thread;
};

inline void die(const char* what)
{
    std::perror(what);
    std::exit(1);
}

} // namespace plain
