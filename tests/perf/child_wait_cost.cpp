// SPDX-License-Identifier: MIT
// What a parent's way of waiting costs the child it waits for. A case under a memory limit runs in a child
// process while iolab-cli's runner waits for it (platform's case child); the runner once woke every
// millisecond to look at the child's state, and now sleeps on a futex until the child's next state wakes it
// (at most 10 ms, to see a cancel). This program keeps the child's work and changes only the wait: the child
// copies 1 MiB blocks (the CPU work a write to a RAM-backed file is), timing itself, while the parent
//   - sleeps 1 ms, looks, again (the old wait),
//   - sleeps 20 ms, looks, again,
//   - sleeps on a futex on the shared state word, 10 ms at most (IOLab's wait).
// Rounds of the three in a rotating order; printed: the child's MB/s per wait (medians) and the median
// per-round ratio against the futex wait, for the child's own time and for the time until the parent saw it
// finish.
//
//     build/dev/tests/perf/child_wait_cost [ROUNDS [MIB_PER_RUN]]
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Shared
{
    std::atomic<std::uint32_t> state{0}; // 1 once the child's work is done
    double childSeconds = 0;
};

enum class Wait
{
    Poll1ms,
    Poll20ms,
    Futex
};

const char* name(Wait w)
{
    return w == Wait::Poll1ms ? "sleep 1 ms, look" : w == Wait::Poll20ms ? "sleep 20 ms, look" : "futex";
}

long futex(std::atomic<std::uint32_t>* word, int op, std::uint32_t value, const timespec* timeout)
{
    return ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), op, value, timeout, nullptr, 0);
}

// The child: `mib` copies of a 1 MiB block, timed by itself, then the state word set and its waiter woken.
[[noreturn]] void child(Shared* shared, std::uint64_t mib)
{
    constexpr std::size_t kBlock = 1 << 20;
    std::vector<unsigned char> from(kBlock, 0x5a);
    std::vector<unsigned char> to(kBlock);
    const auto started = Clock::now();
    for (std::uint64_t i = 0; i < mib; ++i) {
        from[i % kBlock] = static_cast<unsigned char>(i);
        std::memcpy(to.data(), from.data(), kBlock);
        asm volatile("" : : "r"(to.data()) : "memory"); // the copy is used
    }
    shared->childSeconds = std::chrono::duration<double>(Clock::now() - started).count();
    shared->state.store(1, std::memory_order_release);
    futex(&shared->state, FUTEX_WAKE, 1, nullptr);
    std::_Exit(0);
}

struct Run
{
    double childMBps = 0; // over the child's own time
    double seenMBps = 0;  // over the time until the parent saw the child finish
};

Run run(Shared* shared, Wait wait, std::uint64_t mib)
{
    shared->state.store(0);
    const auto started = Clock::now();
    const pid_t pid = ::fork();
    if (pid < 0) {
        std::perror("fork");
        std::exit(1);
    }
    if (pid == 0)
        child(shared, mib);
    while (shared->state.load(std::memory_order_acquire) == 0) {
        if (wait == Wait::Futex) {
            const timespec tenMs{0, 10'000'000};
            futex(&shared->state, FUTEX_WAIT, 0, &tenMs);
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(wait == Wait::Poll1ms ? 1 : 20));
        }
    }
    const double seen = std::chrono::duration<double>(Clock::now() - started).count();
    ::waitpid(pid, nullptr, 0);
    const double bytes = static_cast<double>(mib) * (1 << 20);
    return {bytes / shared->childSeconds / 1e6, bytes / seen / 1e6};
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

int main(int argc, char** argv)
{
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 30;
    const std::uint64_t mib = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2048;
    void* memory = ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
        std::perror("mmap");
        return 1;
    }
    auto* shared = new (memory) Shared;
    const Wait waits[] = {Wait::Poll1ms, Wait::Poll20ms, Wait::Futex};
    std::vector<double> child[3];
    std::vector<double> seen[3];
    std::vector<double> childRatio[2];
    std::vector<double> seenRatio[2];
    run(shared, Wait::Futex, mib); // warm-up: the pages, the CPU's clock
    for (int r = 0; r < rounds; ++r) {
        Run got[3];
        for (int k = 0; k < 3; ++k) {
            const int w = (r + k) % 3; // a rotating order: none always first or last
            got[w] = run(shared, waits[w], mib);
        }
        for (int w = 0; w < 3; ++w) {
            child[w].push_back(got[w].childMBps);
            seen[w].push_back(got[w].seenMBps);
        }
        for (int w = 0; w < 2; ++w) {
            childRatio[w].push_back(got[w].childMBps / got[2].childMBps);
            seenRatio[w].push_back(got[w].seenMBps / got[2].seenMBps);
        }
    }
    std::printf("%d rounds, %llu MiB copied per run\n", rounds, static_cast<unsigned long long>(mib));
    std::printf("%-20s %14s %14s %18s %18s\n", "parent's wait", "child MB/s", "seen MB/s", "child / futex",
                "seen / futex");
    for (int w = 0; w < 3; ++w) {
        if (w < 2)
            std::printf("%-20s %14.1f %14.1f %18.3f %18.3f\n", name(waits[w]), median(child[w]),
                        median(seen[w]), median(childRatio[w]), median(seenRatio[w]));
        else
            std::printf("%-20s %14.1f %14.1f %18s %18s\n", name(waits[w]), median(child[w]), median(seen[w]),
                        "1", "1");
    }
    shared->~Shared();
    ::munmap(memory, sizeof(Shared));
    return 0;
}
