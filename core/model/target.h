// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace iolab {

// What a short run of IOLab's own strategies measured on a target, for the duration estimate
// (core/analysis/estimate.h): about a second of I/O in a marked run folder, kept for a while per target.
struct DeviceCalibration
{
    double pageCacheWriteBytesPerSecond = 0;  // buffered 1 MiB writes until the calls returned
    double bufferedDurableBytesPerSecond = 0; // the same writes until their fsync returned
    double deviceWriteBytesPerSecond = 0;    // direct 1 MiB writes, one at a time, until their fsync returned
    double directReturnedBytesPerSecond = 0; // the same writes until the calls returned (0: not measured)
    double deviceReadBytesPerSecond = 0;     // direct 1 MiB reads, one at a time
    double syncSeconds = 0;                  // a 4 KiB write and the fsync after it, median
    double directWriteSeconds = 0;           // a direct 4 KiB write at a random offset, median
    double directReadSeconds = 0;            // a direct 4 KiB read at a random offset, median
    std::string measuredAt;                  // ISO 8601, UTC
    double tookSeconds = 0;                  // how long the calibration itself took

    friend bool operator==(const DeviceCalibration&, const DeviceCalibration&) = default;
};

// Facts about the folder a run writes into, filled by the platform layer.
struct TargetInfo
{
    std::string path; // as the user gave it, made absolute
    std::string mountPoint;
    std::string fsType;
    std::string mountOptions;
    std::string mountSource; // e.g. /dev/nvme0n1p2
    std::string device;      // kernel name of the block device under the target ("" if none, e.g. tmpfs)
    std::string deviceModel;
    std::optional<bool> rotational;
    std::string writeCache; // "write back", "write through" or ""
    // Linux: whether the queue passes Force Unit Access writes to the device (/sys/block/*/queue/fua), so
    // that an O_DSYNC write goes out as one FUA write rather than a write and a cache flush.
    std::optional<bool> fua;
    // Windows, where the storage stack answers (STORAGE_WRITE_CACHE_PROPERTY): whether the device takes a
    // flush command; whether its cache survives a power cut (a non-volatile cache, or one the user declared
    // power-protected, in which case Windows sends it no flushes); whether it honours write-through requests.
    std::optional<bool> flushSupported;
    std::optional<bool> powerProtected;
    std::optional<bool> writeThroughSupported;
    std::uint32_t logicalBlockBytes = 512;
    std::uint32_t physicalBlockBytes = 512;
    std::uint64_t maxTransferBytes = 0;
    // The filesystem's preferred I/O size for a file here (st_blksize; 0: not known, or not this OS's): glibc
    // sizes a stdio stream's default buffer from it.
    std::uint32_t fileBlockBytes = 0;
    std::uint64_t totalBytes = 0;
    std::uint64_t freeBytes = 0;
    // What a probe file in the run folder showed ("" = works, or not probed): why O_DIRECT or fallocate
    // fails.
    bool capabilitiesProbed = false;
    std::string directIoProblem;
    std::string fallocateProblem;
    // Why a case's memory limit cannot be set for a run here ("" = it can): the memory cgroup it would need,
    // and what to do about it.
    std::string memoryLimitProblem;
    // The estimate's calibration of this target, where one was made or kept from an earlier one.
    std::optional<DeviceCalibration> calibration;

    // tmpfs or ramfs: the data lives in memory, so no figure describes a device.
    bool livesInMemory() const { return fsType == "tmpfs" || fsType == "ramfs"; }

    friend bool operator==(const TargetInfo&, const TargetInfo&) = default;
};

// The write cache in a few words, with what is known of its flush, FUA and power protection: "write back,
// FUA: no"; "write back, flush: yes, power-protected: no, write-through: yes"; "unknown" when nothing is.
std::string describeWriteCache(const TargetInfo& target);

// Whether the device looks like a virtual machine's disk (virtio's vd*, Xen's xvd*, or a model QEMU,
// VirtualBox, VMware or Hyper-V give their disks): what it says of itself (rotational, its cache) describes
// the emulation, not the storage on the host.
bool looksVirtual(const TargetInfo& target);

// Whether `option` is one of the comma-separated mount options, whole: "discard" is in
// "rw,relatime,discard" but not in "rw,nodiscard".
bool hasMountOption(std::string_view options, std::string_view option);

struct HostInfo
{
    std::string hostname;
    std::string os;
    std::string kernel;
    std::string cpuModel;
    std::uint32_t logicalCpus = 0;
    std::uint64_t ramBytes = 0;

    friend bool operator==(const HostInfo&, const HostInfo&) = default;
};

} // namespace iolab
