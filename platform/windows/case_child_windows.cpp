// SPDX-License-Identifier: MIT
// Case children on Windows: this program started again with CreateProcessW, sharing the link block through a
// mapping of a file in the run folder. The child runs in a job object that kills it when the job's last
// handle closes (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE): the parent holds that handle, uninherited, so a parent
// that dies mid-probe takes its child with it, and the run folder stays marked for `iolab-cli clean`.
#include "core/engine/case_child.h"
#include "platform/platform.h"
#include "platform/windows/win_io.h"

#include <fmt/format.h>

#include <psapi.h>
#include <shellapi.h>
#include <windows.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>

namespace iolab {

namespace {

constexpr UINT kKilledExitCode = 137; // as a shell reports a SIGKILLed process

std::string describeExit(DWORD code, bool terminated)
{
    if (terminated)
        return "was terminated (TerminateProcess)";
    return fmt::format("exited with code {}", code);
}

class View
{
public:
    View() = default;
    explicit View(void* base) : m_base(base) {}
    ~View()
    {
        if (m_base != nullptr)
            ::UnmapViewOfFile(m_base);
    }
    View(View&& other) noexcept : m_base(std::exchange(other.m_base, nullptr)) {}
    View(const View&) = delete;
    View& operator=(const View&) = delete;
    View& operator=(View&&) = delete;
    std::byte* bytes() const { return static_cast<std::byte*>(m_base); }

private:
    void* m_base = nullptr;
};

// The child's waker: the event the parent duplicated into this process before it ran (Header::wakeHandle).
void wakeParent(childlink::Header& header)
{
    // A handle is a value the parent's DuplicateHandle gave this process: its bits, not an address.
    static_assert(sizeof(HANDLE) == sizeof(header.wakeHandle));
    if (header.wakeHandle != 0)
        ::SetEvent(std::bit_cast<HANDLE>(header.wakeHandle));
}

class WindowsCaseChild final : public CaseChild
{
public:
    WindowsCaseChild(win::UniqueHandle job, win::UniqueHandle process, win::UniqueHandle mapping, View view,
                     std::size_t size, win::UniqueHandle wake)
        : m_job(std::move(job)), m_process(std::move(process)), m_mapping(std::move(mapping)),
          m_view(std::move(view)), m_link(m_view.bytes(), size), m_wake(std::move(wake))
    {}
    ~WindowsCaseChild() override
    {
        if (!m_done) {
            kill();
            wait();
        }
    }
    WindowsCaseChild(const WindowsCaseChild&) = delete;
    WindowsCaseChild& operator=(const WindowsCaseChild&) = delete;

    const childlink::Link& link() const override { return m_link; }

    bool exited() override
    {
        if (!m_done && ::WaitForSingleObject(m_process.get(), 0) == WAIT_OBJECT_0)
            finish();
        return m_done;
    }

    void kill() override
    {
        if (!m_done && ::TerminateProcess(m_process.get(), kKilledExitCode))
            m_terminated = true;
    }

    ChildExit wait() override
    {
        if (!m_done) {
            ::WaitForSingleObject(m_process.get(), INFINITE);
            finish();
        }
        return m_exit;
    }

    childlink::State waitState(childlink::State from, std::chrono::milliseconds most) override
    {
        if (m_link.state() == from && !m_done) {
            // Auto-reset: a wake left from an earlier state returns at once, and the caller looks again.
            const HANDLE handles[] = {m_wake.get(), m_process.get()};
            ::WaitForMultipleObjects(
                2, handles, FALSE,
                static_cast<DWORD>(std::max<std::chrono::milliseconds::rep>(0, most.count())));
        }
        return m_link.state();
    }

