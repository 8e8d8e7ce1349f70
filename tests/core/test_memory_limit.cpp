// SPDX-License-Identifier: MIT
// The memory-limit axis (issue 17, article 001) without a process: its values, its refusals (a write to a
// file only, a machine that can make a memory cgroup, a limit above what the case itself holds), its
// preset and the scaling of its limits with --size, and the result's figures on disk.
#include "core/analysis/memory_budget_table.h"
#include "core/base/error.h"
#include "core/base/stats.h"
#include "core/base/units.h"
#include "core/engine/call_timing.h"
#include "core/engine/registry.h"
#include "core/formats/matrix_json.h"
#include "core/formats/presets.h"
#include "core/formats/result_csv.h"
#include "core/formats/result_json.h"
#include "core/model/matrix.h"
#include "core/model/memory_budget.h"
#include "tests/support/fakes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

class MemoryLimit : public ::testing::Test
{
protected:
    MemoryLimit()
    {
        m_registry.add(std::make_unique<FakeStrategy>("write", m_behaviour));
        auto stdio = std::make_unique<FakeStrategy>("stdio", m_behaviour);
        stdio->mutableInfo().usesStdioBuffer = true;
        m_registry.add(std::move(stdio));
        m_registry.add(std::make_unique<FakeStrategy>("pipe-write", m_behaviour,
                                                      std::vector<TargetKind>{TargetKind::Pipe}));
        m_target.fsType = "ext4";
    }

    ExpandedMatrix expandJson(const std::string& json) const
    {
        return expand(parseMatrixJson(json, "test.json"), m_registry, m_target);
    }

    FakeBehaviour m_behaviour;
    Registry m_registry;
    TargetInfo m_target;
};

} // namespace

TEST_F(MemoryLimit, ALimitIsReadFromAMatrixFileLabelledAndSavedBack)
{
    const auto e = expandJson(
        R"({"groups": [{"strategies": ["write"], "chunks": ["4K"], "sizes": ["256M"], "memoryLimits": ["none", "64M"]}]})");
    ASSERT_EQ(e.cases.size(), 2u);
    EXPECT_EQ(e.cases[0].memoryLimitBytes, 0u);
    EXPECT_EQ(e.cases[1].memoryLimitBytes, 64 * kMiB);
    EXPECT_THAT(e.cases[1].label(), HasSubstr("mem=64M"));
    EXPECT_EQ(caseFromJson(caseToJson(e.cases[1])), e.cases[1]);
    EXPECT_THAT(
        matrixToJson(
            parseMatrixJson(
                R"({"groups": [{"strategies": ["write"], "chunks": ["4K"], "sizes": ["256M"], "memoryLimits": ["1G"]}]})",
                "m.json"))
            .dump(),
        HasSubstr(R"("memoryLimits":["1G"])"));
}

TEST_F(MemoryLimit, AMalformedOrTinyLimitIsAnInputError)
{
    EXPECT_THROW(
        expandJson(
            R"({"groups": [{"strategies": ["write"], "chunks": ["4K"], "sizes": ["256M"], "memoryLimits": ["lots"]}]})"),
        InputError);
    try {
        (void)expandJson(
            R"({"groups": [{"strategies": ["write"], "chunks": ["4K"], "sizes": ["256M"], "memoryLimits": ["1M"]}]})");
        ADD_FAILURE() << "a 1 MiB limit is below the smallest";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("below the smallest IOLab sets (16 MiB)"));
    }
}

