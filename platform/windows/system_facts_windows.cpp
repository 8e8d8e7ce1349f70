// SPDX-License-Identifier: MIT
// System facts on Windows: the volume's filesystem and the target folder's NTFS compression and encryption,
// the device's bus, seek penalty, write cache and its power protection (IOCTL_STORAGE_QUERY_PROPERTY, which
// needs no rights) and the disk's cache setting (IOCTL_DISK_GET_CACHE_SETTING, for administrators), the
// active power plan, Defender's real-time protection as its settings say and whether its exclusions cover
// the target or IOLab's programs, virtualisation (the CPUID hypervisor bit and the BIOS strings) and memory.
// What Windows does not tell this user (BitLocker's state, Defender's exclusions for a normal user) is
// unknown, with the reason.
#include "core/base/units.h"
#include "platform/platform.h"
#include "platform/windows/defender_exclusions.h"
#include "platform/windows/storage_device.h"
#include "platform/windows/win_io.h"

#include <powrprof.h>
#include <winioctl.h>

#if defined(_MSC_VER)
#include <intrin.h>
#else
#include <cpuid.h>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

namespace {

constexpr std::string_view kStorage = "Storage";
constexpr std::string_view kDevice = "Device";
constexpr std::string_view kFilesystem = "Filesystem";
constexpr std::string_view kSystem = "System";
constexpr std::string_view kMachine = "Machine";

// A DWORD value: nullopt when the key or the value is absent or unreadable; `keyFound` says which.
std::optional<DWORD> registryNumber(HKEY root, const wchar_t* key, const wchar_t* value, bool& keyFound)
{
    HKEY handle = nullptr;
    keyFound = ::RegOpenKeyExW(root, key, 0, KEY_READ, &handle) == ERROR_SUCCESS;
    if (!keyFound)
        return std::nullopt;
    DWORD number = 0;
    DWORD size = sizeof number;
    const auto status = ::RegGetValueW(handle, nullptr, value, RRF_RT_REG_DWORD, nullptr, &number, &size);
    ::RegCloseKey(handle);
    if (status != ERROR_SUCCESS)
        return std::nullopt;
    return number;
}

struct BusName
{
    STORAGE_BUS_TYPE bus;
    const char* name;
};
constexpr BusName kBuses[] = {
    {BusTypeScsi, "SCSI"},
    {BusTypeAtapi, "ATAPI"},
    {BusTypeAta, "ATA"},
    {BusType1394, "1394"},
    {BusTypeSsa, "SSA"},
    {BusTypeFibre, "Fibre Channel"},
    {BusTypeUsb, "USB"},
    {BusTypeRAID, "RAID"},
    {BusTypeiScsi, "iSCSI"},
    {BusTypeSas, "SAS"},
    {BusTypeSata, "SATA"},
    {BusTypeSd, "SD"},
    {BusTypeMmc, "MMC"},
    {BusTypeVirtual, "virtual"},
    {BusTypeFileBackedVirtual, "file-backed virtual (VHD)"},
    {BusTypeSpaces, "Storage Spaces"},
    {BusTypeNvme, "NVMe"},
};

// The volume's device ("\\.\C:") opened for property queries, which need no access rights.
win::UniqueHandle openForQueries(const std::string& volumeDevice)
{
    return win::UniqueHandle(::CreateFileW(win::widen(volumeDevice).c_str(), 0,
                                           FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, 0,
                                           nullptr));
}

// The bus the volume's device sits on, or "" when it does not answer.
std::string busOf(HANDLE device, STORAGE_BUS_TYPE& bus)
{
    const auto description = win::describeStorageDevice(device);
    if (!description)
        return {};
    bus = description->bus;
    for (const auto& entry : kBuses) {
        if (entry.bus == bus)
            return entry.name;
    }
    return {};
}

bool hypervisorBit()
{
#if defined(_MSC_VER)
    int registers[4] = {};
    __cpuid(registers, 1);
    return (static_cast<unsigned>(registers[2]) & (1u << 31)) != 0;
#else
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1u << 31)) != 0;
#endif
}

