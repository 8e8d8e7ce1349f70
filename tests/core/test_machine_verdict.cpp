// SPDX-License-Identifier: MIT
// Issue 18: the Summary learns the machine. Golden texts: the best durable write rate against the device
// class's typical range, the likely causes ranked from the facts and checks, and what could not be checked.
#include "core/analysis/machine_verdict.h"
#include "core/analysis/verdict.h"
#include "core/base/units.h"
#include "tests/support/system_facts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace iolab;
using namespace iolab::test;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

namespace {

// A run of one `write` case at 1 MiB whose durable median is `durableMBps`, on a target with `facts`.
RunResult runOn(SystemFacts facts, double durableMBps, std::string mountOptions = "rw,relatime")
{
    RunResult result;
    result.system = std::move(facts);
    result.target.mountOptions = std::move(mountOptions);
    result.host.logicalCpus = 4;
    result.host.ramBytes = 16 * kGiB;
    result.options.repetitions = 5;
    CaseResult c;
    c.index = 0;
    c.testCase.strategy = "write";
    c.testCase.chunkBytes = kMiB;
    c.testCase.totalBytes = 64 * kGiB;
    c.status = Status::Ok;
    c.apparentMBps.count = 5;
    c.apparentMBps.median = durableMBps * 1.05;
    c.durableMBps.count = 5;
    c.durableMBps.median = durableMBps;
    result.cases.push_back(c);
    return result;
}

SystemFacts facts(DeviceClass kind, std::vector<StorageLayer> stack,
                  std::vector<std::tuple<std::string, std::string, std::string>> known,
                  std::vector<std::tuple<std::string, std::string, std::string>> unknown = {})
{
    SystemFacts f;
    f.gathered = true;
    f.deviceClass = kind;
    f.stack = std::move(stack);
    FactsBuilder b;
    for (auto& [id, value, source] : known)
        b.known("Device", id, id, value, source);
    for (auto& [id, why, source] : unknown)
        b.unknown("Device", id, id, why, source);
    f.sections = b.take();
    return f;
}

std::vector<std::string> machineLines(const RunResult& result)
{
    const auto lines = verdictLines(verdict(result, nullptr), 100);
    std::vector<std::string> out;
    bool in = false;
    for (const auto& line : lines) {
        if (line.starts_with("Machine:"))
            in = true;
        if (line.starts_with("What matters most") || line.starts_with("What the figures"))
            in = false;
        if (in)
            out.push_back(line);
    }
    return out;
}

std::vector<std::string> uncheckedLines(const RunResult& result)
{
    const auto lines = verdictLines(verdict(result, nullptr), 100);
    std::vector<std::string> out;
    bool in = false;
    for (const auto& line : lines) {
        if (line == "Terms:")
            in = false;
        if (in)
            out.push_back(line);
        if (line == "What IOLab could not check:")
            in = true;
    }
    return out;
}

const std::vector<StorageLayer> kSataStack{{LayerKind::Filesystem, "ext4", "/dev/sda1"},
                                           {LayerKind::Partition, "sda1", ""},
                                           {LayerKind::Disk, "sda", "SATA"}};

} // namespace

