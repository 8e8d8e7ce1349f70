// SPDX-License-Identifier: MIT
#include "platform/linux/reader_process.h"

#include "platform/posix/posix_io.h"

#include <fmt/format.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <linux/close_range.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace iolab::linux_backend {

namespace {

// In the child: every descriptor but 0-2 and `keep` closed.
void closeAllBut(int keep)
{
    const auto closeRange = [](unsigned first, unsigned last) {
        if (first > last)
            return;
        if (::syscall(SYS_close_range, first, last, 0) == 0)
            return;
        rlimit limit{};
        const unsigned top = ::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
                                 ? static_cast<unsigned>(limit.rlim_cur)
                                 : 65536U;
        for (unsigned fd = first; fd <= last && fd < top; ++fd)
            ::close(static_cast<int>(fd));
    };
    if (keep > 3)
        closeRange(3, static_cast<unsigned>(keep) - 1);
    closeRange(static_cast<unsigned>(keep < 3 ? 3 : keep + 1), UINT_MAX);
}

} // namespace

ReaderProcess::~ReaderProcess()
{
    if (m_pid > 0 && !m_joined) {
        ::kill(m_pid, SIGKILL);
        join();
    }
    if (m_block != nullptr)
        ::munmap(m_block, m_blockBytes);
}

bool ReaderProcess::start(int keepFd, std::size_t blockBytes, const std::function<void(void* block)>& body,
                          Outcome& outcome)
{
    void* block = ::mmap(nullptr, blockBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) {
        outcome = posix::errnoOutcome(errno, "mmap (the pipe reader's report)", {});
        return false;
    }
    m_block = block;
    m_blockBytes = blockBytes;
    const pid_t pid = ::fork();
    if (pid < 0) {
        outcome = posix::errnoOutcome(errno, "fork (the pipe's reader process)", {});
        return false;
    }
    if (pid == 0) {
        // The terminal's Ctrl-C and Ctrl-\ reach the whole process group: the parent decides what they do,
        // and ends this reader by closing the pipe.
        ::signal(SIGINT, SIG_IGN);
        ::signal(SIGQUIT, SIG_IGN);
        closeAllBut(keepFd);
        body(block);
        ::_exit(0);
    }
    m_pid = pid;
    return true;
}

Outcome ReaderProcess::join()
{
    if (m_pid <= 0 || m_joined)
        return m_end;
    int status = 0;
    pid_t waited = -1;
    do {
        waited = ::waitpid(m_pid, &status, 0);
    } while (waited < 0 && errno == EINTR);
    m_joined = true;
    if (waited != m_pid)
        m_end = posix::errnoOutcome(errno, "waitpid (the pipe's reader process)", {});
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        m_end = {
            Status::Failed, 0, "pipe reader process",
            fmt::format("the pipe's reader process (pid {}) {}", m_pid, posix::describeWaitStatus(status))};
    return m_end;
}

} // namespace iolab::linux_backend