std::string activePowerPlan(std::string& why)
{
    GUID* scheme = nullptr;
    const DWORD status = ::PowerGetActiveScheme(nullptr, &scheme);
    if (status != ERROR_SUCCESS || scheme == nullptr) {
        why = "PowerGetActiveScheme failed: " + win::errorText(status);
        return {};
    }
    wchar_t name[256] = {};
    DWORD size = sizeof name;
    std::string text;
    if (::PowerReadFriendlyName(nullptr, scheme, nullptr, nullptr, reinterpret_cast<UCHAR*>(name), &size) ==
        ERROR_SUCCESS)
        text = win::narrow(name);
    ::LocalFree(scheme);
    if (text.empty())
        why = "the active plan has no name Windows would give";
    return text;
}

// The disk under a volume ("\\.\PhysicalDrive0": IOCTL_STORAGE_GET_DEVICE_NUMBER needs no rights), or the
// volume itself when it spans several disks or does not say.
std::string diskOf(HANDLE volume, const std::string& volumeDevice)
{
    STORAGE_DEVICE_NUMBER number{};
    DWORD returned = 0;
    if (::DeviceIoControl(volume, IOCTL_STORAGE_GET_DEVICE_NUMBER, nullptr, 0, &number, sizeof number,
                          &returned, nullptr) != 0 &&
        number.DeviceType == FILE_DEVICE_DISK)
        return fmt::format("\\\\.\\PhysicalDrive{}", number.DeviceNumber);
    return volumeDevice;
}

struct CacheSettingAnswer
{
    std::optional<win::DiskCacheSetting> setting;
    std::string why;
    std::string source = "IOCTL_DISK_GET_CACHE_SETTING";
};

CacheSettingAnswer readCacheSetting(HANDLE volume, const std::string& volumeDevice)
{
    CacheSettingAnswer answer;
    const std::string disk = diskOf(volume, volumeDevice);
    answer.source += " on " + disk;
    // The code carries FILE_READ_ACCESS: the handle needs read access, which only administrators get on a
    // disk.
    win::UniqueHandle device(::CreateFileW(win::widen(disk).c_str(), FILE_READ_DATA,
                                           FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, 0,
                                           nullptr));
    if (!device) {
        const DWORD error = ::GetLastError();
        answer.why =
            error == ERROR_ACCESS_DENIED
                ? fmt::format("needs administrator rights: Windows answers IOCTL_DISK_GET_CACHE_SETTING "
                              "only on a disk opened for reading ({}: {})",
                              disk, win::errorText(error))
                : fmt::format("{} cannot be opened for reading: {}", disk, win::errorText(error));
        return answer;
    }
    DWORD error = 0;
    answer.setting = win::diskCacheSetting(device.get(), error);
    if (!answer.setting)
        answer.why =
            fmt::format("{} does not answer IOCTL_DISK_GET_CACHE_SETTING: {}", disk, win::errorText(error));
    return answer;
}

std::string describeCacheSetting(const win::DiskCacheSetting& setting)
{
    std::string state;
    switch (setting.state) {
    case win::DiskCacheState::Normal:
        state = "normal";
        break;
    case win::DiskCacheState::WriteThroughNotSupported:
        state = "write-through not supported: the device does not honour Force Unit Access, so Windows sends "
                "write-through writes (FILE_FLAG_WRITE_THROUGH) without it";
        break;
    case win::DiskCacheState::ModifyUnsuccessful:
        state = "fixed: the device refuses changes to its cache setting";
        break;
    default:
        state = fmt::format("state {}", static_cast<ULONG>(setting.state));
        break;
    }
    return fmt::format("{}; declared power-protected: {}", state,
                       setting.isPowerProtected != FALSE ? "yes" : "no");
}

// Defender's exclusion lists of one kind ("Paths", "Processes"): its settings' and its policy's.
std::array<std::wstring, 2> defenderExclusionKeys(std::wstring_view kind)
{
    return {L"SOFTWARE\\Microsoft\\Windows Defender\\Exclusions\\" + std::wstring(kind),
            L"SOFTWARE\\Policies\\Microsoft\\Windows Defender\\Exclusions\\" + std::wstring(kind)};
}

struct DefenderExclusions
{
    std::vector<std::wstring> entries; // from every list that could be read
    std::string why;                   // why a list could not be read; empty when all could
};

