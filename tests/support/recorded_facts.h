// SPDX-License-Identifier: MIT
#pragma once

#include "core/formats/result_json.h"
#include "core/model/result.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace iolab::test {

// The system facts the Linux collector gives for a recorded /sys and /proc tree (tests/data/facts/<tree>)
// under a mount, kept as the JSON a result file holds (tests/data/facts/<name>.json), so that the core tests
// judge real collector output on every OS the tests run on. SystemFactsLinux.SnapshotsAreWhatTheTreesGive
// gathers each again from its tree and compares (IOLAB_REWRITE_GOLDEN=1 writes them anew: read the diff).
// The trees hold what sysfs and procfs show on such machines, trimmed to the files the collector reads. This
// VM (a virtio disk) has no NVMe, SATA or USB disk, no hwmon and no device-mapper to record them from: the
// sata-ssd and usb3-stick trees are the sata-ssd-cache-off and usb-stick trees with the write cache on and a
// 5 Gbit/s port.
struct RecordedMount
{
    const char* name;   // the snapshot: tests/data/facts/<name>.json
    const char* tree;   // the recorded tree under tests/data/facts
    const char* fsType; // the mount the facts are gathered under
    const char* options;
    const char* source;
    unsigned major; // the filesystem's device number (0:0 for one without a block device)
    unsigned minor;
};

inline const std::vector<RecordedMount>& recordedMounts()
{
    static const std::vector<RecordedMount> mounts{
        {"sata-ssd", "sata-ssd", "ext4", "rw,relatime", "/dev/sda1", 8, 1},
        {"sata-ssd-cache-off", "sata-ssd-cache-off", "ext4", "rw,noatime", "/dev/sda1", 8, 1},
        {"sata-ssd-sync", "sata-ssd", "ext4", "rw,sync,relatime", "/dev/sda1", 8, 1},
        {"sata-ssd-data-journal", "sata-ssd", "ext4", "rw,relatime,data=journal", "/dev/sda1", 8, 1},
        {"sata-ssd-dirsync", "sata-ssd", "ext4", "rw,dirsync,relatime", "/dev/sda1", 8, 1},
        {"nvme", "nvme", "ext4", "rw,relatime", "/dev/nvme0n1p2", 259, 2},
        {"usb2-stick", "usb-stick", "vfat", "rw,nosuid", "/dev/sdb1", 8, 17},
        {"usb3-stick", "usb3-stick", "vfat", "rw,nosuid", "/dev/sdb1", 8, 17},
        {"fuse", "fuse", "fuse.sshfs", "rw,nosuid,nodev", "user@host:/srv", 0, 0},
        {"nfs", "fuse", "nfs4", "rw,relatime,vers=4.2", "server:/export", 0, 0},
    };
    return mounts;
}

inline const RecordedMount& recordedMount(const std::string& name)
{
    for (const auto& m : recordedMounts()) {
        if (name == m.name)
            return m;
    }
    throw std::invalid_argument("no recorded mount " + name);
}

inline std::string recordedFactsPath(const std::string& name)
{
    return std::string(IOLAB_SOURCE_DIR) + "/tests/data/facts/" + name + ".json";
}

// The target a result on that mount carries (what the Summary quotes as the mount options).
inline TargetInfo recordedTarget(const std::string& name)
{
    const auto& m = recordedMount(name);
    TargetInfo t;
    t.path = "/mnt/target";
    t.mountPoint = "/mnt/target";
    t.fsType = m.fsType;
    t.mountOptions = m.options;
    t.mountSource = m.source;
    return t;
}

// Facts as a result file's "system" key holds them, without the time the gathering took (it varies).
inline std::string factsSnapshotText(SystemFacts facts)
{
    facts.gatherMilliseconds = 0;
    RunResult result;
    result.system = std::move(facts);
    return resultToJson(result).at("system").dump(1) + "\n";
}

// The snapshot's facts, read back through the result file reader.
inline SystemFacts recordedFacts(const std::string& name)
{
    const std::string path = recordedFactsPath(name);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read " + path);
    std::ostringstream text;
    text << in.rdbuf();
    nlohmann::json result = resultToJson(RunResult{});
    result["system"] = nlohmann::json::parse(text.str());
    return resultFromJson(result.dump(), path).system;
}

} // namespace iolab::test
