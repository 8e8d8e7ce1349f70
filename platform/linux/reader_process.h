// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/outcome.h"

#include <cstddef>
#include <functional>
#include <sys/types.h>

namespace iolab::linux_backend {

// A pipe's reader in a process of its own (the reader kind axis): fork(2), as a shell's `yes | pv` has its
// reader. The child shares a small block of memory with the parent (MAP_SHARED, mapped before the fork) in
// which it leaves what it saw, closes every descriptor it inherited but the standard three and the pipe's
// read end (so that no copy of the write end, this pipe's or another job's, keeps a reader waiting), runs the
// body and leaves with _exit, running no destructor or atexit handler of the parent's objects.
//
// It ends when the pipe's write end closes: the job closes it at its end, on cancel and at a time limit, and
// the kernel closes it when the parent dies however it dies, so the child never outlives the pipe. It takes
// no PR_SET_PDEATHSIG, which fires when the forking *thread* ends, not the process. join() waits for it (no
// zombie); the destructor of one never joined kills it and waits.
class ReaderProcess
{
public:
    ReaderProcess() = default;
    ~ReaderProcess();
    ReaderProcess(const ReaderProcess&) = delete;
    ReaderProcess& operator=(const ReaderProcess&) = delete;

    // Maps a shared block of `blockBytes` (zeroed) and forks; the child runs body(block) with `keepFd` open
    // and exits 0. false with `outcome` set when the block or the fork cannot be had.
    bool start(int keepFd, std::size_t blockBytes, const std::function<void(void* block)>& body,
               Outcome& outcome);
    // The shared block (nullptr before start): read it after join().
    void* block() const noexcept { return m_block; }
    pid_t pid() const noexcept { return m_pid; }
    // Waits until the child has ended; success when it exited with 0, else a failure saying how it ended
    // ("the pipe's reader process was killed by signal 9 (SIGKILL)"). Later calls return the first answer.
    Outcome join();

private:
    pid_t m_pid = -1;
    void* m_block = nullptr;
    std::size_t m_blockBytes = 0;
    bool m_joined = false;
    Outcome m_end;
};

} // namespace iolab::linux_backend
