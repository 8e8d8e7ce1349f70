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

// The sentence for an io_uring_setup that failed with `error` for a ring of `entries`, naming the cause
// when the disabled switch or a missing system call explains it.
std::string ringSetupProblem(int error, std::uint32_t entries, std::optional<int> disabledSetting);

// Sets up and tears down a ring of exactly `entries`: the sentence when the kernel refuses, else nullopt.
std::optional<std::string> probeRing(std::uint32_t entries);

} // namespace iolab::linux_backend