TEST(MachineVerdict, ASataSsdWithItsCacheOffIsSlowAndSaysWhy)
{
    const auto result =
        runOn(facts(DeviceClass::SataSsd, kSataStack,
                    {{"queue.write_cache", "write through", "/sys/block/sda/queue/write_cache"},
                     {"device.link", "SATA 6.0 Gbps", "/sys/class/ata_link/link2/sata_spd"}}),
              12);
    EXPECT_THAT(
        machineLines(result),
        ElementsAre(
            "Machine:  The target is a SATA SSD; its best durable write rate here, 12.0 MB/s (`write` at 1 "
            "MiB),",
            "          is below what such drives typically sustain (200-530 MB/s). Typical range from the "
            "roughly",
            "          550 MB/s that SATA III's 6 Gbit/s link carries, and SATA SSD data sheets (Samsung 870 "
            "EVO:",
            "          up to 530 MB/s).", "Likely causes of the slow figure, most likely first:",
            "  1. The drive's write cache is off: every write waits until the medium holds it.",
            "     Evidence: write cache: write through (/sys/block/sda/queue/write_cache)",
            "     What to change: If the drive's cache is protected against power loss, turn it on (hdparm "
            "-W1 on",
            "     Linux, the device's policy in Windows' Device Manager, or the RAID controller's setting);",
            "     otherwise this rate is what durable writes cost on this drive."));
    EXPECT_THAT(uncheckedLines(result), ElementsAre("  - Whether compression or deduplication flatters the "
                                                    "rates: no case wrote zeros beside random bytes",
                                                    "    (the pattern axis; the health-check preset does)."));
}

TEST(MachineVerdict, AnNvmeWithinItsRangeNeedsNoCause)
{
    const auto result =
        runOn(facts(DeviceClass::NvmeSsd,
                    {{LayerKind::Filesystem, "ext4", ""}, {LayerKind::Disk, "nvme0n1", "NVMe"}},
                    {{"queue.write_cache", "write back", ""}, {"device.link", "16.0 GT/s PCIe x4", ""}}),
              2400);
    const auto v = machineVerdict(result, {});
    EXPECT_EQ(
        v.comparison,
        "The target is an NVMe SSD; its best durable write rate here, 2.40 GB/s (`write` at 1 MiB), is "
        "within "
        "what such drives typically sustain (1.0-5.0 GB/s). Typical range from vendors' data sheets of PCIe "
        "3.0 and 4.0 NVMe drives (Samsung 970 EVO Plus: up to 3,300 MB/s; WD_BLACK SN770: up to 4,000 MB/s), "
        "while their SLC cache lasts.");
    EXPECT_FALSE(v.belowTypical);
    EXPECT_THAT(v.causes, IsEmpty());
}

TEST(MachineVerdict, AUsbStickOnAUsb2PortIsJudgedByItsLinkAndTheLinkIsACause)
{
    const auto result =
        runOn(facts(DeviceClass::UsbDrive, kSataStack, {{"device.link", "480 Mbit/s (USB 2)", ""}}), 25);
    const auto v = machineVerdict(result, {});
    EXPECT_THAT(v.comparison,
                ::testing::HasSubstr(
                    "is within what such drives typically sustain (5-40 MB/s). Typical range from the "
                    "roughly 40 MB/s that USB 2's 480 Mbit/s link carries"));
    ASSERT_EQ(v.causes.size(), 1u);
    EXPECT_EQ(v.causes[0].what, "The drive is on a USB 2 link, which carries about 40 MB/s at most");
    EXPECT_EQ(v.causes[0].change, "Plug it into a USB 3 port (often blue, or marked SS) with a USB 3 cable.");
    const auto lines = machineLines(result);
    EXPECT_THAT(lines, ::testing::Contains("What shapes the figures here:"));
    EXPECT_THAT(lines,
                ::testing::Not(::testing::Contains("Likely causes of the slow figure, most likely first:")));
}

TEST(MachineVerdict, DmCryptAndASlowLinkAreRankedCausesOfASlowNvme)
{
    auto f = cryptNvmeFacts();
    FactsBuilder b;
    b.known("Device", "device.link", "Link", "2.5 GT/s PCIe x1", "/sys/devices/pci0000:00/0000:01:00.0");
    f.sections.push_back(b.take().front());
    const auto v = machineVerdict(runOn(f, 180), {});
    EXPECT_TRUE(v.belowTypical);
    ASSERT_EQ(v.causes.size(), 2u);
    EXPECT_EQ(v.causes[0].what, "The NVMe drive runs on a narrow or slow PCIe link (2.5 GT/s PCIe x1)");
    EXPECT_EQ(v.causes[1].what, "Every block is encrypted by the CPU (dm-crypt)");
    EXPECT_EQ(v.causes[1].evidence,
              "storage stack: ext4 → dm-crypt dm-0 → partition nvme0n1p3 → NVMe disk nvme0n1");
}

