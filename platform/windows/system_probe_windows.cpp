// SPDX-License-Identifier: MIT
// The system probe on Windows: GetProcessTimes and GetProcessMemoryInfo for the process, the "\Cache\Dirty
// Pages" performance counter for data the cache has yet to write, IOCTL_DISK_PERFORMANCE for the target's
// volume, GlobalMemoryStatusEx and the registry for the host.
#include "core/base/log.h"
#include "core/base/units.h"
#include "platform/platform.h"
#include "platform/windows/storage_device.h"
#include "platform/windows/win_io.h"

#include <pdh.h>
#include <psapi.h>
#include <winioctl.h>

#include <fmt/format.h>

#include <map>
#include <mutex>
#include <thread>

namespace iolab {

namespace {

double seconds(const FILETIME& t)
{
    const auto ticks = (static_cast<std::uint64_t>(t.dwHighDateTime) << 32) | t.dwLowDateTime;
    return static_cast<double>(ticks) / 1e7; // 100 ns units
}

struct WindowsVersion
{
    unsigned long major = 0;
    unsigned long minor = 0;
    unsigned long build = 0;
    std::string wine; // the wine version when running under wine, which answers as the Windows it imitates
};

// RtlGetVersion tells the truth where GetVersionEx answers as the manifest allows.
WindowsVersion windowsVersion()
{
    WindowsVersion v;
    HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
    if (ntdll == nullptr)
        return v;
    using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);
    if (auto get = reinterpret_cast<RtlGetVersionFn>(
            reinterpret_cast<void*>(::GetProcAddress(ntdll, "RtlGetVersion")))) {
        OSVERSIONINFOW version{};
        version.dwOSVersionInfoSize = sizeof version;
        if (get(&version) == 0) {
            v.major = version.dwMajorVersion;
            v.minor = version.dwMinorVersion;
            v.build = version.dwBuildNumber;
        }
    }
    using WineVersionFn = const char*(CDECL*)();
    if (auto wine = reinterpret_cast<WineVersionFn>(
            reinterpret_cast<void*>(::GetProcAddress(ntdll, "wine_get_version"))))
        v.wine = wine();
    return v;
}

class WindowsSystemProbe final : public SystemProbe
{
public:
    WindowsSystemProbe()
    {
        if (::PdhOpenQueryW(nullptr, 0, &m_query) == ERROR_SUCCESS &&
            ::PdhAddEnglishCounterW(m_query, L"\\Cache\\Dirty Pages", 0, &m_dirtyPages) == ERROR_SUCCESS)
            return;
        logger(LogModule::Platform)
            .info("the \\Cache\\Dirty Pages counter is not available: dirty bytes are not sampled");
        if (m_query != nullptr)
            ::PdhCloseQuery(m_query);
        m_query = nullptr;
        m_dirtyPages = nullptr;
    }
    ~WindowsSystemProbe() override
    {
        if (m_query != nullptr)
            ::PdhCloseQuery(m_query);
    }
    WindowsSystemProbe(const WindowsSystemProbe&) = delete;
    WindowsSystemProbe& operator=(const WindowsSystemProbe&) = delete;

    ProcessCounters process() override
    {
        ProcessCounters c;
        FILETIME created{};
        FILETIME exited{};
        FILETIME kernel{};
        FILETIME user{};
        if (::GetProcessTimes(::GetCurrentProcess(), &created, &exited, &kernel, &user) != 0) {
            c.userSeconds = seconds(user);
            c.systemSeconds = seconds(kernel);
        }
        PROCESS_MEMORY_COUNTERS memory{};
        if (::GetProcessMemoryInfo(::GetCurrentProcess(), &memory, sizeof memory) != 0)
            c.rssBytes = memory.WorkingSetSize;
        return c;
    }

    // Windows keeps no separate count of pages under write-back, so writebackBytes stays 0.
    MemoryCounters memory() override
    {
        MemoryCounters m;
        if (m_query == nullptr || ::PdhCollectQueryData(m_query) != ERROR_SUCCESS)
            return m;
        PDH_FMT_COUNTERVALUE value{};
        if (::PdhGetFormattedCounterValue(m_dirtyPages, PDH_FMT_LARGE, nullptr, &value) == ERROR_SUCCESS &&
            value.largeValue > 0)
            m.dirtyBytes = static_cast<std::uint64_t>(value.largeValue) * pageBytes();
        return m;
    }

