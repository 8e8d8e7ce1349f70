// SPDX-License-Identifier: MIT
// Issue 17's kill -9 probe on real files: each case runs again in a child process (this test program
// re-executed, tests/support/test_main.cpp) that is killed with SIGKILL (TerminateProcess) mid-write; then
// the files are read back against what the API had acknowledged.
#include "core/base/units.h"
#include "core/engine/crash_probe.h"
#include "tests/support/capabilities.h"
#include "tests/support/real_runs.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace iolab;
using namespace iolab::test;

namespace {

// The probe's kills as the runner announces them to a front end.
class KillRecorder final : public RunObserver
{
public:
    void probeKillStarted(const ProbeKillStarted& kill) override { kills.push_back(kill); }
    std::vector<ProbeKillStarted> kills;
};

class CrashProbe : public RealRuns
{
protected:
    CrashProbe()
    {
        m_options.crashProbe = 4;
        m_options.crashProbeSeed = 17;
    }

    RunResult run(const MatrixGroup& group) { return RealRuns::run(group, {}, &m_recorder); }

    static MatrixGroup writes(const std::string& strategy, std::uint64_t chunk, std::uint64_t size)
    {
        MatrixGroup g;
        g.strategies = {strategy};
        g.chunks = {chunk};
        g.sizes = {size};
        return g;
    }

    KillRecorder m_recorder;
};

void expectLanded(const CrashProbeResult& probe)
{
    EXPECT_TRUE(probe.failure.empty()) << probe.failure;
    EXPECT_EQ(probe.seed, 17u);
    EXPECT_EQ(probe.kills.size(), 4u);
    EXPECT_GE(probe.landedKills(), 1u) << "the kills come at 10-90% of the measured run, which the child, "
                                          "publishing after every call, takes longer to do";
    for (const auto& kill : probe.kills) {
        if (!kill.landed)
            continue;
        EXPECT_GT(kill.acknowledgedBytes, 0u);
        EXPECT_EQ(kill.wrongBytes, 0u);
        EXPECT_FALSE(kill.exit.empty());
    }
}

} // namespace

TEST_F(CrashProbe, StdioLosesWhatWasStillInItsBufferAndNoMore)
{
    // 1-byte fwrites: the process spends nearly all its time copying into the buffer (65,536 calls) and
    // little in the write(2) that empties it, so a kill at a random moment almost always finds bytes that
    // fwrite had returned for still in the buffer (all four kills finding it empty: below one in a million).
    auto g = writes("stdio", 1, 32 * kMiB);
    g.buffers = {StdioBuffer{BufferMode::Bytes, 64 * kKiB}};
    const auto result = run(g);
    ASSERT_EQ(result.cases.size(), 1u);
    const auto& c = result.cases[0];
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    expectLanded(*c.crashProbe);
    EXPECT_EQ(c.crashProbe->survives(), false)
        << "after 4 kills at random moments, some fwrite's bytes were in the 64 KiB buffer";
    EXPECT_GT(c.crashProbe->worstLossBytes(), 0u);
    EXPECT_LE(c.crashProbe->worstLossBytes(), 64 * kKiB) << "never more than the buffer";
    for (const auto& kill : c.crashProbe->kills)
        EXPECT_EQ(kill.presentBytes + kill.lostBytes + kill.scratchBytes, kill.acknowledgedBytes);
    const auto verdict = crashProbeVerdict(*c.crashProbe, &registry().find("stdio")->info());
    EXPECT_NE(verdict.find("survives kill -9: no: loses up to"), std::string::npos) << verdict;
    EXPECT_NE(verdict.find("stdio buffer"), std::string::npos) << verdict;
    // A front end heard of each kill as it started, in order.
    ASSERT_EQ(m_recorder.kills.size(), 4u);
    for (std::uint32_t k = 0; k < 4; ++k) {
        EXPECT_EQ(m_recorder.kills[k].caseIndex, 0u);
        EXPECT_EQ(m_recorder.kills[k].kill, k + 1);
        EXPECT_EQ(m_recorder.kills[k].kills, 4u);
    }
}

class CrashProbeLosesNothing : public CrashProbe, public ::testing::WithParamInterface<const char*>
{};

