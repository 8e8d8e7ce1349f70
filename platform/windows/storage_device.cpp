// SPDX-License-Identifier: MIT
#include "platform/windows/storage_device.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
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

namespace {

// StorageDeviceTemperatureProperty and StorageDeviceProtocolSpecificProperty, and the protocol request's
// layout (STORAGE_PROTOCOL_SPECIFIC_DATA, ten ULONGs), as the SDK's winioctl.h declares them; older mingw-w64
// headers have neither, so they are spelled here.
constexpr int kStorageDeviceTemperatureProperty = 55;
constexpr int kStorageDeviceProtocolSpecificProperty = 50;
constexpr ULONG kProtocolTypeNvme = 3;
constexpr ULONG kNvmeDataTypeLogPage = 2;
constexpr ULONG kNvmeHealthLogPage = 2;
struct ProtocolSpecificData
{
    ULONG protocolType;
    ULONG dataType;
    ULONG requestValue;    // the log page
    ULONG requestSubValue; // its offset (low 32 bits)
    ULONG dataOffset;      // where the data begins, from this structure's start
    ULONG dataLength;
    ULONG fixedReturnData;
    ULONG requestSubValue2;
    ULONG requestSubValue3;
    ULONG requestSubValue4;
};
static_assert(sizeof(ProtocolSpecificData) == 40, "STORAGE_PROTOCOL_SPECIFIC_DATA's layout");
constexpr std::size_t kQueryHeader = 8;      // STORAGE_PROPERTY_QUERY's PropertyId and QueryType
constexpr std::size_t kDescriptorHeader = 8; // STORAGE_PROTOCOL_DATA_DESCRIPTOR's Version and Size
constexpr std::size_t kHealthLogBytes = 512;

} // namespace

std::optional<ThermalReading> storageTemperature(HANDLE device)
{
    STORAGE_PROPERTY_QUERY query{};
    query.PropertyId = static_cast<STORAGE_PROPERTY_ID>(kStorageDeviceTemperatureProperty);
    query.QueryType = PropertyStandardQuery;
    std::array<std::uint8_t, 512> out{};
    DWORD returned = 0;
    if (::DeviceIoControl(device, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query, out.data(),
                          static_cast<DWORD>(out.size()), &returned, nullptr) == 0)
        return std::nullopt;
    return parseStorageTemperature(std::span<const std::uint8_t>(out.data(), returned));
}

std::optional<ThermalReading> nvmeHealthLog(HANDLE device)
{
    std::array<std::uint8_t, kQueryHeader + sizeof(ProtocolSpecificData) + kHealthLogBytes> buffer{};
    const auto propertyId = static_cast<ULONG>(kStorageDeviceProtocolSpecificProperty);
    const auto queryType = static_cast<ULONG>(PropertyStandardQuery);
    std::memcpy(buffer.data(), &propertyId, sizeof propertyId);
    std::memcpy(buffer.data() + 4, &queryType, sizeof queryType);
    ProtocolSpecificData request{};
    request.protocolType = kProtocolTypeNvme;
    request.dataType = kNvmeDataTypeLogPage;
    request.requestValue = kNvmeHealthLogPage;
    request.dataOffset = sizeof(ProtocolSpecificData);
    request.dataLength = kHealthLogBytes;
    std::memcpy(buffer.data() + kQueryHeader, &request, sizeof request);
    DWORD returned = 0;
    if (::DeviceIoControl(device, IOCTL_STORAGE_QUERY_PROPERTY, buffer.data(),
                          static_cast<DWORD>(buffer.size()), buffer.data(), static_cast<DWORD>(buffer.size()),
                          &returned, nullptr) == 0 ||
        returned < kDescriptorHeader + sizeof(ProtocolSpecificData))
        return std::nullopt;
    ProtocolSpecificData answer{};
    std::memcpy(&answer, buffer.data() + kDescriptorHeader, sizeof answer);
    const std::size_t at = kDescriptorHeader + answer.dataOffset;
    if (answer.dataLength < kHealthLogBytes || at + kHealthLogBytes > returned)
        return std::nullopt;
    auto reading = parseNvmeSmartLog(std::span<const std::uint8_t>(buffer.data() + at, kHealthLogBytes));
    if (reading)
        reading->source = "NVMe health log (StorageDeviceProtocolSpecificProperty)";
    return reading;
}

} // namespace iolab::win
