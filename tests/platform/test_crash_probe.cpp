// SPDX-License-Identifier: MIT
// The kill -9 probe (issues 17 and 34) on real files: each case runs again in a child process (this test
// program re-executed, tests/support/test_main.cpp) that stops right after the call crossing a drawn count of
// acknowledged bytes and is killed there with SIGKILL (TerminateProcess), or is killed at a drawn moment;
// then the files are read back against what the API had acknowledged.
#include "core/base/units.h"
#include "core/engine/crash_probe.h"
#include "tests/support/capabilities.h"
#include "tests/support/real_runs.h"
#include "tests/support/stdio_model.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <utility>

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

void expectLanded(const CrashProbeResult& probe, std::size_t kills = 4)
{
    EXPECT_TRUE(probe.failure.empty()) << probe.failure;
    EXPECT_EQ(probe.seed, 17u);
    EXPECT_EQ(probe.kills.size(), kills);
    if (probe.at == CrashProbeAt::Ack)
        EXPECT_EQ(probe.landedKills(), kills) << "every child stops at its point before it could finish";
    else
        EXPECT_GE(probe.landedKills(), 1u)
            << "the kills come at 10-90% of the measured run, which the child, "
               "publishing after every call, takes longer to do";
    for (const auto& kill : probe.kills) {
        if (!kill.landed)
            continue;
        // A kill at an acknowledgement point comes after bytes were acknowledged; one at a moment may come
        // before the child's first call returned (a slow start: under wine a child takes a while), and then
        // nothing was acknowledged and nothing can be lost, which the accounting below still checks.
        if (probe.at == CrashProbeAt::Ack) {
            EXPECT_GT(kill.acknowledgedBytes, 0u);
        }
        EXPECT_EQ(kill.wrongBytes, 0u);
        EXPECT_FALSE(kill.exit.empty());
        EXPECT_EQ(kill.presentBytes + kill.lostBytes + kill.scratchBytes, kill.acknowledgedBytes);
        EXPECT_EQ(kill.pointBytes.empty(), probe.at == CrashProbeAt::Time);
    }
}

// This OS's C runtime, as tests/support/stdio_model.h follows it.
constexpr StdioStreamModel::Runtime kRuntime =
#ifdef _WIN32
    StdioStreamModel::Runtime::Microsoft;
#else
    StdioStreamModel::Runtime::Glibc;
#endif

// The buffer a FILE gets when setvbuf gives it none: glibc's BUFSIZ, or the file's st_blksize when smaller;
// the Microsoft C runtime's 4 KiB.
std::uint64_t defaultStdioBuffer(const TargetInfo& target)
{
    if (kRuntime == StdioStreamModel::Runtime::Microsoft)
        return 4096;
    return target.fileBlockBytes > 0 && target.fileBlockBytes < BUFSIZ ? target.fileBlockBytes : BUFSIZ;
}

// Each kill of a one-thread stdio case lost exactly what the C runtime's buffer held right after the call
// that crossed its point: what was acknowledged, replayed through the model of the runtime.
void expectLossesAsTheRuntimeBuffers(const CrashProbeResult& probe, std::uint64_t buffer, std::uint64_t chunk)
{
    for (const auto& kill : probe.kills) {
        ASSERT_TRUE(kill.landed);
        ASSERT_EQ(kill.pointBytes.size(), 1u);
        EXPECT_GE(kill.acknowledgedBytes, kill.pointBytes[0]);
        EXPECT_LT(kill.acknowledgedBytes, kill.pointBytes[0] + chunk) << "it stopped right after the call";
        EXPECT_EQ(kill.lostBytes,
                  StdioStreamModel::heldAfter(kRuntime, buffer, chunk, kill.acknowledgedBytes))
            << "acknowledged " << kill.acknowledgedBytes << ", point " << kill.pointBytes[0];
    }
}

} // namespace

