// SPDX-License-Identifier: MIT
// Child processes for the tests: posix_spawn on Linux, CreateProcess on Windows (the same tests run under
// wine).
#include "tests/support/process.h"

#ifdef _WIN32
#include "platform/windows/win_io.h"

#include <windows.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>
#include <thread>
#else
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;
#endif

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace iolab::test {

namespace {

std::string slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

#ifdef _WIN32

namespace {

using win::widen;

std::string errorText(const char* call)
{
    return std::string(call) + " failed (Windows error " + std::to_string(::GetLastError()) + ")";
}

// One argument as the C runtime's parser reads it back: quoted when it has a space, a tab or a quote, with
// the backslashes before a quote (and before the closing quote) doubled.
std::wstring quoted(const std::wstring& arg)
{
    if (!arg.empty() && arg.find_first_of(L" \t\"") == std::wstring::npos)
        return arg;
    std::wstring out = L"\"";
    std::size_t backslashes = 0;
    for (const wchar_t c : arg) {
        if (c == L'\\') {
            ++backslashes;
            continue;
        }
        out.append(c == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
        backslashes = 0;
        out += c;
    }
    out.append(backslashes * 2, L'\\');
    return out + L"\"";
}

// This process's environment with `extra` ("NAME=value") set over it, as CreateProcess's sorted block.
std::wstring environmentBlock(const std::vector<std::string>& extra)
{
    struct NoCase
    {
        bool operator()(const std::wstring& a, const std::wstring& b) const
        {
            return ::CompareStringOrdinal(a.c_str(), static_cast<int>(a.size()), b.c_str(),
                                          static_cast<int>(b.size()), TRUE) == CSTR_LESS_THAN;
        }
    };
    std::map<std::wstring, std::wstring, NoCase> variables;
    const auto add = [&variables](const std::wstring& entry) {
        const std::size_t equals = entry.find(L'=', 1); // "=C:=C:\\x", the per-drive folders, start with '='
        if (equals != std::wstring::npos)
            variables[entry.substr(0, equals)] = entry.substr(equals + 1);
    };
    if (wchar_t* block = ::GetEnvironmentStringsW(); block != nullptr) {
        for (const wchar_t* e = block; *e != L'\0'; e += std::wcslen(e) + 1)
            add(e);
        ::FreeEnvironmentStringsW(block);
    }
    for (const auto& e : extra)
        add(widen(e));
    std::wstring out;
    for (const auto& [name, value] : variables)
        out += name + L'=' + value + L'\0';
    return out + L'\0';
}

std::string tempFile(const char* tag)
{
    static int counter = 0;
    const auto dir = std::filesystem::temp_directory_path();
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const auto path = dir / ("iolab-proc-" + std::string(tag) + "-" +
                                 std::to_string(::GetCurrentProcessId()) + "-" + std::to_string(++counter));
        const HANDLE h = ::CreateFileW(path.wstring().c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                                       FILE_ATTRIBUTE_NORMAL, nullptr);
        if (h != INVALID_HANDLE_VALUE) {
            ::CloseHandle(h);
            return path.string();
        }
    }
    throw std::runtime_error("no temporary file for a child's output");
}

// A console program's text as the tests compare it: its C runtime writes "\r\n" for each "\n".
std::string asText(std::string bytes)
{
    std::string out;
    out.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (bytes[i] == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n')
            continue;
        out += bytes[i];
    }
    return out;
}

// Under wine, wine itself adds lines to a child's stderr ("wine: Read access denied for device ..." when a
// program asks for the label of the drive that maps Linux's root): they are the emulator's, never the
// program's, whose own lines all start with its name.
std::string withoutWineNotes(const std::string& err)
{
    std::string out;
    std::istringstream lines(err);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("wine: ", 0) != 0)
            out += line + '\n';
    }
    if (!err.empty() && err.back() != '\n' && !out.empty())
        out.pop_back();
    return out;
}

HANDLE inheritable(const std::string& path, DWORD access, DWORD disposition)
{
    SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
    const HANDLE h = ::CreateFileW(widen(path).c_str(), access, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit,
                                   disposition, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE)
        throw std::runtime_error(errorText("CreateFile") + " for " + path);
    return h;
}

} // namespace

Process::Process(const std::string& program, const std::vector<std::string>& args,
                 const std::vector<std::string>& extraEnvironment)
    : m_outPath(tempFile("out")), m_errPath(tempFile("err"))
{
    std::wstring commandLine = quoted(widen(program));
    for (const auto& a : args)
        commandLine += L' ' + quoted(widen(a));
    std::wstring environment = environmentBlock(extraEnvironment);
    const HANDLE in = inheritable("NUL", GENERIC_READ, OPEN_EXISTING);
    const HANDLE out = inheritable(m_outPath, GENERIC_WRITE, CREATE_ALWAYS);
    const HANDLE err = inheritable(m_errPath, GENERIC_WRITE, CREATE_ALWAYS);
    STARTUPINFOW startup{};
    startup.cb = sizeof(startup);
    startup.dwFlags = STARTF_USESTDHANDLES;
    startup.hStdInput = in;
    startup.hStdOutput = out;
    startup.hStdError = err;
    PROCESS_INFORMATION info{};
    // Its own process group, so that an interrupt (CTRL_BREAK_EVENT) reaches the child and not this program.
    const BOOL started = ::CreateProcessW(nullptr, commandLine.data(), nullptr, nullptr, TRUE,
                                          CREATE_UNICODE_ENVIRONMENT | CREATE_NEW_PROCESS_GROUP,
                                          environment.data(), nullptr, &startup, &info);
    const std::string failure = started ? std::string() : errorText("CreateProcess") + " for " + program;
    ::CloseHandle(in);
    ::CloseHandle(out);
    ::CloseHandle(err);
    if (!started)
        throw std::runtime_error(failure);
    ::CloseHandle(info.hThread);
    m_process = info.hProcess;
    m_pid = static_cast<int>(info.dwProcessId);
}

