// SPDX-License-Identifier: MIT
#pragma once

#include <windows.h>
#include <winioctl.h>

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

} // namespace iolab::win
