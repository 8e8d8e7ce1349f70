// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace iolab::test {

struct ProcessResult
{
    int exitCode = -1;
    std::string out;
    std::string err;
};

// Starts a program with stdout and stderr captured to files; wait() collects them.
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
    std::string m_outPath;
    std::string m_errPath;
    bool m_waited = false;
};

ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args,
                         const std::vector<std::string>& extraEnvironment = {});

} // namespace iolab::test
