// SPDX-License-Identifier: MIT
// System facts on Linux: the target's device stack walked through /sys/dev/block and each layer's slaves
// (dm-crypt, LVM, md, loop, partitions, down to the disks), the disk's queue, transport and link, the mount
// options that change a figure, the kernel's writeback and memory settings, and the machine.
#include "platform/linux/system_facts_linux.h"
#include "platform/linux/thermal_linux.h"

#include "core/base/units.h"
#include "platform/platform.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace iolab {

namespace linux_facts {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStorage = "Storage";
constexpr std::string_view kDevice = "Device";
constexpr std::string_view kFilesystem = "Filesystem";
constexpr std::string_view kKernel = "Kernel";
constexpr std::string_view kMachine = "Machine";

std::string trimmed(std::string text)
{
    const auto notSpace = [](unsigned char ch) {
        return ch != ' ' && ch != '\n' && ch != '\t' && ch != '\r';
    };
    text.erase(text.begin(), std::find_if(text.begin(), text.end(), notSpace));
    text.erase(std::find_if(text.rbegin(), text.rend(), notSpace).base(), text.end());
    return text;
}

std::string readFirstLine(const fs::path& path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return trimmed(line);
}

std::string readWhole(const fs::path& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// "none [mq-deadline] kyber" → "mq-deadline"; a file without brackets is its own value.
std::string bracketed(const std::string& text)
{
    const auto open = text.find('[');
    const auto close = text.find(']', open);
    if (open == std::string::npos || close == std::string::npos)
        return text;
    return text.substr(open + 1, close - open - 1);
}

// The value of "key=value" among the options, or "".
std::string optionValue(const std::string& options, std::string_view key)
{
    std::istringstream in(options);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.size() > key.size() && item.starts_with(key) && item[key.size()] == '=')
            return item.substr(key.size() + 1);
    }
    return {};
}

std::uint64_t meminfoBytes(const std::string& meminfo, std::string_view key)
{
    const auto at = meminfo.find(std::string(key) + ":");
    if (at == std::string::npos)
        return 0;
    return std::strtoull(meminfo.c_str() + at + key.size() + 1, nullptr, 10) * kKiB;
}

class Collector
{
public:
    Collector(std::string root, const TargetInfo& target) : m_root(std::move(root)), m_target(target) {}

    SystemFacts run(unsigned major, unsigned minor)
    {
        SystemFacts facts;
        facts.gathered = true;
        stack(facts, major, minor);
        facts.deviceClass = deviceClass(facts);
        storageFacts(facts);
        deviceFacts();
        filesystemFacts();
        kernelFacts();
        machineFacts();
        facts.sections = m_facts.take();
        return facts;
    }

private:
    fs::path at(std::string_view path) const { return fs::path(m_root + std::string(path)); }
    // A path inside the tree as the live system would name it (for the facts' sources).
    std::string shown(const fs::path& path) const
    {
        auto text = path.string();
        if (!m_root.empty() && text.starts_with(m_root))
            text.erase(0, m_root.size());
        return text;
    }

    void stack(SystemFacts& facts, unsigned major, unsigned minor)
    {
        const auto& type = m_target.fsType;
        StorageLayer top{LayerKind::Filesystem, type, m_target.mountSource};
        if (type.starts_with("fuse"))
            top.kind = LayerKind::Fuse;
        else if (type == "nfs" || type == "nfs4" || type == "cifs" || type == "smb3" || type == "smbfs" ||
                 type == "9p" || type == "ceph" || type == "glusterfs")
            top.kind = LayerKind::Network;
        else if (type == "tmpfs" || type == "ramfs")
            top.kind = LayerKind::Memory;
        facts.stack.push_back(top);
        if (major == 0) {
            m_noDeviceWhy =
                top.kind == LayerKind::Filesystem
                    ? fmt::format("{} on {} has no single block device to read", type, m_target.mountSource)
                    : fmt::format("a {} filesystem has no block device on this machine", toString(top.kind));
            return;
        }
        std::error_code ec;
        const auto node = fs::canonical(at(fmt::format("/sys/dev/block/{}:{}", major, minor)), ec);
        if (ec) {
            m_noDeviceWhy =
                fmt::format("/sys/dev/block/{}:{} cannot be read: {}", major, minor, ec.message());
            return;
        }
        walk(facts, node, 0);
    }

