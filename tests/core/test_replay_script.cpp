// SPDX-License-Identifier: MIT
// The replay's script from traces written call by call: where each write's bytes land (so that the files can
// be verified), which files existed before the program ran and how large, what happens to names (a rename
// over a file, a delete), which thread waits for which, a forked child's own copies of its parent's
// descriptors, and what is left out with its reason. tests/cli/test_replay.cpp replays real programs.
#include "core/base/error.h"
#include "core/engine/replay_script.h"
#include "core/model/case.h"
#include "core/model/trace_reader.h"
#include "tests/support/synthetic_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

using namespace iolab;
using iolab::test::callsOf;
using iolab::test::kCreate;
using iolab::test::scriptOf;
using iolab::test::SyntheticTrace;
using ::testing::HasSubstr;
using trace::Call;

namespace {

const ReplayFile& fileNamed(const ReplayScript& script, const std::string& recorded)
{
    const auto it = std::find_if(script.files.begin(), script.files.end(),
                                 [&](const ReplayFile& f) { return f.recordedPath == recorded; });
    EXPECT_NE(it, script.files.end()) << recorded;
    return *it;
}

std::uint64_t leftSize(const ReplayScript& script, const std::string& recorded)
{
    for (const auto& left : script.leftFiles)
        if (script.files[left.file].recordedPath == recorded)
            return left.bytes;
    return ~std::uint64_t{0};
}

} // namespace

TEST(ReplayScript, EachWritesBytesLandWhereTheProgramsDid)
{
    SyntheticTrace t;
    t.open(10, 10, "/data/log", kCreate, 3);
    t.transfer(10, 10, Call::Write, 3, 4096, -1, 3); // a run of three: 0, 4K, 8K
    t.transfer(10, 10, Call::PWrite, 3, 100, 50);
    t.transfer(10, 10, Call::Write, 3, 10); // at the position: 12K
    t.call(10, 10, Call::Fsync, 3);
    t.call(10, 10, Call::Close, 3);
    const ReplayScript script = scriptOf(t);

    ASSERT_EQ(script.threads.size(), 1u);
    const auto& steps = script.threads[0].steps;
    EXPECT_THAT(callsOf(script.threads[0]), ::testing::ElementsAre(Call::Open, Call::Write, Call::PWrite,
                                                                   Call::Write, Call::Fsync, Call::Close));
    EXPECT_EQ(steps[1].count, 3u);
    EXPECT_EQ(steps[1].dataAt, 0u);
    EXPECT_EQ(steps[2].dataAt, 50u);
    EXPECT_EQ(steps[3].dataAt, 12288u);
    EXPECT_EQ(leftSize(script, "/data/log"), 12298u);
    EXPECT_EQ(script.bytesWritten, 3 * 4096u + 100 + 10);
    EXPECT_EQ(script.writeCalls, 5u);
    EXPECT_EQ(script.syncCalls, 1u);
    EXPECT_EQ(script.calls, 8u); // counted call by call
    EXPECT_FALSE(fileNamed(script, "/data/log").staged);
    EXPECT_EQ(fileNamed(script, "/data/log").relativePath, "d1/f000001.dat");
}

TEST(ReplayScript, AFileTheProgramFoundIsWrittenFirstAsLargeAsItsReadsShow)
{
    SyntheticTrace t;
    t.open(10, 10, "/data/in", trace::OpenRead, 3);
    t.transfer(10, 10, Call::Read, 3, 4096);
    auto& short_ = t.transfer(10, 10, Call::Read, 3, 4096);
    short_.result = 100; // the end of the file
    auto& end = t.transfer(10, 10, Call::Read, 3, 4096);
    end.result = 0;
    t.call(10, 10, Call::Close, 3);
    // Appended to: it held what the seek to its end said.
    t.open(10, 10, "/data/old.log", trace::OpenWrite | trace::OpenAppend, 4);
    auto& seek = t.call(10, 10, Call::Seek, 4);
    seek.offset = 0;
    seek.flags = 2; // SEEK_END
    seek.result = 5000;
    t.transfer(10, 10, Call::Write, 4, 20);
    const ReplayScript script = scriptOf(t);

    EXPECT_TRUE(fileNamed(script, "/data/in").staged);
    EXPECT_EQ(fileNamed(script, "/data/in").stagedBytes, 4196u);
    EXPECT_TRUE(fileNamed(script, "/data/old.log").staged);
    EXPECT_EQ(fileNamed(script, "/data/old.log").stagedBytes, 5000u);
    EXPECT_EQ(script.threads[0].steps.back().dataAt, 5000u) << "an append lands at the file's end";
    EXPECT_EQ(leftSize(script, "/data/old.log"), 5020u);
    EXPECT_EQ(script.stagedBytes, 9196u);
    EXPECT_EQ(script.caseBytes(), 20u);
}