    std::optional<ProcessCounters> process() override
    {
        if (m_done)
            return std::nullopt;
        FILETIME created{};
        FILETIME exited{};
        FILETIME kernel{};
        FILETIME user{};
        PROCESS_MEMORY_COUNTERS memory{};
        if (::GetProcessTimes(m_process.get(), &created, &exited, &kernel, &user) == 0 ||
            ::GetProcessMemoryInfo(m_process.get(), &memory, sizeof memory) == 0)
            return std::nullopt;
        const auto seconds = [](const FILETIME& t) {
            return static_cast<double>((std::uint64_t{t.dwHighDateTime} << 32) | t.dwLowDateTime) / 1e7;
        };
        return ProcessCounters{seconds(user), seconds(kernel), memory.WorkingSetSize};
    }

    // Windows refuses memory limits (TargetInfo::memoryLimitProblem): no child has a memory cgroup.
    std::optional<BudgetCounters> budget() override { return std::nullopt; }
    BudgetEnd budgetEnd() override { return {}; }

private:
    void finish()
    {
        DWORD code = 0;
        ::GetExitCodeProcess(m_process.get(), &code);
        m_done = true;
        m_exit.exitedNormally = !m_terminated;
        m_exit.code = static_cast<int>(code);
        m_exit.description = describeExit(code, m_terminated);
    }

    win::UniqueHandle m_job;
    win::UniqueHandle m_process;
    win::UniqueHandle m_mapping;
    View m_view;
    childlink::Link m_link;
    win::UniqueHandle m_wake;         // the event the child sets at each new state
    std::atomic<bool> m_done = false; // also read by the sampler's thread (process())
    bool m_terminated = false;
    ChildExit m_exit;
};

std::wstring quoted(const std::wstring& argument)
{
    // The link path has no quotes in it (the run folder's names never do); quoting keeps its spaces.
    return L"\"" + argument + L"\"";
}

std::wstring ownProgram()
{
    std::wstring path(32768, L'\0');
    const DWORD n = ::GetModuleFileNameW(nullptr, path.data(), static_cast<DWORD>(path.size()));
    path.resize(n);
    return path;
}

class WindowsCaseChildLauncher final : public CaseChildLauncher
{
public:
    std::unique_ptr<CaseChild> start(const std::string& linkPath, const ChildRequest& request,
                                     Outcome& outcome) override
    {
        const std::string json = childRequestToJson(request);
        const auto threads = static_cast<std::uint32_t>(request.threads.size());
        const std::size_t size = childlink::blockBytes(threads, json.size());
        win::UniqueHandle file(::CreateFileW(win::widen(linkPath).c_str(), GENERIC_READ | GENERIC_WRITE,
                                             FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                             CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr));
        if (!file) {
            outcome = win::errorOutcome(::GetLastError(), "CreateFileW (case child link)", linkPath);
            return nullptr;
        }
        const auto wide = static_cast<unsigned long long>(size);
        win::UniqueHandle mapping(::CreateFileMappingW(file.get(), nullptr, PAGE_READWRITE,
                                                       static_cast<DWORD>(wide >> 32),
                                                       static_cast<DWORD>(wide & 0xFFFFFFFFULL), nullptr));
        if (!mapping) {
            outcome = win::errorOutcome(::GetLastError(), "CreateFileMappingW (case child link)", linkPath);
            return nullptr;
        }
        View view(::MapViewOfFile(mapping.get(), FILE_MAP_ALL_ACCESS, 0, 0, size));
        if (view.bytes() == nullptr) {
            outcome = win::errorOutcome(::GetLastError(), "MapViewOfFile (case child link)", linkPath);
            return nullptr;
        }
        childlink::Link::initialize(view.bytes(), threads, static_cast<std::int64_t>(::GetCurrentProcessId()),
                                    json);

        win::UniqueHandle wake(::CreateEventW(nullptr, FALSE, FALSE, nullptr));
        if (!wake) {
            outcome = win::errorOutcome(::GetLastError(), "CreateEventW (case child)", linkPath);
            return nullptr;
        }

        win::UniqueHandle job(::CreateJobObjectW(nullptr, nullptr));
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
        limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        if (!job || !::SetInformationJobObject(job.get(), JobObjectExtendedLimitInformation, &limits,
                                               sizeof(limits))) {
            outcome = win::errorOutcome(::GetLastError(), "CreateJobObjectW (case child)", linkPath);
            return nullptr;
        }
        const std::wstring program = ownProgram();
        std::wstring command =
            quoted(program) + L" " + win::widen(kCaseChildCommand) + L" " + quoted(win::widen(linkPath));
        STARTUPINFOW startup{};
        startup.cb = sizeof(startup);
        PROCESS_INFORMATION process{};
        if (!::CreateProcessW(program.c_str(), command.data(), nullptr, nullptr, FALSE,
                              CREATE_SUSPENDED | CREATE_NO_WINDOW, nullptr, nullptr, &startup, &process)) {
            outcome =
                win::errorOutcome(::GetLastError(), "CreateProcessW (case child)", win::narrow(program));
            return nullptr;
        }
        win::UniqueHandle processHandle(process.hProcess);
        win::UniqueHandle thread(process.hThread);
        if (!::AssignProcessToJobObject(job.get(), process.hProcess)) {
            const DWORD error = ::GetLastError();
            ::TerminateProcess(process.hProcess, kKilledExitCode);
            ::WaitForSingleObject(process.hProcess, INFINITE);
            outcome = win::errorOutcome(error, "AssignProcessToJobObject (case child)", linkPath);
            return nullptr;
        }
        // The event goes to the child as a handle of its own, put into the block before it runs: nothing is
        // inherited.
        HANDLE childWake = nullptr;
        if (!::DuplicateHandle(::GetCurrentProcess(), wake.get(), process.hProcess, &childWake,
                               EVENT_MODIFY_STATE, FALSE, 0)) {
            const DWORD error = ::GetLastError();
            ::TerminateProcess(process.hProcess, kKilledExitCode);
            ::WaitForSingleObject(process.hProcess, INFINITE);
            outcome = win::errorOutcome(error, "DuplicateHandle (case child)", linkPath);
            return nullptr;
        }
        reinterpret_cast<childlink::Header*>(view.bytes())->wakeHandle =
            static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(childWake));
        ::ResumeThread(process.hThread);
        return std::make_unique<WindowsCaseChild>(std::move(job), std::move(processHandle),
                                                  std::move(mapping), std::move(view), size, std::move(wake));
    }
};

} // namespace