    void walk(SystemFacts& facts, const fs::path& node, int depth)
    {
        if (depth > 8)
            return; // a loop in a damaged tree; real stacks are a handful of layers deep
        std::error_code ec;
        const auto name = node.filename().string();
        if (fs::exists(node / "partition", ec)) {
            facts.stack.push_back({LayerKind::Partition, name, {}});
            walk(facts, node.parent_path(), depth + 1);
            return;
        }
        if (fs::exists(node / "dm", ec)) {
            const auto uuid = readFirstLine(node / "dm" / "uuid");
            const auto dmName = readFirstLine(node / "dm" / "name");
            LayerKind kind = LayerKind::DeviceMapper;
            if (uuid.starts_with("CRYPT-"))
                kind = LayerKind::DmCrypt;
            else if (uuid.starts_with("LVM-"))
                kind = LayerKind::Lvm;
            facts.stack.push_back({kind, name, dmName});
            slaves(facts, node, depth);
            return;
        }
        if (fs::exists(node / "md", ec)) {
            facts.stack.push_back({LayerKind::Md, name, readFirstLine(node / "md" / "level")});
            slaves(facts, node, depth);
            return;
        }
        if (fs::exists(node / "loop", ec)) {
            const auto backing = readFirstLine(node / "loop" / "backing_file");
            facts.stack.push_back(
                {LayerKind::Loop, name, backing.empty() ? std::string() : "backing file " + backing});
            m_loopBacking = backing;
            return;
        }
        const auto transport = transportOf(node);
        facts.stack.push_back({LayerKind::Disk, name, transport});
        m_disks.push_back(node);
        m_transports.push_back(transport);
    }

    void slaves(SystemFacts& facts, const fs::path& node, int depth)
    {
        std::error_code ec;
        std::vector<fs::path> below;
        for (const auto& entry : fs::directory_iterator(node / "slaves", ec)) {
            const auto target = fs::canonical(entry.path(), ec);
            if (!ec)
                below.push_back(target);
        }
        std::sort(below.begin(), below.end());
        for (const auto& next : below)
            walk(facts, next, depth + 1);
    }

    // What the disk hangs off, from where sysfs puts it: the PCI NVMe controller, the ATA port, the USB
    // device, virtio, MMC.
    static std::string transportOf(const fs::path& disk)
    {
        const auto path = disk.string();
        const auto name = disk.filename().string();
        const auto has = [&](std::string_view part) {
            return path.find(part) != std::string::npos;
        };
        if (name.starts_with("nvme") || has("/nvme/"))
            return "NVMe";
        if (has("/usb"))
            return "USB";
        if (has("/virtio"))
            return "virtio";
        if (name.starts_with("mmcblk") || has("/mmc_host/"))
            return "MMC/SD";
        if (name.starts_with("xvd") || has("/xen/"))
            return "Xen";
        if (has("/ata"))
            return "SATA";
        if (name.starts_with("zram") || name.starts_with("ram"))
            return "RAM";
        if (has("/host") && has("/target"))
            return "SCSI";
        return {};
    }