TEST(ReplayScript, ARenameOverAFileLeavesTheNewContentUnderTheOldName)
{
    SyntheticTrace t;
    t.open(10, 10, "/data/config", trace::OpenRead, 3);
    t.transfer(10, 10, Call::Read, 3, 300);
    t.call(10, 10, Call::Close, 3);
    t.open(10, 10, "/data/config.tmp", kCreate, 3);
    t.transfer(10, 10, Call::Write, 3, 700);
    t.call(10, 10, Call::Fsync, 3);
    t.call(10, 10, Call::Close, 3);
    auto& rename = t.call(10, 10, Call::Rename);
    rename.path = "/data/config.tmp";
    rename.path2 = "/data/config";
    auto& unlink = t.call(10, 10, Call::Unlink);
    unlink.path = "/data/stale";
    const ReplayScript script = scriptOf(t);

    EXPECT_TRUE(fileNamed(script, "/data/config").staged);
    EXPECT_EQ(leftSize(script, "/data/config"), 700u);
    EXPECT_EQ(leftSize(script, "/data/config.tmp"), ~std::uint64_t{0}) << "renamed away: nothing left there";
    EXPECT_TRUE(fileNamed(script, "/data/stale").staged) << "a file the program deleted existed before";
    EXPECT_EQ(leftSize(script, "/data/stale"), ~std::uint64_t{0});
    EXPECT_EQ(script.leftFiles.size(), 1u);
}

TEST(ReplayScript, AThreadWritingADescriptorAnotherOpenedWaitsForTheOpen)
{
    SyntheticTrace t;
    t.open(10, 10, "/data/shared", kCreate, 5);
    t.transfer(10, 11, Call::Write, 5, 64);
    t.transfer(10, 10, Call::Write, 5, 64);
    t.transfer(10, 12, Call::Write, 7, 64); // never seen opened
    const ReplayScript script = scriptOf(t);

    ASSERT_EQ(script.threads.size(), 2u) << "thread 12 made no call the replay can make";
    const ReplayStep& second = script.threads[1].steps[0];
    EXPECT_EQ(second.waits[0].thread, 0u);
    EXPECT_EQ(second.waits[0].steps, 1u) << "after thread 10's open";
    const ReplayStep& third = script.threads[0].steps[1];
    EXPECT_EQ(third.waits[0].thread, 1u);
    EXPECT_EQ(third.waits[0].steps, 1u) << "after thread 11's write, as recorded";
    EXPECT_EQ(third.dataAt, 64u);
    EXPECT_EQ(script.leftOut.at("on a handle the recording never saw opened"), 1u);
}

TEST(ReplayScript, AForkedChildWritesItsOwnCopyOfItsParentsDescriptor)
{
    SyntheticTrace t;
    t.open(10, 10, "/data/out", kCreate, 3);
    t.transfer(10, 10, Call::Write, 3, 10);
    auto& fork = t.call(10, 10, Call::Fork);
    fork.result = 20;
    t.parent(20, 10);
    t.transfer(20, 20, Call::Write, 3, 30);
    t.call(20, 20, Call::Close, 3);
    t.transfer(10, 10, Call::Write, 3, 5);
    const ReplayScript script = scriptOf(t);

    ASSERT_EQ(script.threads.size(), 2u);
    const ReplayThread& child = script.threads[1];
    EXPECT_THAT(callsOf(child), ::testing::ElementsAre(Call::Dup, Call::Write, Call::Close));
    EXPECT_EQ(child.steps[0].synthetic, 1u) << "the copy is the fork's, not a call of the program's";
    EXPECT_EQ(child.steps[0].waits[0].thread, 0u);
    EXPECT_EQ(child.steps[0].waits[0].steps, 2u) << "after the parent's open and write";
    EXPECT_EQ(child.steps[1].dataAt, 10u) << "the child shares the parent's file position";
    EXPECT_EQ(script.threads[0].steps.back().dataAt, 40u);
    EXPECT_EQ(leftSize(script, "/data/out"), 45u);
}

