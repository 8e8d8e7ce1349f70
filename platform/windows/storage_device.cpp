// SPDX-License-Identifier: MIT
#include "platform/windows/storage_device.h"

#include <cstddef>
#include <cstring>
#include <vector>

namespace iolab::win {

namespace {

std::string trimmed(std::string text)
{
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    text.erase(0, text.find_first_not_of(' '));
    return text;
}

} // namespace

std::optional<StorageDeviceDescription> describeStorageDevice(HANDLE device)
{
    // The descriptor is followed by its strings; offsets point into the same buffer.
    std::vector<char> buffer(1024);
    STORAGE_PROPERTY_QUERY query{};
    query.PropertyId = StorageDeviceProperty;
    query.QueryType = PropertyStandardQuery;
    DWORD returned = 0;
    if (::DeviceIoControl(device, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query, buffer.data(),
                          static_cast<DWORD>(buffer.size()), &returned, nullptr) == 0 ||
        returned < sizeof(STORAGE_DEVICE_DESCRIPTOR))
        return std::nullopt;
    const auto* descriptor = reinterpret_cast<const STORAGE_DEVICE_DESCRIPTOR*>(buffer.data());
    const auto text = [&](DWORD offset) {
        if (offset == 0 || offset >= returned)
            return std::string();
        return trimmed(
            std::string(buffer.data() + offset, strnlen(buffer.data() + offset, returned - offset)));
    };
    return StorageDeviceDescription{descriptor->BusType, text(descriptor->VendorIdOffset),
                                    text(descriptor->ProductIdOffset)};
}

std::optional<WriteCacheDescription> describeWriteCache(HANDLE device, DWORD& error)
{
    STORAGE_PROPERTY_QUERY query{};
    query.PropertyId = StorageDeviceWriteCacheProperty;
    query.QueryType = PropertyStandardQuery;
    WriteCacheDescription out;
    DWORD returned = 0;
    if (::DeviceIoControl(device, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query, &out.property,
                          sizeof out.property, &returned, nullptr) == 0) {
        error = ::GetLastError();
        return std::nullopt;
    }
    if (returned < offsetof(STORAGE_WRITE_CACHE_PROPERTY, WriteCacheChangeable)) {
        error = ERROR_INVALID_DATA;
        return std::nullopt;
    }
    constexpr auto kFullSize =
        offsetof(STORAGE_WRITE_CACHE_PROPERTY, NVCacheEnabled) + sizeof out.property.NVCacheEnabled;
    out.complete = returned >= kFullSize && out.property.Size >= kFullSize;
    return out;
}

static_assert(kIoctlDiskGetCacheSetting == 0x000740E0, "CTL_CODE(IOCTL_DISK_BASE, 0x38, METHOD_BUFFERED, "
                                                       "FILE_READ_ACCESS)");

std::optional<DiskCacheSetting> diskCacheSetting(HANDLE device, DWORD& error)
{
    DiskCacheSetting setting;
    DWORD returned = 0;
    if (::DeviceIoControl(device, kIoctlDiskGetCacheSetting, nullptr, 0, &setting, sizeof setting, &returned,
                          nullptr) == 0) {
        error = ::GetLastError();
        return std::nullopt;
    }
    if (returned < sizeof setting) {
        error = ERROR_INVALID_DATA;
        return std::nullopt;
    }
    return setting;
}

} // namespace iolab::win
