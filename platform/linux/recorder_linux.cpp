// SPDX-License-Identifier: MIT
// Recording on Linux: the program runs with libiolab-record.so in LD_PRELOAD (platform/linux/
// recorder_preload.cpp) and IOLAB_RECORD_DIR naming the parts folder. This process becomes a child subreaper
// for the run, so that it also waits for what the program started in the background and left running.
#include "platform/recorder.h"

#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>

extern char** environ;

namespace iolab {

namespace {

std::string executableFolder()
{
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::string() : self.parent_path().string();
}

// Installed: <prefix>/bin/iolab-cli and <prefix>/lib/iolab/libiolab-record.so; in the build tree:
// app/cli/iolab-cli (or app/gui/iolab, tests/...) and platform/libiolab-record.so.
std::string recorderLibrary()
{
    const std::string folder = executableFolder();
    if (folder.empty())
        return {};
    for (const char* relative : {"/../lib/iolab/libiolab-record.so", "/../../platform/libiolab-record.so",
                                 "/../platform/libiolab-record.so"}) {
        std::error_code error;
        const auto path = std::filesystem::weakly_canonical(folder + relative, error);
        if (!error && std::filesystem::is_regular_file(path, error))
            return path.string();
    }
    return {};
}

std::string findOnPath(const std::string& name)
{
    if (name.find('/') != std::string::npos)
        return name;
    const char* path = std::getenv("PATH");
    std::string_view rest = path ? path : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
        const std::size_t colon = rest.find(':');
        const std::string folder(rest.substr(0, colon));
        std::string candidate = (folder.empty() ? std::string(".") : folder) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        if (colon == std::string_view::npos)
            return {};
        rest.remove_prefix(colon + 1);
    }
}

// An ELF program without an interpreter (PT_INTERP) is linked statically: nothing loads the recorder into it.
// A script is not ELF: its interpreter is what runs, and is checked when it does (the recorder notes a static
// one).
bool isStaticElf(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    Elf64_Ehdr header{};
    bool isStatic = false;
    if (::pread(fd, &header, sizeof header, 0) == static_cast<ssize_t>(sizeof header) &&
        std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 && header.e_ident[EI_CLASS] == ELFCLASS64 &&
        header.e_phentsize == sizeof(Elf64_Phdr)) {
        isStatic = true;
        for (unsigned i = 0; i < header.e_phnum; ++i) {
            Elf64_Phdr program{};
            if (::pread(fd, &program, sizeof program,
                        static_cast<off_t>(header.e_phoff + i * sizeof program)) !=
                static_cast<ssize_t>(sizeof program))
                break;
            if (program.p_type == PT_INTERP) {
                isStatic = false;
                break;
            }
        }
    }
    ::close(fd);
    return isStatic;
}

} // namespace

RecordableProgram checkRecordable(const std::string& program)
{
    RecordableProgram result;
    result.path = findOnPath(program);
    struct stat info
    {};
    if (result.path.empty() || ::stat(result.path.c_str(), &info) != 0) {
        result.problem = RecordableProgram::Problem::NotFound;
        result.message = program.find('/') == std::string::npos
                             ? fmt::format("{}: no such program on PATH", program)
                             : fmt::format("{}: no such file", program);
        return result;
    }
    if (S_ISDIR(info.st_mode) || ::access(result.path.c_str(), X_OK) != 0) {
        result.problem = RecordableProgram::Problem::NotExecutable;
        result.message = S_ISDIR(info.st_mode)
                             ? fmt::format("{} is a folder, not a program", result.path)
                             : fmt::format("{} is not executable (no permission to run it)", result.path);
        return result;
    }
    if (isStaticElf(result.path)) {
        result.problem = RecordableProgram::Problem::Static;
        result.message = fmt::format(
            "{} is statically linked: IOLab's recorder enters a program through the dynamic loader, which "
            "this "
            "one does not use (Go programs are built this way). Record its system calls with strace instead",
            result.path);
        return result;
    }
    if (recorderLibrary().empty()) {
        result.problem = RecordableProgram::Problem::NoRecorder;
        result.message = fmt::format(
            "this IOLab has no recorder library (libiolab-record.so is neither in {}/../lib/iolab "
            "nor in the build tree): reinstall IOLab",
            executableFolder());
    }
    return result;
}

