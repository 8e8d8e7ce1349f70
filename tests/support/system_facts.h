// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/system_facts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace iolab::test {

// The facts of an NVMe SSD under dm-crypt with a few unknowns, as a Linux collector would give them: for the
// tests of what shows and compares facts, independent of the machine the tests run on.
inline SystemFacts cryptNvmeFacts()
{
    SystemFacts facts;
    facts.gathered = true;
    facts.stack = {{LayerKind::Filesystem, "ext4", "/dev/mapper/luks-1"},
                   {LayerKind::DmCrypt, "dm-0", "luks-1"},
                   {LayerKind::Partition, "nvme0n1p3", ""},
                   {LayerKind::Disk, "nvme0n1", "NVMe"}};
    facts.deviceClass = DeviceClass::NvmeSsd;
    facts.gatherMilliseconds = 1.5;
    FactsBuilder b;
    b.known("Storage", "stack", "Storage stack", describeStack(facts), "/sys/dev/block, slaves");
    b.known("Storage", "stack.meaning", "Layers that change the figures",
            "dm-crypt encrypts every block (CPU work in each write)");
    b.known("Device", "device.model", "Model", "WD_BLACK SN770 1TB", "/sys/block/nvme0n1/device/model");
    b.known("Device", "queue.write_cache", "Write cache", "write back",
            "/sys/block/nvme0n1/queue/write_cache");
    b.known("Kernel", "vm.dirty_expire", "Dirty data written back after", "30.0 s");
    b.unknown("Kernel", "cpu.governor", "CPU frequency governor",
              "no cpufreq driver (usual in a virtual machine: the host sets the clock)");
    facts.sections = b.take();
    return facts;
}

// No fact is unknown without its reason, and none has an empty label: what every collector must hold to.
inline void expectEveryFactExplained(const SystemFacts& facts)
{
    for (const auto& section : facts.sections) {
        for (const auto& fact : section.facts) {
            EXPECT_THAT(fact.label, ::testing::Not(::testing::IsEmpty())) << fact.id;
            if (!fact.known()) {
                EXPECT_THAT(fact.unknownWhy, ::testing::Not(::testing::IsEmpty()))
                    << fact.id << " is unknown without a reason";
            }
        }
    }
}

} // namespace iolab::test
