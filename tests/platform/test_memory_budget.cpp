// SPDX-License-Identifier: MIT
// Issue 17's memory budget on this machine: a write case under a memory limit runs in a child process (this
// test program re-executed, tests/support/test_main.cpp) inside a memory cgroup of its own, so that its page
// cache counts against the limit. Where this process cannot make a memory cgroup (cgroup v1 without root, v2
// without delegation, Windows), the tests say why and skip; the refusal itself is tested in core.
#include "core/base/units.h"
#include "tests/support/capabilities.h"
#include "tests/support/real_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#ifndef _WIN32
#include <unistd.h>
#endif

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

class MemoryBudget : public RealRuns
{
protected:
    MemoryBudget()
    {
        m_options.verifyFiles = true;
        m_options.sampling = true;
        m_options.sampleIntervalMs = 20;
    }

    void SetUp() override
    {
        if (mayLackMemoryCgroup(m_target))
            GTEST_SKIP() << "no memory cgroup for a case child here: " << m_target.memoryLimitProblem;
        if (folderLivesInMemory(m_target))
            GTEST_SKIP() << "the test folder " << m_dir.path() << " is on " << m_target.fsType
                         << ", where a memory limit is refused";
    }

    static MatrixGroup writes(const std::string& strategy, std::uint64_t chunk, std::uint64_t size,
                              std::uint64_t limit)
    {
        MatrixGroup g;
        g.strategies = {strategy};
        g.chunks = {chunk};
        g.sizes = {size};
        g.memoryLimitsBytes = {limit};
        return g;
    }
};

// The memory cgroups this process made and left behind: none may be.
std::vector<std::string> leftoverGroups()
{
    std::vector<std::string> left;
#ifndef _WIN32
    const std::string prefix = "iolab-" + std::to_string(::getpid()) + "-";
    for (const char* root : {"/sys/fs/cgroup/memory", "/sys/fs/cgroup"}) {
        std::error_code error;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(
                 root, std::filesystem::directory_options::skip_permission_denied, error)) {
            if (entry.is_directory(error) && entry.path().filename().string().rfind(prefix, 0) == 0)
                left.push_back(entry.path().string());
        }
    }
#endif
    return left;
}

} // namespace

TEST_F(MemoryBudget, BufferedWritesRunUnderTheLimitWithTheirPageCacheCountedAgainstIt)
{
    constexpr std::uint64_t kLimit = 32 * kMiB;
    Matrix m;
    m.groups.push_back(writes("write", 4 * kKiB, 96 * kMiB, kLimit));
    const RunResult r = run(m);
    ASSERT_EQ(r.cases.size(), 1u);
    const CaseResult& c = r.cases[0];
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_EQ(c.repetitions.size(), 1u);
    const RepetitionResult& rep = c.repetitions[0];
    EXPECT_EQ(rep.bytes, 96 * kMiB);
    EXPECT_TRUE(rep.verified) << "the child's files are read back by the parent";
    EXPECT_GT(rep.returnSeconds, 0.0);
    EXPECT_GT(rep.cpuSystemSeconds, 0.0) << "the child's CPU, not the parent's";
    ASSERT_TRUE(rep.memoryBudget);
    EXPECT_EQ(rep.memoryBudget->limitBytes, kLimit);
    EXPECT_GT(rep.memoryBudget->peakBytes, 8 * kMiB) << "96 MiB of writes fill the page cache up to the cap";
    EXPECT_LE(rep.memoryBudget->peakBytes, kLimit);
    EXPECT_GT(rep.memoryBudget->peakPageCacheBytes, 0u);
    EXPECT_LE(rep.memoryBudget->peakPageCacheBytes, kLimit);
    ASSERT_TRUE(c.memoryBudget);
    EXPECT_EQ(*c.memoryBudget, *rep.memoryBudget);
    // The child times its calls and keeps its threads' exposure as this process would, and hands both over.
    ASSERT_TRUE(c.callLatency) << c.latencyChoice;
    EXPECT_EQ(c.callLatency->summary.count, 96 * kMiB / (4 * kKiB)) << "every write, timed in the child";
    ASSERT_TRUE(rep.callLatency);
    EXPECT_GT(rep.callLatency->p50Ns, 0u);
    ASSERT_TRUE(rep.atRisk);
    EXPECT_EQ(rep.atRisk->maxBytes, 96 * kMiB) << "no sync: every byte waits for the run's own fsync";
    ASSERT_TRUE(rep.atRisk->maxSeconds);
    EXPECT_GE(*rep.atRisk->maxSeconds, rep.returnSeconds) << "from the first write to the final fsync";
    ASSERT_TRUE(c.atRisk);
    bool sawBudget = false;
    for (const Sample& s : c.samples) {
        EXPECT_LE(s.budgetUsageBytes, kLimit);
        sawBudget = sawBudget || s.budgetUsageBytes > 0;
    }
    EXPECT_TRUE(sawBudget) << "the samples show the cgroup's usage (" << c.samples.size() << " samples)";
    EXPECT_THAT(leftoverGroups(), ::testing::IsEmpty());
}

