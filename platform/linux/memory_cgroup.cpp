// SPDX-License-Identifier: MIT
#include "platform/linux/memory_cgroup.h"

#include "core/base/log.h"
#include "platform/posix/posix_io.h"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <mutex>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace iolab::linuxcg {

namespace {

// This process's memory cgroup directory, on the hierarchy that has the memory controller.
struct Place
{
    bool found = false;
    bool v2 = false;
    std::string directory; // e.g. /sys/fs/cgroup/memory/user/1000 (v1), /sys/fs/cgroup/user.slice/... (v2)
    std::string cgroup;    // its path inside the hierarchy, for messages
};

std::vector<std::string> fields(const std::string& line, char separator)
{
    std::vector<std::string> out;
    std::stringstream in(line);
    std::string field;
    while (std::getline(in, field, separator))
        out.push_back(field);
    return out;
}

bool hasWord(const std::string& list, const std::string& word, char separator)
{
    for (const auto& w : fields(list, separator))
        if (w == word)
            return true;
    return false;
}

std::string readText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

bool writeText(const std::string& path, const std::string& text)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const ssize_t n = ::write(fd, text.data(), text.size());
    const int error = errno;
    ::close(fd);
    errno = error;
    return n == static_cast<ssize_t>(text.size());
}

// A "key value" line's value in a flat keyed file (memory.stat, memory.events, memory.oom_control).
std::uint64_t keyed(const std::string& text, const std::string& key)
{
    std::stringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.size() > key.size() && line.compare(0, key.size(), key) == 0 && line[key.size()] == ' ')
            return std::strtoull(line.c_str() + key.size() + 1, nullptr, 10);
    }
    return 0;
}

std::uint64_t number(const std::string& path)
{
    const std::string text = readText(path);
    return text.empty() ? 0 : std::strtoull(text.c_str(), nullptr, 10);
}

Place findPlace()
{
    // /proc/self/cgroup: "4:memory:/path" on v1, "0::/path" on v2.
    std::string v1Path;
    std::string v2Path;
    bool hasV1 = false;
    bool hasV2 = false;
    {
        std::ifstream in("/proc/self/cgroup");
        std::string line;
        while (std::getline(in, line)) {
            const auto first = line.find(':');
            const auto second = line.find(':', first + 1);
            if (first == std::string::npos || second == std::string::npos)
                continue;
            const std::string controllers = line.substr(first + 1, second - first - 1);
            const std::string path = line.substr(second + 1);
            if (hasWord(controllers, "memory", ',')) {
                hasV1 = true;
                v1Path = path;
            } else if (line.compare(0, first, "0") == 0 && controllers.empty()) {
                hasV2 = true;
                v2Path = path;
            }
        }
    }
    // /proc/self/mountinfo: "... root mountpoint options - fstype source superoptions".
    std::ifstream in("/proc/self/mountinfo");
    std::string line;
    Place v2;
    while (std::getline(in, line)) {
        const auto dash = line.find(" - ");
        if (dash == std::string::npos)
            continue;
        const auto before = fields(line.substr(0, dash), ' ');
        const auto after = fields(line.substr(dash + 3), ' ');
        if (before.size() < 5 || after.size() < 3)
            continue;
        const std::string& root = before[3];
        const std::string& mountPoint = before[4];
        const auto inside = [&](const std::string& path) {
            // The cgroup's path relative to the mount's root ("/" mounts the whole hierarchy).
            if (root == "/")
                return mountPoint + path;
            if (path.compare(0, root.size(), root) == 0 &&
                (path.size() == root.size() || path[root.size()] == '/'))
                return mountPoint + path.substr(root.size());
            return std::string();
        };
        if (hasV1 && after[0] == "cgroup" && hasWord(after[2], "memory", ',')) {
            const std::string directory = inside(v1Path);
            if (!directory.empty())
                return {true, false, directory, v1Path};
        }
        if (hasV2 && after[0] == "cgroup2" && !v2.found) {
            const std::string directory = inside(v2Path);
            if (!directory.empty())
                v2 = {true, true, directory, v2Path};
        }
    }
    return hasV1 ? Place{} : v2;
}

const Place& place()
{
    // Never destroyed: a look at a target left running at exit (a hung mount) may still ask for it.
    static const Place* const p = new Place(findPlace());
    return *p;
}

std::string delegationAdvice()
{
    return "start IOLab in a cgroup delegated to you, e.g. systemd-run --user --scope -p Delegate=yes "
           "iolab, or run it as root";
}

// cgroup v2 lets a group hand its controllers to sub-groups only while it holds no process itself: this
// process moves into a leaf of its own group first, once, then enables the memory controller there.
std::mutex g_v2Mutex;
bool g_v2Ready = false;

