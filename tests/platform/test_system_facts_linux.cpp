// SPDX-License-Identifier: MIT
// Issue 18: the system facts of a target on Linux, read from recorded /sys and /proc trees (tests/data/facts,
// one per kind of storage) and from this machine.
#include "core/formats/result_json.h"
#include "core/model/system_facts.h"
#include "platform/linux/system_facts_linux.h"
#include "platform/platform.h"
#include "tests/support/recorded_facts.h"
#include "tests/support/system_facts.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::StartsWith;

namespace {

std::string tree(const std::string& name)
{
    return std::string(IOLAB_SOURCE_DIR) + "/tests/data/facts/" + name;
}

TargetInfo mount(std::string fsType, std::string options, std::string source)
{
    TargetInfo t;
    t.path = "/mnt/target";
    t.mountPoint = "/mnt/target";
    t.fsType = std::move(fsType);
    t.mountOptions = std::move(options);
    t.mountSource = std::move(source);
    return t;
}

// What a reader sees: the value, or "unknown: why".
std::string shown(const SystemFacts& facts, const std::string& id)
{
    const auto* fact = facts.find(id);
    if (fact == nullptr)
        return "(absent)";
    return fact->known() ? fact->value : "unknown: " + fact->unknownWhy;
}

} // namespace

TEST(SystemFactsLinux, AnNvmePartitionWithItsLinkQueueAndMachine)
{
    const auto facts =
        linux_facts::gather(tree("nvme"), mount("ext4", "rw,relatime", "/dev/nvme0n1p2"), 259, 2);
    ASSERT_TRUE(facts.gathered);
    EXPECT_EQ(describeStack(facts), "ext4 → partition nvme0n1p2 → NVMe disk nvme0n1");
    EXPECT_EQ(facts.deviceClass, DeviceClass::NvmeSsd);
    EXPECT_EQ(shown(facts, "device.transport"), "NVMe");
    EXPECT_EQ(shown(facts, "device.model"), "Samsung SSD 980 PRO 1TB");
    EXPECT_EQ(shown(facts, "device.firmware"), "5B2QGXA7");
    EXPECT_EQ(shown(facts, "device.link"), "16.0 GT/s PCIe x4");
    EXPECT_EQ(shown(facts, "queue.scheduler"), "none");
    EXPECT_EQ(shown(facts, "queue.nr_requests"), "1023");
    EXPECT_EQ(shown(facts, "queue.max_sectors_kb"), "128 KiB");
    EXPECT_EQ(shown(facts, "queue.rotational"), "no");
    EXPECT_EQ(shown(facts, "queue.write_cache"), "write back");
    EXPECT_EQ(shown(facts, "queue.fua"), "yes");
    EXPECT_THAT(shown(facts, "queue.discard"), StartsWith("yes"));
    EXPECT_EQ(shown(facts, "stack.meaning"), "none");
    EXPECT_EQ(shown(facts, "fs.data_mode"), "ordered (the default)");
    EXPECT_EQ(shown(facts, "vm.dirty_limit"), "20% of available memory (vm.dirty_ratio)");
    EXPECT_EQ(shown(facts, "vm.dirty_expire"), "30.0 s");
    EXPECT_EQ(shown(facts, "kernel.thp"), "madvise");
    EXPECT_EQ(shown(facts, "cpu.governor"), "powersave");
    EXPECT_EQ(shown(facts, "machine.virtual"), "none detected (LENOVO 20XW0026GE)");
    EXPECT_THAT(shown(facts, "memory.total"), StartsWith("15.5 GiB"));
    EXPECT_EQ(shown(facts, "memory.swap"), "2.0 GiB");
    EXPECT_EQ(shown(facts, "psi.io"), "stalled 4.20% of the last 10 s, 1.10% of the last minute");
    // Sources are named as on the machine, not as in the recorded tree.
    EXPECT_THAT(facts.find("queue.scheduler")->source, StartsWith("/sys/devices/"));
    expectEveryFactExplained(facts);
}

TEST(SystemFactsLinux, ASataSsdWithItsWriteCacheOff)
{
    const auto facts =
        linux_facts::gather(tree("sata-ssd-cache-off"), mount("ext4", "rw,noatime", "/dev/sda1"), 8, 1);
    EXPECT_EQ(describeStack(facts), "ext4 → partition sda1 → SATA disk sda");
    EXPECT_EQ(facts.deviceClass, DeviceClass::SataSsd);
    EXPECT_EQ(shown(facts, "queue.write_cache"), "write through");
    EXPECT_EQ(shown(facts, "queue.fua"), "no");
    EXPECT_EQ(shown(facts, "device.link"), "SATA 6.0 Gbps");
    EXPECT_EQ(shown(facts, "device.model"),
              "Samsung SSD 870"); // the "ATA" vendor of every SATA disk left out
    EXPECT_EQ(shown(facts, "device.firmware"), "2B6Q");
    EXPECT_EQ(shown(facts, "queue.scheduler"), "mq-deadline");
    EXPECT_EQ(shown(facts, "fs.atime"), "noatime");
    expectEveryFactExplained(facts);
}