TEST(MachineVerdict, WhatCouldNotBeCheckedSaysWhy)
{
    // A virtual disk: no typical range, and no accusation.
    auto virt = runOn(facts(DeviceClass::VirtualDisk,
                            {{LayerKind::Filesystem, "ext4", ""}, {LayerKind::Disk, "vda", "virtio"}},
                            {{"queue.write_cache", "write back", ""}}),
                      900);
    EXPECT_THAT(
        uncheckedLines(virt),
        ElementsAre("  - How fast the disk should be: a virtual disk's speed is the host's storage and "
                    "cache, so there is",
                    "    no typical range to compare with.",
                    "  - Whether compression or deduplication flatters the rates: no case wrote zeros beside "
                    "random bytes",
                    "    (the pattern axis; the health-check preset does)."));
    EXPECT_TRUE(machineVerdict(virt, {}).comparison.empty());
    // An unknown device, with the transport's reason, and a write cache IOLab could not read.
    auto loop = runOn(
        facts(DeviceClass::Unknown, {{LayerKind::Filesystem, "ext4", ""}, {LayerKind::Loop, "loop0", ""}}, {},
              {{"device.transport", "a loop device: the disk under its backing file is not followed", ""},
               {"queue.write_cache", "the kernel does not report this queue's cache mode", ""}}),
        300);
    const auto v = machineVerdict(loop, {});
    EXPECT_THAT(
        v.unchecked,
        ElementsAre(
            "How fast the device should be: IOLab could not tell what kind of device it is (a loop "
            "device: the disk under its backing file is not followed).",
            "Whether the drive's write cache is on: the kernel does not report this queue's cache "
            "mode.",
            "Whether compression or deduplication flatters the rates: no case wrote zeros beside random "
            "bytes (the pattern axis; the health-check preset does)."));
    ASSERT_EQ(v.causes.size(), 1u);
    EXPECT_EQ(v.causes[0].what, "The target is a loop device: its writes go to a file on another filesystem");
    // A result from before system facts: only that.
    EXPECT_THAT(machineVerdict(runOn(SystemFacts{}, 300), {}).unchecked,
                ElementsAre("The machine's facts: this result was saved before IOLab recorded them."));
}

// What must not be called a cause: a virtual disk's "write through" (the emulation's word, not a drive's
// cache), a little memory pressure, a fast-enough link.
TEST(MachineVerdict, NoCauseWithoutEvidence)
{
    const std::vector<StorageLayer> virtio{{LayerKind::Filesystem, "ext4", ""},
                                           {LayerKind::Disk, "vda", "virtio"}};
    EXPECT_THAT(
        machineVerdict(
            runOn(facts(DeviceClass::VirtualDisk, virtio, {{"queue.write_cache", "write through", ""}}), 50),
            {})
            .causes,
        IsEmpty());
    const auto calm = facts(DeviceClass::SataSsd, kSataStack,
                            {{"psi.memory", "stalled 0.50% of the last 10 s, 2.00% of the last minute", ""},
                             {"device.link", "SATA 6.0 Gbps", ""},
                             {"queue.write_cache", "write back", ""}});
    EXPECT_THAT(machineVerdict(runOn(calm, 50), {}).causes, IsEmpty());
    const auto pressed =
        facts(DeviceClass::SataSsd, kSataStack,
              {{"psi.memory", "stalled 30.00% of the last 10 s, 25.00% of the last minute", ""}});
    const auto v = machineVerdict(runOn(pressed, 50), {});
    ASSERT_EQ(v.causes.size(), 1u);
    EXPECT_EQ(v.causes[0].what, "The machine was short of memory when the run began");
}