// A case in a child looks like any other: the same case run in this process and in a child under a limit
// has the same exposure (a sync every 8 writes: 32 KiB at most waits) and times the same calls and syncs.
TEST_F(MemoryBudget, AChildsCaseHasTheLatencyAndExposureFiguresOfTheSameCaseInThisProcess)
{
    Matrix m;
    MatrixGroup inProcess = writes("write", 4 * kKiB, 8 * kMiB, 0);
    inProcess.memoryLimitsBytes = {};
    inProcess.syncs = {SyncPolicy{SyncMode::FdatasyncEvery, 8}};
    MatrixGroup inChild = inProcess;
    inChild.memoryLimitsBytes = {64 * kMiB};
    m.groups = {inProcess, inChild};
    const RunResult r = run(m);
    ASSERT_EQ(r.cases.size(), 2u);
    for (const CaseResult& c : r.cases) {
        ASSERT_EQ(c.status, Status::Ok) << c.reason;
        const bool child = c.testCase.memoryLimitBytes != 0;
        ASSERT_TRUE(c.atRisk) << child;
        EXPECT_EQ(c.atRisk->maxBytes, 32 * kKiB) << child;
        EXPECT_EQ(c.atRisk->basis, ExposureBasis::Exact) << child;
        ASSERT_TRUE(c.atRisk->maxSeconds) << child;
        EXPECT_GT(*c.atRisk->maxSeconds, 0.0) << child;
        ASSERT_TRUE(c.callLatency) << child << ": " << c.latencyChoice;
        EXPECT_EQ(c.callLatency->summary.count, 8 * kMiB / (4 * kKiB)) << child;
        ASSERT_TRUE(c.syncLatency) << child;
        EXPECT_EQ(c.syncLatency->summary.count, 8 * kMiB / (32 * kKiB) + 1)
            << child << ": one fdatasync per 8 writes, and the one after the loop";
    }
    EXPECT_EQ(r.cases[0].latencyChoice, r.cases[1].latencyChoice);
}

TEST_F(MemoryBudget, AChildTheOomKillerEndsIsAFailedCaseThatSaysSoAndTheRunGoesOn)
{
    constexpr std::uint64_t kLimit = 24 * kMiB;
    Matrix m;
    m.groups.push_back(writes("test-memory-hog", 1 * kMiB, 256 * kMiB, kLimit));
    m.groups.push_back(writes("write", 64 * kKiB, 16 * kMiB, kLimit));
    const RunResult r = run(m);
    ASSERT_EQ(r.cases.size(), 2u);
    EXPECT_EQ(r.cases[0].status, Status::Failed);
    EXPECT_THAT(r.cases[0].reason, HasSubstr("killed by the kernel's OOM killer"));
    EXPECT_THAT(r.cases[0].reason, HasSubstr("of the " + formatBytes(kLimit) + " limit"));
    ASSERT_TRUE(r.cases[0].memoryBudget) << "a failed repetition keeps what its cgroup used";
    EXPECT_EQ(r.cases[1].status, Status::Ok) << r.cases[1].reason;
    EXPECT_THAT(leftoverGroups(), ::testing::IsEmpty());
}

