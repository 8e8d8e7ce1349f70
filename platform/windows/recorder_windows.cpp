// SPDX-License-Identifier: MIT
// Recording on Windows: the program starts suspended, iolab-record.dll goes into it (recorder_inject.h) with
// IOLAB_RECORD_DIR naming the parts folder in its environment, and only then does its first instruction run.
// The program and what it starts run in a job object, so that they are waited for together and a stop ends
// them all.
#include "platform/recorder.h"
#include "recorder_inject.h"
#include "win_io.h"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>

namespace iolab {

namespace {

std::filesystem::path executableFolder()
{
    wchar_t path[32768];
    const DWORD length = GetModuleFileNameW(nullptr, path, 32768);
    if (length == 0 || length >= 32768)
        return {};
    return std::filesystem::path(std::wstring(path, length)).parent_path();
}

// Installed: iolab-record.dll beside iolab-cli.exe and iolab.exe; in the build tree:
// platform/iolab-record.dll from app/cli/, app/gui/ or tests/.
std::filesystem::path recorderLibrary()
{
    const std::filesystem::path folder = executableFolder();
    if (folder.empty())
        return {};
    for (const char* relative :
         {"iolab-record.dll", "../../platform/iolab-record.dll", "../platform/iolab-record.dll"}) {
        std::error_code error;
        auto path = std::filesystem::weakly_canonical(folder / relative, error);
        if (!error && std::filesystem::is_regular_file(path, error))
            return path;
    }
    return {};
}

// The program as Windows finds it: a path, or a name looked up on PATH with .exe added when it has no
// extension.
std::wstring findProgram(const std::string& program)
{
    const std::wstring wide = win::widen(program);
    wchar_t found[32768];
    const DWORD length = SearchPathW(nullptr, wide.c_str(), L".exe", 32768, found, nullptr);
    if (length > 0 && length < 32768)
        return std::wstring(found, length);
    return {};
}

// What the image is: 0 when it is not a Windows program, else its machine (IMAGE_FILE_MACHINE_*).
WORD imageMachine(const std::wstring& path)
{
    win::UniqueHandle file(CreateFileW(path.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE,
                                       nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!file)
        return 0;
    IMAGE_DOS_HEADER dos{};
    DWORD read = 0;
    if (!ReadFile(file.get(), &dos, sizeof dos, &read, nullptr) || read != sizeof dos ||
        dos.e_magic != IMAGE_DOS_SIGNATURE)
        return 0;
    LARGE_INTEGER at;
    at.QuadPart = dos.e_lfanew;
    DWORD signature = 0;
    IMAGE_FILE_HEADER header{};
    if (!SetFilePointerEx(file.get(), at, nullptr, FILE_BEGIN) ||
        !ReadFile(file.get(), &signature, sizeof signature, &read, nullptr) || read != sizeof signature ||
        signature != IMAGE_NT_SIGNATURE || !ReadFile(file.get(), &header, sizeof header, &read, nullptr) ||
        read != sizeof header)
        return 0;
    return header.Machine;
}

// One argument quoted as the C runtime splits a command line.
void appendArgument(std::wstring& line, const std::wstring& argument)
{
    if (!line.empty())
        line += L' ';
    if (!argument.empty() && argument.find_first_of(L" \t\"") == std::wstring::npos) {
        line += argument;
        return;
    }
    line += L'"';
    std::size_t slashes = 0;
    for (wchar_t c : argument) {
        if (c == L'\\') {
            ++slashes;
        } else if (c == L'"') {
            line.append(slashes * 2 + 1, L'\\');
            slashes = 0;
        } else {
            slashes = 0;
        }
        line += c;
    }
    line.append(slashes, L'\\');
    line += L'"';
}

// This process's environment with IOLAB_RECORD_DIR set, as CreateProcessW takes it.
std::wstring environmentWith(const std::wstring& partsFolder)
{
    std::wstring block;
    if (wchar_t* strings = GetEnvironmentStringsW()) {
        for (const wchar_t* entry = strings; *entry; entry += wcslen(entry) + 1) {
            if (_wcsnicmp(entry, L"IOLAB_RECORD_DIR=", 17) == 0)
                continue;
            block += entry;
            block += L'\0';
        }
        FreeEnvironmentStringsW(strings);
    }
    block += L"IOLAB_RECORD_DIR=" + partsFolder;
    block += L'\0';
    block += L'\0';
    return block;
}

HANDLE inheritable(DWORD which, bool nullDevice)
{
    if (nullDevice) {
        SECURITY_ATTRIBUTES security{sizeof security, nullptr, TRUE};
        return CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &security, OPEN_EXISTING,
                           0, nullptr);
    }
    HANDLE own = GetStdHandle(which);
    HANDLE copy = nullptr;
    if (own == nullptr || own == INVALID_HANDLE_VALUE ||
        !DuplicateHandle(GetCurrentProcess(), own, GetCurrentProcess(), &copy, 0, TRUE,
                         DUPLICATE_SAME_ACCESS))
        return INVALID_HANDLE_VALUE;
    return copy;
}

} // namespace

RecordableProgram checkRecordable(const std::string& program)
{
    RecordableProgram result;
    const std::wstring found = findProgram(program);
    result.path = found.empty() ? program : win::narrow(found);
    const bool hasFolder = program.find_first_of("/\\:") != std::string::npos;
    std::error_code error;
    if (found.empty() || !std::filesystem::exists(std::filesystem::path(found), error)) {
        result.problem = RecordableProgram::Problem::NotFound;
        result.message = hasFolder ? fmt::format("{}: no such file", program)
                                   : fmt::format("{}: no such program on PATH", program);
        return result;
    }
    if (std::filesystem::is_directory(std::filesystem::path(found), error)) {
        result.problem = RecordableProgram::Problem::NotExecutable;
        result.message = fmt::format("{} is a folder, not a program", result.path);
        return result;
    }
    const WORD machine = imageMachine(found);
    if (machine == 0) {
        result.problem = RecordableProgram::Problem::NotExecutable;
        result.message = fmt::format("{} is not a Windows program (no executable image in it)", result.path);
        return result;
    }
    if (machine != IMAGE_FILE_MACHINE_AMD64) {
        result.problem = RecordableProgram::Problem::NotExecutable;
        result.message =
            fmt::format("{} is a {} program: IOLab's recorder is a 64-bit x86 library, which only a 64-bit "
                        "x86 program can "
                        "load. Capture it with Process Monitor instead and import the CSV (iolab-cli import)",
                        result.path, machine == IMAGE_FILE_MACHINE_I386 ? "32-bit" : "non-x86");
        return result;
    }
    if (recorderLibrary().empty()) {
        result.problem = RecordableProgram::Problem::NoRecorder;
        result.message =
            fmt::format("this IOLab has no recorder library (iolab-record.dll is not beside {}): "
                        "reinstall IOLab",
                        executableFolder().string());
    }
    return result;
}

RecordedRun runRecorded(const std::string& program, const std::vector<std::string>& arguments,
                        const std::string& partsFolder, const std::string& workingFolder,
                        const std::stop_token& stop)
{
    RecordedRun run;
    const bool stoppable = stop.stop_possible();
    const std::wstring library = recorderLibrary().wstring();
    std::wstring commandLine;
    appendArgument(commandLine, win::widen(program));
    for (const std::string& argument : arguments)
        appendArgument(commandLine, win::widen(argument));
    std::wstring environment = environmentWith(win::widen(partsFolder));
    const std::wstring folder = win::widen(workingFolder);

    STARTUPINFOW startup{};
    startup.cb = sizeof startup;
    startup.dwFlags = STARTF_USESTDHANDLES;
    win::UniqueHandle input(inheritable(STD_INPUT_HANDLE, stoppable));
    win::UniqueHandle output(inheritable(STD_OUTPUT_HANDLE, false));
    win::UniqueHandle errors(inheritable(STD_ERROR_HANDLE, false));
    startup.hStdInput = input.get();
    startup.hStdOutput = output.get();
    startup.hStdError = errors.get();
    PROCESS_INFORMATION info{};
    const auto start = std::chrono::steady_clock::now();
    if (!CreateProcessW(win::widen(program).c_str(), commandLine.data(), nullptr, nullptr, TRUE,
                        CREATE_SUSPENDED | CREATE_UNICODE_ENVIRONMENT, environment.data(), folder.c_str(),
                        &startup, &info)) {
        const DWORD error = GetLastError();
        run.error =
            error == ERROR_DIRECTORY
                ? fmt::format("{} did not start: cannot enter the working folder {}", program, workingFolder)
                : fmt::format("{} did not start: {}", program, win::errorText(error));
        return run;
    }
    win::UniqueHandle process(info.hProcess);
    win::UniqueHandle thread(info.hThread);
    // The job holds the program and what it starts; closing it (or a stop) ends them all.
    win::UniqueHandle job(CreateJobObjectW(nullptr, nullptr));
    bool inJob = false;
    if (job) {
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
        limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        SetInformationJobObject(job.get(), JobObjectExtendedLimitInformation, &limits, sizeof limits);
        inJob = AssignProcessToJobObject(job.get(), process.get()) != 0;
    }
    const DWORD injected = win::injectRecorder(process.get(), library.c_str());
    if (injected != 0) {
        TerminateProcess(process.get(), 1);
        WaitForSingleObject(process.get(), INFINITE);
        run.error = fmt::format("{} was not started: the recorder ({}) could not be loaded into it: {}",
                                program, win::narrow(library), win::errorText(injected));
        return run;
    }
    run.started = true;
    ResumeThread(thread.get());

    std::optional<std::stop_callback<std::function<void()>>> killer;
    if (stoppable)
        killer.emplace(stop, std::function<void()>([&run, &job, &process, inJob] {
                           run.stopped = true;
                           if (inJob)
                               TerminateJobObject(job.get(), 1);
                           else
                               TerminateProcess(process.get(), 1);
                       }));
    WaitForSingleObject(process.get(), INFINITE);
    run.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    DWORD code = 0;
    GetExitCodeProcess(process.get(), &code);
    run.exitStatus = static_cast<int>(code);
    // What the program started and left running writes its own part: waited for too.
    for (int i = 0; inJob && i < 600000; ++i) {
        JOBOBJECT_BASIC_ACCOUNTING_INFORMATION accounting{};
        if (!QueryInformationJobObject(job.get(), JobObjectBasicAccountingInformation, &accounting,
                                       sizeof accounting, nullptr) ||
            accounting.ActiveProcesses == 0)
            break;
        Sleep(10);
    }
    killer.reset();
    return run;
}

std::string recorderNotLoadedReason()
{
    return "the recorder could not create its part of the trace in the parts folder beside the trace "
           "(no permission there for the program, or the disk is full)";
}

std::string straceCommandFor(const std::string& program, const std::vector<std::string>& arguments)
{
    std::string command = "strace -f -tt -T -y -o trace.strace -- " + program;
    for (const std::string& argument : arguments)
        command += " " + argument;
    return command;
}

} // namespace iolab
