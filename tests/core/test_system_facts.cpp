// SPDX-License-Identifier: MIT
// Issue 18: system facts as results keep them: lookups, the stack in words, JSON, and two results compared.
#include "core/base/error.h"
#include "core/formats/facts_text.h"
#include "core/formats/result_json.h"
#include "core/model/system_facts.h"
#include "tests/support/system_facts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

TEST(SystemFacts, LookupsAndTheStackInWords)
{
    const auto facts = cryptNvmeFacts();
    EXPECT_EQ(describeStack(facts), "ext4 → dm-crypt dm-0 → partition nvme0n1p3 → NVMe disk nvme0n1");
    EXPECT_TRUE(facts.hasLayer(LayerKind::DmCrypt));
    EXPECT_FALSE(facts.hasLayer(LayerKind::Loop));
    EXPECT_EQ(facts.valueOf("queue.write_cache"), "write back");
    EXPECT_EQ(facts.valueOf("cpu.governor"), ""); // unknown
    EXPECT_EQ(facts.valueOf("no.such.fact"), "");
    ASSERT_NE(facts.find("cpu.governor"), nullptr);
    EXPECT_FALSE(facts.find("cpu.governor")->known());
    ASSERT_EQ(facts.sections.size(), 3u); // in first-use order
    EXPECT_EQ(facts.sections[0].title, "Storage");
    EXPECT_EQ(facts.sections[2].title, "Kernel");
    EXPECT_EQ(describe(DeviceClass::SataHdd), "hard disk");
    EXPECT_EQ(deviceClassFromString(toString(DeviceClass::UsbDrive)), DeviceClass::UsbDrive);
    EXPECT_THROW(deviceClassFromString("floppy"), InputError);
    EXPECT_EQ(layerKindFromString(toString(LayerKind::DmCrypt)), LayerKind::DmCrypt);
}

TEST(SystemFacts, TheTextSaysEveryFactAndWhyOneIsUnknown)
{
    const auto text = factsToText(cryptNvmeFacts());
    EXPECT_THAT(text, HasSubstr("  Device class: NVMe SSD\n"));
    EXPECT_THAT(text, HasSubstr("  Kernel\n"));
    EXPECT_THAT(text, HasSubstr("    Model                           WD_BLACK SN770 1TB\n"));
    EXPECT_THAT(text, HasSubstr("    CPU frequency governor          unknown: no cpufreq driver"));
    EXPECT_THAT(factsToText(SystemFacts{}), HasSubstr("no system facts recorded"));
}

TEST(SystemFacts, AResultKeepsThemThroughJsonAndAnOlderResultHasNone)
{
    RunResult result;
    result.system = cryptNvmeFacts();
    const auto json = resultToJson(result);
    ASSERT_TRUE(json.contains("system"));
    EXPECT_EQ(json["system"]["deviceClass"], "nvme-ssd");
    EXPECT_EQ(json["system"]["stack"][1]["kind"], "dm-crypt");
    EXPECT_EQ(json["system"]["sections"][2]["facts"][1]["unknownWhy"],
              "no cpufreq driver (usual in a virtual machine: the host sets the clock)");
    EXPECT_EQ(resultFromJson(json.dump(), "r.json").system, result.system);

    // Saved before system facts existed: none, and none written back.
    auto older = json;
    older.erase("system");
    const auto read = resultFromJson(older.dump(), "old.json");
    EXPECT_FALSE(read.system.gathered);
    EXPECT_FALSE(resultToJson(read).contains("system"));

    auto damaged = json;
    damaged["system"]["deviceClass"] = "floppy";
    try {
        resultFromJson(damaged.dump(), "bad.json");
        FAIL() << "an unknown device class was read";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("bad.json: damaged result file: unknown device class 'floppy'"));
    }
}

TEST(SystemFacts, TwoResultsComparedMarkWhatDiffers)
{
    const auto before = cryptNvmeFacts();
    auto after = cryptNvmeFacts();
    after.stack.erase(after.stack.begin() + 1); // dm-crypt gone
    after.sections[0].facts[0].value = describeStack(after);
    after.sections[1].facts[1].value = "write through";
    after.sections[2].facts[1].value = "performance"; // the governor now known
    after.sections[2].facts[1].unknownWhy.clear();
    FactsBuilder extra;
    extra.known("Machine", "memory.swap", "Swap", "none");
    after.sections.push_back(extra.take().front());

    const auto rows = compareFacts(before, after);
    const auto row = [&](const std::string& id) {
        for (const auto& r : rows) {
            if (r.id == id)
                return r;
        }
        ADD_FAILURE() << id << " not compared";
        return FactDifference{};
    };
    EXPECT_TRUE(row("stack").differs);
    EXPECT_FALSE(row("class").differs);
    EXPECT_EQ(row("class").left, "NVMe SSD");
    EXPECT_TRUE(row("queue.write_cache").differs);
    EXPECT_EQ(row("queue.write_cache").right, "write through");
    EXPECT_FALSE(row("device.model").differs);
    EXPECT_TRUE(row("cpu.governor").differs);
    EXPECT_EQ(row("cpu.governor").left, "unknown");
    EXPECT_EQ(row("memory.swap").left, "—"); // only the second result has it
    EXPECT_TRUE(row("memory.swap").differs);
    EXPECT_EQ(row("memory.swap").section, "Machine");
    // Same facts: nothing differs; facts against none: the stack says "not recorded".
    const auto same = compareFacts(before, before);
    ASSERT_EQ(same.size(), rows.size() - 1) << "every row but memory.swap, which only the second result has";
    for (const auto& r : same)
        EXPECT_FALSE(r.differs) << r.id;
    EXPECT_EQ(compareFacts(before, SystemFacts{}).front().right, "not recorded");
}
