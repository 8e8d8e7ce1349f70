// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace iolab {

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
    std::uint32_t logicalBlockBytes = 512;
    std::uint32_t physicalBlockBytes = 512;
    std::uint64_t maxTransferBytes = 0;
    std::uint64_t totalBytes = 0;
    std::uint64_t freeBytes = 0;
    // What a probe file in the run folder showed ("" = works, or not probed): why O_DIRECT or fallocate
    // fails.
    bool capabilitiesProbed = false;
    std::string directIoProblem;
    std::string fallocateProblem;

    // tmpfs or ramfs: the data lives in memory, so no figure describes a device.
    bool livesInMemory() const { return fsType == "tmpfs" || fsType == "ramfs"; }

    friend bool operator==(const TargetInfo&, const TargetInfo&) = default;
};

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