    DeviceClass deviceClass(const SystemFacts& facts) const
    {
        switch (facts.stack.front().kind) {
        case LayerKind::Memory:
            return DeviceClass::Memory;
        case LayerKind::Network:
            return DeviceClass::NetworkShare;
        case LayerKind::Fuse:
            return DeviceClass::Unknown;
        default:
            break;
        }
        if (m_disks.empty())
            return DeviceClass::Unknown;
        const auto& transport = m_transports.front();
        const auto rotational = readFirstLine(m_disks.front() / "queue" / "rotational");
        if (transport == "NVMe")
            return DeviceClass::NvmeSsd;
        if (transport == "USB")
            return DeviceClass::UsbDrive;
        if (transport == "MMC/SD")
            return DeviceClass::SdCard;
        if (transport == "virtio" || transport == "Xen" || looksVirtual(m_target))
            return DeviceClass::VirtualDisk;
        if (transport == "SATA" || transport == "SCSI") {
            if (rotational == "1")
                return DeviceClass::SataHdd;
            if (rotational == "0")
                return DeviceClass::SataSsd;
        }
        return DeviceClass::Unknown;
    }

    void storageFacts(const SystemFacts& facts)
    {
        m_facts.known(kStorage, "stack", "Storage stack", describeStack(facts), "/sys/dev/block, slaves");
        std::vector<std::string> meaning;
        for (const auto& layer : facts.stack) {
            switch (layer.kind) {
            case LayerKind::DmCrypt:
                meaning.emplace_back("dm-crypt encrypts every block (CPU work in each write)");
                break;
            case LayerKind::Loop:
                meaning.emplace_back("a loop device: the data goes to a file on another filesystem");
                break;
            case LayerKind::Fuse:
                meaning.emplace_back("FUSE: a user-space program serves every call");
                break;
            case LayerKind::Network:
                meaning.emplace_back("a network filesystem: the network and the server are measured too");
                break;
            case LayerKind::Memory:
                meaning.emplace_back("the data lives in memory: no device is measured");
                break;
            case LayerKind::Md:
                meaning.push_back("software RAID (" + layer.detail + ") over " +
                                  std::to_string(m_disks.size()) + " disks");
                break;
            default:
                break;
            }
        }
        std::string joined;
        for (const auto& m : meaning)
            joined += (joined.empty() ? "" : "; ") + m;
        m_facts.known(kStorage, "stack.meaning", "Layers that change the figures",
                      joined.empty() ? "none" : joined);
        if (!m_loopBacking.empty())
            m_facts.known(kStorage, "loop.backing", "Loop device's backing file", m_loopBacking);
    }