    // The cache manager's dirty-page counter is system-wide, sampled and has no writeback part: it cannot
    // show whether one file's writes went through the cache, so it is not offered as evidence.
    std::optional<MemoryCounters> writeBacklog() override { return std::nullopt; }

    std::optional<ThermalReading> thermal(const std::string& name) override
    {
        if (name.empty())
            return std::nullopt;
        const HANDLE handle = deviceHandle(name);
        if (handle == nullptr)
            return std::nullopt;
        auto reading = win::storageTemperature(handle);
        if (auto log = win::nvmeHealthLog(handle)) {
            if (!reading)
                reading = ThermalReading{};
            mergeThermal(*reading, *log);
        }
        return reading;
    }

    std::optional<DeviceCounters> device(const std::string& name) override
    {
        if (name.empty())
            return std::nullopt;
        const HANDLE handle = deviceHandle(name);
        if (handle == nullptr)
            return std::nullopt;
        DISK_PERFORMANCE performance{};
        DWORD returned = 0;
        if (::DeviceIoControl(handle, IOCTL_DISK_PERFORMANCE, nullptr, 0, &performance, sizeof performance,
                              &returned, nullptr) == 0)
            return std::nullopt;
        return DeviceCounters{static_cast<std::uint64_t>(performance.BytesRead.QuadPart),
                              static_cast<std::uint64_t>(performance.BytesWritten.QuadPart)};
    }

    SystemFacts systemFacts(const TargetInfo& target) override { return gatherSystemFacts(target); }

    HostInfo host() override
    {
        HostInfo h;
        wchar_t name[256] = {};
        DWORD size = 255;
        if (::GetComputerNameExW(ComputerNameDnsHostname, name, &size) != 0)
            h.hostname = win::narrow(name);
        // "Windows 10.0 (build 19045)" and "Windows NT 10.0.19045 x86_64", as Linux gives the distribution
        // and the kernel; under wine the OS line says so.
        const WindowsVersion version = windowsVersion();
        h.os = fmt::format("Windows {}.{} (build {})", version.major, version.minor, version.build);
        if (!version.wine.empty())
            h.os += fmt::format(" on Wine {}", version.wine);
        SYSTEM_INFO system{};
        ::GetNativeSystemInfo(&system);
        h.kernel = fmt::format("Windows NT {}.{}.{} {}", version.major, version.minor, version.build,
                               system.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_AMD64   ? "x86_64"
                               : system.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_ARM64 ? "arm64"
                                                                                               : "x86");
        h.cpuModel =
            win::registryText(HKEY_LOCAL_MACHINE, L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0",
                              L"ProcessorNameString");
        h.logicalCpus = std::thread::hardware_concurrency();
        MEMORYSTATUSEX memory{};
        memory.dwLength = sizeof memory;
        if (::GlobalMemoryStatusEx(&memory) != 0)
            h.ramBytes = memory.ullTotalPhys;
        return h;
    }

private:
    static std::uint64_t pageBytes()
    {
        SYSTEM_INFO info{};
        ::GetSystemInfo(&info);
        return info.dwPageSize;
    }

    PDH_HQUERY m_query = nullptr;
    PDH_HCOUNTER m_dirtyPages = nullptr;
    // A volume's handle (no access rights: queries only), opened once; nullptr when it cannot be opened. The
    // sampler's thread and the runner's both ask.
    HANDLE deviceHandle(const std::string& name)
    {
        const std::lock_guard lock(m_devicesMutex);
        auto it = m_devices.find(name);
        if (it == m_devices.end()) {
            win::UniqueHandle handle(::CreateFileW(win::widen(name).c_str(), 0,
                                                   FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING,
                                                   0, nullptr));
            it = m_devices.emplace(name, std::move(handle)).first;
        }
        return it->second ? it->second.get() : nullptr;
    }

    std::mutex m_devicesMutex;
    std::map<std::string, win::UniqueHandle> m_devices; // volume handles, opened once
};

} // namespace

std::unique_ptr<SystemProbe> makeSystemProbe()
{
    return std::make_unique<WindowsSystemProbe>();
}

} // namespace iolab