// Zeros that wrote far faster than random bytes: the compressible case never stands for the disk, and the
// compressor is a likely cause. A run without such a pair says it could not check.
TEST(MachineVerdict, ZerosNeverStandForTheDiskAndACompressorIsACause)
{
    auto result =
        runOn(facts(DeviceClass::SataSsd, kSataStack, {{"queue.write_cache", "write back", ""}}), 100);
    EXPECT_THAT(uncheckedLines(result), ElementsAre("  - Whether compression or deduplication flatters the "
                                                    "rates: no case wrote zeros beside random bytes",
                                                    "    (the pattern axis; the health-check preset does)."));
    result.cases[0].testCase.pattern = DataPattern{PatternKind::Random};
    auto zeros = result.cases[0];
    zeros.index = 1;
    zeros.testCase.pattern = DataPattern{PatternKind::Zeros};
    zeros.durableMBps.median = 2000;
    zeros.apparentMBps.median = 2100;
    for (auto* c : {&result.cases[0], &zeros}) {
        for (std::uint32_t r = 0; r < 3; ++r) {
            RepetitionResult rep;
            rep.index = r;
            rep.durableMBps = c->durableMBps.median * (1 + 0.01 * r);
            rep.apparentMBps = rep.durableMBps;
            c->repetitions.push_back(rep);
        }
    }
    result.cases.push_back(zeros);
    const auto found = findings(result, nullptr);
    const auto v = machineVerdict(result, found);
    EXPECT_THAT(v.comparison, ::testing::HasSubstr("its best durable write rate here, 100.0 MB/s"));
    EXPECT_TRUE(v.belowTypical);
    ASSERT_EQ(v.causes.size(), 1u);
    EXPECT_EQ(
        v.causes[0].what,
        "Something below the program compresses or deduplicates: zeros moved far faster than random bytes");
    EXPECT_THAT(v.unchecked, IsEmpty());
}

// Windows: Defender scanning the target is a cause only when its exclusions were read and cover neither the
// folder nor IOLab; exclusions a normal user cannot read are said to be unchecked instead.
TEST(MachineVerdict, DefenderIsACauseOnlyWhenItsExclusionsWereReadAndMissTheTarget)
{
    const std::vector<StorageLayer> ntfs{{LayerKind::Filesystem, "NTFS", "C:"},
                                         {LayerKind::Disk, "disk", "SATA"}};
    const auto scanned =
        facts(DeviceClass::SataSsd, ntfs,
              {{"defender.realtime", "on: every file the run writes may be scanned", ""},
               {"defender.excluded_path", "no: no path exclusion covers the target", ""},
               {"defender.excluded_process", "no: neither iolab.exe nor iolab-cli.exe", ""}});
    const auto v = machineVerdict(runOn(scanned, 50), {});
    ASSERT_EQ(v.causes.size(), 1u);
    EXPECT_EQ(v.causes[0].what, "Defender's real-time protection scans every file the run writes or opens");
    EXPECT_THAT(v.causes[0].evidence, ::testing::HasSubstr("path exclusions: no: no path exclusion"));

    const auto excluded = facts(DeviceClass::SataSsd, ntfs,
                                {{"defender.realtime", "on: every file the run writes may be scanned", ""},
                                 {"defender.excluded_path", "yes: C:\\data is excluded", ""},
                                 {"defender.excluded_process", "no: neither", ""}});
    EXPECT_THAT(machineVerdict(runOn(excluded, 50), {}).causes, IsEmpty());

    const auto unreadable = facts(
        DeviceClass::SataSsd, ntfs,
        {{"defender.realtime", "on: every file the run writes may be scanned", ""}},
        {{"defender.excluded_path", "Windows lets only administrators read Defender's exclusions", ""}});
    const auto u = machineVerdict(runOn(unreadable, 50), {});
    EXPECT_THAT(u.causes, IsEmpty());
    EXPECT_THAT(u.unchecked,
                ::testing::Contains("Whether Defender's exclusions cover the target: Windows lets only "
                                    "administrators read Defender's exclusions."));
}