    void deviceFacts()
    {
        if (m_disks.empty()) {
            const auto why = m_noDeviceWhy.empty() && !m_loopBacking.empty()
                                 ? "a loop device: the disk under its backing file is not followed"
                                 : m_noDeviceWhy;
            for (const auto& [id, label] : {std::pair{"device.transport", "Transport"},
                                            {"device.model", "Model"},
                                            {"queue.write_cache", "Write cache"},
                                            {"queue.rotational", "Rotational"}})
                m_facts.unknown(kDevice, id, label, why);
            return;
        }
        const auto& disk = m_disks.front();
        const auto queue = disk / "queue";
        if (m_disks.size() > 1) {
            std::string names;
            for (const auto& d : m_disks)
                names += (names.empty() ? "" : ", ") + d.filename().string();
            m_facts.known(kDevice, "device.disks", "Disks", names + " (the facts below are the first one's)");
        }
        m_facts.known(kDevice, "device.name", "Disk", disk.filename().string(), shown(disk));
        m_facts.either(kDevice, "device.transport", "Transport", m_transports.front(),
                       "sysfs does not say what the disk is attached to", shown(disk));
        auto model = readFirstLine(disk / "device" / "model");
        const auto vendor = readFirstLine(disk / "device" / "vendor");
        if (!model.empty() && !vendor.empty() && !model.starts_with(vendor) && vendor != "ATA")
            model = vendor + " " + model;
        m_facts.either(kDevice, "device.model", "Model", model, "the device gives no model in sysfs",
                       shown(disk / "device" / "model"));
        auto firmware = readFirstLine(disk / "device" / "firmware_rev");
        auto firmwareSource = disk / "device" / "firmware_rev";
        if (firmware.empty()) {
            firmwareSource = disk / "device" / "rev";
            firmware = readFirstLine(firmwareSource);
        }
        m_facts.either(kDevice, "device.firmware", "Firmware", firmware,
                       "the device gives no firmware revision", shown(firmwareSource));
        // Its heat as the run begins; each case's readings before and after are in the results.
        if (const auto heat = linux_thermal::hwmon(disk)) {
            std::string value = temperatureText(heat, std::nullopt);
            if (heat->warningCelsius)
                value += fmt::format(" (warning {:.0f} °C", *heat->warningCelsius) +
                         (heat->criticalCelsius ? fmt::format(", critical {:.0f} °C)", *heat->criticalCelsius)
                                                : std::string(")"));
            m_facts.known(kDevice, "device.temperature", "Temperature", value, heat->source);
        } else {
            m_facts.unknown(kDevice, "device.temperature", "Temperature",
                            "the disk has no temperature sensor Linux shows (hwmon)");
        }
        link(disk);
        const auto scheduler = readFirstLine(queue / "scheduler");
        m_facts.either(kDevice, "queue.scheduler", "I/O scheduler", bracketed(scheduler),
                       "the queue has no scheduler file", shown(queue / "scheduler"));
        m_facts.either(kDevice, "queue.nr_requests", "Queue depth (nr_requests)",
                       readFirstLine(queue / "nr_requests"), "not in sysfs", shown(queue / "nr_requests"));
        const auto maxKb = readFirstLine(queue / "max_sectors_kb");
        m_facts.either(kDevice, "queue.max_sectors_kb", "Largest request",
                       maxKb.empty() ? "" : maxKb + " KiB", "not in sysfs", shown(queue / "max_sectors_kb"));
        const auto rotational = readFirstLine(queue / "rotational");
        m_facts.either(kDevice, "queue.rotational", "Rotational",
                       rotational == "1" ? "yes" : (rotational == "0" ? "no" : ""), "not in sysfs",
                       shown(queue / "rotational"));
        m_facts.either(kDevice, "queue.write_cache", "Write cache", readFirstLine(queue / "write_cache"),
                       "the kernel does not report this queue's cache mode", shown(queue / "write_cache"));
        const auto fua = readFirstLine(queue / "fua");
        m_facts.either(kDevice, "queue.fua", "Force Unit Access (FUA)",
                       fua == "1" ? "yes" : (fua == "0" ? "no" : ""), "this kernel does not report FUA",
                       shown(queue / "fua"));
        const auto discard = readFirstLine(queue / "discard_max_bytes");
        std::string discardText;
        if (!discard.empty()) {
            const auto bytes = std::strtoull(discard.c_str(), nullptr, 10);
            discardText = bytes == 0 ? "no" : "yes (up to " + formatBytes(bytes) + " a request)";
        }
        m_facts.either(kDevice, "queue.discard", "Discard (TRIM)", discardText, "not in sysfs",
                       shown(queue / "discard_max_bytes"));
    }