TEST_F(MemoryLimit, RefusedOffAFileWriteWhereNoCgroupCanBeMadeOnTmpfsAndBelowTheCasesOwnNeeds)
{
    const auto pipe = expandJson(
        R"({"groups": [{"strategies": ["pipe-write"], "chunks": ["4K"], "sizes": ["256M"], "memoryLimits": ["64M"]}]})");
    ASSERT_EQ(pipe.refused.size(), 1u);
    EXPECT_THAT(pipe.refused[0].reason, HasSubstr("applies to writes to files"));

    m_target.memoryLimitProblem =
        "a memory limit needs a memory cgroup; this system has cgroup v1, where only "
        "root may make one";
    const auto noCgroup = expandJson(
        R"({"groups": [{"strategies": ["write"], "chunks": ["4K"], "sizes": ["256M"], "memoryLimits": ["64M"]}]})");
    ASSERT_EQ(noCgroup.refused.size(), 1u);
    EXPECT_EQ(noCgroup.refused[0].reason, m_target.memoryLimitProblem);
    m_target.memoryLimitProblem.clear();

    m_target.fsType = "tmpfs";
    const auto tmpfs = expandJson(
        R"({"groups": [{"strategies": ["write"], "chunks": ["4K"], "sizes": ["256M"], "memoryLimits": ["64M"]}]})");
    ASSERT_EQ(tmpfs.refused.size(), 1u);
    EXPECT_THAT(tmpfs.refused[0].reason, HasSubstr("tmpfs keeps its files in memory"));
    m_target.fsType = "ext4";

    // 64 MiB of stdio buffer and a 4 KiB chunk, plus 12 MiB for the program: 76 MiB and 4 KiB.
    const auto small = expandJson(
        R"({"groups": [{"strategies": ["stdio"], "buffers": ["64M"], "chunks": ["4K"], "sizes": ["256M"], "memoryLimits": ["32M"]}]})");
    ASSERT_EQ(small.refused.size(), 1u);
    EXPECT_THAT(small.refused[0].reason,
                HasSubstr("a memory limit of 32 MiB is below what the case itself needs"));
    EXPECT_THAT(small.refused[0].reason, HasSubstr("set at least 77M"));
    const auto enough = expandJson(
        R"({"groups": [{"strategies": ["stdio"], "buffers": ["64M"], "chunks": ["4K"], "sizes": ["256M"], "memoryLimits": ["77M"]}]})");
    EXPECT_TRUE(enough.refused.empty());
}

TEST_F(MemoryLimit, ACaseUnderALimitTimesItsCallsAsAnyCase)
{
    // Its child keeps the histograms and hands them over (tests/platform/test_memory_budget.cpp).
    Case c;
    c.strategy = "write";
    c.chunkBytes = 4 * kKiB;
    const LatencyChoice inProcess = chooseLatency(c, m_registry.find("write")->info());
    c.memoryLimitBytes = 64 * kMiB;
    const LatencyChoice inChild = chooseLatency(c, m_registry.find("write")->info());
    EXPECT_TRUE(inChild.record);
    EXPECT_EQ(inChild.why, inProcess.why);
}

TEST_F(MemoryLimit, ThePresetCapsAQuarterOfItsSizeAndSizeScalesTheCap)
{
    auto preset = findPreset("memory-budget");
    ASSERT_TRUE(preset);
    EXPECT_EQ(preset->crashProbe, 5u);
    ASSERT_EQ(preset->groups.size(), 4u);
    for (const auto& g : preset->groups) {
        ASSERT_EQ(g.memoryLimitsBytes.size(), 1u);
        EXPECT_EQ(g.memoryLimitsBytes[0], 1 * kGiB);
        EXPECT_EQ(g.sizes, std::vector<std::uint64_t>{4 * kGiB});
        EXPECT_EQ(g.chunks, std::vector<std::uint64_t>{4 * kKiB});
    }
    overrideSizes(*preset, {256 * kMiB});
    for (const auto& g : preset->groups)
        EXPECT_EQ(g.memoryLimitsBytes[0], 64 * kMiB);
    overrideSizes(*preset, {16 * kMiB});
    for (const auto& g : preset->groups)
        EXPECT_EQ(g.memoryLimitsBytes[0], kMinMemoryLimitBytes) << "never below the smallest limit";
}

TEST_F(MemoryLimit, TheOomSentenceNamesThePeakAndTheLimit)
{
    EXPECT_EQ(oomKillSentence(251 * kMiB, 256 * kMiB),
              "killed by the kernel's OOM killer at 251 MiB of the 256 MiB limit");
    EXPECT_EQ(oomKillSentence(0, 256 * kMiB), "killed by the kernel's OOM killer under the 256 MiB limit");
}

