// SPDX-License-Identifier: MIT
// Case children on Linux: this program re-executed through /proc/self/exe with posix_spawn, sharing the link
// block by a MAP_SHARED mapping of a file in the run folder. The child asks for SIGKILL when its parent dies
// (PR_SET_PDEATHSIG), so a runner killed mid-probe takes its child with it; the run folder stays marked, for
// `iolab-cli clean`.
#include "core/engine/case_child.h"
#include "platform/linux/memory_cgroup.h"
#include "platform/platform.h"
#include "platform/posix/posix_io.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <linux/futex.h>
#include <optional>
#include <spawn.h>
#include <string>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace iolab {

namespace {

std::size_t pageRounded(std::size_t bytes)
{
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return (bytes + page - 1) / page * page;
}

// A process's /proc/<pid>/stat figures the sampler wants, and its start time (clock ticks after boot), which
// tells the process from a later one given the same pid.
struct ProcStat
{
    unsigned long long utime = 0;
    unsigned long long stime = 0;
    unsigned long long startTime = 0;
    long long rssPages = 0;
};

std::optional<ProcStat> readProcStat(pid_t pid)
{
    char text[1024];
    const std::string statPath = fmt::format("/proc/{}/stat", pid);
    std::FILE* f = std::fopen(statPath.c_str(), "re");
    if (f == nullptr)
        return std::nullopt;
    const std::size_t n = std::fread(text, 1, sizeof text - 1, f);
    std::fclose(f);
    text[n] = '\0';
    // The fields after the command's ")": state ppid pgrp session tty tpgid flags minflt cminflt majflt
    // cmajflt utime stime cutime cstime priority nice threads itrealvalue starttime vsize rss.
    const char* end = std::strrchr(text, ')');
    ProcStat s;
    if (end == nullptr || std::sscanf(end + 1,
                                      " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d "
                                      "%*d %*d %*d %llu %*u %lld",
                                      &s.utime, &s.stime, &s.startTime, &s.rssPages) != 4)
        return std::nullopt;
    return s;
}

// The state word as the futex calls take it: a lock-free std::atomic<std::uint32_t> is the 32-bit word
// itself.
std::uint32_t* futexWord(std::atomic<std::uint32_t>& state)
{
    static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
    return reinterpret_cast<std::uint32_t*>(&state);
}

// The child's waker: every process waiting on the shared word (not FUTEX_PRIVATE: the block is a shared
// mapping of a file, so the kernel keys the futex on the file's page, the same in both processes).
void wakeParent(childlink::Header& header)
{
    ::syscall(SYS_futex, futexWord(header.state), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

class LinuxCaseChild final : public CaseChild
{
public:
    LinuxCaseChild(pid_t pid, std::byte* base, std::size_t size,
                   std::unique_ptr<linuxcg::MemoryCgroup> cgroup)
        : m_pid(pid), m_base(base), m_size(size), m_link(base, size), m_cgroup(std::move(cgroup))
    {
        // Not yet waited for, so the pid is still this child's (a zombie at worst).
        if (const auto stat = readProcStat(pid))
            m_startTime = stat->startTime;
    }
    ~LinuxCaseChild() override
    {
        if (!m_reaped) {
            ::kill(m_pid, SIGKILL);
            wait();
        }
        ::munmap(m_base, m_size);
        m_cgroup.reset(); // its process has gone: the group is removed
    }
    LinuxCaseChild(const LinuxCaseChild&) = delete;
    LinuxCaseChild& operator=(const LinuxCaseChild&) = delete;

    const childlink::Link& link() const override { return m_link; }

    bool exited() override
    {
        if (m_reaped)
            return true;
        int status = 0;
        const pid_t got = ::waitpid(m_pid, &status, WNOHANG);
        if (got == m_pid)
            reaped(status);
        return m_reaped;
    }

    void kill() override
    {
        if (!m_reaped)
            ::kill(m_pid, SIGKILL);
    }

    ChildExit wait() override
    {
        while (!m_reaped) {
            int status = 0;
            const pid_t got = ::waitpid(m_pid, &status, 0);
            if (got == m_pid)
                reaped(status);
            else if (got < 0 && errno != EINTR) {
                m_exit = {false, 0, fmt::format("could not be waited for ({})", posix::errnoName(errno))};
                m_reaped = true;
            }
        }
        return m_exit;
    }

    childlink::State waitState(childlink::State from, std::chrono::milliseconds most) override
    {
        if (m_link.state() == from && !m_reaped.load(std::memory_order_relaxed)) {
            const auto ms = std::max<std::chrono::milliseconds::rep>(0, most.count());
            const timespec timeout{static_cast<time_t>(ms / 1000), static_cast<long>(ms % 1000) * 1000000L};
            // Returns at once (EAGAIN) when the state has moved on since the load above: no wake is missed.
            ::syscall(SYS_futex, futexWord(m_link.header().state), FUTEX_WAIT,
                      static_cast<std::uint32_t>(from), &timeout, nullptr, 0);
        }
        return m_link.state();
    }

    // From the sampler's thread while the runner's may reap the child: once reaped, or when the pid has
    // passed to another process since, nothing.
    std::optional<ProcessCounters> process() override
    {
        if (m_reaped.load(std::memory_order_acquire))
            return std::nullopt;
        const auto stat = readProcStat(m_pid);
        if (!stat || stat->startTime != m_startTime)
            return std::nullopt;
        const auto ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
        return ProcessCounters{static_cast<double>(stat->utime) / ticks,
                               static_cast<double>(stat->stime) / ticks,
                               static_cast<std::uint64_t>(std::max(0LL, stat->rssPages)) *
                                   static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE))};
    }

    std::optional<BudgetCounters> budget() override { return m_cgroup ? m_cgroup->counters() : std::nullopt; }

    BudgetEnd budgetEnd() override { return m_cgroup ? m_cgroup->end() : BudgetEnd{}; }

private:
    void reaped(int status)
    {
        m_reaped = true;
        m_exit.exitedNormally = WIFEXITED(status);
        m_exit.code = WIFEXITED(status)     ? WEXITSTATUS(status)
                      : WIFSIGNALED(status) ? WTERMSIG(status)
                                            : status;
        m_exit.description = posix::describeWaitStatus(status);
    }

    pid_t m_pid;
    std::byte* m_base;
    std::size_t m_size;
    childlink::Link m_link;
    std::unique_ptr<linuxcg::MemoryCgroup> m_cgroup;
    std::atomic<bool> m_reaped = false;
    unsigned long long m_startTime = 0;
    ChildExit m_exit;
};

class LinuxCaseChildLauncher final : public CaseChildLauncher
{
public:
    std::unique_ptr<CaseChild> start(const std::string& linkPath, const ChildRequest& request,
                                     Outcome& outcome) override
    {
        // A case under a memory limit runs in a memory cgroup of its own, which it joins first: its measured
        // repetitions and its kill -9 probe's runs alike, so the probe kills it under the cap it ran under.
        std::unique_ptr<linuxcg::MemoryCgroup> cgroup;
        if (request.testCase.memoryLimitBytes != 0) {
            cgroup = linuxcg::MemoryCgroup::create(request.testCase.memoryLimitBytes, outcome);
            if (!cgroup)
                return nullptr;
        }
        const std::string json = childRequestToJson(request);
        const auto threads = static_cast<std::uint32_t>(request.threads.size());
        const std::size_t size = pageRounded(childlink::blockBytes(threads, json.size()));
        posix::UniqueFd fd(
            ::open(linkPath.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (!fd) {
            outcome = posix::errnoOutcome(errno, "open (case child link)", linkPath);
            return nullptr;
        }
        if (::ftruncate(fd.get(), static_cast<off_t>(size)) != 0) {
            outcome = posix::errnoOutcome(errno, "ftruncate (case child link)", linkPath);
            return nullptr;
        }
        void* base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
        if (base == MAP_FAILED) {
            outcome = posix::errnoOutcome(errno, "mmap (case child link)", linkPath);
            return nullptr;
        }
        auto* bytes = static_cast<std::byte*>(base);
        childlink::Link::initialize(bytes, threads, ::getpid(), json);

        const std::string program = "/proc/self/exe";
        std::string arg0 = "iolab-case-child";
        std::string command(kCaseChildCommand);
        std::string path = linkPath;
        std::string cgroupFlag = "--cgroup";
        std::string cgroupPath = cgroup ? cgroup->path() : std::string();
        char* argv[] = {arg0.data(),       command.data(), path.data(), cgroup ? cgroupFlag.data() : nullptr,
                        cgroupPath.data(), nullptr};
        pid_t pid = 0;
        // Spawned from the runner's thread: PR_SET_PDEATHSIG fires when the thread that made the child ends,
        // and that thread outlives the child.
        if (const int error = ::posix_spawn(&pid, program.c_str(), nullptr, nullptr, argv, environ);
            error != 0) {
            ::munmap(base, size);
            outcome = posix::errnoOutcome(error, "posix_spawn (case child)", program);
            return nullptr;
        }
        return std::make_unique<LinuxCaseChild>(pid, bytes, size, std::move(cgroup));
    }
};

} // namespace

std::unique_ptr<CaseChildLauncher> makeCaseChildLauncher()
{
    return std::make_unique<LinuxCaseChildLauncher>();
}

std::optional<int> runCaseChildIfAsked(int argc, char** argv, const Registry& registry)
{
    if (argc < 3 || std::string_view(argv[1]) != kCaseChildCommand)
        return std::nullopt;
    // First: a child whose parent is gone must not write on.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    posix::UniqueFd fd(::open(argv[2], O_RDWR | O_NOFOLLOW | O_CLOEXEC));
    struct stat info
    {};
    if (!fd || ::fstat(fd.get(), &info) != 0 || info.st_size <= 0)
        return 2;
    const auto size = static_cast<std::size_t>(info.st_size);
    void* base = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
    if (base == MAP_FAILED)
        return 2;
    fd.reset();
    const childlink::Link link(static_cast<std::byte*>(base), size, wakeParent);
    if (!link.valid())
        return 2;
    // The parent may have died before PR_SET_PDEATHSIG was in place.
    if (::getppid() != link.header().parentPid)
        return 3;
    // A case under a memory limit: into its memory cgroup before anything of the case is allocated.
    if (argc >= 5 && std::string_view(argv[3]) == "--cgroup" && !linuxcg::join(argv[4])) {
        link.publishOutcome(posix::errnoOutcome(errno, "join (memory cgroup)", argv[4]),
                            childlink::State::Failed);
        return 2;
    }
    const auto probe = makeSystemProbe();
    const int code = runCaseChild(link, registry, probe.get());
    ::munmap(base, size);
    return code;
}

} // namespace iolab