    // The link between the disk and the machine: PCIe for NVMe, the SATA link, the USB port's speed.
    void link(const fs::path& disk)
    {
        const auto& transport = m_transports.front();
        std::error_code ec;
        if (transport == "NVMe") {
            // nvme0n1 → device (nvme0) → device (the PCI function)
            const auto pci = disk / "device" / "device";
            const auto speed = readFirstLine(pci / "current_link_speed");
            const auto width = readFirstLine(pci / "current_link_width");
            m_facts.either(kDevice, "device.link", "Link",
                           speed.empty()
                               ? ""
                               : fmt::format("{}{}{}", speed.find("PCIe") == std::string::npos ? "PCIe " : "",
                                             speed, width.empty() ? "" : " x" + width),
                           "the PCI function gives no link speed", shown(pci / "current_link_speed"));
            return;
        }
        if (transport == "SATA") {
            // .../ataN/link*/ata_link/link*/sata_spd
            for (auto dir = disk; dir.has_parent_path() && dir != dir.parent_path();
                 dir = dir.parent_path()) {
                const auto base = dir.filename().string();
                if (!base.starts_with("ata") || base.size() < 4 ||
                    !std::isdigit(static_cast<unsigned char>(base[3])))
                    continue;
                for (const auto& link : fs::directory_iterator(dir, ec)) {
                    const auto linkName = link.path().filename().string();
                    if (!linkName.starts_with("link"))
                        continue;
                    const auto spd = link.path() / "ata_link" / linkName / "sata_spd";
                    const auto speed = readFirstLine(spd);
                    if (!speed.empty() && speed != "<unknown>") {
                        m_facts.known(kDevice, "device.link", "Link", "SATA " + speed, shown(spd));
                        return;
                    }
                }
                break;
            }
            m_facts.unknown(kDevice, "device.link", "Link", "the ATA link gives no speed in sysfs");
            return;
        }
        if (transport == "USB") {
            for (auto dir = disk; dir.has_parent_path() && dir != dir.parent_path();
                 dir = dir.parent_path()) {
                if (fs::exists(dir / "speed", ec) && fs::exists(dir / "idVendor", ec)) {
                    const auto mbps = readFirstLine(dir / "speed");
                    const auto number = std::strtod(mbps.c_str(), nullptr);
                    const char* generation = number >= 10000  ? "USB 3.1+"
                                             : number >= 5000 ? "USB 3"
                                             : number >= 480  ? "USB 2"
                                                              : "USB 1";
                    m_facts.known(kDevice, "device.link", "Link",
                                  fmt::format("{} Mbit/s ({})", mbps, generation), shown(dir / "speed"));
                    return;
                }
            }
            m_facts.unknown(kDevice, "device.link", "Link", "the USB device gives no speed in sysfs");
            return;
        }
        if (transport == "virtio" || transport == "Xen") {
            m_facts.unknown(kDevice, "device.link", "Link", "a virtual disk has no physical link to read");
            return;
        }
        m_facts.unknown(kDevice, "device.link", "Link", "sysfs gives no link speed for this transport");
    }

    void filesystemFacts()
    {
        const auto& type = m_target.fsType;
        const auto& options = m_target.mountOptions;
        const std::string source = "/proc/self/mountinfo";
        m_facts.either(kFilesystem, "fs.type", "Filesystem", type, "the mount was not found", source);
        m_facts.either(kFilesystem, "fs.options", "Mount options", options, "the mount was not found",
                       source);
        std::string syncMode = "no";
        if (hasMountOption(options, "sync"))
            syncMode = "sync: every write waits for the device";
        else if (hasMountOption(options, "dirsync"))
            syncMode = "dirsync: directory changes wait for the device";
        m_facts.known(kFilesystem, "fs.sync", "Synchronous mount", syncMode, source);
        if (type == "ext3" || type == "ext4") {
            const auto data = optionValue(options, "data");
            m_facts.known(kFilesystem, "fs.data_mode", "Journal mode",
                          data.empty() ? "ordered (the default)" : data, source);
        }
        const bool noBarrier = hasMountOption(options, "nobarrier") || hasMountOption(options, "barrier=0");
        m_facts.known(kFilesystem, "fs.barrier", "Write barriers",
                      noBarrier ? "off: flushes are not sent, a power cut can lose synced data" : "on",
                      source);
        std::string atime = "relatime";
        for (const auto* option : {"noatime", "strictatime", "lazytime"}) {
            if (hasMountOption(options, option))
                atime = option;
        }
        m_facts.known(kFilesystem, "fs.atime", "Access times", atime, source);
        if (type == "btrfs") {
            auto compress = optionValue(options, "compress");
            if (compress.empty())
                compress = optionValue(options, "compress-force");
            m_facts.known(kFilesystem, "fs.compression", "Compression", compress.empty() ? "off" : compress,
                          source);
            m_facts.known(kFilesystem, "fs.cow", "Copy-on-write",
                          hasMountOption(options, "nodatacow") ? "off (nodatacow)" : "yes (btrfs)", source);
        } else if (type == "zfs") {
            m_facts.unknown(kFilesystem, "fs.compression", "Compression",
                            "ZFS keeps it in the dataset's properties (zfs get compression)");
            m_facts.known(kFilesystem, "fs.cow", "Copy-on-write", "yes (ZFS)", source);
        } else if (type == "f2fs" && hasMountOption(options, "compress_algorithm")) {
            m_facts.known(kFilesystem, "fs.compression", "Compression",
                          optionValue(options, "compress_algorithm"), source);
        } else {
            m_facts.known(kFilesystem, "fs.compression", "Compression",
                          "none (" + type + " does not compress)", source);
        }
    }