TEST_F(MemoryLimit, TheCgroupsFiguresRoundTripThroughAResultFile)
{
    RunResult r;
    CaseResult c;
    c.testCase.strategy = "write";
    c.testCase.memoryLimitBytes = 64 * kMiB;
    RepetitionResult rep;
    rep.memoryBudget = MemoryBudgetUse{64 * kMiB, 63 * kMiB, 61 * kMiB, 40 * kMiB};
    c.repetitions.push_back(rep);
    c.memoryBudget = rep.memoryBudget;
    Sample s;
    s.budgetUsageBytes = 63 * kMiB;
    s.budgetPageCacheBytes = 61 * kMiB;
    s.budgetDirtyBytes = 40 * kMiB;
    s.budgetWritebackBytes = 2 * kMiB;
    c.samples.push_back(s);
    r.cases.push_back(c);
    const RunResult back = resultFromJson(resultToJson(r).dump(), "test.json");
    ASSERT_EQ(back.cases.size(), 1u);
    EXPECT_EQ(back.cases[0], r.cases[0]);
    EXPECT_THAT(toCsv(summaryRows(r)), HasSubstr("memory_peak_bytes,memory_peak_page_cache_bytes,"
                                                 "memory_peak_dirty_bytes,temp_before_c"));
    EXPECT_THAT(toCsv(summaryRows(r)), HasSubstr(",66060288,63963136,41943040,,,,,"));
    EXPECT_THAT(toCsv(repetitionRows(r)), HasSubstr(",66060288,63963136,41943040,,,,"));
    EXPECT_THAT(toCsv(sampleRows(r)), HasSubstr(",66060288,63963136,41943040,2097152\r\n"));
}

// Article 001's answer in one table: the fastest case under the cap that loses nothing on kill -9, and the
// faster one that does lose, named with what it loses.
TEST(MemoryBudgetTable, AnswersTheFastestThatSurvivesKill9UnderEachLimit)
{
    const auto limited = [](std::uint32_t index, const std::string& strategy, std::uint32_t threads,
                            double durable, std::optional<std::uint64_t> lost) {
        CaseResult c;
        c.index = index;
        c.testCase.strategy = strategy;
        c.testCase.threads = threads;
        c.testCase.memoryLimitBytes = 1 * kGiB;
        c.apparentMBps = summarize(std::vector<double>{durable * 2, durable * 2, durable * 2});
        c.durableMBps = summarize(std::vector<double>{durable, durable, durable});
        c.memoryBudget = MemoryBudgetUse{1 * kGiB, 1000 * kMiB, 990 * kMiB, 300 * kMiB};
        CrashProbeResult probe;
        KillCheck kill;
        kill.landed = true;
        kill.acknowledgedBytes = 100 * kMiB;
        kill.presentBytes = 100 * kMiB - lost.value_or(0);
        kill.lostBytes = lost.value_or(0);
        probe.kills = {kill};
        c.crashProbe = probe;
        return c;
    };
    RunResult r;
    r.cases = {limited(0, "stdio", 1, 900, 64 * kKiB), limited(1, "write", 4, 700, 0),
               limited(2, "direct", 1, 400, 0)};
    CaseResult other;
    other.index = 3;
    other.testCase.strategy = "write";
    r.cases.push_back(other); // no limit: not in the table
    CaseResult oom = limited(4, "write", 16, 0, 0);
    oom.status = Status::Failed;
    oom.reason = "killed by the kernel's OOM killer at 1023 MiB of the 1 GiB limit";
    oom.apparentMBps = {};
    oom.durableMBps = {};
    oom.crashProbe.reset();
    r.cases.push_back(oom);

    const auto rows = memoryBudgetRows(r);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[1].method, "write, 4 threads");
    EXPECT_EQ(rows[0].killText, "no: loses up to 64 KiB");
    EXPECT_EQ(rows[1].killText, "yes");
    EXPECT_FALSE(rows[3].measured);
    EXPECT_THAT(rows[3].reason, HasSubstr("OOM killer"));
    const std::string answer = memoryBudgetAnswer(rows);
    EXPECT_THAT(answer,
                HasSubstr("Under the 1 GiB memory limit, the fastest way that loses nothing on kill -9 "
                          "is `write, 4 threads`: 700.0 MB/s durable (1.40 GB/s apparent)"));
    EXPECT_THAT(answer,
                HasSubstr("`stdio` was faster (900.0 MB/s durable), but loses data on kill -9 (no: loses "
                          "up to 64 KiB)"));
    const std::string text = memoryBudgetText(r);
    EXPECT_THAT(text, HasSubstr("survives kill -9"));
    EXPECT_THAT(text, HasSubstr("killed by the kernel's OOM killer"));
    EXPECT_EQ(memoryBudgetText(RunResult{}), "");

    // Every probed case lost data: no case is called safe.
    RunResult lossy;
    lossy.cases = {limited(0, "stdio", 1, 900, 64 * kKiB)};
    EXPECT_EQ(memoryBudgetAnswer(memoryBudgetRows(lossy)),
              "Under the 1 GiB memory limit every case the kill -9 probe could judge lost data; the fastest, "
              "`stdio`, reached 900.0 MB/s durable (survives kill -9: no: loses up to 64 KiB).");
}
