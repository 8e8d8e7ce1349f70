// SPDX-License-Identifier: MIT
// Target facts on Windows: the volume under a folder (GetVolumePathName, GetVolumeInformation,
// GetDiskFreeSpaceEx, GetDriveType), its sector sizes, model, seek penalty and write cache (with its flush,
// power protection and write-through support) where IOCTL_STORAGE_QUERY_PROPERTY answers, and the drives a
// user can pick (GetLogicalDriveStrings).
#include "core/base/error.h"
#include "core/base/log.h"
#include "platform/os_primitives.h"
#include "platform/platform.h"
#include "platform/windows/storage_device.h"
#include "platform/windows/win_io.h"

#include <winioctl.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace iolab {

namespace {

using win::narrow;
using win::widen;

std::string driveTypeName(UINT type)
{
    switch (type) {
    case DRIVE_FIXED:
        return "fixed drive";
    case DRIVE_REMOVABLE:
        return "removable drive";
    case DRIVE_REMOTE:
        return "network drive";
    case DRIVE_RAMDISK:
        return "RAM disk";
    case DRIVE_CDROM:
        return "optical drive";
    default:
        return "drive";
    }
}

std::string trimmed(std::string text)
{
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    text.erase(0, text.find_first_not_of(' '));
    return text;
}

// One IOCTL_STORAGE_QUERY_PROPERTY standard query into `out`; false when the device does not answer.
template <class Descriptor> bool queryProperty(HANDLE device, STORAGE_PROPERTY_ID id, Descriptor& out)
{
    STORAGE_PROPERTY_QUERY query{};
    query.PropertyId = id;
    query.QueryType = PropertyStandardQuery;
    DWORD returned = 0;
    return ::DeviceIoControl(device, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query, &out, sizeof out,
                             &returned, nullptr) != 0 &&
           returned >= sizeof(DWORD) * 2;
}

// What the storage stack says about the device under a drive letter ("\\.\C:"); each query is optional.
// The volume stays the target's device (the one the sampler watches) only if it answers
// IOCTL_DISK_PERFORMANCE: wine does not, nor does Windows with its disk counters turned off.
void fillDevice(TargetInfo& info, const std::string& volumeDevice)
{
    // No access rights are needed for property queries, so this works for every user.
    win::UniqueHandle device(::CreateFileW(widen(volumeDevice).c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE,
                                           nullptr, OPEN_EXISTING, 0, nullptr));
    if (!device)
        return;
    DISK_PERFORMANCE performance{};
    DWORD performanceBytes = 0;
    if (::DeviceIoControl(device.get(), IOCTL_DISK_PERFORMANCE, nullptr, 0, &performance, sizeof performance,
                          &performanceBytes, nullptr) == 0) {
        logger(LogModule::Platform)
            .debug("{} has no disk counters ({}): device throughput is not sampled", volumeDevice,
                   win::errorText(::GetLastError()));
    } else
        info.device = volumeDevice;
    STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR alignment{};
    if (queryProperty(device.get(), StorageAccessAlignmentProperty, alignment) &&
        alignment.BytesPerLogicalSector >= 512) {
        info.logicalBlockBytes = alignment.BytesPerLogicalSector;
        info.physicalBlockBytes = std::max<DWORD>(alignment.BytesPerPhysicalSector, info.logicalBlockBytes);
    }
    DEVICE_SEEK_PENALTY_DESCRIPTOR seek{};
    if (queryProperty(device.get(), StorageDeviceSeekPenaltyProperty, seek))
        info.rotational = seek.IncursSeekPenalty != 0;
    DWORD cacheError = 0;
    if (const auto answer = win::describeWriteCache(device.get(), cacheError)) {
        const auto& cache = answer->property;
        if (cache.WriteCacheEnabled == WriteCacheEnabled)
            info.writeCache = "write back";
        else if (cache.WriteCacheEnabled == WriteCacheDisabled)
            info.writeCache = "write through";
        if (answer->complete) {
            info.flushSupported = cache.FlushCacheSupported != FALSE;
            info.powerProtected = cache.UserDefinedPowerProtection != FALSE || cache.NVCacheEnabled != FALSE;
            if (cache.WriteThroughSupported != WriteThroughUnknown)
                info.writeThroughSupported = cache.WriteThroughSupported == WriteThroughSupported;
        }
    }
    STORAGE_ADAPTER_DESCRIPTOR adapter{};
    if (queryProperty(device.get(), StorageAdapterProperty, adapter))
        info.maxTransferBytes = adapter.MaximumTransferLength;
    if (const auto description = win::describeStorageDevice(device.get())) {
        const std::string& vendor = description->vendor;
        const std::string& product = description->product;
        info.deviceModel = trimmed(vendor.empty() ? product : vendor + " " + product);
    }
}

// Whether this user may create files and folders in `folder`, asked of the system by opening the folder for
// exactly those rights: nothing is written.
DWORD folderWriteError(const std::wstring& folder)
{
    win::UniqueHandle handle(::CreateFileW(folder.c_str(), FILE_ADD_FILE | FILE_ADD_SUBDIRECTORY,
                                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr));
    return handle ? 0 : ::GetLastError();
}

std::wstring finalPath(const std::wstring& folder)
{
    win::UniqueHandle handle(::CreateFileW(folder.c_str(), 0,
                                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr));
    if (!handle)
        return folder;
    std::wstring path(MAX_PATH, L'\0');
    DWORD n = ::GetFinalPathNameByHandleW(handle.get(), path.data(), static_cast<DWORD>(path.size()), 0);
    if (n >= path.size()) {
        path.resize(n + 1);
        n = ::GetFinalPathNameByHandleW(handle.get(), path.data(), static_cast<DWORD>(path.size()), 0);
    }
    if (n == 0 || n >= path.size())
        return folder;
    path.resize(n);
    // "\\?\C:\x" -> "C:\x"; "\\?\UNC\server\share" -> "\\server\share".
    if (path.rfind(L"\\\\?\\UNC\\", 0) == 0)
        return L"\\" + path.substr(7);
    if (path.rfind(L"\\\\?\\", 0) == 0)
        return path.substr(4);
    return path;
}

} // namespace