    void kernelFacts()
    {
        const auto vm = [&](const char* id, const char* label, const char* file, const char* unit) {
            const auto path = at(std::string("/proc/sys/vm/") + file);
            const auto value = readFirstLine(path);
            m_facts.either(kKernel, id, label, value.empty() ? "" : value + unit, "cannot be read",
                           shown(path));
        };
        const auto dirtyBytes = readFirstLine(at("/proc/sys/vm/dirty_bytes"));
        if (!dirtyBytes.empty() && dirtyBytes != "0")
            m_facts.known(kKernel, "vm.dirty_limit", "Dirty page limit",
                          formatBytes(std::strtoull(dirtyBytes.c_str(), nullptr, 10)) + " (vm.dirty_bytes)",
                          "/proc/sys/vm/dirty_bytes");
        else
            vm("vm.dirty_limit", "Dirty page limit", "dirty_ratio", "% of available memory (vm.dirty_ratio)");
        vm("vm.dirty_background", "Background writeback starts at", "dirty_background_ratio",
           "% of available memory");
        const auto expire = readFirstLine(at("/proc/sys/vm/dirty_expire_centisecs"));
        m_facts.either(kKernel, "vm.dirty_expire", "Dirty data written back after",
                       expire.empty() ? "" : formatDuration(std::strtod(expire.c_str(), nullptr) / 100.0),
                       "cannot be read", "/proc/sys/vm/dirty_expire_centisecs");
        const auto thp = at("/sys/kernel/mm/transparent_hugepage/enabled");
        m_facts.either(kKernel, "kernel.thp", "Transparent huge pages", bracketed(readFirstLine(thp)),
                       "this kernel has no transparent huge pages", shown(thp));
        const auto governor = at("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
        m_facts.either(kKernel, "cpu.governor", "CPU frequency governor", readFirstLine(governor),
                       "no cpufreq driver (usual in a virtual machine: the host sets the clock)",
                       shown(governor));
    }

    void machineFacts()
    {
        const auto cpuinfo = readWhole(at("/proc/cpuinfo"));
        const bool hypervisorBit = cpuinfo.find(" hypervisor") != std::string::npos;
        const auto vendor = readFirstLine(at("/sys/class/dmi/id/sys_vendor"));
        const auto product = readFirstLine(at("/sys/class/dmi/id/product_name"));
        std::string virt;
        if (hypervisorBit || looksLikeHypervisor(vendor + " " + product)) {
            virt = "yes";
            const auto who = trimmed(vendor + " " + product);
            if (!who.empty())
                virt += " (" + who + ")";
            if (hypervisorBit)
                virt += ", CPUID hypervisor bit set";
        } else if (!cpuinfo.empty()) {
            virt = "none detected";
            if (!vendor.empty())
                virt += " (" + trimmed(vendor + " " + product) + ")";
        }
        m_facts.either(kMachine, "machine.virtual", "Virtual machine", virt,
                       "neither /proc/cpuinfo nor the DMI tables can be read",
                       "/proc/cpuinfo, /sys/class/dmi/id");
        const auto meminfo = readWhole(at("/proc/meminfo"));
        const auto ram = meminfoBytes(meminfo, "MemTotal");
        const auto available = meminfoBytes(meminfo, "MemAvailable");
        m_facts.either(kMachine, "memory.total", "Memory",
                       ram == 0 ? ""
                                : fmt::format("{} ({} available)", formatBytes(ram), formatBytes(available)),
                       "/proc/meminfo cannot be read", "/proc/meminfo");
        const auto swap = meminfoBytes(meminfo, "SwapTotal");
        m_facts.either(kMachine, "memory.swap", "Swap",
                       meminfo.empty() ? "" : (swap == 0 ? "none" : formatBytes(swap)),
                       "/proc/meminfo cannot be read", "/proc/meminfo");
        for (const auto& [id, label, file] : {std::tuple{"psi.memory", "Memory pressure", "memory"},
                                              std::tuple{"psi.io", "I/O pressure", "io"}}) {
            const auto path = at(std::string("/proc/pressure/") + file);
            m_facts.either(kMachine, id, label, pressure(readFirstLine(path)),
                           "the kernel keeps no pressure stall information (CONFIG_PSI, or psi=0 at boot)",
                           shown(path));
        }
    }

    static bool looksLikeHypervisor(const std::string& text)
    {
        std::string lower = text;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
        for (const char* word :
             {"qemu", "kvm", "vmware", "virtualbox", "innotek", "xen", "microsoft corporation virtual",
              "bochs", "amazon ec2", "google compute", "parallels"}) {
            if (lower.find(word) != std::string::npos)
                return true;
        }
        return false;
    }

    // "some avg10=1.23 avg60=0.50 avg300=0.10 total=123" → "some tasks stalled 1.23% of the last 10 s, 0.50%
    // of the last minute".
    static std::string pressure(const std::string& line)
    {
        if (!line.starts_with("some "))
            return {};
        const auto value = [&](std::string_view key) {
            const auto at = line.find(key);
            return at == std::string::npos
                       ? std::string("?")
                       : line.substr(at + key.size(), line.find(' ', at) - at - key.size());
        };
        return fmt::format("stalled {}% of the last 10 s, {}% of the last minute", value("avg10="),
                           value("avg60="));
    }

    std::string m_root;
    const TargetInfo& m_target;
    FactsBuilder m_facts;
    std::vector<fs::path> m_disks;
    std::vector<std::string> m_transports;
    std::string m_loopBacking;
    std::string m_noDeviceWhy;
};

} // namespace

SystemFacts gather(const std::string& root, const TargetInfo& target, unsigned major, unsigned minor)
{
    return Collector(root, target).run(major, minor);
}

} // namespace linux_facts

SystemFacts gatherSystemFacts(const TargetInfo& target)
{
    const auto started = std::chrono::steady_clock::now();
    struct stat st
    {};
    unsigned devMajor = 0;
    unsigned devMinor = 0;
    if (::stat(target.path.c_str(), &st) == 0) {
        devMajor = major(st.st_dev);
        devMinor = minor(st.st_dev);
    }
    // btrfs gives each subvolume an anonymous device (major 0): the mount's source names the real one.
    struct stat source
    {};
    if (devMajor == 0 && target.mountSource.starts_with("/dev/") &&
        ::stat(target.mountSource.c_str(), &source) == 0 && S_ISBLK(source.st_mode)) {
        devMajor = major(source.st_rdev);
        devMinor = minor(source.st_rdev);
    }
    auto facts = linux_facts::gather("", target, devMajor, devMinor);
    facts.gatherMilliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    return facts;
}

} // namespace iolab
