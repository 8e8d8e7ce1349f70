// SPDX-License-Identifier: MIT
#pragma once

#include <windows.h>
#include <winioctl.h>

#include "core/model/thermal.h"

#include <optional>
#include <string>

namespace iolab::win {

// What IOCTL_STORAGE_QUERY_PROPERTY's StorageDeviceProperty says of a device (no access rights needed): its
// bus and its vendor and product strings, trimmed. nullopt when the device does not answer.
struct StorageDeviceDescription
{
    STORAGE_BUS_TYPE bus = BusTypeUnknown;
    std::string vendor;
    std::string product;
};
std::optional<StorageDeviceDescription> describeStorageDevice(HANDLE device);

// What StorageDeviceWriteCacheProperty says (no access rights needed). `complete` is false when an older
// driver returned a structure too short to hold the flush, power-protection and write-through flags: only
// the type and the enabled state count then. nullopt with `error` set when the device does not answer.
struct WriteCacheDescription
{
    STORAGE_WRITE_CACHE_PROPERTY property{};
    bool complete = false;
};
std::optional<WriteCacheDescription> describeWriteCache(HANDLE device, DWORD& error);

// IOCTL_DISK_GET_CACHE_SETTING and DISK_CACHE_SETTING come from the DDK's ntdddisk.h, which neither
// mingw-w64's nor the SDK's user-mode headers have: the same code and layout here, under our own names.
inline constexpr DWORD kIoctlDiskGetCacheSetting =
    CTL_CODE(IOCTL_DISK_BASE, 0x0038, METHOD_BUFFERED, FILE_READ_ACCESS);
#ifdef IOCTL_DISK_GET_CACHE_SETTING
static_assert(kIoctlDiskGetCacheSetting == IOCTL_DISK_GET_CACHE_SETTING);
#endif
enum class DiskCacheState : ULONG
{
    Normal,                   // DiskCacheNormal
    WriteThroughNotSupported, // DiskCacheWriteThroughNotSupported: the device does not honour FUA
    ModifyUnsuccessful,       // DiskCacheModifyUnsuccessful: the device refuses changes to its cache setting
};
struct DiskCacheSetting
{
    ULONG version = 0; // sizeof the structure
    DiskCacheState state = DiskCacheState::Normal;
    BOOLEAN isPowerProtected = FALSE; // the user's "Turn off Windows write-cache buffer flushing"
};
static_assert(sizeof(DiskCacheSetting) == 12, "DISK_CACHE_SETTING's layout");

// The disk class driver's cache setting. Windows answers it only on a handle opened with read access
// (FILE_READ_ACCESS in the code), which a disk grants administrators only. nullopt with `error` set when the
// device does not answer.
std::optional<DiskCacheSetting> diskCacheSetting(HANDLE device, DWORD& error);

// The drive's temperature and thresholds from StorageDeviceTemperatureProperty (Windows 10 and later; no
// access rights needed), parsed by core/model/thermal.h. nullopt when the device does not answer.
std::optional<ThermalReading> storageTemperature(HANDLE device);

// The NVMe SMART/health log (log page 02h) through StorageDeviceProtocolSpecificProperty (Windows 10 and
// later, the inbox NVMe driver): its throttling counters. nullopt where the drive is not NVMe or the driver
// does not pass the request on.
std::optional<ThermalReading> nvmeHealthLog(HANDLE device);

} // namespace iolab::win