std::uint64_t freeSpaceAt(const std::string& folder)
{
    ULARGE_INTEGER freeToCaller{};
    if (::GetDiskFreeSpaceExW(widen(folder).c_str(), &freeToCaller, nullptr, nullptr) == 0)
        return 0;
    return freeToCaller.QuadPart;
}

TargetInfo inspectTarget(const std::string& path)
{
    if (path.empty())
        throw InputError("no target folder given");
    const std::wstring wide = widen(path);
    const DWORD attributes = ::GetFileAttributesW(wide.c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES) {
        const DWORD error = ::GetLastError();
        if (error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND || error == ERROR_INVALID_NAME ||
            error == ERROR_BAD_NETPATH || error == ERROR_INVALID_DRIVE)
            throw InputError(fmt::format("target '{}' does not exist", path));
        throw InputError(fmt::format("target '{}' cannot be read: {}", path, win::errorText(error)));
    }
    if ((attributes & FILE_ATTRIBUTE_DIRECTORY) == 0)
        throw InputError(fmt::format("target '{}' is not a folder", path));

    TargetInfo info;
    const std::wstring real = finalPath(wide);
    info.path = narrow(real);
    std::wstring volume(MAX_PATH + 1, L'\0');
    if (::GetVolumePathNameW(real.c_str(), volume.data(), static_cast<DWORD>(volume.size())) == 0)
        throw InputError(fmt::format("target '{}': its volume cannot be found: {}", path,
                                     win::errorText(::GetLastError())));
    volume.resize(std::wcslen(volume.c_str()));
    info.mountPoint = narrow(volume);

    wchar_t label[MAX_PATH + 1] = {};
    wchar_t fsName[MAX_PATH + 1] = {};
    DWORD serial = 0;
    DWORD maxComponent = 0;
    DWORD flags = 0;
    if (::GetVolumeInformationW(volume.c_str(), label, MAX_PATH + 1, &serial, &maxComponent, &flags, fsName,
                                MAX_PATH + 1) != 0) {
        info.fsType = narrow(fsName);
        if ((flags & FILE_READ_ONLY_VOLUME) != 0)
            throw InputError(fmt::format("target '{}' is on a read-only volume", path));
    }
    if (const DWORD error = folderWriteError(wide); error != 0) {
        if (error == ERROR_WRITE_PROTECT)
            throw InputError(fmt::format("target '{}' is on a read-only volume", path));
        throw InputError(
            fmt::format("target '{}' is not writable by this user: {}", path, win::errorText(error)));
    }

    const UINT driveType = ::GetDriveTypeW(volume.c_str());
    std::vector<std::string> options{driveTypeName(driveType)};
    if ((flags & FILE_VOLUME_IS_COMPRESSED) != 0)
        options.emplace_back("compressed");
    if ((flags & FILE_SUPPORTS_ENCRYPTION) != 0)
        options.emplace_back("encryption supported");
    info.mountOptions = fmt::format("{}", fmt::join(options, ", "));
    wchar_t volumeName[MAX_PATH + 1] = {};
    if (::GetVolumeNameForVolumeMountPointW(volume.c_str(), volumeName, MAX_PATH + 1) != 0)
        info.mountSource = narrow(volumeName);
    else
        info.mountSource = label[0] != L'\0' ? narrow(label) : info.mountPoint;

    ULARGE_INTEGER total{};
    if (::GetDiskFreeSpaceExW(real.c_str(), nullptr, &total, nullptr) != 0)
        info.totalBytes = total.QuadPart;
    info.freeBytes = freeSpaceAt(info.path);
    DWORD sectorsPerCluster = 0;
    DWORD bytesPerSector = 0;
    DWORD freeClusters = 0;
    DWORD clusters = 0;
    if (::GetDiskFreeSpaceW(volume.c_str(), &sectorsPerCluster, &bytesPerSector, &freeClusters, &clusters) !=
            0 &&
        bytesPerSector >= 512) {
        info.logicalBlockBytes = bytesPerSector;
        info.physicalBlockBytes = bytesPerSector;
    }
    // A drive letter on a local disk has a device to ask and to watch: "\\.\C:".
    if (volume.size() >= 2 && volume[1] == L':' && driveType != DRIVE_REMOTE) {
        fillDevice(info, fmt::format("\\\\.\\{}:", static_cast<char>(volume[0])));
    }
    if (driveType == DRIVE_RAMDISK)
        info.deviceModel = info.deviceModel.empty() ? "RAM disk" : info.deviceModel;
    // A job object caps a process's own memory, but the file cache is the system's: nothing charges a
    // process's cached writes to it, so no cap would hold what a memory limit promises.
    info.memoryLimitProblem = "a memory limit needs a cap on the writer's page cache, and Windows has no "
                              "per-process cap on the file cache (a job object limits only the process's own "
                              "memory): run memory-limit cases on Linux";
    return info;
}

