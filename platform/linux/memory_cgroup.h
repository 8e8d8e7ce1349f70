// SPDX-License-Identifier: MIT
// Memory cgroups for case children under a memory limit (core/model/memory_budget.h), on either hierarchy:
// cgroup v2 (memory.max) in a subtree this user owns, or the v1 memory controller (memory.limit_in_bytes),
// which only root may use. A group is made inside this process's own cgroup, one per child, and removed
// once the child has gone.
#pragma once

#include "core/base/outcome.h"
#include "core/model/memory_budget.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace iolab::linuxcg {

// Why no memory cgroup can be made for a case child here, and what to do about it; "" when one can.
std::string problem();

class MemoryCgroup
{
public:
    // Makes a new group capped at `limitBytes` (swap included where the kernel counts it); nullptr, with
    // `outcome` saying why, when it cannot.
    static std::unique_ptr<MemoryCgroup> create(std::uint64_t limitBytes, Outcome& outcome);
    ~MemoryCgroup(); // removes the group (its process must have gone)
    MemoryCgroup(const MemoryCgroup&) = delete;
    MemoryCgroup& operator=(const MemoryCgroup&) = delete;

    // The group's directory: a process joins it by writing 0 to its cgroup.procs (join()).
    const std::string& path() const { return m_path; }
    std::optional<BudgetCounters> counters() const;
    BudgetEnd end() const;

private:
    MemoryCgroup(std::string path, bool v2) : m_path(std::move(path)), m_v2(v2) {}
    std::string m_path;
    bool m_v2;
};

// Moves the calling process into the group at `path`; false, with errno, when it cannot.
bool join(const std::string& path);

} // namespace iolab::linuxcg