TEST(SystemFactsLinux, AUsbStickSaysItsPortSpeed)
{
    const auto facts = linux_facts::gather(tree("usb-stick"), mount("vfat", "rw,nosuid", "/dev/sdb1"), 8, 17);
    EXPECT_EQ(describeStack(facts), "vfat → partition sdb1 → USB disk sdb");
    EXPECT_EQ(facts.deviceClass, DeviceClass::UsbDrive);
    EXPECT_EQ(shown(facts, "device.link"), "480 Mbit/s (USB 2)");
    EXPECT_EQ(shown(facts, "device.model"), "SanDisk Cruzer Blade");
    EXPECT_EQ(shown(facts, "queue.rotational"), "yes"); // as the stick claims: the class comes from the bus
    EXPECT_EQ(shown(facts, "queue.discard"), "no");
    EXPECT_EQ(shown(facts, "fs.compression"), "none (vfat does not compress)");
    expectEveryFactExplained(facts);
}

TEST(SystemFactsLinux, DmCryptOnNvmeIsALayerThatChangesTheFigures)
{
    const auto facts = linux_facts::gather(tree("dm-crypt-nvme"),
                                           mount("ext4", "rw,relatime", "/dev/mapper/luks-6f7a0c9e"), 254, 0);
    EXPECT_EQ(describeStack(facts), "ext4 → dm-crypt dm-0 → partition nvme0n1p3 → NVMe disk nvme0n1");
    ASSERT_EQ(facts.stack.size(), 4u);
    EXPECT_EQ(facts.stack[1].kind, LayerKind::DmCrypt);
    EXPECT_EQ(facts.stack[1].detail, "luks-6f7a0c9e");
    EXPECT_TRUE(facts.hasLayer(LayerKind::DmCrypt));
    EXPECT_EQ(facts.deviceClass, DeviceClass::NvmeSsd);
    EXPECT_THAT(shown(facts, "stack.meaning"), HasSubstr("dm-crypt encrypts every block"));
    // The device facts are the disk's, not the mapping's: the NVMe queue takes FUA, dm-0's says no.
    EXPECT_EQ(shown(facts, "device.name"), "nvme0n1");
    EXPECT_EQ(shown(facts, "queue.fua"), "yes");
    EXPECT_EQ(shown(facts, "queue.max_sectors_kb"), "512 KiB");
    EXPECT_EQ(shown(facts, "device.link"), "8.0 GT/s PCIe x4");
    expectEveryFactExplained(facts);
}

TEST(SystemFactsLinux, ALoopDeviceNamesItsBackingFileAndWhatItCannotFollow)
{
    const auto facts = linux_facts::gather(tree("loop"), mount("ext4", "rw,relatime", "/dev/loop0"), 7, 0);
    EXPECT_EQ(describeStack(facts), "ext4 → loop loop0");
    EXPECT_EQ(facts.stack.back().detail, "backing file /home/user/images/disk.img");
    EXPECT_EQ(facts.deviceClass, DeviceClass::Unknown);
    EXPECT_THAT(shown(facts, "stack.meaning"), HasSubstr("a loop device"));
    EXPECT_EQ(shown(facts, "loop.backing"), "/home/user/images/disk.img");
    EXPECT_THAT(shown(facts, "device.transport"), HasSubstr("unknown: a loop device"));
    // A VM without cpufreq and a kernel without PSI: unknown, each with its reason.
    EXPECT_THAT(shown(facts, "cpu.governor"), HasSubstr("unknown: no cpufreq driver"));
    EXPECT_THAT(shown(facts, "psi.memory"),
                HasSubstr("unknown: the kernel keeps no pressure stall information"));
    EXPECT_EQ(shown(facts, "machine.virtual"),
              "yes (QEMU Standard PC (Q35 + ICH9, 2009)), CPUID hypervisor bit set");
    expectEveryFactExplained(facts);
}

