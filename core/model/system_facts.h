// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace iolab {

// One fact about the machine or the storage under a target: its value as the system gave it, or why it is
// unknown. A fact is never guessed: when IOLab could not read it, `value` is empty and `unknownWhy` says why
// ("no cpufreq driver: a virtual machine's CPUs usually have none").
struct Fact
{
    std::string id;         // stable key for comparisons and checks: "queue.scheduler"
    std::string label;      // for people: "I/O scheduler"
    std::string value;      // "mq-deadline"; empty when unknown
    std::string unknownWhy; // when unknown: why
    std::string source;     // where it was read: "/sys/block/nvme0n1/queue/scheduler"

    bool known() const { return !value.empty(); }

    friend bool operator==(const Fact&, const Fact&) = default;
};

// What a layer of the storage stack is. The kinds that change what a figure means (encryption, a loop file,
// a network or FUSE filesystem) are named by the checks.
enum class LayerKind
{
    Filesystem,
    Partition,
    DmCrypt,
    Lvm,
    DeviceMapper, // another device-mapper target (multipath, thin pool, cache ...)
    Md,           // Linux software RAID
    Loop,         // a block device backed by a file
    Disk,         // a device with a transport (NVMe, SATA, USB, virtio ...)
    Network,      // NFS, SMB
    Fuse,
    Memory, // tmpfs, ramfs
};
std::string_view toString(LayerKind kind);
LayerKind layerKindFromString(std::string_view text); // throws InputError

// One layer of the stack under a target, from the filesystem down to the disks: "ext4 on /dev/mapper/root",
// "dm-crypt (dm-0, aes-xts-plain64)", "NVMe disk nvme0n1 (Samsung SSD 980 PRO 1TB)".
struct StorageLayer
{
    LayerKind kind = LayerKind::Disk;
    std::string name;   // the kernel's name: "dm-0", "nvme0n1p2", "loop3"; the filesystem type for Filesystem
    std::string detail; // what else is known: "cryptroot", "backing file /var/lib/images/disk.img"

    friend bool operator==(const StorageLayer&, const StorageLayer&) = default;
};

// The kind of device a figure is measured against (typical ranges per class, the Summary's comparison).
enum class DeviceClass
{
    Unknown,
    NvmeSsd,
    SataSsd,
    SataHdd,
    UsbDrive,
    SdCard, // SD cards and eMMC
    VirtualDisk,
    NetworkShare,
    Memory,
};
std::string_view toString(DeviceClass kind);
DeviceClass deviceClassFromString(std::string_view text); // throws InputError
std::string describe(DeviceClass kind);                   // "NVMe SSD", "SATA hard disk", "virtual disk"

struct FactSection
{
    std::string title; // "Device", "Filesystem", "Kernel", "Machine"
    std::vector<Fact> facts;

    friend bool operator==(const FactSection&, const FactSection&) = default;
};

// What IOLab learnt about a target's storage stack and the machine around it, recorded in every result.
struct SystemFacts
{
    bool gathered = false;           // false for results written before system facts existed
    std::vector<StorageLayer> stack; // the filesystem first, the disks last
    DeviceClass deviceClass = DeviceClass::Unknown;
    std::vector<FactSection> sections;
    double gatherMilliseconds = 0;

    // The fact with this id, or nullptr.
    const Fact* find(std::string_view id) const;
    // Its value, or "" when it is unknown or absent.
    std::string valueOf(std::string_view id) const;
    bool hasLayer(LayerKind kind) const;

    friend bool operator==(const SystemFacts&, const SystemFacts&) = default;
};

// The stack in one line: "ext4 → dm-crypt (dm-0) → partition nvme0n1p2 → NVMe disk nvme0n1".
std::string describeStack(const SystemFacts& facts);

// Builds the sections as a collector goes: add(section, fact) keeps the sections in first-use order.
class FactsBuilder
{
public:
    void known(std::string_view section, std::string id, std::string label, std::string value,
               std::string source = {});
    void unknown(std::string_view section, std::string id, std::string label, std::string why,
                 std::string source = {});
    // `value` when not empty, otherwise unknown with `why`.
    void either(std::string_view section, std::string id, std::string label, std::string value,
                std::string why, std::string source = {});
    std::vector<FactSection> take() { return std::move(m_sections); }

private:
    void add(std::string_view section, Fact fact);
    std::vector<FactSection> m_sections;
};

// A fact's value compared between two results (the History's side-by-side view): the ids in either, in the
// first one's order, then the second's; `differs` when the values (or known-ness) differ.
struct FactDifference
{
    std::string section;
    std::string id;
    std::string label;
    std::string left;  // the value, or "unknown"
    std::string right; // the value, or "unknown"; "—" when the other result has no such fact
    bool differs = false;
};
std::vector<FactDifference> compareFacts(const SystemFacts& left, const SystemFacts& right);

} // namespace iolab