std::vector<TargetInfo> listWritableTargets()
{
    std::vector<TargetInfo> targets;
    wchar_t drives[512] = {};
    const DWORD length = ::GetLogicalDriveStringsW(511, drives);
    for (const wchar_t* drive = drives; length > 0 && *drive != L'\0'; drive += std::wcslen(drive) + 1) {
        const UINT type = ::GetDriveTypeW(drive);
        if (type != DRIVE_FIXED && type != DRIVE_REMOVABLE && type != DRIVE_REMOTE && type != DRIVE_RAMDISK)
            continue; // optical drives, unknown roots
        try {
            targets.push_back(inspectTarget(narrow(drive)));
        } catch (const InputError& e) {
            logger(LogModule::Platform).debug("skipping drive: {}", e.what());
        }
    }
    return targets;
}

} // namespace iolab

// The capability trial on Windows: FILE_FLAG_NO_BUFFERING (with one aligned write) and space reservation on
// the probe file (platform/common/capabilities.cpp runs it).
namespace iolab::os {

const char* const kUnnamedFileSystem = "this file system";

ProbeFileFindings tryProbeFile(const std::string& path, const TargetInfo& target)
{
    ProbeFileFindings findings;
    const std::wstring wide = win::widen(path);
    win::UniqueHandle file(::CreateFileW(wide.c_str(), GENERIC_WRITE, FILE_SHARE_READ, nullptr, CREATE_NEW,
                                         FILE_ATTRIBUTE_NORMAL | FILE_FLAG_NO_BUFFERING, nullptr));
    if (file) {
        // One aligned sector, as a direct case writes: some redirectors take the flag and fail the write.
        const std::size_t sector = std::max<std::uint32_t>(target.logicalBlockBytes, 512);
        auto buffer = win::virtualAlloc(sector);
        DWORD written = 0;
        if (buffer &&
            ::WriteFile(file.get(), buffer.get(), static_cast<DWORD>(sector), &written, nullptr) == 0)
            findings.directIoProblem = fmt::format("does not take FILE_FLAG_NO_BUFFERING writes: {}",
                                                   win::errorText(::GetLastError()));
    } else if (::GetLastError() == ERROR_INVALID_PARAMETER) {
        findings.directIoProblem = "does not support FILE_FLAG_NO_BUFFERING";
        file.reset(::CreateFileW(wide.c_str(), GENERIC_WRITE, FILE_SHARE_READ, nullptr, CREATE_NEW,
                                 FILE_ATTRIBUTE_NORMAL, nullptr));
    }
    Outcome outcome;
    if (file && !win::reserveSpace(file.get(), 4096, path, outcome) && outcome.status == Status::Unsupported)
        findings.reserveProblem = "cannot reserve file space (SetEndOfFile)";
    return findings;
}

} // namespace iolab::os
