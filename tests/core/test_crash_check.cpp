// SPDX-License-Identifier: MIT
// The kill -9 probe's reading of a file after the kill (core/engine/crash_probe.h), its link block and its
// words, without a process.
#include "core/analysis/verdict.h"
#include "core/base/error.h"
#include "core/base/units.h"
#include "core/engine/case_child.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/crash_probe.h"
#include "core/engine/pattern.h"
#include "core/engine/strategy.h"
#include "core/formats/matrix_json.h"
#include "core/formats/result_json.h"
#include "tests/support/stdio_model.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <set>
#include <thread>
#include <utility>
#include <vector>

using namespace iolab;
using iolab::test::StdioStreamModel;

namespace {

std::vector<std::byte> patternBytes(const Pattern& pattern, std::uint64_t from, std::size_t n)
{
    std::vector<std::byte> bytes(n);
    for (std::size_t i = 0; i < n; ++i)
        bytes[i] = Pattern::expected(from + i);
    (void)pattern;
    return bytes;
}

KillFileCheck checkOf(const Pattern& pattern, std::uint64_t acknowledged, const std::vector<std::byte>& file,
                      std::size_t piece = 1000)
{
    KillFileCheck check(pattern, acknowledged);
    for (std::size_t at = 0; at < file.size(); at += piece)
        check.add(file.data() + at, std::min(piece, file.size() - at));
    return check;
}

} // namespace