RecordedRun runRecorded(const std::string& program, const std::vector<std::string>& arguments,
                        const std::string& partsFolder, const std::string& workingFolder,
                        const std::stop_token& stop)
{
    const bool stoppable = stop.stop_possible();
    RecordedRun run;
    const std::string library = recorderLibrary();
    std::vector<std::string> environment;
    std::string preload = "LD_PRELOAD=" + library;
    for (char** variable = environ; *variable; ++variable) {
        const std::string_view entry(*variable);
        if (entry.starts_with("LD_PRELOAD="))
            preload +=
                " " + std::string(entry.substr(11)); // the user's own preloads stay, after the recorder
        else if (!entry.starts_with("IOLAB_RECORD_DIR="))
            environment.emplace_back(entry);
    }
    environment.push_back(preload);
    environment.push_back("IOLAB_RECORD_DIR=" + partsFolder);
    std::vector<char*> envp;
    envp.reserve(environment.size() + 1);
    for (std::string& entry : environment)
        envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::vector<std::string> argumentCopies;
    argumentCopies.push_back(program);
    argumentCopies.insert(argumentCopies.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    argv.reserve(argumentCopies.size() + 1);
    for (std::string& argument : argumentCopies)
        argv.push_back(argument.data());
    argv.push_back(nullptr);

    // Orphans of the program (a background child it left) come to this process, which waits for them too:
    // their parts are complete only once they have ended.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    // The program gets this process's standard streams and nothing else of it (its log file, for one).
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    ::posix_spawn_file_actions_addchdir_np(&actions, workingFolder.c_str());
    posix_spawnattr_t attributes;
    ::posix_spawnattr_init(&attributes);
    if (stoppable) {
        // A group of its own, which a stop kills whole and which alone is waited for; no terminal to read.
        ::posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        ::posix_spawnattr_setpgroup(&attributes, 0);
    }
    const int error = ::posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(), envp.data());
    ::posix_spawnattr_destroy(&attributes);
    ::posix_spawn_file_actions_destroy(&actions);
    if (error != 0) {
        ::prctl(PR_SET_CHILD_SUBREAPER, 0);
        run.error = error == ENOENT && ::access(workingFolder.c_str(), X_OK) != 0
                        ? fmt::format("{} did not start: cannot enter the working folder {}: {}", program,
                                      workingFolder, std::strerror(errno))
                        : fmt::format("{} did not start: {}", program, std::strerror(error));
        return run;
    }
    run.started = true;
    // Ctrl+C reaches the program (same process group); this process waits for it to end rather than dying
    // first and leaving the trace unmerged.
    struct sigaction ignore
    {};
    ignore.sa_handler = SIG_IGN;
    struct sigaction oldInt
    {};
    struct sigaction oldQuit
    {};
    if (!stoppable) {
        ::sigaction(SIGINT, &ignore, &oldInt);
        ::sigaction(SIGQUIT, &ignore, &oldQuit);
    }
    // A stop kills the program's group, whose id stays the group's while any of it lives (and no other
    // process's); the callback goes when the group has ended (its destructor waits for a call under way).
    std::optional<std::stop_callback<std::function<void()>>> killer;
    if (stoppable)
        killer.emplace(stop, std::function<void()>([pid, &run] {
                           run.stopped = true;
                           ::kill(-pid, SIGKILL);
                       }));
    for (;;) {
        int status = 0;
        const pid_t ended = ::waitpid(stoppable ? -pid : -1, &status, 0);
        if (ended < 0) {
            if (errno == EINTR)
                continue;
            break; // ECHILD: the program and every orphan it left have ended
        }
        if (ended == pid) {
            run.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (WIFEXITED(status)) {
                run.exitStatus = WEXITSTATUS(status);
            } else if (WIFSIGNALED(status)) {
                run.signal = WTERMSIG(status);
                run.exitStatus = 128 + run.signal;
            }
        }
    }
    killer.reset();
    if (!stoppable) {
        ::sigaction(SIGINT, &oldInt, nullptr);
        ::sigaction(SIGQUIT, &oldQuit, nullptr);
    }
    ::prctl(PR_SET_CHILD_SUBREAPER, 0);
    return run;
}

std::string recorderNotLoadedReason()
{
    return "a set-user-ID program ignores LD_PRELOAD, as the system requires";
}

std::string straceCommandFor(const std::string& program, const std::vector<std::string>& arguments)
{
    std::string command = "strace -f -tt -T -y -o trace.strace -- " + program;
    for (const std::string& argument : arguments) {
        const bool plain =
            !argument.empty() &&
            argument.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                       "_-+=/.,:@%") == std::string::npos;
        if (plain) {
            command += " " + argument;
        } else {
            std::string quoted = "'";
            for (char c : argument)
                quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
            command += " " + quoted + "'";
        }
    }
    return command;
}

} // namespace iolab
