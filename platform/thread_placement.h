// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/outcome.h"
#include "core/model/case.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace iolab {

// The CPUs the calling thread may run on (its affinity, which a new thread inherits), in ascending order;
// empty when the OS does not say. One file per OS: platform/linux/, platform/windows/.
std::vector<unsigned> allowedCpus();

// The CPUs a pipe case's writer thread and its reader thread are pinned to (the reader CPU axis).
struct PipePlacement
{
    std::optional<unsigned> writer; // none: where the scheduler puts it
    std::optional<unsigned> reader;

    friend bool operator==(const PipePlacement&, const PipePlacement&) = default;
};

// The placement of thread `thread` of a case among `cpus` (allowedCpus()): Any pins nothing; Same pins the
// pair to one CPU, the t-th of `cpus`; Other pins the writer and the reader to two different CPUs, the t-th
// pair. A case's threads wrap around when they outnumber the CPUs. When `cpus` cannot give what is asked (no
// CPU known; one CPU for Other), returns nullopt and sets `outcome` to a refusal that says why.
std::optional<PipePlacement> pipePlacement(ReaderCpu placement, std::uint32_t thread,
                                           const std::vector<unsigned>& cpus, Outcome& outcome);

// Pins the calling thread to `cpu` while it lives, then gives the thread back the CPUs it had. No CPU:
// nothing changes. When the OS refuses (the CPU left the process's set since it was read), outcome() says so
// and the thread runs where it did.
class ThreadPin
{
public:
    explicit ThreadPin(std::optional<unsigned> cpu);
    ~ThreadPin();
    ThreadPin(const ThreadPin&) = delete;
    ThreadPin& operator=(const ThreadPin&) = delete;

    const Outcome& outcome() const noexcept { return m_outcome; }

private:
    std::vector<unsigned> m_previous; // the CPUs to give back; empty: not pinned
    Outcome m_outcome;
};

} // namespace iolab