TEST(ReplayScript, StreamsWritesLandAtTheStreamsPosition)
{
    SyntheticTrace t;
    auto& open = t.call(10, 10, Call::FOpen, 0x5000);
    open.path = "/data/report.txt";
    open.flags = kCreate;
    open.offset = 3; // the descriptor under it
    t.transfer(10, 10, Call::FWrite, 0x5000, 37, -1, 100);
    t.transfer(10, 10, Call::FPutc, 0x5000, 1, -1, 3);
    t.call(10, 10, Call::FFlush, 0x5000);
    t.call(10, 10, Call::Fsync, 3); // fsync(fileno(stream))
    t.call(10, 10, Call::FClose, 0x5000);
    const ReplayScript script = scriptOf(t);

    const auto& steps = script.threads[0].steps;
    EXPECT_THAT(callsOf(script.threads[0]), ::testing::ElementsAre(Call::FOpen, Call::FWrite, Call::FPutc,
                                                                   Call::FFlush, Call::Fsync, Call::FClose));
    EXPECT_EQ(steps[1].dataAt, 0u);
    EXPECT_EQ(steps[2].dataAt, 3700u);
    EXPECT_EQ(steps[4].slot, steps[0].slot) << "the fsync is on the stream's own descriptor";
    EXPECT_EQ(leftSize(script, "/data/report.txt"), 3703u);
    EXPECT_EQ(script.writeCalls, 103u);
}

namespace {

// A recorded call's start and end, for tests of the order calls are read in.
TraceEvent& during(TraceEvent& event, std::uint64_t startNs, std::uint64_t endNs)
{
    event.startNs = startNs;
    event.endNs = endNs;
    return event;
}

} // namespace

// On Windows a stream's FILE* slot is taken when fopen returns. Here thread 11's fopen began while thread 10
// still wrote to the same address, and returned after thread 10's fclose had freed it: each thread's writes
// belong to its own file (seen under wine, where the two opens ran 2 ms apart).
TEST(ReplayScript, AWindowsHandleIsTheOpensOnlyOnceTheOpenReturned)
{
    SyntheticTrace t;
    t.system = trace::System::Windows;
    {
        auto& a = during(t.call(10, 10, Call::FOpen, 0x5000), 1000, 2000);
        a.path = "/data/a.log";
        a.flags = kCreate;
        a.offset = 3;
    }
    during(t.transfer(10, 10, Call::FWrite, 0x5000, 100), 3000, 4000);
    {
        // during thread 10's write, returned after its fclose
        auto& b = during(t.call(10, 11, Call::FOpen, 0x5000), 3500, 9000);
        b.path = "/data/b.log";
        b.flags = kCreate;
        b.offset = 4;
    }
    during(t.call(10, 10, Call::FClose, 0x5000), 5000, 6000);
    during(t.transfer(10, 11, Call::FWrite, 0x5000, 7), 10000, 11000);
    during(t.call(10, 11, Call::FClose, 0x5000), 12000, 13000);
    const ReplayScript script = scriptOf(t);

    EXPECT_EQ(leftSize(script, "/data/a.log"), 100u);
    EXPECT_EQ(leftSize(script, "/data/b.log"), 7u);
    EXPECT_EQ(script.writeCalls, 2u);
    EXPECT_TRUE(script.leftOut.empty());
}