Process::~Process()
{
    if (m_process != nullptr) {
        if (!m_waited) {
            ::TerminateProcess(m_process, 128 + SIGKILL);
            ::WaitForSingleObject(m_process, INFINITE);
        }
        ::CloseHandle(m_process);
    }
    ::DeleteFileW(widen(m_outPath).c_str());
    ::DeleteFileW(widen(m_errPath).c_str());
}

void Process::signal(int signal) const
{
    // Windows has no signals between processes: an interrupt is a console's Ctrl+Break to the child's process
    // group (the programs take SIGBREAK as SIGINT), any other ends the process as a kill does.
    if (signal == SIGINT)
        ::GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, static_cast<DWORD>(m_pid));
    else
        ::TerminateProcess(m_process, static_cast<UINT>(128 + signal));
}

ProcessResult Process::wait()
{
    ::WaitForSingleObject(m_process, INFINITE);
    DWORD code = 0;
    ::GetExitCodeProcess(m_process, &code);
    m_waited = true;
    ProcessResult r;
    r.exitCode = static_cast<int>(code);
    r.out = asText(slurp(m_outPath));
    r.err = withoutWineNotes(asText(slurp(m_errPath)));
    return r;
}

#else

namespace {

std::string tempFile(const char* tag)
{
    std::string pattern = std::string("/tmp/iolab-proc-") + tag + "-XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0)
        throw std::runtime_error("mkstemp failed");
    ::close(fd);
    return pattern;
}

} // namespace

Process::Process(const std::string& program, const std::vector<std::string>& args,
                 const std::vector<std::string>& extraEnvironment)
    : m_outPath(tempFile("out")), m_errPath(tempFile("err"))
{
    std::vector<std::string> argvStrings{program};
    argvStrings.insert(argvStrings.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argvStrings)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> envStrings = extraEnvironment;
    for (char** e = environ; *e != nullptr; ++e)
        envStrings.emplace_back(*e);
    std::vector<char*> envp;
    for (auto& e : envStrings)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, m_outPath.c_str(), O_WRONLY | O_TRUNC, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, m_errPath.c_str(), O_WRONLY | O_TRUNC, 0);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        throw std::runtime_error("posix_spawn failed for " + program);
    m_pid = pid;
}

Process::~Process()
{
    if (!m_waited && m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
    }
    ::unlink(m_outPath.c_str());
    ::unlink(m_errPath.c_str());
}

void Process::signal(int signal) const
{
    ::kill(m_pid, signal);
}

ProcessResult Process::wait()
{
    int status = 0;
    ::waitpid(m_pid, &status, 0);
    m_waited = true;
    ProcessResult r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(m_outPath);
    r.err = slurp(m_errPath);
    return r;
}

#endif

std::string hostTool(const std::string& name)
{
#ifdef _WIN32
    return "Z:\\usr\\bin\\" + name;
#else
    return "/usr/bin/" + name;
#endif
}

ProcessResult runHostTool(const std::string& name, std::vector<std::string> args)
{
#ifdef _WIN32
    const auto linuxPath = [](std::string a) {
        if (a.size() > 2 && (a[0] == 'Z' || a[0] == 'z') && a[1] == ':') {
            a.erase(0, 2);
            std::replace(a.begin(), a.end(), '\\', '/');
        }
        return a;
    };
    for (auto& a : args)
        a = linuxPath(a);
    // Wine starts a Linux program detached: CreateProcess returns at once, the handles given are not its
    // output, and its exit code is not the one read back. So a shell runs it with its output and, last, its
    // exit status in files on the Z: drive, and the status file appearing is its end.
    const char* base = std::getenv("IOLAB_TEST_TMPDIR");
    if (base == nullptr || *base == '\0')
        throw std::runtime_error("runHostTool under wine needs IOLAB_TEST_TMPDIR on the Z: drive");
    static int counter = 0;
    const std::string stem = std::string(base) + "/host-" + std::to_string(::GetCurrentProcessId()) + "-" +
                             std::to_string(++counter);
    const std::string out = stem + ".out";
    const std::string err = stem + ".err";
    const std::string status = stem + ".status";
    std::vector<std::string> shell{"-c",
                                   "\"$0\" \"$@\" >\"$OUT\" 2>\"$ERR\"; echo $? >\"$STATUS.tmp\" && "
                                   "mv \"$STATUS.tmp\" \"$STATUS\"",
                                   "/usr/bin/" + name};
    shell.insert(shell.end(), args.begin(), args.end());
    Process(hostTool("env"),
            [&] {
                std::vector<std::string> all{"OUT=" + linuxPath(out), "ERR=" + linuxPath(err),
                                             "STATUS=" + linuxPath(status), "/bin/sh"};
                all.insert(all.end(), shell.begin(), shell.end());
                return all;
            }())
        .wait();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!std::filesystem::exists(status) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ProcessResult r;
    r.exitCode = std::filesystem::exists(status) ? std::atoi(slurp(status).c_str()) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    std::error_code ignored;
    for (const auto& file : {out, err, status})
        std::filesystem::remove(file, ignored);
    return r;
#else
    return runProcess(hostTool(name), args);
#endif
}

ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args,
                         const std::vector<std::string>& extraEnvironment)
{
    Process p(program, args, extraEnvironment);
    return p.wait();
}

} // namespace iolab::test