TEST(SystemFactsLinux, AFuseMountHasNoDeviceAndSaysWhy)
{
    const auto facts =
        linux_facts::gather(tree("fuse"), mount("fuse.sshfs", "rw,nosuid,nodev", "user@host:/srv"), 0, 0);
    ASSERT_EQ(facts.stack.size(), 1u);
    EXPECT_EQ(facts.stack[0].kind, LayerKind::Fuse);
    EXPECT_EQ(facts.deviceClass, DeviceClass::Unknown);
    EXPECT_THAT(shown(facts, "stack.meaning"), HasSubstr("FUSE: a user-space program serves every call"));
    EXPECT_EQ(shown(facts, "device.transport"),
              "unknown: a fuse filesystem has no block device on this machine");
    EXPECT_EQ(shown(facts, "cpu.governor"), "powersave"); // the machine's facts are there all the same
    expectEveryFactExplained(facts);
}

TEST(SystemFactsLinux, MountOptionsThatChangeWhatAWriteCosts)
{
    const auto btrfs =
        linux_facts::gather(tree("nvme"), mount("btrfs", "rw,compress=zstd:3,nobarrier", "/dev/x"), 259, 2);
    EXPECT_EQ(shown(btrfs, "fs.compression"), "zstd:3");
    EXPECT_EQ(shown(btrfs, "fs.cow"), "yes (btrfs)");
    EXPECT_THAT(shown(btrfs, "fs.barrier"), StartsWith("off"));
    const auto noCow = linux_facts::gather(tree("nvme"), mount("btrfs", "rw,nodatacow", "/dev/x"), 259, 2);
    EXPECT_EQ(shown(noCow, "fs.compression"), "off");
    EXPECT_EQ(shown(noCow, "fs.cow"), "off (nodatacow)");
    const auto journal =
        linux_facts::gather(tree("nvme"), mount("ext4", "rw,sync,data=journal", "/dev/x"), 259, 2);
    EXPECT_EQ(shown(journal, "fs.data_mode"), "journal");
    EXPECT_THAT(shown(journal, "fs.sync"), StartsWith("sync: every write waits"));
    EXPECT_EQ(shown(journal, "fs.barrier"), "on");
    const auto zfs = linux_facts::gather(tree("fuse"), mount("zfs", "rw,xattr", "pool/home"), 0, 0);
    EXPECT_THAT(shown(zfs, "fs.compression"), HasSubstr("unknown: ZFS keeps it in the dataset's properties"));
    EXPECT_EQ(shown(zfs, "fs.cow"), "yes (ZFS)");
    const auto nfs = linux_facts::gather(tree("fuse"), mount("nfs4", "rw", "server:/export"), 0, 0);
    EXPECT_EQ(nfs.deviceClass, DeviceClass::NetworkShare);
    EXPECT_THAT(shown(nfs, "stack.meaning"), HasSubstr("network filesystem"));
}

// The snapshots the core tests judge (tests/support/recorded_facts.h) are what the collector gives for their
// trees today.
TEST(SystemFactsLinux, SnapshotsAreWhatTheTreesGive)
{
    for (const auto& m : recordedMounts()) {
        SCOPED_TRACE(m.name);
        const auto facts = linux_facts::gather(tree(m.tree), recordedTarget(m.name), m.major, m.minor);
        ASSERT_TRUE(facts.gathered);
        expectEveryFactExplained(facts);
        const std::string text = factsSnapshotText(facts);
        if (std::getenv("IOLAB_REWRITE_GOLDEN") != nullptr)
            std::ofstream(recordedFactsPath(m.name), std::ios::binary) << text;
        std::ifstream in(recordedFactsPath(m.name), std::ios::binary);
        const std::string stored((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(text, stored) << "IOLAB_REWRITE_GOLDEN=1 writes it anew; read the diff";
        EXPECT_EQ(recordedFacts(m.name), [&] {
            auto f = facts;
            f.gatherMilliseconds = 0;
            return f;
        }()) << "the snapshot reads back as the facts it was made from";
    }
}

// This machine: whatever its disk, the facts are gathered, every unknown has its reason, and a run's result
// carries them through JSON.
TEST(SystemFactsLinux, ThisMachinesFactsAreGatheredAndTravelInAResult)
{
    TempDir dir;
    const auto target = inspectTarget(dir.path());
    const auto facts = gatherSystemFacts(target);
    ASSERT_TRUE(facts.gathered);
    ASSERT_FALSE(facts.stack.empty());
    EXPECT_EQ(facts.stack.front().name, target.fsType);
    EXPECT_NE(facts.find("memory.total"), nullptr);
    EXPECT_GT(facts.gatherMilliseconds, 0.0);
    expectEveryFactExplained(facts);

    RunResult result;
    result.system = facts;
    const auto back = resultFromJson(resultToJson(result).dump(), "result.json");
    EXPECT_EQ(back.system, facts);
}