// The kill -9 probe's runs of a case under a memory limit run under the same cap: a probe child that takes
// more than the limit is stopped by the OOM killer, and the probe says so instead of counting a kill.
TEST_F(MemoryBudget, TheProbesRunsAreUnderTheCapToo)
{
    constexpr std::uint64_t kLimit = 24 * kMiB;
    m_options.verifyFiles = false; // the measured run of test-probe-hog writes no file
    m_options.crashProbe = 1;
    m_options.crashProbeSeed = 7;
    Matrix m;
    m.groups.push_back(writes("test-probe-hog", 1 * kMiB, 256 * kMiB, kLimit));
    const RunResult r = run(m);
    ASSERT_EQ(r.cases.size(), 1u);
    ASSERT_EQ(r.cases[0].status, Status::Ok) << r.cases[0].reason;
    ASSERT_TRUE(r.cases[0].crashProbe);
    const CrashProbeResult& probe = *r.cases[0].crashProbe;
    EXPECT_THAT(probe.failure, HasSubstr("killed by the kernel's OOM killer"));
    EXPECT_THAT(probe.failure, HasSubstr("before the kill"));
    EXPECT_EQ(probe.landedKills(), 0u);
    EXPECT_THAT(leftoverGroups(), ::testing::IsEmpty());
}

#ifndef _WIN32
// The OOM killer is named only on its own evidence (the cgroup's oom_kill count): a child that dies of
// anything else is a failed case that says how it ended, and nothing about memory.
TEST_F(MemoryBudget, AChildThatDiesOtherwiseIsNotBlamedOnTheOomKiller)
{
    Matrix m;
    m.groups.push_back(writes("test-self-kill", 1 * kMiB, 16 * kMiB, 64 * kMiB));
    const RunResult r = run(m);
    ASSERT_EQ(r.cases.size(), 1u);
    EXPECT_EQ(r.cases[0].status, Status::Failed);
    EXPECT_THAT(r.cases[0].reason, HasSubstr("was killed by signal 9 (SIGKILL)"));
    EXPECT_THAT(r.cases[0].reason, ::testing::Not(HasSubstr("OOM")));
    EXPECT_THAT(leftoverGroups(), ::testing::IsEmpty());
}
#endif

TEST_F(MemoryBudget, CancelStopsTheChildAndLeavesNothing)
{
    std::stop_source stop;
    std::jthread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        stop.request_stop();
    });
    const RunResult r = run(writes("direct", 4 * kKiB, 1 * kGiB, 64 * kMiB), stop.get_token());
    ASSERT_EQ(r.cases.size(), 1u);
    EXPECT_EQ(r.cases[0].status, Status::Cancelled) << r.cases[0].reason;
    EXPECT_TRUE(r.cancelled);
    EXPECT_THAT(leftoverGroups(), ::testing::IsEmpty());
}

TEST_F(MemoryBudget, ACancelKillsAChildThatDoesNotStopWithinItsGrace)
{
    // test-deaf sleeps for a minute past the stop flag; the runner gives it 5 s, then kills it.
    std::stop_source stop;
    std::jthread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        stop.request_stop();
    });
    const auto began = std::chrono::steady_clock::now();
    const RunResult r = run(writes("test-deaf", 1 * kMiB, 16 * kMiB, 64 * kMiB), stop.get_token());
    const auto took = std::chrono::steady_clock::now() - began;
    ASSERT_EQ(r.cases.size(), 1u);
    EXPECT_EQ(r.cases[0].status, Status::Cancelled) << r.cases[0].reason;
    EXPECT_TRUE(r.cancelled);
    EXPECT_LT(took, std::chrono::seconds(40)) << "killed after its grace, not waited for";
    EXPECT_THAT(leftoverGroups(), ::testing::IsEmpty());
}
