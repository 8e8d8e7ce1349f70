// SPDX-License-Identifier: MIT
// System facts on Windows: the volume's filesystem and the target folder's NTFS compression and encryption,
// the device's bus, seek penalty and write cache (IOCTL_STORAGE_QUERY_PROPERTY, which needs no rights), the
// active power plan, Defender's real-time protection as its settings say, virtualisation (the CPUID
// hypervisor bit and the BIOS strings) and memory. What Windows does not tell a normal user (BitLocker's
// state) is unknown, with the reason.
#include "core/base/units.h"
#include "platform/platform.h"
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

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

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

// The bus the volume's device sits on, or "" when it does not answer.
std::string busOf(const std::string& volumeDevice, STORAGE_BUS_TYPE& bus)
{
    win::UniqueHandle device(::CreateFileW(win::widen(volumeDevice).c_str(), 0,
                                           FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, 0,
                                           nullptr));
    if (!device)
        return {};
    const auto description = win::describeStorageDevice(device.get());
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
    if (top.kind == LayerKind::Network)
        busWhy = "a network drive has no local device";
    else if (mount.size() >= 2 && mount[1] == ':')
        busName = busOf(fmt::format("\\\\.\\{}:", mount[0]), bus);
    else
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
        defender =
            "on: every file the run writes may be scanned (its exclusions are readable by administrators "
            "only)";
    b.either(kSystem, "defender.realtime", "Defender real-time scanning", defender,
             "Defender's settings key cannot be read (another antivirus, or no Defender)",
             "HKLM\\SOFTWARE\\Microsoft\\Windows Defender\\Real-Time Protection");

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
