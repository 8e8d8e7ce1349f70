// SPDX-License-Identifier: MIT
// Run beacons on Windows: a named mutex "Local\IOLab-run-<volume serial>-<pid>" per run. Named objects are
// kernel objects, not files, and close with their last handle, so a killed run leaves none behind. Windows
// cannot list named objects, so others try the name for the pid of every running process (a snapshot of a
// few hundred processes, each an OpenMutex that fails in microseconds). "Local" is this logon session: a run
// under another user's session is not seen.
#include "platform/run_beacon.h"

#include "platform/windows/win_io.h"

#include <fmt/format.h>
#include <tlhelp32.h>
#include <windows.h>

#include <algorithm>
#include <cwchar>
#include <optional>
#include <utility>

namespace iolab {
namespace {

std::optional<DWORD> volumeSerial(const std::string& folder)
{
    const std::wstring wide = win::widen(folder);
    if (::GetFileAttributesW(wide.c_str()) == INVALID_FILE_ATTRIBUTES)
        return std::nullopt; // GetVolumePathName would name a volume for a path that does not exist
    std::wstring volume(MAX_PATH + 1, L'\0');
    if (::GetVolumePathNameW(wide.c_str(), volume.data(), static_cast<DWORD>(volume.size())) == 0)
        return std::nullopt;
    DWORD serial = 0;
    if (::GetVolumeInformationW(volume.c_str(), nullptr, 0, &serial, nullptr, nullptr, nullptr, 0) == 0)
        return std::nullopt;
    return serial;
}

std::wstring beaconName(DWORD serial, DWORD pid)
{
    return win::widen(fmt::format("Local\\IOLab-run-{:08x}-{}", serial, pid));
}

// RunBeacon keeps its handle as an integer so that its header stays free of OS types; it came from a HANDLE.
void closeHandle(std::intptr_t handle)
{
    ::CloseHandle(reinterpret_cast<HANDLE>(handle)); // NOLINT(performance-no-int-to-ptr): see above
}

} // namespace

RunBeacon::RunBeacon(const std::string& folder)
{
    const auto serial = volumeSerial(folder);
    if (!serial)
        return;
    const HANDLE mutex = ::CreateMutexW(nullptr, FALSE, beaconName(*serial, ::GetCurrentProcessId()).c_str());
    if (mutex != nullptr)
        m_handle = reinterpret_cast<std::intptr_t>(mutex);
}

RunBeacon::~RunBeacon()
{
    if (m_handle != kNone)
        closeHandle(m_handle);
}

RunBeacon::RunBeacon(RunBeacon&& other) noexcept : m_handle(std::exchange(other.m_handle, kNone)) {}

RunBeacon& RunBeacon::operator=(RunBeacon&& other) noexcept
{
    if (this != &other) {
        if (m_handle != kNone)
            closeHandle(m_handle);
        m_handle = std::exchange(other.m_handle, kNone);
    }
    return *this;
}

bool beaconLit(const std::string& folder, long pid)
{
    const auto serial = volumeSerial(folder);
    if (!serial || pid <= 0)
        return false;
    const HANDLE mutex =
        ::OpenMutexW(SYNCHRONIZE, FALSE, beaconName(*serial, static_cast<DWORD>(pid)).c_str());
    if (mutex == nullptr)
        return false;
    ::CloseHandle(mutex);
    return true;
}

std::vector<long> runsOnFilesystemOf(const std::string& folder)
{
    std::vector<long> pids;
    const auto serial = volumeSerial(folder);
    if (!serial)
        return pids;
    const win::UniqueHandle snapshot(::CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0));
    if (!snapshot)
        return pids;
    PROCESSENTRY32W entry{};
    entry.dwSize = sizeof(entry);
    const DWORD self = ::GetCurrentProcessId();
    for (BOOL more = ::Process32FirstW(snapshot.get(), &entry); more != FALSE;
         more = ::Process32NextW(snapshot.get(), &entry)) {
        if (entry.th32ProcessID == self || entry.th32ProcessID == 0)
            continue;
        const HANDLE mutex =
            ::OpenMutexW(SYNCHRONIZE, FALSE, beaconName(*serial, entry.th32ProcessID).c_str());
        if (mutex != nullptr) {
            pids.push_back(static_cast<long>(entry.th32ProcessID));
            ::CloseHandle(mutex);
        }
    }
    std::sort(pids.begin(), pids.end());
    return pids;
}

} // namespace iolab