TEST_P(CrashProbeLosesNothing, WhatTheApiAcknowledgedIsInTheFileAfterTheKill)
{
    const std::string strategy = GetParam();
    // Only io_uring can be missing from a Linux build's writers here; whether it is, the kernel says.
    if (const auto& why = registry().find(strategy)->info().unavailable; why && mayLackUring(*why))
        GTEST_SKIP() << *why;
    if (registry().find(strategy)->info().needsDirectIo && mayLackDirectIo(m_target))
        GTEST_SKIP() << m_target.directIoProblem;
    const auto result = run(writes(strategy, 64 * kKiB, 128 * kMiB));
    ASSERT_EQ(result.cases.size(), 1u);
    const auto& c = result.cases[0];
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    expectLanded(*c.crashProbe);
    EXPECT_EQ(c.crashProbe->survives(), true) << crashProbeVerdict(*c.crashProbe, nullptr);
    EXPECT_EQ(c.crashProbe->worstLossBytes(), 0u);
}

#ifdef __linux__
#define IOLAB_QUEUED_WRITERS , "uring-write"
#else
#define IOLAB_QUEUED_WRITERS
#endif
INSTANTIATE_TEST_SUITE_P(Writers, CrashProbeLosesNothing,
                         ::testing::Values("write", "direct", "write-random", "mmap-window",
                                           "mmap-batch-direct" IOLAB_QUEUED_WRITERS));
#undef IOLAB_QUEUED_WRITERS

TEST_F(CrashProbe, MmapBatchDirectSaysItsBatchSurvivesInTheScratchFile)
{
    if (mayLackDirectIo(m_target))
        GTEST_SKIP() << m_target.directIoProblem;
    m_options.crashProbe = 6;
    const auto result = run(writes("mmap-batch-direct", 4 * kKiB, 128 * kMiB));
    const auto& c = result.cases.at(0);
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    EXPECT_EQ(c.crashProbe->survives(), true);
    // Most kills land in the O_DIRECT pwrite of a full batch (the slow part), some between copies: then
    // part of a batch is only in the scratch file's mapping, which the result says.
    EXPECT_LT(c.crashProbe->worstScratchBytes(), 16 * kKiB) << "never more than one batch";
    const auto verdict = crashProbeVerdict(*c.crashProbe, &registry().find("mmap-batch-direct")->info());
    EXPECT_EQ(verdict.find("scratch file") != std::string::npos, c.crashProbe->worstScratchBytes() != 0)
        << verdict;
}

TEST_F(CrashProbe, IsRefusedForReadsPipesAndNull)
{
    MatrixGroup g;
    g.strategies = {"read"};
    g.chunks = {64 * kKiB};
    g.sizes = {1 * kMiB};
    const auto result = run(g);
    ASSERT_EQ(result.cases.size(), 1u);
    EXPECT_EQ(result.cases[0].status, Status::Refused);
    EXPECT_NE(result.cases[0].reason.find("read case writes nothing"), std::string::npos);
    Case pipe;
    pipe.target = TargetKind::Pipe;
    EXPECT_NE(crashProbeRefusal(pipe).find("pipe"), std::string::npos);
    Case null;
    null.target = TargetKind::Null;
    EXPECT_NE(crashProbeRefusal(null).find("null"), std::string::npos);
    Case rewrite;
    rewrite.preallocate = Preallocate::Rewrite;
    EXPECT_NE(crashProbeRefusal(rewrite).find("rewrite writes one chunk again and again"), std::string::npos);
    Case overwrite;
    overwrite.preallocate = Preallocate::Overwrite;
    EXPECT_EQ(crashProbeRefusal(overwrite), "");
}

TEST_F(CrashProbe, AChildThatCannotStartItsCaseIsAFailureSaidInWords)
{
    // The child's own registry has no such strategy: it says so through the block and exits.
    Case c;
    c.strategy = "no-such-strategy";
    c.chunkBytes = 4 * kKiB;
    c.totalBytes = 1 * kMiB;
    c.threads = 1;
    StrategyInfo info;
    auto workspace = makeWorkspace(m_target);
    std::atomic<bool> stop{false};
    const auto probe = runCrashProbe(0, c, info, 2, 5, 0.1, *m_launcher, *workspace, stop);
    EXPECT_TRUE(probe.kills.empty());
    EXPECT_NE(probe.failure.find("no strategy 'no-such-strategy'"), std::string::npos) << probe.failure;
    workspace->close();
    EXPECT_TRUE(std::filesystem::is_empty(m_dir.path())) << "nothing left behind";
}