std::unique_ptr<CaseChildLauncher> makeCaseChildLauncher()
{
    return std::make_unique<WindowsCaseChildLauncher>();
}

std::optional<int> runCaseChildIfAsked(int argc, char** argv, const Registry& registry)
{
    if (argc < 3 || std::string_view(argv[1]) != kCaseChildCommand)
        return std::nullopt;
    // The link path as the parent wrote it, in UTF-16 (argv is in the ANSI code page).
    int count = 0;
    LPWSTR* wide = ::CommandLineToArgvW(::GetCommandLineW(), &count);
    if (wide == nullptr || count < 3)
        return 2;
    const std::wstring linkPath = wide[2];
    ::LocalFree(wide);
    win::UniqueHandle file(::CreateFileW(linkPath.c_str(), GENERIC_READ | GENERIC_WRITE,
                                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                         OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr));
    LARGE_INTEGER size{};
    if (!file || !::GetFileSizeEx(file.get(), &size) || size.QuadPart <= 0)
        return 2;
    win::UniqueHandle mapping(::CreateFileMappingW(file.get(), nullptr, PAGE_READWRITE, 0, 0, nullptr));
    if (!mapping)
        return 2;
    View view(::MapViewOfFile(mapping.get(), FILE_MAP_ALL_ACCESS, 0, 0, 0));
    if (view.bytes() == nullptr)
        return 2;
    const childlink::Link link(view.bytes(), static_cast<std::size_t>(size.QuadPart), wakeParent);
    if (!link.valid())
        return 2;
    const auto probe = makeSystemProbe();
    return runCaseChild(link, registry, probe.get());
}

} // namespace iolab