TEST_F(CrashProbe, StdioLosesWhatWasStillInItsBufferAndNoMore)
{
    // 1-byte fwrites into a 64 KiB buffer: each kill, right after a call returned, loses exactly what the
    // buffer then held, 1 byte to 64 KiB.
    auto g = writes("stdio", 1, 8 * kMiB);
    g.buffers = {StdioBuffer{BufferMode::Bytes, 64 * kKiB}};
    const auto result = run(g);
    ASSERT_EQ(result.cases.size(), 1u);
    const auto& c = result.cases[0];
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    expectLanded(*c.crashProbe);
    expectLossesAsTheRuntimeBuffers(*c.crashProbe, 64 * kKiB, 1);
    EXPECT_EQ(c.crashProbe->survives(), false);
    EXPECT_EQ(c.crashProbe->lossyKills(), 4u) << "a 1-byte call never leaves the buffer empty";
    EXPECT_LE(c.crashProbe->worstLossBytes(), 64 * kKiB) << "never more than the buffer";
    const auto verdict = crashProbeVerdict(*c.crashProbe, c.testCase, nullptr);
    EXPECT_TRUE(verdict.starts_with("survives kill -9: no: lost up to")) << verdict;
    EXPECT_NE(verdict.find("can lose up to 64 KiB, its 64 KiB stdio buffer"), std::string::npos) << verdict;
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
    const auto result = run(writes(strategy, 64 * kKiB, 32 * kMiB));
    ASSERT_EQ(result.cases.size(), 1u);
    const auto& c = result.cases[0];
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    expectLanded(*c.crashProbe);
    EXPECT_EQ(c.crashProbe->survives(), true) << crashProbeVerdict(*c.crashProbe, c.testCase, nullptr);
    EXPECT_EQ(c.crashProbe->worstLossBytes(), 0u);
    ASSERT_TRUE(c.crashProbe->hold.has_value());
    EXPECT_EQ(c.crashProbe->hold->lossBytes(), 0u);
    // Each kill came right after the call whose acknowledgement crossed its point (a queued writer's reap
    // of one completion: queue depth 1).
    for (const auto& kill : c.crashProbe->kills) {
        ASSERT_EQ(kill.pointBytes.size(), 1u);
        EXPECT_GE(kill.acknowledgedBytes, kill.pointBytes[0]);
        EXPECT_LT(kill.acknowledgedBytes, kill.pointBytes[0] + 64 * kKiB);
    }
    EXPECT_TRUE(crashProbeVerdict(*c.crashProbe, c.testCase, nullptr)
                    .starts_with("survives kill -9: yes (4 kills right after a call returned"));
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
    const auto result = run(writes("mmap-batch-direct", 4 * kKiB, 16 * kMiB));
    const auto& c = result.cases.at(0);
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    EXPECT_EQ(c.crashProbe->survives(), true);
    // Right after a call, part of a batch is often only in the scratch file's mapping (1 to 4 of its 4 KiB
    // copies), which the result says.
    EXPECT_LT(c.crashProbe->worstScratchBytes(), 16 * kKiB) << "never more than one batch";
    const auto verdict = crashProbeVerdict(*c.crashProbe, c.testCase, nullptr);
    EXPECT_NE(verdict.find("its 16 KiB batch, in a file-backed mapping of its scratch file"),
              std::string::npos)
        << verdict;
    EXPECT_EQ(verdict.find("not yet in the data file") != std::string::npos,
              c.crashProbe->worstScratchBytes() != 0)
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
    CrashProbePlan plan;
    plan.kills = 2;
    plan.seed = 5;
    plan.typicalSeconds = 0.1;
    const auto probe = runCrashProbe(0, c, info, plan, *m_launcher, *workspace, stop);
    EXPECT_TRUE(probe.kills.empty());
    EXPECT_NE(probe.failure.find("no strategy 'no-such-strategy'"), std::string::npos) << probe.failure;
    workspace->close();
    EXPECT_TRUE(std::filesystem::is_empty(m_dir.path())) << "nothing left behind";
}

// Must not pass: the case. 4 KiB fwrites into a 1 MiB buffer; at random moments the kills land in
// the buffer's write(2) and see nothing lost, but right after a call returned the buffer always holds 4 KiB
// to 1 MiB that fwrite had acknowledged.
TEST_F(CrashProbe, StdioWithA1MiBBufferLosesAtEveryAcknowledgementPointAndIsNeverSafe)
{
    m_options.crashProbe = 5;
    auto g = writes("stdio", 4 * kKiB, 64 * kMiB);
    g.buffers = {StdioBuffer{BufferMode::Bytes, kMiB}};
    const auto result = run(g);
    const auto& c = result.cases.at(0);
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    const CrashProbeResult& probe = *c.crashProbe;
    EXPECT_EQ(probe.at, CrashProbeAt::Ack);
    expectLanded(probe, 5);
    EXPECT_EQ(probe.lossyKills(), 5u) << "losses were seen: every kill lost what its buffer held";
    expectLossesAsTheRuntimeBuffers(probe, kMiB, 4 * kKiB);
    EXPECT_EQ(probe.survives(), false);
    ASSERT_TRUE(probe.hold.has_value());
    EXPECT_EQ(probe.hold->kind, UserSpaceHold::Kind::StdioBuffer);
    EXPECT_EQ(probe.hold->lossBytes(), kMiB);
    const auto verdict = crashProbeVerdict(probe, c.testCase, nullptr);
    EXPECT_TRUE(verdict.starts_with("survives kill -9: no: lost up to ")) << verdict;
    EXPECT_NE(
        verdict.find(" in 5 of 5 kills right after a call returned; can lose up to 1 MiB, its 1 MiB stdio "
                     "buffer"),
        std::string::npos)
        << verdict;
}

