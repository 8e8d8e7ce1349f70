// SPDX-License-Identifier: MIT
// Heat (issue 39, part 4): the drive's temperature and throttling counters as the NVMe health log, Linux's
// hwmon and Windows's storage temperature property give them, and the finding that a case slowed while the
// drive ran hot. This project's machines have no such sensor (a virtio disk): the pages here are laid out
// from the specifications' own field lists, independently of the parser's offsets, and the readings are
// scripted.
#include "core/analysis/findings.h"
#include "core/analysis/system_checks.h"
#include "core/formats/csv.h"
#include "core/formats/result_csv.h"
#include "core/formats/result_json.h"
#include "core/model/thermal.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

namespace iolab {
namespace {

using ::testing::HasSubstr;

// The SMART / Health Information log page (log identifier 02h) as NVM Express base specification 2.0 lists
// its fields, in order (libnvme's struct nvme_smart_log spells the same).
#pragma pack(push, 1)
struct SmartLogPage
{
    std::uint8_t criticalWarning;
    std::uint8_t temperature[2]; // kelvin
    std::uint8_t availableSpare;
    std::uint8_t availableSpareThreshold;
    std::uint8_t percentageUsed;
    std::uint8_t enduranceGroupWarning;
    std::uint8_t reserved7[25];
    std::uint8_t dataUnitsRead[16];
    std::uint8_t dataUnitsWritten[16];
    std::uint8_t hostReads[16];
    std::uint8_t hostWrites[16];
    std::uint8_t controllerBusyTime[16];
    std::uint8_t powerCycles[16];
    std::uint8_t powerOnHours[16];
    std::uint8_t unsafeShutdowns[16];
    std::uint8_t mediaErrors[16];
    std::uint8_t errorLogEntries[16];
    std::uint32_t warningTemperatureTime;  // minutes
    std::uint32_t criticalTemperatureTime; // minutes
    std::uint16_t temperatureSensors[8];
    std::uint32_t thermalTransitions1;
    std::uint32_t thermalTransitions2;
    std::uint32_t thermalTime1; // seconds
    std::uint32_t thermalTime2;
    std::uint8_t reserved232[280];
};
#pragma pack(pop)
static_assert(sizeof(SmartLogPage) == 512);
static_assert(offsetof(SmartLogPage, warningTemperatureTime) == 192);
static_assert(offsetof(SmartLogPage, thermalTransitions1) == 216);

std::vector<std::uint8_t> smartLog(std::uint16_t kelvin, std::uint32_t warningMinutes, std::uint32_t tmt1,
                                   std::uint32_t tmt2, std::uint32_t tmt1Seconds, std::uint32_t tmt2Seconds)
{
    SmartLogPage page{};
    page.temperature[0] = static_cast<std::uint8_t>(kelvin & 0xff);
    page.temperature[1] = static_cast<std::uint8_t>(kelvin >> 8);
    page.warningTemperatureTime = warningMinutes;
    page.criticalTemperatureTime = 1;
    page.thermalTransitions1 = tmt1;
    page.thermalTransitions2 = tmt2;
    page.thermalTime1 = tmt1Seconds;
    page.thermalTime2 = tmt2Seconds;
    std::vector<std::uint8_t> bytes(sizeof page);
    std::memcpy(bytes.data(), &page, sizeof page);
    return bytes;
}

TEST(Thermal, TheNvmeHealthLogGivesTheTemperatureAndTheThrottlingCounters)
{
    const auto page = smartLog(318, 7, 12, 3, 340, 25); // 318 K: 44.85 °C
    const auto r = parseNvmeSmartLog(page);
    ASSERT_TRUE(r);
    EXPECT_NEAR(*r->celsius, 44.85, 1e-9);
    EXPECT_EQ(r->warningMinutes, 7U);
    EXPECT_EQ(r->criticalMinutes, 1U);
    EXPECT_EQ(r->lightThrottleTransitions, 12U);
    EXPECT_EQ(r->heavyThrottleTransitions, 3U);
    EXPECT_EQ(r->lightThrottleSeconds, 340U);
    EXPECT_EQ(r->heavyThrottleSeconds, 25U);
    EXPECT_TRUE(r->hasCounters());
    EXPECT_FALSE(parseNvmeSmartLog(std::span(page).first(200))) << "too short for the counters";
    EXPECT_FALSE(parseNvmeSmartLog(smartLog(0, 0, 0, 0, 0, 0))) << "a drive that reports no temperature";
}

TEST(Thermal, HwmonGivesMillidegrees)
{
    const auto r = hwmonReading("44850\n", "81850", "84850", "hwmon nvme (Composite)");
    ASSERT_TRUE(r);
    EXPECT_DOUBLE_EQ(*r->celsius, 44.85);
    EXPECT_DOUBLE_EQ(*r->warningCelsius, 81.85);
    EXPECT_DOUBLE_EQ(*r->criticalCelsius, 84.85);
    EXPECT_FALSE(r->hasCounters());
    EXPECT_FALSE(hwmonReading("", "", "", "x"));
    EXPECT_FALSE(hwmonReading("n/a", "", "", "x"));
    EXPECT_FALSE(hwmonReading("45000", "", "", "x")->warningCelsius);
}

// STORAGE_TEMPERATURE_DATA_DESCRIPTOR and STORAGE_TEMPERATURE_INFO as winioctl.h declares them.
#pragma pack(push, 4)
struct TemperatureInfo
{
    std::uint16_t index;
    std::int16_t temperature;
    std::int16_t overThreshold;
    std::int16_t underThreshold;
    std::uint8_t overChangable;
    std::uint8_t underChangable;
    std::uint8_t eventGenerated;
    std::uint8_t reserved0;
    std::uint32_t reserved1;
};
struct TemperatureDescriptor
{
    std::uint32_t version;
    std::uint32_t size;
    std::int16_t criticalTemperature;
    std::int16_t warningTemperature;
    std::uint16_t infoCount;
    std::uint8_t reserved0[2];
    std::uint32_t reserved1[2];
    TemperatureInfo info[1];
};
#pragma pack(pop)
static_assert(sizeof(TemperatureInfo) == 16);
static_assert(offsetof(TemperatureDescriptor, info) == 24);

TEST(Thermal, WindowsStorageTemperaturePropertyGivesEntryZerosTemperature)
{
    TemperatureDescriptor d{};
    d.version = d.size = sizeof d;
    d.criticalTemperature = 84;
    d.warningTemperature = 75;
    d.infoCount = 1;
    d.info[0].temperature = 47;
    std::vector<std::uint8_t> bytes(sizeof d);
    std::memcpy(bytes.data(), &d, sizeof d);
    const auto r = parseStorageTemperature(bytes);
    ASSERT_TRUE(r);
    EXPECT_EQ(*r->celsius, 47.0);
    EXPECT_EQ(*r->warningCelsius, 75.0);
    EXPECT_EQ(*r->criticalCelsius, 84.0);
    EXPECT_EQ(r->source, "StorageDeviceTemperatureProperty");
    d.infoCount = 0;
    std::memcpy(bytes.data(), &d, sizeof d);
    EXPECT_FALSE(parseStorageTemperature(bytes)) << "no entry: no temperature";
    EXPECT_FALSE(parseStorageTemperature(std::span(bytes).first(20)));
}

TEST(Thermal, ChangesAndWords)
{
    ThermalReading before = *parseNvmeSmartLog(smartLog(314, 7, 12, 3, 340, 25));
    ThermalReading after = *parseNvmeSmartLog(smartLog(345, 9, 15, 3, 380, 25));
    const ThermalChange change = thermalChange(before, after);
    EXPECT_TRUE(change.countersKnown);
    EXPECT_TRUE(change.rose());
    EXPECT_EQ(change.throttleTransitions, 3U);
    EXPECT_EQ(change.throttleSeconds, 40U);
    EXPECT_EQ(change.warningMinutes, 2U);
    EXPECT_EQ(temperatureText(before, after), "41 → 72 °C");
    EXPECT_EQ(temperatureText(before, before), "41 °C");
    EXPECT_EQ(temperatureText(std::nullopt, after), "72 °C");
    EXPECT_EQ(temperatureText(std::nullopt, std::nullopt), "");
    // hwmon's temperature and the log's counters merge; the first source's temperature is kept.
    ThermalReading merged = *hwmonReading("40000", "", "", "hwmon nvme (Composite)");
    mergeThermal(merged, after);
    EXPECT_EQ(merged.celsius, 40.0);
    EXPECT_EQ(merged.lightThrottleTransitions, 15U);
    EXPECT_EQ(merged.source, "hwmon nvme (Composite), NVMe SMART/health log");
}

CaseResult hotCase(std::vector<double> rates, ThermalReading before, ThermalReading after)
{
    CaseResult c;
    c.index = 2;
    c.status = Status::Ok;
    c.testCase.strategy = "direct";
    c.testCase.chunkBytes = 1 << 20;
    c.testCase.totalBytes = 1ULL << 30;
    RepetitionResult warm;
    warm.warmup = true;
    warm.durableMBps = warm.apparentMBps = 5000; // a warm-up is not judged
    c.repetitions.push_back(warm);
    for (double r : rates) {
        RepetitionResult rep;
        rep.durableMBps = rep.apparentMBps = r;
        c.repetitions.push_back(rep);
    }
    c.apparentMBps.count = c.durableMBps.count = rates.size();
    c.apparentMBps.median = c.durableMBps.median = rates.front();
    c.thermalBefore = before;
    c.thermalAfter = after;
    return c;
}

TEST(HeatFinding, ARateThatFellWhileTheThrottlingCountersRose)
{
    const ThermalReading cool = *parseNvmeSmartLog(smartLog(314, 7, 12, 3, 340, 25));
    const ThermalReading hot = *parseNvmeSmartLog(smartLog(352, 9, 15, 3, 380, 25));
    const auto f = heatFinding(hotCase({2000, 1700, 1200}, cool, hot), Ranking::Durable);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->kind, Finding::Kind::Heat);
    EXPECT_EQ(f->caseIndex, 2U);
    EXPECT_THAT(f->text, HasSubstr("fell from 2.00 GB/s in its first measured repetition to 1.20 GB/s"));
    EXPECT_THAT(f->text, HasSubstr("41 → 79 °C, 3 throttling transitions, 40 s throttled and 2 min above its "
                                   "warning temperature (read from NVMe SMART/health log)"));
    EXPECT_EQ(toString(Finding::Kind::Heat), "thermal throttling");
}

TEST(HeatFinding, NoAccusationWithoutBothTheFallAndTheEvidence)
{
    const ThermalReading cool = *parseNvmeSmartLog(smartLog(314, 7, 12, 3, 340, 25));
    const ThermalReading hot = *parseNvmeSmartLog(smartLog(352, 9, 15, 3, 380, 25));
    EXPECT_FALSE(heatFinding(hotCase({2000, 1950, 1900}, cool, hot), Ranking::Durable))
        << "hot, but the rate held";
    EXPECT_FALSE(heatFinding(hotCase({2000, 1700, 1200}, cool, cool), Ranking::Durable))
        << "slower, but the counters did not move: something else";
    // A temperature that only rose (hwmon, no counters) is no evidence of throttling...
    const auto warm = *hwmonReading("40000", "80000", "", "hwmon");
    const auto warmer = *hwmonReading("60000", "80000", "", "hwmon");
    EXPECT_FALSE(heatFinding(hotCase({2000, 1200}, warm, warmer), Ranking::Durable));
    // ...one at its warning threshold is.
    const auto atWarning = *hwmonReading("81000", "80000", "", "hwmon nvme (Composite)");
    const auto f = heatFinding(hotCase({2000, 1200}, warm, atWarning), Ranking::Durable);
    ASSERT_TRUE(f);
    EXPECT_THAT(f->text, HasSubstr("40 → 81 °C, at or above its warning temperature of 80 °C"));
    EXPECT_FALSE(heatFinding(hotCase({2000}, warm, atWarning), Ranking::Durable))
        << "one repetition: no trend";
}

TEST(HeatFinding, TheReadingsRoundTripThroughResultFilesAndShowInTheCsv)
{
    const ThermalReading cool = *parseNvmeSmartLog(smartLog(314, 7, 12, 3, 340, 25));
    const ThermalReading hot = *parseNvmeSmartLog(smartLog(352, 9, 15, 3, 380, 25));
    RunResult run;
    run.cases.push_back(hotCase({2000, 1200}, cool, hot));
    const RunResult back = resultFromJson(resultToJson(run).dump(), "t.json");
    EXPECT_EQ(back.cases[0].thermalBefore, cool);
    EXPECT_EQ(back.cases[0].thermalAfter, hot);
    const std::string csv = toCsv(summaryRows(run));
    EXPECT_THAT(
        csv,
        HasSubstr("temp_before_c,temp_after_c,throttle_transitions,throttle_s,uring_in_effect,read_MBps,"));
    EXPECT_THAT(csv, HasSubstr(",40.85,78.85,3,40,,"));
}

} // namespace
} // namespace iolab
