// SPDX-License-Identifier: MIT
// Whether this machine can set up an io_uring ring, and why not, in words: without liburing's header, so the
// strategies' declarations and the tests can ask.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace iolab::linux_backend {

// The ring's size for a queue depth: the next power of two (io_uring rounds up the same way).
std::uint32_t ringEntries(std::uint32_t queueDepth) noexcept;

// A failed io_uring sync's name in an error: "io_uring fsync" or "io_uring fdatasync"
// (IORING_FSYNC_DATASYNC).
constexpr const char* uringSyncCall(bool dataOnly) noexcept
{
    return dataOnly ? "io_uring fdatasync" : "io_uring fsync";
}

// /proc/sys/kernel/io_uring_disabled (0 allowed, 1 privileged users and io_uring_group only, 2 nobody);
// nullopt when the kernel has no such switch.
std::optional<int> ioUringDisabledSetting();

// How a ring is set up beyond its size: io_uring's set-up options (the --uring axis's sqpoll and iopoll).
struct RingSetup
{
    bool sqPoll = false; // IORING_SETUP_SQPOLL: a kernel thread polls the submission queue
    bool ioPoll = false; // IORING_SETUP_IOPOLL: completions are polled for, not signalled by interrupt
};

// The sentence for an io_uring_setup that failed with `error` for a ring of `entries` set up as `setup`,
// naming the cause when the disabled switch, a missing system call or a set-up option explains it.
std::string ringSetupProblem(int error, std::uint32_t entries, std::optional<int> disabledSetting,
                             RingSetup setup = {});

// Sets up and tears down a ring of exactly `entries` as `setup` would be: the sentence when the kernel
// refuses, else nullopt. An SQPOLL probe returns once its polling thread is gone (awaitThreadExit says why).
std::optional<std::string> probeRing(std::uint32_t entries, RingSetup setup = {});

// The thread id of the SQPOLL thread ("iou-sqp-PID", a thread of this process since Linux 5.12) serving the
// ring `ringFd`, from the kernel's /proc/self/fdinfo (its SqThread line); nullopt where the ring has none,
// the kernel does not say, or the thread has not yet run (until then SqThread names the thread that set the
// ring up).
std::optional<int> sqPollThread(int ringFd);

// Waits, asleep, until thread `tid` of this process has exited, at most `limitMs`; whether it has.
//
// Why an SQPOLL ring's close waits for its thread: closing a ring only queues its teardown on a kernel
// worker, and until that runs the ring's poller keeps spinning, up to its idle time (sq_thread_idle, one
// second by default). Under SCHED_FIFO on a small machine the worker waits behind the spinners, so the
// poller of the ring just closed spun on for a full second, at the same priority as the next ring's poller,
// which waited behind it while the next repetition's clock ran: 0.49-0.56x fio's sqthread_poll (fio sets one
// ring up per job; tests/perf/README.md, issue 39). With the closing thread asleep the worker runs and the
// poller is gone in tens of milliseconds.
bool awaitThreadExit(int tid, unsigned limitMs);

// The sentence for a registration (io_uring_register) that failed with `error`: "buffers" or "the file",
// and for buffers the bytes asked for and the locked-memory limit they count against.
std::string registrationProblem(int error, const char* what, std::uint64_t bytes);

} // namespace iolab::linux_backend