// The time-based placement still works: kills at moments land, are recorded as such, and the answer for a
// buffer is still no, from the design, whatever they saw.
TEST_F(CrashProbe, KillsAtMomentsRemainAnOptionAndTheDesignStillAnswers)
{
    m_options.crashProbeAt = CrashProbeAt::Time;
    auto g = writes("stdio", 4 * kKiB, 64 * kMiB);
    g.buffers = {StdioBuffer{BufferMode::Bytes, kMiB}};
    const auto result = run(g);
    EXPECT_EQ(result.options.crashProbeAt, CrashProbeAt::Time);
    const auto& c = result.cases.at(0);
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    EXPECT_EQ(c.crashProbe->at, CrashProbeAt::Time);
    expectLanded(*c.crashProbe);
    for (const auto& kill : c.crashProbe->kills) {
        if (kill.landed) {
            EXPECT_LE(kill.lostBytes, kMiB) << "never more than the buffer";
        }
    }
    EXPECT_EQ(c.crashProbe->survives(), false);
    const auto verdict = crashProbeVerdict(*c.crashProbe, c.testCase, nullptr);
    EXPECT_NE(verdict.find("can lose up to 1 MiB, its 1 MiB stdio buffer"), std::string::npos) << verdict;
    EXPECT_NE(verdict.find("at random moments"), std::string::npos) << verdict;
    // And write still answers yes at moments.
    const auto plain = run(writes("write", 64 * kKiB, 64 * kMiB));
    ASSERT_TRUE(plain.cases.at(0).crashProbe.has_value());
    expectLanded(*plain.cases[0].crashProbe);
    EXPECT_EQ(plain.cases[0].crashProbe->survives(), true);
}

// glibc keeps a 4 KiB call that exactly fills its default 4 KiB buffer (the file's block on ext4) until the
// next call: every other acknowledgement point loses 4 KiB. The Microsoft C runtime writes it through.
TEST_F(CrashProbe, StdioAt4KiBWithTheDefaultBufferLosesWhatItsRuntimeKeeps)
{
    m_options.crashProbe = 10;
    auto g = writes("stdio", 4 * kKiB, 32 * kMiB);
    g.buffers = {StdioBuffer{BufferMode::Default, 0}};
    const auto result = run(g);
    const auto& c = result.cases.at(0);
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    expectLanded(*c.crashProbe, 10);
    const std::uint64_t buffer = defaultStdioBuffer(m_target);
    expectLossesAsTheRuntimeBuffers(*c.crashProbe, buffer, 4 * kKiB);
    ASSERT_TRUE(c.crashProbe->hold.has_value());
    EXPECT_EQ(c.crashProbe->hold->bufferBytes, buffer);
    const std::uint64_t design = stdioHeldBytes(*registry().find("stdio")->info().stdioRuntime, buffer,
                                                4 * kKiB, c.testCase.totalBytes);
    EXPECT_EQ(c.crashProbe->hold->lossBytes(), design);
    EXPECT_EQ(c.crashProbe->survives(), design == 0);
    EXPECT_LE(c.crashProbe->worstLossBytes(), design);
}

// Where the design says a stdio stream keeps nothing between calls (unbuffered; calls of whole buffers,
// which both runtimes write straight through), the kills lose nothing and the answer is yes.
class StdioThatKeepsNothing : public CrashProbe,
                              public ::testing::WithParamInterface<std::pair<std::uint64_t, StdioBuffer>>
{};

TEST_P(StdioThatKeepsNothing, LosesNothingAtAnyPoint)
{
    const auto [chunk, buffer] = GetParam();
    auto g = writes("stdio", chunk, 32 * kMiB);
    g.buffers = {buffer};
    const auto result = run(g);
    const auto& c = result.cases.at(0);
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    expectLanded(*c.crashProbe);
    const std::uint64_t bytes = buffer.mode == BufferMode::Bytes     ? buffer.bytes
                                : buffer.mode == BufferMode::Default ? defaultStdioBuffer(m_target)
                                                                     : 0;
    ASSERT_EQ(stdioHeldBytes(*registry().find("stdio")->info().stdioRuntime, bytes, chunk, 32 * kMiB), 0u)
        << "a case the design keeps nothing for";
    expectLossesAsTheRuntimeBuffers(*c.crashProbe, bytes, chunk);
    EXPECT_EQ(c.crashProbe->lossyKills(), 0u);
    EXPECT_EQ(c.crashProbe->survives(), true) << crashProbeVerdict(*c.crashProbe, c.testCase, nullptr);
    const auto verdict = crashProbeVerdict(*c.crashProbe, c.testCase, nullptr);
    EXPECT_NE(verdict.find("holds nothing acknowledged"), std::string::npos) << verdict;
}