DefenderExclusions readDefenderExclusions(std::wstring_view kind)
{
    DefenderExclusions out;
    for (const auto& key : defenderExclusionKeys(kind)) {
        auto list = win::readExclusionList(HKEY_LOCAL_MACHINE, key.c_str());
        out.entries.insert(out.entries.end(), list.entries.begin(), list.entries.end());
        if (list.error == ERROR_SUCCESS || list.error == ERROR_FILE_NOT_FOUND || !out.why.empty())
            continue;
        out.why =
            list.error == ERROR_ACCESS_DENIED
                ? fmt::format("Windows lets only administrators read Defender's exclusions (HKLM\\{}: {})",
                              win::narrow(key), win::errorText(list.error))
                : fmt::format("HKLM\\{} cannot be read: {}", win::narrow(key), win::errorText(list.error));
    }
    return out;
}

// The folder this program runs from, with a trailing backslash ("" when Windows does not say).
std::wstring programFolder()
{
    std::wstring path(MAX_PATH, L'\0');
    for (;;) {
        const DWORD n = ::GetModuleFileNameW(nullptr, path.data(), static_cast<DWORD>(path.size()));
        if (n == 0)
            return {};
        if (n < path.size()) {
            path.resize(n);
            break;
        }
        path.resize(path.size() * 2);
    }
    return path.substr(0, path.find_last_of(L'\\') + 1);
}

// The device's power protection, whether its write cache can be changed (StorageDeviceWriteCacheProperty)
// and the disk's cache setting (IOCTL_DISK_GET_CACHE_SETTING, where it answers). `volume` may be invalid:
// `noDeviceWhy` then says why there is no device to ask.
void addCacheFacts(FactsBuilder& b, HANDLE volume, const std::string& volumeDevice,
                   const std::string& noDeviceWhy)
{
    constexpr std::string_view kCacheProperty = "StorageDeviceWriteCacheProperty";
    if (volume == INVALID_HANDLE_VALUE) {
        b.unknown(kDevice, "device.power_protection", "Power-protected write cache", noDeviceWhy);
        b.unknown(kDevice, "device.write_cache_changeable", "Write cache can be switched", noDeviceWhy);
        b.unknown(kDevice, "device.cache_setting", "Disk cache setting", noDeviceWhy);
        return;
    }
    DWORD cacheError = 0;
    const auto cache = win::describeWriteCache(volume, cacheError);
    const auto settingAnswer = readCacheSetting(volume, volumeDevice);
    const auto& setting = settingAnswer.setting;

    std::string cacheWhy =
        cache ? "the device's driver answers StorageDeviceWriteCacheProperty without the "
                "power-protection flags (an older driver)"
              : fmt::format("the device does not answer {}: {}", kCacheProperty, win::errorText(cacheError));
    std::optional<bool> declared;
    bool nonVolatile = false;
    std::vector<std::string_view> sources;
    if (cache && cache->complete) {
        declared = cache->property.UserDefinedPowerProtection != FALSE;
        nonVolatile = cache->property.NVCacheEnabled != FALSE;
        sources.push_back(kCacheProperty);
    }
    if (setting) {
        declared = declared.value_or(false) || setting->isPowerProtected != FALSE;
        sources.emplace_back("IOCTL_DISK_GET_CACHE_SETTING");
    }
    std::string protection;
    if (nonVolatile)
        protection = "yes: the device's write cache is non-volatile";
    else if (declared && *declared)
        // The disk class driver then drops flushes and Force Unit Access (DEV_POWER_PROTECTED).
        protection =
            "declared by the user (Device Manager's \"Turn off Windows write-cache buffer flushing\"): "
            "Windows sends this device no flushes, so durable writes are as safe as that declaration";
    else if (declared && cache && cache->property.WriteCacheEnabled == WriteCacheDisabled)
        protection = "no (the write cache is off: no write waits in it)";
    else if (declared)
        protection = "no: what the write cache holds is lost on a power cut";
    b.either(kDevice, "device.power_protection", "Power-protected write cache", protection,
             setting ? cacheWhy : cacheWhy + "; " + settingAnswer.why,
             fmt::format("{}", fmt::join(sources, ", ")));

    std::string changeable;
    if (cache && cache->property.WriteCacheChangeable == WriteCacheChangeable)
        changeable = "yes (the device's policy in Device Manager)";
    else if (cache && cache->property.WriteCacheChangeable == WriteCacheNotChangeable)
        changeable = "no: the device does not let Windows switch its write cache";
    b.either(kDevice, "device.write_cache_changeable", "Write cache can be switched", changeable,
             cache ? "the device does not say" : cacheWhy, std::string(kCacheProperty));

    b.either(kDevice, "device.cache_setting", "Disk cache setting",
             setting ? describeCacheSetting(*setting) : "", settingAnswer.why, settingAnswer.source);
}

