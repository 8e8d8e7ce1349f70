// SPDX-License-Identifier: MIT
// The kill -9 probe's reading of a file after the kill (core/engine/crash_probe.h), its link block and its
// words, without a process.
#include "core/base/error.h"
#include "core/base/units.h"
#include "core/engine/case_child.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/crash_probe.h"
#include "core/engine/pattern.h"
#include "core/formats/matrix_json.h"
#include "core/formats/result_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstring>
#include <set>
#include <vector>

using namespace iolab;

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
    const auto verdict = crashProbeVerdict(probe, nullptr);
    EXPECT_NE(verdict.find("survives kill -9: yes (1 kill, nothing acknowledged was lost); up to 8 KiB"),
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
    EXPECT_NE(crashProbeVerdict(probe, nullptr).find("not known"), std::string::npos);
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
    StrategyInfo stdio;
    stdio.usesStdioBuffer = true;
    EXPECT_EQ(crashProbeVerdict(probe, &stdio),
              "survives kill -9: no: loses up to 64 KiB (2 kills): what fwrite had returned for was still in "
              "the stdio buffer");
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
    // writes of 4 KiB (64 KiB). 1000 quick writes: 1 + 2 + 4 + 8 and then 16 at a time, 66 publications; a batch
    // the scheduler held up over 2 ms does not double, hence a bound rather than the count.
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