// On Linux a descriptor is taken when open starts: an open that began before another thread's unlink of its
// path, and returned after it, opened the file the unlink then removed.
TEST(ReplayScript, ALinuxOpenKeepsItsPlaceBeforeAnUnlinkItBeganBefore)
{
    SyntheticTrace t;
    during(t.open(10, 11, "/data/x", kCreate, 3), 4000, 7000);
    during(t.call(10, 10, Call::Unlink), 5000, 6000).path = "/data/x";
    during(t.transfer(10, 11, Call::Write, 3, 10), 8000, 9000);
    during(t.call(10, 11, Call::Close, 3), 10000, 11000);
    const ReplayScript script = scriptOf(t);
    EXPECT_EQ(leftSize(script, "/data/x"), ~std::uint64_t{0})
        << "the unlink came after the open: no file left";
    EXPECT_EQ(script.writeCalls, 1u);
}

TEST(ReplayScript, CallsOnTerminalsPipesAndDevicesAreLeftOutWithTheReason)
{
    SyntheticTrace t;
    auto& inherited = t.open(10, 10, "/dev/pts/0", trace::OpenWrite | trace::OpenInherited, 1);
    inherited.startNs = 0;
    t.transfer(10, 10, Call::Write, 1, 20, -1, 4);
    t.open(10, 10, "/dev/null", trace::OpenWrite, 3);
    t.transfer(10, 10, Call::Write, 3, 20);
    t.open(10, 10, "/data/real", kCreate, 4);
    t.transfer(10, 10, Call::Write, 4, 20);
    const ReplayScript script = scriptOf(t);

    EXPECT_EQ(script.leftOut.at("on a terminal, pipe, socket or device (not a file)"), 6u)
        << "4 writes to the terminal, the open of /dev/null and its write";
    EXPECT_EQ(script.calls, 2u);
    EXPECT_EQ(script.files.size(), 1u);
}

TEST(ReplayScript, ATraceWithoutFileCallsIsRefusedSayingSo)
{
    SyntheticTrace t;
    t.open(10, 10, "/dev/null", trace::OpenWrite, 3);
    t.transfer(10, 10, Call::Write, 3, 20);
    try {
        (void)scriptOf(t);
        FAIL() << "a trace without a file call was taken";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("holds no call on a file that a replay can make"));
        EXPECT_THAT(e.what(), HasSubstr("iolab-cli profile"));
    }
}

TEST(ReplayScript, AFailedOpenIsReplayedAndOtherFailedCallsAreLeftOut)
{
    SyntheticTrace t;
    auto& probe = t.open(10, 10, "/data/db-journal", trace::OpenRead, -1);
    probe.error = 2; // ENOENT
    t.open(10, 10, "/data/db", kCreate, 3);
    auto& failed = t.transfer(10, 10, Call::Write, 3, 4096);
    failed.error = 28; // ENOSPC
    failed.result = -1;
    const ReplayScript script = scriptOf(t);

    ASSERT_EQ(script.threads[0].steps.size(), 2u);
    EXPECT_EQ(script.threads[0].steps[0].error, 2);
    EXPECT_FALSE(fileNamed(script, "/data/db-journal").staged) << "it was not there: nothing to write first";
    EXPECT_EQ(script.leftOut.at("that failed when recorded (other than opens)"), 1u);
}

TEST(ReplayScript, AReplayCaseTakesItsSizeChunkAndThreadsFromItsScript)
{
    SyntheticTrace t;
    t.open(10, 10, "/data/a", kCreate, 3);
    t.transfer(10, 10, Call::Write, 3, 1000);
    t.open(10, 11, "/data/b", kCreate, 4);
    t.transfer(10, 11, Call::PWrite, 4, 65536, 0);
    const ReplayScript script = scriptOf(t);
    Case c;
    c.strategy = "replay";
    c.chunkBytes = 1;
    c.totalBytes = 1;
    fitCaseToReplay(c, script);
    EXPECT_EQ(c.totalBytes, 66536u);
    EXPECT_EQ(c.chunkBytes, 65536u);
    EXPECT_EQ(c.threads, 2u);
    EXPECT_GE(replaySpaceNeeded(script), 66536u);
}