TEST(KillFileCheck, ACompleteFileHasEverythingBelowTheAcknowledgedPosition)
{
    const Pattern pattern(4096);
    const auto file = patternBytes(pattern, 0, 300'000); // crosses the pattern's period
    const auto check = checkOf(pattern, 300'000, file);
    EXPECT_EQ(check.size(), 300'000u);
    EXPECT_EQ(check.correctBelow(), 300'000u);
    EXPECT_EQ(check.correctAbove(), 0u);
    EXPECT_EQ(check.prefix(), 300'000u);
    EXPECT_EQ(check.zeros(), 0u);
    EXPECT_EQ(check.wrong(), 0u);
}

TEST(KillFileCheck, ZerosAHoleAndAWrongByteAreToldApart)
{
    const Pattern pattern(4096);
    auto file = patternBytes(pattern, 0, 64 * 1024);
    std::memset(file.data() + 8192, 0, 4096); // a hole: one page of zeros
    file[20000] = std::byte{0};               // one zero byte
    file[30000] = ~file[30000];               // one wrong byte (never zero: the pattern has none)
    const auto check = checkOf(pattern, 40'000, file);
    EXPECT_EQ(check.prefix(), 8192u);
    EXPECT_EQ(check.zeros(), 4097u);
    EXPECT_EQ(check.wrong(), 1u);
    EXPECT_EQ(check.correctBelow(), 40'000u - 4098u);
    EXPECT_EQ(check.correctAbove(), 64u * 1024 - 40'000u);
}

TEST(KillFileCheck, InOrderAMissingTailIsLostAndBytesPastTheAcknowledgedOnesAreBeyond)
{
    const Pattern pattern(4096);
    // The API acknowledged 100 000 bytes; 60 000 reached the file (a stdio buffer held the rest).
    const auto file = patternBytes(pattern, 0, 60'000);
    KillCheck kill;
    addThreadCheck(kill, 100'000, true, checkOf(pattern, 100'000, file), nullptr);
    EXPECT_EQ(kill.acknowledgedBytes, 100'000u);
    EXPECT_EQ(kill.presentBytes, 60'000u);
    EXPECT_EQ(kill.lostBytes, 40'000u);
    EXPECT_EQ(kill.beyondBytes, 0u);

    // A write the kernel had taken before the child could publish it: present beyond, nothing lost.
    KillCheck ahead;
    addThreadCheck(ahead, 50'000, true, checkOf(pattern, 50'000, file), nullptr);
    EXPECT_EQ(ahead.lostBytes, 0u);
    EXPECT_EQ(ahead.beyondBytes, 10'000u);
}

TEST(KillFileCheck, OutOfOrderOnlyTheCountIsKnown)
{
    const Pattern pattern(4096);
    auto file = patternBytes(pattern, 0, 64 * 1024);
    std::memset(file.data(), 0, 16 * 1024); // random writes: the first chunks not reached yet
    KillCheck kill;
    addThreadCheck(kill, 40 * 1024, false, checkOf(pattern, 40 * 1024, file), nullptr);
    EXPECT_EQ(kill.presentBytes, 40u * 1024);
    EXPECT_EQ(kill.lostBytes, 0u);
    EXPECT_EQ(kill.beyondBytes, 8u * 1024);
    // The same file judged in order would accuse the writer of losing the zeros at the start.
    KillCheck inOrder;
    addThreadCheck(inOrder, 40 * 1024, true, checkOf(pattern, 40 * 1024, file), nullptr);
    EXPECT_EQ(inOrder.lostBytes, 16u * 1024);
}

TEST(KillFileCheck, BytesKeptInTheScratchFileAreNotLost)
{
    const Pattern pattern(4096);
    const auto file = patternBytes(pattern, 0, 32 * 1024); // two 16 KiB batches written out
    const auto data = checkOf(pattern, 40 * 1024, file);
    // The third batch, 8 KiB of it copied, is in the scratch file's mapping from its start.
    KillFileCheck scratch(pattern, ~std::uint64_t{0}, data.prefix());
    const auto batch = patternBytes(pattern, 32 * 1024, 8 * 1024);
    scratch.add(batch.data(), batch.size());
    KillCheck kill;
    addThreadCheck(kill, 40 * 1024, true, data, &scratch);
    EXPECT_EQ(kill.lostBytes, 0u);
    EXPECT_EQ(kill.scratchBytes, 8u * 1024);
    CrashProbeResult probe;
    kill.landed = true;
    probe.kills = {kill};
    EXPECT_EQ(probe.survives(), true);
    const auto verdict = crashProbeVerdict(probe, Case{}, nullptr);
    EXPECT_NE(
        verdict.find("survives kill -9: yes (1 kill right after a call returned, nothing acknowledged was "
                     "lost; up to 8 KiB of the batch was not yet in the data file but survived"),
        std::string::npos)
        << verdict;
}

TEST(CrashProbeResult, SurvivesOnlyWhenEveryLandedKillLostNothing)
{
    CrashProbeResult probe;
    EXPECT_EQ(probe.survives(), std::nullopt) << "no kill landed: not known";
    KillCheck finishedFirst;
    finishedFirst.lostBytes = 1; // ignored: it did not land
    probe.kills.push_back(finishedFirst);
    EXPECT_EQ(probe.survives(), std::nullopt);
    EXPECT_NE(crashProbeVerdict(probe, Case{}, nullptr).find("not known"), std::string::npos);
    KillCheck clean;
    clean.landed = true;
    probe.kills.push_back(clean);
    EXPECT_EQ(probe.survives(), true);
    KillCheck lossy;
    lossy.landed = true;
    lossy.lostBytes = 65536;
    probe.kills.push_back(lossy);
    EXPECT_EQ(probe.survives(), false);
    EXPECT_EQ(probe.worstLossBytes(), 65536u);
    EXPECT_EQ(
        crashProbeVerdict(probe, Case{}, nullptr),
        "survives kill -9: no: lost 64 KiB in 1 of 2 kills right after a call returned: bytes its API had "
        "acknowledged were missing after the kill");
    KillCheck wrong;
    wrong.landed = true;
    wrong.wrongBytes = 3;
    probe.kills = {wrong};
    EXPECT_EQ(probe.survives(), false) << "a wrong byte is never acceptable";
}

TEST(CrashProbeResult, RoundTripsThroughTheResultFileAndTheMatrixAsksForIt)
{
    RunResult run;
    CaseResult c;
    c.testCase.strategy = "stdio";
    CrashProbeResult probe;
    probe.seed = 42;
    KillCheck kill;
    kill.landed = true;
    kill.killAfterSeconds = 0.25;
    kill.exit = "was killed by signal 9 (SIGKILL)";
    kill.acknowledgedBytes = 1000;
    kill.presentBytes = 900;
    kill.lostBytes = 100;
    probe.kills = {kill};
    c.crashProbe = probe;
    run.cases.push_back(c);
    run.options.crashProbe = 5;
    run.options.crashProbeSeed = 42;
    const auto back = resultFromJson(resultToJson(run).dump(), "test");
    ASSERT_TRUE(back.cases.at(0).crashProbe.has_value());
    EXPECT_EQ(*back.cases[0].crashProbe, probe);
    EXPECT_EQ(back.options.crashProbe, 5u);

    const auto matrix =
        parseMatrixJson(R"({"schema": "iolab.matrix/1", "crashProbe": 3, "groups": []})", "m.json");
    EXPECT_EQ(matrix.crashProbe, 3u);
    EXPECT_THROW(parseMatrixJson(R"({"schema": "iolab.matrix/1", "crashProbe": -1, "groups": []})", "m.json"),
                 InputError);
    EXPECT_THROW(
        parseMatrixJson(R"({"schema": "iolab.matrix/1", "crashProbe": 1000, "groups": []})", "m.json"),
        InputError);
}

TEST(ChildLink, LaysOutTheBlockAndCarriesTheRequestAndTheOutcome)
{
    ChildRequest request;
    request.testCase.strategy = "write";
    request.testCase.chunkBytes = 4096;
    request.testCase.totalBytes = 8192;
    request.threads = {{"/t/c001-k0-t0.dat", "/t/c001-k0-t0.batch", 4096}, {"/t/c001-k0-t1.dat", "", 4096}};
    request.everyCall = true;
    const std::string json = childRequestToJson(request);
    std::vector<std::byte> block(childlink::blockBytes(2, json.size()) + 64);
    // Page-aligned as a mapping is: align the start by hand.
    auto* base = reinterpret_cast<std::byte*>((reinterpret_cast<std::uintptr_t>(block.data()) + 63) &
                                              ~std::uintptr_t{63});
    childlink::Link::initialize(base, 2, 1234, json);
    const childlink::Link link(base, childlink::blockBytes(2, json.size()));
    ASSERT_TRUE(link.valid());
    EXPECT_EQ(link.header().parentPid, 1234);
    EXPECT_EQ(link.state(), childlink::State::Starting);
    const auto back = childRequestFromJson(link.request());
    EXPECT_EQ(back.testCase.strategy, "write");
    ASSERT_EQ(back.threads.size(), 2u);
    EXPECT_EQ(back.threads[0].auxPath, "/t/c001-k0-t0.batch");
    EXPECT_TRUE(back.everyCall);
    link.progress(1).add(4096);
    EXPECT_EQ(link.acknowledgedBytes(), 4096u);
    link.publishOutcome({Status::Failed, 28, "write", std::string(600, 'x')}, childlink::State::Failed);
    EXPECT_EQ(link.state(), childlink::State::Failed);
    EXPECT_EQ(link.outcome().status, Status::Failed);
    EXPECT_EQ(link.outcome().errorCode, 28);
    EXPECT_EQ(link.outcome().message.size(), 511u) << "a long message is cut to the block's field";
    const childlink::Link truncated(base, childlink::kHeaderBytes);
    EXPECT_FALSE(truncated.valid()) << "a block shorter than its own sizes is refused";
    EXPECT_THROW(childRequestFromJson("{"), InputError);
}

TEST(ChunkLoop, EveryCallPublishesTheAcknowledgedBytesAfterEachWrite)
{
    Progress progress;
    progress.everyCall = true;
    std::vector<std::uint64_t> seenBeforeEachWrite;
    runChunks(
        10 * 4096, std::uint64_t{4096}, 0, progress,
        [&](std::uint64_t, std::uint64_t) {
            seenBeforeEachWrite.push_back(progress.bytes.load());
            return true;
        },
        [] { return true; });
    ASSERT_EQ(seenBeforeEachWrite.size(), 10u);
    for (std::size_t i = 0; i < 10; ++i)
        EXPECT_EQ(seenBeforeEachWrite[i], i * 4096) << "call " << i;

    // A normal run publishes once per batch: one write at first, doubling while batches are quick, up to 16
    // writes of 4 KiB (64 KiB). 1000 quick writes: 1 + 2 + 4 + 8 and then 16 at a time, 66 publications; a
    // batch the scheduler held up over 2 ms does not double, hence a bound rather than the count.
    Progress batched;
    std::vector<std::uint64_t> seen;
    runChunks(
        1000 * 4096, std::uint64_t{4096}, 0, batched,
        [&](std::uint64_t, std::uint64_t) {
            seen.push_back(batched.bytes.load());
            return true;
        },
        [] { return true; });
    ASSERT_EQ(seen.size(), 1000u);
    std::set<std::uint64_t> published(seen.begin(), seen.end());
    EXPECT_LT(published.size(), 1000u / 4) << "not after each call";
    EXPECT_EQ(batched.bytes.load(), 1000u * 4096);
}

namespace {

// The C runtimes as the backends declare them (platform/posix/stdio_job.h, platform/windows/stdio_job.h).
StdioRuntime glibc()
{
    return {.name = "glibc",
            .defaultBufferBytes = 8192,
            .defaultFromFileBlock = true,
            .keepsAFullBuffer = true,
            .smallBufferBytes = 128};
}

StdioRuntime microsoft()
{
    return {.name = "the Microsoft C runtime",
            .defaultBufferBytes = 4096,
            .defaultFromFileBlock = false,
            .keepsAFullBuffer = false,
            .smallBufferBytes = 0};
}

StrategyInfo stdioInfo(const StdioRuntime& runtime)
{
    StrategyInfo info;
    info.id = "stdio";
    info.usesStdioBuffer = true;
    info.stdioRuntime = runtime;
    return info;
}

Case stdioCase(std::uint64_t chunk, StdioBuffer buffer, std::uint64_t size = 256 * kMiB)
{
    Case c;
    c.strategy = "stdio";
    c.chunkBytes = chunk;
    c.totalBytes = size;
    c.threads = 1;
    c.buffer = buffer;
    return c;
}

// A probe whose every kill landed and found nothing lost.
CrashProbeResult cleanKills(CrashProbeAt at, std::size_t n)
{
    CrashProbeResult probe;
    probe.seed = 7;
    probe.at = at;
    for (std::size_t i = 0; i < n; ++i) {
        KillCheck kill;
        kill.landed = true;
        kill.acknowledgedBytes = (i + 1) * kMiB;
        kill.presentBytes = kill.acknowledgedBytes;
        probe.kills.push_back(kill);
    }
    return probe;
}

} // namespace

TEST(StdioHeld, TheClosedFormIsTheMostTheModelOfEachRuntimeHoldsAfterACall)
{
    // The model follows the C runtimes' code call by call; the closed form must be its maximum over a whole
    // cycle of the buffer's states, for small and large buffers, chunks below, at and above the buffer.
    const std::uint64_t buffers[] = {0, 100, 128, 4096, 65536};
    const std::uint64_t chunks[] = {1, 3, 100, 4095, 4096, 4097, 6000, 8192, 65536, 100000};
    for (const auto& [runtime, model] : {std::pair{glibc(), StdioStreamModel::Runtime::Glibc},
                                         std::pair{microsoft(), StdioStreamModel::Runtime::Microsoft}}) {
        for (const std::uint64_t b : buffers) {
            for (const std::uint64_t c : chunks) {
                StdioStreamModel stream(model, b);
                std::uint64_t most = 0;
                // Enough calls for (n c) mod b to come round: b / gcd(c, b) <= b, plus the first call's own.
                for (std::uint64_t n = 0; n < b + 2; ++n)
                    most = std::max(most, stream.call(c));
                EXPECT_EQ(stdioHeldBytes(runtime, b, c, ~std::uint64_t{0}), most)
                    << runtime.name << " buffer " << b << " chunk " << c;
            }
        }
    }
}

TEST(StdioHeld, FiguresStraceShowsOnGlibc)
{
    // strace -e write of fwrite loops (README, "The kill -9 probe"): 4 KiB calls into the default 4 KiB
    // buffer write every other one late, so half the calls leave 4 KiB behind; 4 KiB calls into a 64 KiB
    // buffer leave 4 to 64 KiB; 64 KiB or 8 KiB calls into a 4 KiB buffer leave nothing; 6000-byte calls
    // leave the rest.
    EXPECT_EQ(StdioStreamModel::heldAfter(StdioStreamModel::Runtime::Glibc, 4096, 4096, 4096), 0u);
    EXPECT_EQ(StdioStreamModel::heldAfter(StdioStreamModel::Runtime::Glibc, 4096, 4096, 8192), 4096u);
    EXPECT_EQ(StdioStreamModel::heldAfter(StdioStreamModel::Runtime::Glibc, 4096, 4096, 12288), 0u);
    EXPECT_EQ(StdioStreamModel::heldAfter(StdioStreamModel::Runtime::Glibc, 65536, 4096, 16 * 4096), 65536u);
    EXPECT_EQ(StdioStreamModel::heldAfter(StdioStreamModel::Runtime::Glibc, 65536, 4096, 17 * 4096), 4096u);
    EXPECT_EQ(StdioStreamModel::heldAfter(StdioStreamModel::Runtime::Glibc, 4096, 6000, 4 * 6000), 3520u);
    EXPECT_EQ(StdioStreamModel::heldAfter(StdioStreamModel::Runtime::Glibc, 4096, 6000, 5 * 6000), 1328u);
    EXPECT_EQ(stdioHeldBytes(glibc(), 4096, 4096, 256 * kMiB), 4096u);
    EXPECT_EQ(stdioHeldBytes(glibc(), 4096, 8192, 256 * kMiB), 0u);
    EXPECT_EQ(stdioHeldBytes(glibc(), 4096, 65536, 256 * kMiB), 0u);
    EXPECT_EQ(stdioHeldBytes(glibc(), 1 * kMiB, 4096, 256 * kMiB), 1 * kMiB);
    EXPECT_EQ(stdioHeldBytes(glibc(), 1 * kMiB, 4096, 256 * kKiB), 256 * kKiB)
        << "never more than was written";
    // The Microsoft C runtime writes a call of a whole buffer straight through.
    EXPECT_EQ(stdioHeldBytes(microsoft(), 4096, 4096, 256 * kMiB), 0u);
    EXPECT_EQ(stdioHeldBytes(microsoft(), 1 * kMiB, 4096, 256 * kMiB), 1 * kMiB);
}

TEST(UserSpaceHold, TheDeclarationSaysWhatEachStrategyKeepsForTheCase)
{
    TargetInfo ext4;
    ext4.fileBlockBytes = 4096;
    // glibc's default buffer is the file's block here, and a 4 KiB call that fills it waits for the next.
    auto hold =
        userSpaceHold(stdioCase(4096, {BufferMode::Default, 0}), stdioInfo(glibc()), ext4, 256 * kMiB);
    EXPECT_EQ(hold.kind, UserSpaceHold::Kind::StdioBuffer);
    EXPECT_EQ(hold.bufferBytes, 4096u);
    EXPECT_EQ(hold.heldBytes, 4096u);
    EXPECT_EQ(hold.lossBytes(), 4096u);
    EXPECT_NE(hold.what.find("glibc's default here, the size of the file's 4 KiB block"), std::string::npos)
        << hold.what;
    EXPECT_NE(hold.why.find("exactly fills it until the next call"), std::string::npos) << hold.why;
    // A file block of 64 KiB (NFS, some XFS): glibc stays at BUFSIZ.
    TargetInfo large;
    large.fileBlockBytes = 65536;
    hold = userSpaceHold(stdioCase(4096, {BufferMode::Default, 0}), stdioInfo(glibc()), large, 256 * kMiB);
    EXPECT_EQ(hold.bufferBytes, 8192u);
    EXPECT_EQ(hold.heldBytes, 8192u);
    // 8 KiB calls into that 4 KiB buffer go to write(2) whole: nothing is kept between calls.
    hold = userSpaceHold(stdioCase(8192, {BufferMode::Default, 0}), stdioInfo(glibc()), ext4, 256 * kMiB);
    EXPECT_EQ(hold.lossBytes(), 0u);
    EXPECT_NE(hold.why.find("in whole buffers"), std::string::npos) << hold.why;
    hold = userSpaceHold(stdioCase(4096, {BufferMode::None, 0}), stdioInfo(glibc()), ext4, 256 * kMiB);
    EXPECT_EQ(hold.lossBytes(), 0u);
    // Four threads, a 1 MiB buffer each.
    Case threads = stdioCase(4096, {BufferMode::Bytes, kMiB});
    threads.threads = 4;
    hold = userSpaceHold(threads, stdioInfo(glibc()), ext4, 64 * kMiB);
    EXPECT_EQ(hold.heldBytes, kMiB);
    EXPECT_EQ(hold.lossBytes(), 4 * kMiB);
    // mmap-batch-direct's batch is a file's mapping: it holds bytes, and loses none.
    StrategyInfo batch;
    batch.holdsBackBytes = 16 * kKiB;
    batch.keepsBatchInScratchFile = true;
    Case c;
    c.threads = 1;
    hold = userSpaceHold(c, batch, ext4, 256 * kMiB);
    EXPECT_EQ(hold.kind, UserSpaceHold::Kind::FileBackedBatch);
    EXPECT_EQ(hold.heldBytes, 16 * kKiB);
    EXPECT_EQ(hold.lossBytes(), 0u);
    batch.keepsBatchInScratchFile = false; // a batch in plain memory would be lost
    EXPECT_EQ(userSpaceHold(c, batch, ext4, 256 * kMiB).lossBytes(), 16 * kKiB);
    // write, direct, the uring writers: nothing.
    EXPECT_EQ(userSpaceHold(c, StrategyInfo{}, ext4, 256 * kMiB).kind, UserSpaceHold::Kind::Nothing);
}

// Must not pass: a stdio writer with a buffer that holds acknowledged bytes is never called safe, whatever
// its kills happened to see, at acknowledgement points or at moments.
TEST(CrashProbeVerdict, StdioWithABufferIsNeverCalledSafeEvenWhenNoKillLostAnything)
{
    TargetInfo ext4;
    ext4.fileBlockBytes = 4096;
    const StdioBuffer buffers[] = {
        {BufferMode::Default, 0}, {BufferMode::Bytes, 64 * kKiB}, {BufferMode::Bytes, kMiB}};
    for (const auto& runtime : {glibc(), microsoft()}) {
        for (const auto& buffer : buffers) {
            for (const auto at : {CrashProbeAt::Ack, CrashProbeAt::Time}) {
                const Case c = stdioCase(4096, buffer);
                const StrategyInfo info = stdioInfo(runtime);
                CrashProbeResult probe = cleanKills(at, 5);
                probe.hold = userSpaceHold(c, info, ext4, c.totalBytes);
                const std::string where = runtime.name + " " + toString(buffer) + " " + toString(at);
                if (probe.hold->lossBytes() == 0) {
                    // Only the Microsoft C runtime's default 4 KiB buffer with 4 KiB calls: written through.
                    EXPECT_EQ(runtime.name, "the Microsoft C runtime") << where;
                    EXPECT_EQ(buffer.mode, BufferMode::Default) << where;
                    EXPECT_EQ(probe.survives(), true) << where;
                    continue;
                }
                EXPECT_EQ(probe.survives(), false) << where;
                EXPECT_EQ(probe.canLoseBytes(), probe.hold->lossBytes()) << where;
                const std::string verdict = crashProbeVerdict(probe, c, &info);
                EXPECT_TRUE(verdict.starts_with("survives kill -9: no: can lose up to ")) << verdict;
                EXPECT_NE(verdict.find("happened to lose nothing"), std::string::npos) << verdict;
                EXPECT_EQ(verdict.find("yes"), std::string::npos) << verdict;
            }
        }
    }
    // The 1 MiB buffer of the issue, in the Summary's words.
    const Case c = stdioCase(4096, {BufferMode::Bytes, kMiB});
    CrashProbeResult probe = cleanKills(CrashProbeAt::Time, 5);
    probe.hold = userSpaceHold(c, stdioInfo(glibc()), ext4, c.totalBytes);
    EXPECT_EQ(
        crashProbeVerdict(probe, c, nullptr),
        "survives kill -9: no: can lose up to 1 MiB, its 1 MiB stdio buffer: fwrite returns once its bytes "
        "are in the buffer, which goes to the file only when full; the 5 kills at random moments happened "
        "to lose nothing (a kill at a moment mostly lands in the slowest call, the buffer's write, when "
        "nothing acknowledged waits in it)");
    RunResult run;
    CaseResult r;
    r.testCase = c;
    r.crashProbe = probe;
    run.cases.push_back(r);
    const auto answers = crashProbeAnswers(run, nullptr, [](const Case&) { return std::string("`stdio`"); });
    ASSERT_EQ(answers.size(), 1u);
    EXPECT_TRUE(answers[0].starts_with("`stdio` does not survive kill -9: it can lose up to 1 MiB"))
        << answers[0];
}

TEST(CrashProbeVerdict, SaysWhatTheKillsLostAndWhatTheDesignCanLose)
{
    TargetInfo ext4;
    ext4.fileBlockBytes = 4096;
    const Case c = stdioCase(4096, {BufferMode::Bytes, kMiB});
    CrashProbeResult probe = cleanKills(CrashProbeAt::Ack, 5);
    probe.hold = userSpaceHold(c, stdioInfo(glibc()), ext4, c.totalBytes);
    probe.kills[1].lostBytes = 112 * kKiB;
    probe.kills[3].lostBytes = 8 * kKiB;
    probe.kills[4].lostBytes = 48 * kKiB;
    EXPECT_EQ(probe.lossyKills(), 3u);
    EXPECT_EQ(
        crashProbeVerdict(probe, c, nullptr),
        "survives kill -9: no: lost up to 112 KiB in 3 of 5 kills right after a call returned; can lose up "
        "to 1 MiB, its 1 MiB stdio buffer: fwrite returns once its bytes are in the buffer, which goes to "
        "the file only when full");
    // write: nothing kept, nothing lost.
    Case w;
    w.strategy = "write";
    w.chunkBytes = 4096;
    w.totalBytes = 256 * kMiB;
    w.threads = 1;
    CrashProbeResult clean = cleanKills(CrashProbeAt::Ack, 5);
    clean.hold = userSpaceHold(w, StrategyInfo{}, ext4, w.totalBytes);
    EXPECT_EQ(clean.survives(), true);
    EXPECT_EQ(crashProbeVerdict(clean, w, nullptr),
              "survives kill -9: yes (5 kills right after a call returned, nothing acknowledged was lost)");
    // In the Summary, cases that lost nothing and keep nothing share one sentence, the others come after it.
    RunResult run;
    for (const auto& [k, p] : {std::pair{w, clean}, std::pair{c, probe}, std::pair{w, clean}}) {
        CaseResult r;
        r.testCase = k;
        r.crashProbe = p;
        run.cases.push_back(r);
    }
    run.cases[2].testCase.strategy = "direct";
    const auto answers =
        crashProbeAnswers(run, nullptr, [](const Case& k) { return fmt::format("`{}`", k.strategy); });
    ASSERT_EQ(answers.size(), 2u);
    EXPECT_EQ(answers[0],
              "`write` and `direct` survive kill -9: 5 kills right after a call returned, nothing "
              "acknowledged was lost; none keeps anything in user space.");
    EXPECT_TRUE(
        answers[1].starts_with("`stdio` does not survive kill -9: it lost up to 112 KiB in 3 of 5 kills"))
        << answers[1];
    // The Summary carries them among its answers (verdict.cpp), so the CLI, the app and the PDF show them.
    const Verdict v = verdict(run, nullptr);
    EXPECT_NE(std::find_if(v.answers.begin(), v.answers.end(),
                           [](const std::string& a) {
                               return a.find("does not survive kill -9") != std::string::npos;
                           }),
              v.answers.end());
}

TEST(CrashProbeVerdict, ResultsFromBeforeTheDesignWasRecordedAskTheDeclaration)
{
    // An issue-17 result: kills at moments, no design recorded, nothing seen lost.
    RunResult run;
    CaseResult r;
    r.testCase = stdioCase(4096, {BufferMode::Bytes, kMiB});
    r.crashProbe = cleanKills(CrashProbeAt::Ack, 1);
    run.cases.push_back(r);
    auto j = resultToJson(run);
    auto& recorded = j["cases"][0]["crashProbe"];
    recorded.erase("at");
    recorded.erase("hold");
    for (auto& kill : recorded["kills"])
        kill.erase("pointBytes");
    const auto probe = *resultFromJson(j.dump(), "issue-17.json").cases.at(0).crashProbe;
    EXPECT_EQ(probe.at, CrashProbeAt::Time);
    EXPECT_FALSE(probe.hold.has_value());
    EXPECT_EQ(probe.survives(), true) << "what the file recorded";
    const Case c = stdioCase(4096, {BufferMode::Bytes, kMiB});
    const StrategyInfo info = stdioInfo(glibc());
    const std::string verdict = crashProbeVerdict(probe, c, &info);
    EXPECT_TRUE(verdict.starts_with("survives kill -9: no: can lose up to 1 MiB")) << verdict;
}

TEST(CrashProbeResult, TheNewFieldsRoundTripAndAnOldRunReadsAsKilledAtMoments)
{
    RunResult run;
    CaseResult c;
    c.testCase.strategy = "stdio";
    CrashProbeResult probe = cleanKills(CrashProbeAt::Ack, 2);
    probe.kills[0].pointBytes = {12345};
    probe.kills[1].pointBytes = {999};
    UserSpaceHold hold;
    hold.kind = UserSpaceHold::Kind::StdioBuffer;
    hold.bufferBytes = kMiB;
    hold.heldBytes = kMiB;
    hold.writers = 2;
    hold.what = "its 1 MiB stdio buffer";
    hold.why = "why";
    probe.hold = hold;
    c.crashProbe = probe;
    run.cases.push_back(c);
    run.options.crashProbe = 2;
    run.options.crashProbeAt = CrashProbeAt::Time;
    run.target.fileBlockBytes = 4096;
    auto back = resultFromJson(resultToJson(run).dump(), "test");
    EXPECT_EQ(*back.cases.at(0).crashProbe, probe);
    EXPECT_EQ(back.options.crashProbeAt, CrashProbeAt::Time);
    EXPECT_EQ(back.target.fileBlockBytes, 4096u);

    // A run with a probe from before issue 34 has no crashProbeAt: its kills came at moments.
    auto old = resultToJson(run);
    old["options"].erase("crashProbeAt");
    back = resultFromJson(old.dump(), "old");
    EXPECT_EQ(back.options.crashProbeAt, CrashProbeAt::Time);
    // A run without a probe writes nothing new, so such files read and save as before.
    RunResult plain;
    EXPECT_FALSE(resultToJson(plain).at("options").contains("crashProbeAt"));
    EXPECT_FALSE(resultToJson(plain).at("target").contains("fileBlockBytes"));

    const auto matrix = parseMatrixJson(
        R"({"schema": "iolab.matrix/1", "crashProbe": 3, "crashProbeAt": "time", "groups": []})", "m.json");
    EXPECT_EQ(matrix.crashProbeAt, CrashProbeAt::Time);
    EXPECT_EQ(parseMatrixJson(matrixToJson(matrix).dump(), "again.json").crashProbeAt, CrashProbeAt::Time);
    try {
        parseMatrixJson(R"({"schema": "iolab.matrix/1", "crashProbeAt": "later", "groups": []})", "m.json");
        ADD_FAILURE() << "an unknown placement is refused";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("'later'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("crashProbeAt"), std::string::npos) << e.what();
    }
}

TEST(ChunkLoop, AProbeThreadStopsRightAfterTheCallThatCrossesItsPointAndWaits)
{
    std::atomic<bool> stop{false};
    Progress progress;
    progress.everyCall = true;
    progress.stop = &stop;
    progress.holdAtBytes = 10'000; // crossed by the third 4 KiB call
    std::atomic<std::uint64_t> calls{0};
    LoopEnd end = LoopEnd::Completed;
    std::thread loop([&] {
        end = runChunks(
            64 * 4096, std::uint64_t{4096}, 0, progress,
            [&](std::uint64_t, std::uint64_t) {
                ++calls;
                return true;
            },
            [] { return true; });
    });
    while (progress.holdState.load() != Progress::Held)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(calls.load(), 3u) << "held right after the call that crossed the point, and no further";
    EXPECT_EQ(progress.bytes.load(), 3u * 4096);
    stop = true; // a cancelled run lets it go
    loop.join();
    EXPECT_EQ(end, LoopEnd::Cancelled);
    EXPECT_EQ(calls.load(), 3u);

    // A measured run has no point: it runs to the end and never holds.
    Progress measured;
    runChunks(
        64 * 4096, std::uint64_t{4096}, 0, measured, [](std::uint64_t, std::uint64_t) { return true; },
        [] { return true; });
    EXPECT_EQ(measured.bytes.load(), 64u * 4096);
    EXPECT_EQ(measured.holdState.load(), Progress::Running);
}

namespace {

// Completes one request per reap, in order; a sync is a blocking call with the queue drained.
class OneAtATimeQueue
{
public:
    bool submit(std::uint64_t, std::uint64_t bytes)
    {
        m_inFlight.push_back(bytes);
        return true;
    }
    Reaped reap(std::uint64_t)
    {
        Reaped reaped;
        if (m_inFlight.empty())
            return reaped;
        reaped.requests = 1;
        reaped.bytes = m_inFlight.front();
        m_inFlight.erase(m_inFlight.begin());
        return reaped;
    }
    bool sync() { return true; }
    std::size_t inFlight() const { return m_inFlight.size(); }

private:
    std::vector<std::uint64_t> m_inFlight;
};

} // namespace

TEST(QueuedLoop, AProbeThreadStopsAfterTheReapThatCrossesItsPointWithRequestsStillInFlight)
{
    std::atomic<bool> stop{false};
    Progress progress;
    progress.everyCall = true;
    progress.stop = &stop;
    progress.holdAtBytes = 5 * 4096 + 1; // crossed by the sixth completion
    OneAtATimeQueue queue;
    LoopEnd end = LoopEnd::Completed;
    std::thread loop([&] { end = runQueuedChunks(64 * 4096, std::uint64_t{4096}, 4, 0, progress, queue); });
    while (progress.holdState.load() != Progress::Held)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_EQ(progress.bytes.load(), 6u * 4096);
    EXPECT_EQ(queue.inFlight(), 3u) << "the others of a queue 4 deep are still in flight, not acknowledged";
    stop = true;
    loop.join();
    EXPECT_EQ(end, LoopEnd::Cancelled);
    EXPECT_EQ(queue.inFlight(), 0u) << "reaped before the loop returns";
}