// Whether Defender's path exclusions cover the target folder, and its process exclusions IOLab's programs.
// `noDefenderWhy` is set when Defender's settings are not there at all.
void addDefenderExclusionFacts(FactsBuilder& b, const TargetInfo& target, const std::string& noDefenderWhy)
{
    const std::string pathSource = "HKLM\\SOFTWARE\\Microsoft\\Windows Defender\\Exclusions\\Paths and its "
                                   "policy key";
    const std::string processSource =
        "HKLM\\SOFTWARE\\Microsoft\\Windows Defender\\Exclusions\\Processes and "
        "its policy key";
    if (!noDefenderWhy.empty()) {
        b.unknown(kSystem, "defender.excluded_path", "Defender exclusion for the target", noDefenderWhy,
                  pathSource);
        b.unknown(kSystem, "defender.excluded_process", "Defender exclusion for IOLab's programs",
                  noDefenderWhy, processSource);
        return;
    }

    const auto paths = readDefenderExclusions(L"Paths");
    const std::wstring folder = win::widen(target.path);
    const auto cover =
        std::find_if(paths.entries.begin(), paths.entries.end(),
                     [&](const std::wstring& entry) { return win::exclusionCovers(entry, folder); });
    // An exclusion found in one list holds even when the other cannot be read.
    if (cover != paths.entries.end())
        b.known(kSystem, "defender.excluded_path", "Defender exclusion for the target",
                fmt::format("yes: {} is excluded, so the files the run writes are not scanned",
                            win::narrow(*cover)),
                pathSource);
    else
        b.either(kSystem, "defender.excluded_path", "Defender exclusion for the target",
                 paths.why.empty() ? "no: no path exclusion covers the target" : "", paths.why, pathSource);

    const auto processes = readDefenderExclusions(L"Processes");
    const std::wstring here = programFolder();
    std::vector<std::string> excluded;
    for (const wchar_t* program : {L"iolab.exe", L"iolab-cli.exe"}) {
        const std::wstring path = here + program;
        if (std::any_of(processes.entries.begin(), processes.entries.end(),
                        [&](const std::wstring& entry) { return win::processExclusionCovers(entry, path); }))
            excluded.push_back(win::narrow(program));
    }
    std::string value;
    if (excluded.size() == 2)
        value = "yes: iolab.exe and iolab-cli.exe, so the files they open are not scanned";
    else if (excluded.size() == 1 && processes.why.empty())
        value =
            fmt::format("partly: {} only, so the files it opens are not scanned and the other program's are",
                        excluded[0]);
    else if (excluded.size() == 1)
        value = fmt::format(
            "partly: {} is, so the files it opens are not scanned (the other program: unknown, {})",
            excluded[0], processes.why);
    else if (processes.why.empty())
        value = "no: neither iolab.exe nor iolab-cli.exe is excluded";
    b.either(kSystem, "defender.excluded_process", "Defender exclusion for IOLab's programs", value,
             processes.why, processSource);
}

} // namespace

