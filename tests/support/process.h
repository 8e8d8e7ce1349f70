// SPDX-License-Identifier: MIT
#pragma once

#include <csignal>
#include <string>
#include <vector>

#if defined(_WIN32) && !defined(SIGKILL)
#define SIGKILL 9 // Windows has no such signal: Process::signal ends the child with TerminateProcess
#endif

namespace iolab::test {

struct ProcessResult
{
    int exitCode = -1;
    std::string out;
    std::string err;
};

// Starts a program with stdout and stderr captured to files; wait() collects them. On Windows, signal(SIGINT)
// is a Ctrl+Break to the child's own process group, and any other signal terminates it with 128 + the
// signal's number as its exit code, as a shell reports a signal's end on Linux.
class Process
{
public:
    Process(const std::string& program, const std::vector<std::string>& args,
            const std::vector<std::string>& extraEnvironment = {});
    ~Process();
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    int pid() const { return m_pid; }
    void signal(int signal) const;
    ProcessResult wait();

private:
    int m_pid = -1;
#ifdef _WIN32
    void* m_process = nullptr; // the child's HANDLE
#endif
    std::string m_outPath;
    std::string m_errPath;
    bool m_waited = false;
};

ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args,
                         const std::vector<std::string>& extraEnvironment = {});

// A program of the Linux machine the tests run on, /usr/bin/NAME (poppler's pdftotext, pdfinfo ...), as this
// test program starts it: on Linux that path; under wine (the Windows tests), the same Linux program, which
// wine starts as it is, at Z:\usr\bin\NAME (wine's Z: drive is the Linux root).
std::string hostTool(const std::string& name);
// Runs hostTool(name) and waits for it. Under wine, each argument that is a path on the Z: drive (the tests'
// temporary folders are there: IOLAB_TEST_TMPDIR) is given to the Linux program as its Linux path.
ProcessResult runHostTool(const std::string& name, std::vector<std::string> args);

} // namespace iolab::test
