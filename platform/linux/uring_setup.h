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
// refuses, else nullopt.
std::optional<std::string> probeRing(std::uint32_t entries, RingSetup setup = {});

// The sentence for a registration (io_uring_register) that failed with `error`: "buffers" or "the file",
// and for buffers the bytes asked for and the locked-memory limit they count against.
std::string registrationProblem(int error, const char* what, std::uint64_t bytes);

} // namespace iolab::linux_backend