SystemFacts gatherSystemFacts(const TargetInfo& target)
{
    const auto started = std::chrono::steady_clock::now();
    SystemFacts facts;
    facts.gathered = true;
    FactsBuilder b;

    StorageLayer top{LayerKind::Filesystem, target.fsType, target.mountSource};
    if (target.mountOptions.find("network drive") != std::string::npos)
        top.kind = LayerKind::Network;
    else if (target.mountOptions.find("RAM disk") != std::string::npos)
        top.kind = LayerKind::Memory;
    facts.stack.push_back(top);
    STORAGE_BUS_TYPE bus = BusTypeUnknown;
    std::string busName;
    std::string busWhy = "the volume's device does not answer IOCTL_STORAGE_QUERY_PROPERTY";
    const auto& mount = target.mountPoint;
    std::string volumeDevice;
    win::UniqueHandle volume;
    if (top.kind == LayerKind::Network)
        busWhy = "a network drive has no local device";
    else if (mount.size() >= 2 && mount[1] == ':') {
        volumeDevice = fmt::format("\\\\.\\{}:", mount[0]);
        volume = openForQueries(volumeDevice);
        if (volume)
            busName = busOf(volume.get(), bus);
        else
            busWhy = fmt::format("{} cannot be opened: {}", volumeDevice, win::errorText(::GetLastError()));
    } else
        busWhy = "the target is not under a drive letter";
    if (!busName.empty()) {
        const LayerKind kind = bus == BusTypeFileBackedVirtual ? LayerKind::Loop : LayerKind::Disk;
        facts.stack.push_back(
            {kind, target.deviceModel.empty() ? mount.substr(0, 2) : target.deviceModel, busName});
    }
    switch (bus) {
    case BusTypeNvme:
        facts.deviceClass = DeviceClass::NvmeSsd;
        break;
    case BusTypeSata:
    case BusTypeAta:
    case BusTypeSas:
    case BusTypeScsi:
        if (target.rotational)
            facts.deviceClass = *target.rotational ? DeviceClass::SataHdd : DeviceClass::SataSsd;
        break;
    case BusTypeUsb:
        facts.deviceClass = DeviceClass::UsbDrive;
        break;
    case BusTypeSd:
    case BusTypeMmc:
        facts.deviceClass = DeviceClass::SdCard;
        break;
    case BusTypeVirtual:
    case BusTypeFileBackedVirtual:
        facts.deviceClass = DeviceClass::VirtualDisk;
        break;
    default:
        break;
    }
    if (top.kind == LayerKind::Network)
        facts.deviceClass = DeviceClass::NetworkShare;
    else if (top.kind == LayerKind::Memory)
        facts.deviceClass = DeviceClass::Memory;
    else if (facts.deviceClass == DeviceClass::Unknown && looksVirtual(target))
        facts.deviceClass = DeviceClass::VirtualDisk;

    b.known(kStorage, "stack", "Storage stack", describeStack(facts),
            "GetVolumeInformation, IOCTL_STORAGE_QUERY_PROPERTY");
    b.known(kStorage, "stack.meaning", "Layers that change the figures",
            top.kind == LayerKind::Network ? "a network drive: the network and the server are measured too"
            : bus == BusTypeFileBackedVirtual
                ? "a virtual disk file (VHD): the data goes to a file on another volume"
            : bus == BusTypeSpaces ? "Storage Spaces: a software pool over several disks"
                                   : "none");
    b.unknown(
        kStorage, "bitlocker", "BitLocker",
        "Windows tells BitLocker's state to administrators (manage-bde) or through the shell, not to this "
        "program");

    b.either(kDevice, "device.transport", "Bus", busName, busWhy, "IOCTL_STORAGE_QUERY_PROPERTY");
    b.either(kDevice, "device.model", "Model", target.deviceModel, busWhy, "IOCTL_STORAGE_QUERY_PROPERTY");
    b.either(kDevice, "queue.rotational", "Seek penalty (rotational)",
             target.rotational ? (*target.rotational ? "yes" : "no") : "", "the device does not say",
             "StorageDeviceSeekPenaltyProperty");
    const auto cache = describeWriteCache(target);
    b.either(kDevice, "queue.write_cache", "Write cache", cache == "unknown" ? "" : cache,
             "the device does not answer StorageDeviceWriteCacheProperty", "StorageDeviceWriteCacheProperty");
    addCacheFacts(b, volume.get(), volumeDevice, busWhy);
    // The drive's heat as the run begins; each case's readings before and after are in the results.
    std::optional<ThermalReading> heat;
    if (volume.get() != INVALID_HANDLE_VALUE)
        heat = win::storageTemperature(volume.get());
    std::string heatText = heat ? temperatureText(heat, std::nullopt) : std::string();
    if (heat && heat->warningCelsius)
        heatText += fmt::format(" (warning {:.0f} °C", *heat->warningCelsius) +
                    (heat->criticalCelsius ? fmt::format(", critical {:.0f} °C)", *heat->criticalCelsius)
                                           : std::string(")"));
    b.either(kDevice, "device.temperature", "Temperature", heatText,
             "the drive does not answer StorageDeviceTemperatureProperty",
             "StorageDeviceTemperatureProperty");

    b.either(kFilesystem, "fs.type", "Filesystem", target.fsType, "GetVolumeInformation failed",
             "GetVolumeInformation");
    const DWORD attributes = ::GetFileAttributesW(win::widen(target.path).c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES) {
        const auto why = "the target's attributes cannot be read: " + win::errorText(::GetLastError());
        b.unknown(kFilesystem, "fs.compression", "Compression", why);
        b.unknown(kFilesystem, "fs.encryption", "Encryption (EFS)", why);
    } else {
        b.known(kFilesystem, "fs.compression", "Compression",
                (attributes & FILE_ATTRIBUTE_COMPRESSED) != 0
                    ? "yes: new files in the target folder are compressed"
                    : "off on the target folder",
                "GetFileAttributes");
        b.known(kFilesystem, "fs.encryption", "Encryption (EFS)",
                (attributes & FILE_ATTRIBUTE_ENCRYPTED) != 0
                    ? "yes: new files in the target folder are encrypted"
                    : "off on the target folder",
                "GetFileAttributes");
    }

    std::string planWhy;
    const auto plan = activePowerPlan(planWhy);
    b.either(kSystem, "power.plan", "Power plan", plan, planWhy, "PowerGetActiveScheme");
    bool policyKey = false;
    bool settingsKey = false;
    const auto policy = registryNumber(
        HKEY_LOCAL_MACHINE, L"SOFTWARE\\Policies\\Microsoft\\Windows Defender\\Real-Time Protection",
        L"DisableRealtimeMonitoring", policyKey);
    const auto setting =
        registryNumber(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Microsoft\\Windows Defender\\Real-Time Protection",
                       L"DisableRealtimeMonitoring", settingsKey);
    std::string defender;
    if ((policy && *policy != 0) || (setting && *setting != 0))
        defender = "off (DisableRealtimeMonitoring is set)";
    else if (settingsKey)
        defender = "on: every file the run writes may be scanned, unless an exclusion covers it";
    const std::string noDefender =
        "Defender's settings key cannot be read (another antivirus, or no Defender)";
    b.either(kSystem, "defender.realtime", "Defender real-time scanning", defender, noDefender,
             "HKLM\\SOFTWARE\\Microsoft\\Windows Defender\\Real-Time Protection");
    addDefenderExclusionFacts(b, target, settingsKey ? std::string() : noDefender);

    const bool hypervisor = hypervisorBit();
    const auto manufacturer =
        win::registryText(HKEY_LOCAL_MACHINE, L"HARDWARE\\DESCRIPTION\\System\\BIOS", L"SystemManufacturer");
    const auto product =
        win::registryText(HKEY_LOCAL_MACHINE, L"HARDWARE\\DESCRIPTION\\System\\BIOS", L"SystemProductName");
    std::string who = manufacturer + (product.empty() ? "" : " " + product);
    b.known(kMachine, "machine.virtual", "Virtual machine",
            hypervisor
                ? "yes" + (who.empty() ? std::string() : " (" + who + ")") + ", CPUID hypervisor bit set"
                : "none detected" + (who.empty() ? std::string() : " (" + who + ")"),
            "CPUID, HKLM\\HARDWARE\\DESCRIPTION\\System\\BIOS");
    MEMORYSTATUSEX memory{};
    memory.dwLength = sizeof memory;
    if (::GlobalMemoryStatusEx(&memory) != 0) {
        b.known(kMachine, "memory.total", "Memory",
                fmt::format("{} ({} available)", formatBytes(memory.ullTotalPhys),
                            formatBytes(memory.ullAvailPhys)),
                "GlobalMemoryStatusEx");
        b.known(kMachine, "memory.swap", "Page file",
                memory.ullTotalPageFile > memory.ullTotalPhys
                    ? formatBytes(memory.ullTotalPageFile - memory.ullTotalPhys)
                    : "none",
                "GlobalMemoryStatusEx");
    } else {
        b.unknown(kMachine, "memory.total", "Memory",
                  "GlobalMemoryStatusEx failed: " + win::errorText(::GetLastError()));
    }
    facts.sections = b.take();
    facts.gatherMilliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    return facts;
}

} // namespace iolab