INSTANTIATE_TEST_SUITE_P(Configurations, StdioThatKeepsNothing,
                         ::testing::Values(std::pair{4 * kKiB, StdioBuffer{BufferMode::None, 0}},
                                           std::pair{64 * kKiB, StdioBuffer{BufferMode::Bytes, 4 * kKiB}},
                                           std::pair{64 * kKiB, StdioBuffer{BufferMode::Default, 0}}));

// Threads with a file each: each stops at a point of its own, so each holds what its own buffer held there.
TEST_F(CrashProbe, EachThreadStopsAtItsOwnPoint)
{
    auto g = writes("stdio", 4 * kKiB, 64 * kMiB);
    g.buffers = {StdioBuffer{BufferMode::Bytes, 64 * kKiB}};
    g.threads = {4};
    const auto result = run(g);
    const auto& c = result.cases.at(0);
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    expectLanded(*c.crashProbe);
    for (const auto& kill : c.crashProbe->kills) {
        ASSERT_EQ(kill.pointBytes.size(), 4u);
        std::uint64_t points = 0;
        for (const auto p : kill.pointBytes) {
            EXPECT_LE(p, 16 * kMiB) << "within the thread's own share";
            points += p;
        }
        EXPECT_GE(kill.acknowledgedBytes, points);
        EXPECT_LT(kill.acknowledgedBytes, points + 4 * 4 * kKiB);
        // Right after a 4 KiB call into a 64 KiB buffer, each of the four holds 4 to 64 KiB.
        EXPECT_GE(kill.lostBytes, 4 * 4 * kKiB);
        EXPECT_LE(kill.lostBytes, 4 * 64 * kKiB);
    }
    EXPECT_EQ(c.crashProbe->hold->lossBytes(), 4 * 64 * kKiB);
    EXPECT_EQ(c.crashProbe->survives(), false);
}

// Threads that share one file and one acknowledgement (group-commit: a write counts once its commit
// returned) share one count: each stops after its own next commit once the count has crossed the point.
TEST_F(CrashProbe, ThreadsSharingAFileShareOnePoint)
{
    auto g = writes("group-commit", 4 * kKiB, 4 * kMiB);
    g.threads = {4};
    const auto result = run(g);
    const auto& c = result.cases.at(0);
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    expectLanded(*c.crashProbe);
    for (const auto& kill : c.crashProbe->kills) {
        ASSERT_EQ(kill.pointBytes.size(), 1u);
        EXPECT_GE(kill.acknowledgedBytes, kill.pointBytes[0]);
    }
    EXPECT_EQ(c.crashProbe->survives(), true);
}

#ifdef __linux__
// A queue deeper than 1: the writer stops after the reap whose completions cross its point; what is still in
// flight may land meanwhile, as bytes beyond the acknowledged ones, never as a loss.
TEST_F(CrashProbe, AQueuedWriterStopsAfterTheReapThatCrossesItsPoint)
{
    if (registry().find("uring-write")->info().unavailable)
        GTEST_SKIP() << *registry().find("uring-write")->info().unavailable;
    auto g = writes("uring-write", 64 * kKiB, 128 * kMiB);
    g.queueDepths = {8};
    const auto result = run(g);
    const auto& c = result.cases.at(0);
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_TRUE(c.crashProbe.has_value());
    expectLanded(*c.crashProbe);
    for (const auto& kill : c.crashProbe->kills)
        EXPECT_GE(kill.acknowledgedBytes, kill.pointBytes.at(0));
    EXPECT_EQ(c.crashProbe->survives(), true);
}
#endif

TEST_F(CrashProbe, TheStdioWritersDeclareThisOsRuntimeAndTheTargetItsFileBlock)
{
    const auto& runtime = registry().find("stdio")->info().stdioRuntime;
    ASSERT_TRUE(runtime.has_value());
    for (const char* id : {"stdio", "stdio-unlocked", "putc"}) {
        ASSERT_NE(registry().find(id), nullptr) << id;
        EXPECT_EQ(registry().find(id)->info().stdioRuntime, runtime) << id;
    }
    EXPECT_FALSE(registry().find("write")->info().stdioRuntime.has_value());
#ifdef _WIN32
    EXPECT_EQ(runtime->defaultBufferBytes, 4096u);
    EXPECT_FALSE(runtime->keepsAFullBuffer);
#else
    EXPECT_EQ(runtime->defaultBufferBytes, static_cast<std::uint64_t>(BUFSIZ));
    EXPECT_TRUE(runtime->defaultFromFileBlock);
    EXPECT_GT(m_target.fileBlockBytes, 0u) << "st_blksize of the target folder";
#endif
}