bool prepareV2(const Place& p, Outcome& outcome)
{
    std::lock_guard lock(g_v2Mutex);
    if (g_v2Ready)
        return true;
    const std::string control = p.directory + "/cgroup.subtree_control";
    if (hasWord(readText(control), "memory", ' ')) {
        g_v2Ready = true;
        return true;
    }
    const auto fail = [&](const std::string& what, int error) {
        outcome = {Status::Failed, error, "memory limit",
                   fmt::format("cgroup v2: {} ({}); {}", what, posix::errnoName(error), delegationAdvice())};
        return false;
    };
    const auto enableMemory = [&] {
        return writeText(control, "+memory") ? 0 : errno;
    };
    int error = enableMemory();
    if (error == EBUSY) {
        const std::string leaf = p.directory + "/iolab-main";
        const bool made = ::mkdir(leaf.c_str(), 0755) == 0;
        if ((!made && errno != EEXIST) || !writeText(leaf + "/cgroup.procs", std::to_string(::getpid()))) {
            const int why = errno;
            if (made)
                ::rmdir(leaf.c_str());
            return fail(
                fmt::format("could not move IOLab into a leaf group {}, which it needs to hand the memory "
                            "controller to its case groups",
                            leaf),
                why);
        }
        logger(LogModule::Platform)
            .info("moved into {} to enable the memory controller in {}", leaf, p.cgroup);
        error = enableMemory();
        if (error == EBUSY) {
            // Other processes share IOLab's group (a login session's shell, say): it cannot be handed on.
            // IOLab goes back where it was and removes the leaf it made, leaving the system as it found it.
            if (writeText(p.directory + "/cgroup.procs", std::to_string(::getpid())) && made)
                ::rmdir(leaf.c_str());
            return fail(fmt::format("could not enable the memory controller in {}: other processes share "
                                    "that group (a login session's, say), and a group with processes of "
                                    "its own cannot hand the controller on",
                                    p.cgroup),
                        error);
        }
    }
    if (error != 0)
        return fail(fmt::format("could not enable the memory controller in {}", p.cgroup), error);
    g_v2Ready = true;
    return true;
}

std::atomic<std::uint32_t> g_groups{0};

} // namespace

std::string problem()
{
    const Place& p = place();
    if (!p.found)
        return "a memory limit needs a memory cgroup, and this system mounts no cgroup hierarchy with the "
               "memory "
               "controller";
    if (!p.v2) {
        if (::access(p.directory.c_str(), W_OK) != 0)
            return fmt::format(
                "a memory limit needs a memory cgroup; this system has cgroup v1, where only root "
                "may make one ({} is not writable): run IOLab as root",
                p.directory);
        return {};
    }
    if (!hasWord(readText(p.directory + "/cgroup.controllers"), "memory", ' '))
        return fmt::format(
            "a memory limit needs a memory cgroup; the memory controller is not delegated to this "
            "process's cgroup ({}): {}",
            p.cgroup, delegationAdvice());
    if (::access(p.directory.c_str(), W_OK) != 0 ||
        ::access((p.directory + "/cgroup.subtree_control").c_str(), W_OK) != 0)
        return fmt::format(
            "a memory limit needs a memory cgroup; this process's cgroup ({}) is not one you own: "
            "{}",
            p.cgroup, delegationAdvice());
    return {};
}

std::unique_ptr<MemoryCgroup> MemoryCgroup::create(std::uint64_t limitBytes, Outcome& outcome)
{
    if (const std::string why = problem(); !why.empty()) {
        outcome = {Status::Refused, 0, "memory limit", why};
        return nullptr;
    }
    const Place& p = place();
    if (p.v2 && !prepareV2(p, outcome))
        return nullptr;
    const std::string path = fmt::format("{}/iolab-{}-{}", p.directory, ::getpid(),
                                         g_groups.fetch_add(1, std::memory_order_relaxed));
    if (::mkdir(path.c_str(), 0755) != 0) {
        outcome = posix::errnoOutcome(errno, "mkdir (memory cgroup)", path);
        return nullptr;
    }
    std::unique_ptr<MemoryCgroup> group(new MemoryCgroup(path, p.v2));
    const std::string limit = std::to_string(limitBytes);
    const std::string limitFile = path + (p.v2 ? "/memory.max" : "/memory.limit_in_bytes");
    if (!writeText(limitFile, limit)) {
        outcome = posix::errnoOutcome(errno, "write (memory cgroup limit)", limitFile);
        return nullptr;
    }
    // Swap would let the case's own memory leave the budget rather than meet it: none, where it is counted.
    if (p.v2)
        (void)writeText(path + "/memory.swap.max", "0");
    else
        (void)writeText(path + "/memory.memsw.limit_in_bytes", limit);
    return group;
}

MemoryCgroup::~MemoryCgroup()
{
    // Its last process has gone, but the kernel may take a moment to let go of the group.
    for (int attempt = 0; attempt < 50; ++attempt) {
        if (::rmdir(m_path.c_str()) == 0 || errno == ENOENT)
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    logger(LogModule::Platform)
        .warn("could not remove the memory cgroup {}: {}", m_path, posix::errnoName(errno));
}

std::optional<BudgetCounters> MemoryCgroup::counters() const
{
    const std::string stat = readText(m_path + "/memory.stat");
    if (stat.empty())
        return std::nullopt;
    BudgetCounters c;
    if (m_v2) {
        c.usageBytes = number(m_path + "/memory.current");
        c.pageCacheBytes = keyed(stat, "file");
        c.dirtyBytes = keyed(stat, "file_dirty");
        c.writebackBytes = keyed(stat, "file_writeback");
    } else {
        c.usageBytes = number(m_path + "/memory.usage_in_bytes");
        c.pageCacheBytes = keyed(stat, "cache");
        c.dirtyBytes = keyed(stat, "dirty");
        c.writebackBytes = keyed(stat, "writeback");
    }
    return c;
}

BudgetEnd MemoryCgroup::end() const
{
    BudgetEnd e;
    if (m_v2) {
        e.peakBytes = number(m_path + "/memory.peak"); // kernel 5.19 and later
        e.oomKills = keyed(readText(m_path + "/memory.events"), "oom_kill");
    } else {
        e.peakBytes = number(m_path + "/memory.max_usage_in_bytes");
        e.oomKills = keyed(readText(m_path + "/memory.oom_control"), "oom_kill");
    }
    return e;
}

bool join(const std::string& path)
{
    return writeText(path + "/cgroup.procs", "0");
}

} // namespace iolab::linuxcg
