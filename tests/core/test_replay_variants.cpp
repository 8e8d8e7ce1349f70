// SPDX-License-Identifier: MIT
// The durability contract of a recording and the variants IOLab measures against it (core/engine/
// replay_variants.h), on scripts built from traces written call by call: each variant keeps the program's
// sync points, and a script that drops, moves or weakens one is caught, with where.
#include "core/analysis/findings.h"
#include "core/analysis/program_advice.h"
#include "core/analysis/program_profile.h"
#include "core/base/error.h"
#include "core/base/stats.h"
#include "core/engine/replay_variants.h"
#include "core/model/trace_reader.h"
#include "tests/support/synthetic_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

using namespace iolab;
using iolab::test::callsOf;
using iolab::test::kCreate;
using iolab::test::scriptOf;
using iolab::test::SyntheticTrace;
using ::testing::HasSubstr;
using trace::Call;

namespace {

std::size_t countOf(const ReplayScript& script, Call call)
{
    std::size_t n = 0;
    for (const ReplayThread& thread : script.threads)
        for (const ReplayStep& step : thread.steps)
            n += step.call == call ? step.count : 0;
    return n;
}

std::string breach(const ReplayScript& original, const ReplayScript& variant)
{
    return contractBreach(original, durabilityContract(original), durabilityContract(variant));
}

// A writer of 4 KiB records, each as 16 writes of 256 B, with an fsync after every record (`records` of
// them).
SyntheticTrace recordWriter(int records)
{
    SyntheticTrace t;
    t.open(10, 10, "/data/journal", kCreate, 3);
    for (int r = 0; r < records; ++r) {
        t.transfer(10, 10, Call::Write, 3, 256, -1, 16);
        t.call(10, 10, Call::Fsync, 3);
    }
    t.call(10, 10, Call::Close, 3);
    return t;
}

// A logger: 300 lines of 37 B through a stream, an fsync (without fflush) after every 100.
SyntheticTrace logger()
{
    SyntheticTrace t;
    auto& open = t.call(10, 10, Call::FOpen, 0x5000);
    open.path = "/var/log/app.log";
    open.flags = kCreate;
    open.offset = 3;
    for (int i = 0; i < 3; ++i) {
        t.transfer(10, 10, Call::FPrintf, 0x5000, 37, -1, 100);
        t.call(10, 10, Call::Fsync, 3);
    }
    t.call(10, 10, Call::FClose, 0x5000);
    return t;
}

} // namespace

TEST(DurabilityContract, AProgramsScriptKeepsItsOwnAndSaysWhereEachSyncIs)
{
    const ReplayScript script = scriptOf(recordWriter(3));
    const DurabilityContract contract = durabilityContract(script);
    EXPECT_EQ(contract.points, 3u);
    ASSERT_EQ(contract.files.size(), 1u);
    ASSERT_EQ(contract.files[0].size(), 3u);
    EXPECT_EQ(contract.files[0][1].handed, 8192u);
    EXPECT_EQ(contract.files[0][1].durable, 8192u);
    EXPECT_TRUE(contract.files[0][1].sizeChanged) << "each record appends";
    EXPECT_EQ(breach(script, script), "");
}

TEST(DurabilityContract, ADroppedSyncIsCaught)
{
    const ReplayScript script = scriptOf(recordWriter(3));
    ReplayScript dropped = script;
    auto& steps = dropped.threads[0].steps;
    steps.erase(
        std::find_if(steps.begin(), steps.end(), [](const ReplayStep& s) { return s.call == Call::Fsync; }));
    const std::string why = breach(script, dropped);
    EXPECT_THAT(why, HasSubstr("journal: its 1st sync point (after 4 KiB handed over)")) << why;
}

TEST(DurabilityContract, ASyncMovedLaterIsCaught)
{
    const ReplayScript script = scriptOf(recordWriter(3));
    ReplayScript moved = script;
    auto& steps = moved.threads[0].steps;
    // The 2nd fsync after the 3rd record's writes: the record between them is not durable where it was.
    const auto second = std::find_if(steps.begin() + 3, steps.end(),
                                     [](const ReplayStep& s) { return s.call == Call::Fsync; });
    std::iter_swap(second, second + 1);
    const std::string why = breach(script, moved);
    EXPECT_THAT(why, HasSubstr("its 2nd sync point (after 8 KiB handed over) comes after 12 KiB instead"))
        << why;
}

TEST(DurabilityContract, FdatasyncWhereTheFileGrewIsCaught)
{
    const ReplayScript script = scriptOf(recordWriter(2));
    ReplayScript weaker = script;
    for (ReplayStep& step : weaker.threads[0].steps)
        if (step.call == Call::Fsync)
            step.call = Call::Fdatasync;
    EXPECT_THAT(breach(script, weaker), HasSubstr("fdatasync where the file's size changed"));
}

TEST(DurabilityContract, ALargerStdioBufferWithoutAFlushIsCaught)
{
    // With its 4 KiB buffer the logger's first fsync finds 3 KiB handed to the system (the buffer spilled
    // once); with a 1 MiB buffer and nothing else changed, none.
    const ReplayScript script = scriptOf(logger());
    const DurabilityContract contract = durabilityContract(script);
    ASSERT_EQ(contract.files[0].size(), 3u);
    EXPECT_EQ(contract.files[0][0].handed, 3700u);
    EXPECT_EQ(contract.files[0][0].durable, 0u) << "3,700 B is less than one 4 KiB buffer";
    EXPECT_EQ(contract.files[0][1].durable, 4096u);
    ReplayScript bigger = script;
    ReplayStep setvbuf;
    setvbuf.call = Call::SetVBuf;
    setvbuf.slot = bigger.threads[0].steps[0].slot2;
    setvbuf.bytes = 1 << 20;
    setvbuf.flags = static_cast<std::uint32_t>(trace::BufferMode::Full);
    bigger.threads[0].steps.insert(bigger.threads[0].steps.begin() + 1, setvbuf);
    EXPECT_THAT(breach(script, bigger),
                HasSubstr("its 2nd sync point (after 7.2 KiB handed over) makes 0 B durable, not 4 KiB"));
}

TEST(ReplayVariants, AStdioBufferIsSetAtOpenAndFlushedBeforeEachSync)
{
    const ReplayScript script = scriptOf(logger());
    const auto variant = applyVariant(script, parseReplayVariant("stdio-buffer-1M"));
    ASSERT_TRUE(variant);
    EXPECT_THAT(callsOf(variant->threads[0]),
                ::testing::ElementsAre(Call::FOpen, Call::SetVBuf, Call::FPrintf, Call::FFlush, Call::Fsync,
                                       Call::FPrintf, Call::FFlush, Call::Fsync, Call::FPrintf, Call::FFlush,
                                       Call::Fsync, Call::FClose));
    EXPECT_EQ(variant->threads[0].steps[1].bytes, 1u << 20);
    EXPECT_EQ(breach(script, *variant), "") << "more is durable at each point, never less";
    EXPECT_EQ(variant->bytesWritten, script.bytesWritten);
    EXPECT_EQ(variant->syncCalls, script.syncCalls);
}

TEST(ReplayVariants, CoalescingMakesOneWritePerRecordAndKeepsTheSyncs)
{
    const ReplayScript script = scriptOf(recordWriter(4));
    EXPECT_EQ(script.writeCalls, 64u);
    const auto variant = applyVariant(script, parseReplayVariant("coalesce"));
    ASSERT_TRUE(variant);
    EXPECT_EQ(variant->writeCalls, 4u);
    EXPECT_EQ(variant->largestCallBytes, 4096u);
    EXPECT_EQ(countOf(*variant, Call::Fsync), 4u);
    EXPECT_EQ(breach(script, *variant), "");
}

TEST(ReplayVariants, AWritevMakesEachRecordOneCallWithItsWritesAsPieces)
{
    const ReplayScript script = scriptOf(recordWriter(2));
    const auto variant = applyVariant(script, parseReplayVariant("writev"));
    ASSERT_TRUE(variant);
    EXPECT_THAT(callsOf(variant->threads[0]), ::testing::ElementsAre(Call::Open, Call::WriteV, Call::Fsync,
                                                                     Call::WriteV, Call::Fsync, Call::Close));
    const ReplayStep& record = variant->threads[0].steps[1];
    EXPECT_EQ(record.bytes, 4096u);
    EXPECT_EQ(record.count, 1u);
    EXPECT_EQ(record.flags, 16u) << "the 16 writes as 16 pieces";
    EXPECT_EQ(variant->writeCalls, 2u);
    EXPECT_EQ(breach(script, *variant), "");
    EXPECT_FALSE(applyVariant(scriptOf(logger()), parseReplayVariant("writev"))) << "stdio has no writev";
}

TEST(ReplayVariants, CoalescingRenumbersTheWaitsOfOtherThreads)
{
    // Thread 11 closes the descriptor thread 10 wrote and synced: its close waits for thread 10's fsync,
    // which is now the 3rd of its steps, not the 6th (the 4 writes are one).
    SyntheticTrace t;
    t.open(10, 10, "/data/shared", kCreate, 3);
    for (int i = 0; i < 4; ++i)
        t.transfer(10, 10, Call::Write, 3, 100);
    t.call(10, 10, Call::Fsync, 3);
    t.call(10, 11, Call::Close, 3);
    const ReplayScript script = scriptOf(t);
    const auto variant = applyVariant(script, parseReplayVariant("coalesce"));
    ASSERT_TRUE(variant);
    ASSERT_EQ(variant->threads.size(), 2u);
    EXPECT_THAT(callsOf(variant->threads[0]), ::testing::ElementsAre(Call::Open, Call::Write, Call::Fsync));
    const ReplayWait& wait = variant->threads[1].steps[0].waits[0];
    EXPECT_EQ(wait.thread, 0u);
    EXPECT_EQ(wait.steps, 3u);
    EXPECT_EQ(breach(script, *variant), "");
}

TEST(ReplayVariants, FdatasyncOnlyWhereTheSizeIsAlreadyThere)
{
    // A file written once, then its first block rewritten and synced twice: the first sync must stay fsync
    // (the file grew), the rewrites' may be fdatasync.
    SyntheticTrace t;
    t.open(10, 10, "/data/table", kCreate, 3);
    t.transfer(10, 10, Call::PWrite, 3, 8192, 0);
    t.call(10, 10, Call::Fsync, 3);
    for (int i = 0; i < 2; ++i) {
        t.transfer(10, 10, Call::PWrite, 3, 4096, 0);
        t.call(10, 10, Call::Fsync, 3);
    }
    const ReplayScript script = scriptOf(t);
    const auto variant = applyVariant(script, parseReplayVariant("fdatasync"));
    ASSERT_TRUE(variant);
    EXPECT_EQ(countOf(*variant, Call::Fsync), 1u);
    EXPECT_EQ(countOf(*variant, Call::Fdatasync), 2u);
    EXPECT_EQ(breach(script, *variant), "");
    EXPECT_FALSE(applyVariant(scriptOf(recordWriter(3)), parseReplayVariant("fdatasync")))
        << "an appender's every sync changes the size: nothing to change";
}

TEST(ReplayVariants, PreallocationLetsAnAppenderUseFdatasync)
{
    const ReplayScript script = scriptOf(recordWriter(16));
    const auto variant = applyVariant(script, parseReplayVariant("prealloc-fdatasync"));
    ASSERT_TRUE(variant);
    const auto& steps = variant->threads[0].steps;
    ASSERT_EQ(steps[1].call, Call::Fallocate);
    EXPECT_EQ(steps[1].bytes, 16u * 4096u) << "the file's final size, from its creation";
    EXPECT_EQ(countOf(*variant, Call::Fsync), 1u) << "the first sync makes the preallocated size durable";
    EXPECT_EQ(countOf(*variant, Call::Fdatasync), 15u);
    EXPECT_EQ(breach(script, *variant), "");
}

TEST(ReplayVariants, FlushingOnlyBeforeASyncKeepsTheContract)
{
    // A logger that fflushes each of its 30 lines and fsyncs after every 10th: the flush before each fsync
    // stays, the 9 before it go.
    SyntheticTrace t;
    auto& open = t.call(10, 10, Call::FOpen, 0x5000);
    open.path = "/var/log/app.log";
    open.flags = kCreate;
    open.offset = 3;
    for (int line = 1; line <= 30; ++line) {
        t.transfer(10, 10, Call::FPrintf, 0x5000, 40);
        t.call(10, 10, Call::FFlush, 0x5000);
        if (line % 10 == 0)
            t.call(10, 10, Call::Fsync, 3);
    }
    t.call(10, 10, Call::FClose, 0x5000);
    const ReplayScript script = scriptOf(t);
    const auto variant = applyVariant(script, parseReplayVariant("flush-at-sync"));
    ASSERT_TRUE(variant);
    EXPECT_EQ(countOf(script, Call::FFlush), 30u);
    EXPECT_EQ(countOf(*variant, Call::FFlush), 3u);
    EXPECT_EQ(countOf(*variant, Call::Fsync), 3u);
    EXPECT_EQ(breach(script, *variant), "");
    // Without the flush before each sync, the lines would not be on the disk where the program put them.
    ReplayScript noFlush = *variant;
    std::erase_if(noFlush.threads[0].steps, [](const ReplayStep& s) { return s.call == Call::FFlush; });
    EXPECT_THAT(breach(script, noFlush),
                HasSubstr("its 1st sync point (after 400 B handed over) makes 0 B durable"));
}

TEST(DurabilityContract, SyncIsAPointOfEveryFileWritten)
{
    // fprintf, fflush, sync(), fprintf: the flush before sync() makes its line durable, so it stays.
    SyntheticTrace t;
    auto& open = t.call(10, 10, Call::FOpen, 0x5000);
    open.path = "/var/log/app.log";
    open.flags = kCreate;
    open.offset = 3;
    t.transfer(10, 10, Call::FPrintf, 0x5000, 40);
    t.call(10, 10, Call::FFlush, 0x5000);
    t.call(10, 10, Call::Sync);
    t.transfer(10, 10, Call::FPrintf, 0x5000, 40);
    t.call(10, 10, Call::FClose, 0x5000);
    const ReplayScript script = scriptOf(t);
    const DurabilityContract contract = durabilityContract(script);
    EXPECT_EQ(contract.syncPoints, 1u);
    ASSERT_EQ(contract.files[0].size(), 1u);
    EXPECT_EQ(contract.files[0][0].durable, 40u);
    EXPECT_FALSE(applyVariant(script, parseReplayVariant("flush-at-sync"))) << "the one flush is needed";
}

TEST(DurabilityContract, EachDurableWriteOfARunIsAPointAfterItsOwnBytes)
{
    SyntheticTrace t;
    t.open(10, 10, "/data/wal", kCreate | trace::OpenDSync, 3);
    t.transfer(10, 10, Call::Write, 3, 100, -1, 3);
    const DurabilityContract contract = durabilityContract(scriptOf(t));
    ASSERT_EQ(contract.files[0].size(), 3u);
    EXPECT_EQ(contract.files[0][0].handed, 100u);
    EXPECT_EQ(contract.files[0][2].handed, 300u);
    EXPECT_EQ(contract.files[0][2].durable, 300u);
}

TEST(ReplayVariants, AFoldersFsyncStaysAnFsync)
{
    // A file rewritten in place and synced, then its folder synced twice (after a rename, say): only the
    // file's second sync may become fdatasync; fdatasync is not promised to make a folder's entries durable.
    SyntheticTrace t;
    t.open(10, 10, "/data/table", kCreate, 3);
    t.transfer(10, 10, Call::PWrite, 3, 8192, 0);
    t.call(10, 10, Call::Fsync, 3);
    t.transfer(10, 10, Call::PWrite, 3, 4096, 0);
    t.call(10, 10, Call::Fsync, 3);
    t.open(10, 10, "/data", trace::OpenRead | trace::OpenDirectory, 4);
    t.call(10, 10, Call::Fsync, 4);
    t.call(10, 10, Call::Fsync, 4);
    const ReplayScript script = scriptOf(t);
    const auto variant = applyVariant(script, parseReplayVariant("fdatasync"));
    ASSERT_TRUE(variant);
    EXPECT_EQ(countOf(*variant, Call::Fdatasync), 1u);
    EXPECT_EQ(countOf(*variant, Call::Fsync), 3u);
}

TEST(ReplayVariants, AFileAppendedToAfterASeekToItsEndIsNotPreallocated)
{
    SyntheticTrace t;
    t.open(10, 10, "/data/log", kCreate, 3);
    for (int i = 0; i < 3; ++i) {
        auto& seek = t.call(10, 10, Call::Seek, 3);
        seek.flags = 2; // SEEK_END
        seek.offset = 0;
        seek.result = 4096 * i;
        t.transfer(10, 10, Call::Write, 3, 4096);
        t.call(10, 10, Call::Fsync, 3);
    }
    EXPECT_FALSE(applyVariant(scriptOf(t), parseReplayVariant("prealloc-fdatasync")))
        << "its writes would land past the preallocated end";
}

TEST(ReplayVariants, ARewrittenSegmentIsWrittenAheadThenOverwrittenInPlaceWithFdatasync)
{
    const ReplayScript script = scriptOf(recordWriter(16));
    const auto variant = applyVariant(script, parseReplayVariant("rewrite-segment"));
    ASSERT_TRUE(variant);
    const ReplayFile& journal = variant->files[variant->contentFiles[0]];
    EXPECT_TRUE(journal.staged) << "written ahead, before the timed part";
    EXPECT_TRUE(journal.overwritten) << "with other bytes, so that verifying it shows each write landed";
    EXPECT_EQ(journal.stagedBytes, 16u * 4096u) << "to the file's final size";
    EXPECT_EQ(variant->stagedBytes, 16u * 4096u);
    const auto& steps = variant->threads[0].steps;
    ASSERT_EQ(steps[0].call, Call::Open);
    EXPECT_EQ(steps[0].flags & trace::OpenTruncate, 0u) << "opened without truncating what was written ahead";
    EXPECT_NE(steps[0].flags & trace::OpenWrite, 0u);
    EXPECT_EQ(countOf(*variant, Call::Fsync), 0u) << "no sync changes the size: every one is an fdatasync";
    EXPECT_EQ(countOf(*variant, Call::Fdatasync), 16u);
    EXPECT_EQ(variant->writeCalls, script.writeCalls) << "the same writes, in place";
    EXPECT_EQ(variant->leftFiles.at(0).bytes, 16u * 4096u);
    EXPECT_EQ(breach(script, *variant), "");

    // A stream's file is opened "r+" (read and write, no truncation) so that what was written ahead stays.
    const ReplayScript logged = scriptOf(logger());
    const auto stream = applyVariant(logged, parseReplayVariant("rewrite-segment"));
    ASSERT_TRUE(stream);
    const ReplayStep& open = stream->threads[0].steps[0];
    ASSERT_EQ(open.call, Call::FOpen);
    EXPECT_EQ(open.flags & (trace::OpenRead | trace::OpenWrite | trace::OpenTruncate),
              trace::OpenRead | trace::OpenWrite);
    EXPECT_EQ(breach(logged, *stream), "");

    // On Windows the file is written ahead all the same; its syncs stay FlushFileBuffers.
    ReplayScript windows = scriptOf(recordWriter(4));
    windows.system = trace::System::Windows;
    const auto onWindows = applyVariant(windows, parseReplayVariant("rewrite-segment"));
    ASSERT_TRUE(onWindows);
    EXPECT_EQ(countOf(*onWindows, Call::Fsync), 4u);
    EXPECT_TRUE(onWindows->files[onWindows->contentFiles[0]].staged);
}

TEST(ReplayVariants, ASegmentIsOnlyAFileWrittenFromItsStartThatNothingElseTouches)
{
    // A hole: the written-ahead bytes would stay where the program's file holds zeros.
    SyntheticTrace holes;
    holes.open(10, 10, "/data/sparse", kCreate, 3);
    for (int i = 0; i < 3; ++i) {
        holes.transfer(10, 10, Call::PWrite, 3, 4096, 8192 * i);
        holes.call(10, 10, Call::Fsync, 3);
    }
    EXPECT_FALSE(applyVariant(scriptOf(holes), parseReplayVariant("rewrite-segment")));

    // Opened twice: what the second open finds is what the first left, not a whole segment.
    SyntheticTrace reopened = recordWriter(2);
    reopened.open(10, 10, "/data/journal", trace::OpenWrite, 4);
    reopened.transfer(10, 10, Call::PWrite, 4, 100, 8192);
    reopened.call(10, 10, Call::Fsync, 4);
    reopened.call(10, 10, Call::Close, 4);
    EXPECT_FALSE(applyVariant(scriptOf(reopened), parseReplayVariant("rewrite-segment")));

    // Deleted at its end (a temporary journal): the next run's file would be a new one.
    SyntheticTrace deleted = recordWriter(2);
    deleted.call(10, 10, Call::Unlink).path = "/data/journal";
    EXPECT_FALSE(applyVariant(scriptOf(deleted), parseReplayVariant("rewrite-segment")));

    // Synced once: nothing for a written-ahead file to save but the one sync of its size.
    EXPECT_FALSE(applyVariant(scriptOf(recordWriter(1)), parseReplayVariant("rewrite-segment")));
}

TEST(DurabilityContract, AFoundFileReopenedWithOTruncStartsFromNothing)
{
    // The program found /data/f (8 KiB read), then reopened it O_TRUNC and wrote 4 KiB: its size went 8 KiB,
    // 0, 4 KiB, so the first fsync after must stay one; the second, after a rewrite in place, may not.
    SyntheticTrace t;
    t.open(10, 10, "/data/f", trace::OpenRead, 3);
    t.transfer(10, 10, Call::Read, 3, 8192);
    t.call(10, 10, Call::Close, 3);
    t.open(10, 10, "/data/f", kCreate, 4);
    t.transfer(10, 10, Call::Write, 4, 4096);
    t.call(10, 10, Call::Fsync, 4);
    t.transfer(10, 10, Call::PWrite, 4, 4096, 0);
    t.call(10, 10, Call::Fsync, 4);
    t.call(10, 10, Call::Close, 4);
    const ReplayScript script = scriptOf(t);
    ASSERT_TRUE(script.files[script.contentFiles[0]].staged);
    const auto variant = applyVariant(script, parseReplayVariant("fdatasync"));
    ASSERT_TRUE(variant);
    EXPECT_EQ(countOf(*variant, Call::Fsync), 1u);
    EXPECT_EQ(countOf(*variant, Call::Fdatasync), 1u);
    EXPECT_EQ(breach(script, *variant), "");
}

TEST(DurabilityContract, AFileFoundAtItsSizeIsOverwrittenWithoutChangingIt)
{
    // The program found /data/table (a seek to its end said 8 KiB) and overwrote its first block twice,
    // fsyncing each time: the size never changed, so fdatasync keeps the contract from the first sync on.
    SyntheticTrace t;
    t.open(10, 10, "/data/table", trace::OpenWrite, 3);
    auto& seek = t.call(10, 10, Call::Seek, 3);
    seek.flags = 2; // SEEK_END
    seek.offset = 0;
    seek.result = 8192;
    for (int i = 0; i < 2; ++i) {
        t.transfer(10, 10, Call::PWrite, 3, 4096, 0);
        t.call(10, 10, Call::Fsync, 3);
    }
    const ReplayScript script = scriptOf(t);
    ASSERT_TRUE(script.files[script.contentFiles[0]].staged);
    const auto variant = applyVariant(script, parseReplayVariant("fdatasync"));
    ASSERT_TRUE(variant);
    EXPECT_EQ(countOf(*variant, Call::Fdatasync), 2u);
    EXPECT_EQ(breach(script, *variant), "");
}

TEST(ReplayVariants, ADirectBatchWritesEachSyncPointsBytesAsWholeBlocksDurably)
{
    const ReplayScript script = scriptOf(recordWriter(16));
    const auto variant = applyVariant(script, parseReplayVariant("direct-batch"));
    ASSERT_TRUE(variant);
    const auto& steps = variant->threads[0].steps;
    ASSERT_EQ(steps[0].call, Call::Open);
    EXPECT_EQ(steps[0].flags & (trace::OpenDirect | trace::OpenDSync), trace::OpenDirect | trace::OpenDSync);
    EXPECT_EQ(countOf(*variant, Call::Write), 0u);
    EXPECT_EQ(countOf(*variant, Call::Fsync), 0u) << "each batch is durable when it returns: the sync point";
    EXPECT_EQ(countOf(*variant, Call::PWrite), 16u) << "one batch per sync point";
    std::uint64_t at = 0;
    for (const ReplayStep& step : steps)
        if (step.call == Call::PWrite) {
            EXPECT_EQ(step.flags, kDirectBatch);
            EXPECT_EQ(step.dataAt, at);
            EXPECT_EQ(step.bytes, 4096u);
            EXPECT_EQ(step.risk, RiskNone);
            at += step.bytes;
        }
    EXPECT_EQ(countOf(*variant, Call::Ftruncate), 0u) << "16 whole blocks: no padding to cut";
    EXPECT_EQ(variant->bytesWritten, script.bytesWritten);
    EXPECT_EQ(breach(script, *variant), "");
}

TEST(ReplayVariants, ADirectBatchIsAtMostAMebibyteAndItsPaddingIsCutAtTheClose)
{
    // dd bs=512 count=3001 conv=fsync: 1,536,512 bytes, one fsync at the end.
    SyntheticTrace t;
    t.open(10, 10, "/data/out", kCreate, 3);
    t.transfer(10, 10, Call::Write, 3, 512, -1, 3001);
    t.call(10, 10, Call::Fsync, 3);
    t.call(10, 10, Call::Close, 3);
    const ReplayScript script = scriptOf(t);
    const auto variant = applyVariant(script, parseReplayVariant("direct-batch"));
    ASSERT_TRUE(variant);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> batches; // (at, bytes)
    for (const ReplayStep& step : variant->threads[0].steps)
        if (step.call == Call::PWrite)
            batches.emplace_back(step.dataAt, step.bytes);
    EXPECT_THAT(batches, ::testing::ElementsAre(std::pair<std::uint64_t, std::uint64_t>{0, 1u << 20},
                                                std::pair<std::uint64_t, std::uint64_t>{1u << 20, 487424},
                                                std::pair<std::uint64_t, std::uint64_t>{1536000, 512}))
        << "whole blocks as the batch fills, the partial block at the sync point";
    const auto& steps = variant->threads[0].steps;
    ASSERT_GE(steps.size(), 3u);
    EXPECT_EQ(steps[steps.size() - 3].call, Call::Ftruncate);
    EXPECT_EQ(steps[steps.size() - 3].bytes, 1536512u) << "the last block's padding cut off at the close";
    EXPECT_EQ(steps[steps.size() - 2].call, Call::Fdatasync) << "and the size made durable";
    EXPECT_EQ(steps.back().call, Call::Close);
    EXPECT_EQ(breach(script, *variant), "");
    EXPECT_TRUE(parseReplayVariant("direct-batch").runsOn(trace::System::Linux));
    EXPECT_TRUE(parseReplayVariant("direct-batch").runsOn(trace::System::Windows)) << "NO_BUFFERING there";
}

TEST(ReplayVariants, AnMmapBatchIsADirectBatchGatheredInAMappedFile)
{
    const ReplayScript script = scriptOf(recordWriter(4));
    const auto direct = applyVariant(script, parseReplayVariant("direct-batch"));
    const auto mapped = applyVariant(script, parseReplayVariant("mmap-batch"));
    ASSERT_TRUE(direct && mapped);
    ASSERT_EQ(mapped->threads[0].steps.size(), direct->threads[0].steps.size());
    for (std::size_t i = 0; i < direct->threads[0].steps.size(); ++i) {
        const ReplayStep& d = direct->threads[0].steps[i];
        const ReplayStep& m = mapped->threads[0].steps[i];
        EXPECT_EQ(m.call, d.call);
        EXPECT_EQ(m.flags, d.call == Call::PWrite ? (d.flags | kMappedBatch) : d.flags) << i;
    }
    EXPECT_EQ(breach(script, *mapped), "");
    EXPECT_TRUE(parseReplayVariant("mmap-batch").runsOn(trace::System::Windows));
}

TEST(ReplayVariants, ADirectBatchIsOnlyForAFileWrittenInOrderThroughOneDescriptor)
{
    EXPECT_FALSE(applyVariant(scriptOf(logger()), parseReplayVariant("direct-batch"))) << "a stream's file";
    SyntheticTrace appended;
    appended.open(10, 10, "/data/log", trace::OpenWrite | trace::OpenCreate | trace::OpenAppend, 3);
    appended.transfer(10, 10, Call::Write, 3, 100);
    appended.call(10, 10, Call::Fsync, 3);
    appended.call(10, 10, Call::Close, 3);
    EXPECT_FALSE(applyVariant(scriptOf(appended), parseReplayVariant("direct-batch"))) << "O_APPEND";
    SyntheticTrace rewritten;
    rewritten.open(10, 10, "/data/table", kCreate, 3);
    rewritten.transfer(10, 10, Call::PWrite, 3, 8192, 0);
    rewritten.call(10, 10, Call::Fsync, 3);
    rewritten.transfer(10, 10, Call::PWrite, 3, 4096, 0);
    rewritten.call(10, 10, Call::Fsync, 3);
    rewritten.call(10, 10, Call::Close, 3);
    EXPECT_FALSE(applyVariant(scriptOf(rewritten), parseReplayVariant("direct-batch")))
        << "a write back over what was written";
    SyntheticTrace unsynced;
    unsynced.open(10, 10, "/data/out", kCreate, 3);
    unsynced.transfer(10, 10, Call::Write, 3, 4096);
    unsynced.call(10, 10, Call::Close, 3);
    EXPECT_FALSE(applyVariant(scriptOf(unsynced), parseReplayVariant("direct-batch")))
        << "no sync point: the page cache is the faster way";
    // Written through a copy of its descriptor that is never closed (the program's exit closes it): no close
    // after the last batch to cut its padding at.
    SyntheticTrace unclosed;
    unclosed.open(10, 10, "/data/out", kCreate, 3);
    unclosed.call(10, 10, Call::Dup, 3).result = 1;
    unclosed.call(10, 10, Call::Close, 3);
    unclosed.transfer(10, 10, Call::Write, 1, 100);
    unclosed.call(10, 10, Call::Fsync, 1);
    EXPECT_FALSE(applyVariant(scriptOf(unclosed), parseReplayVariant("direct-batch")));
}

TEST(ReplayVariants, IoUringQueuesTheWritesAndTheSyncOfAFileWrittenInOrder)
{
    const ReplayScript script = scriptOf(recordWriter(4));
    const auto variant = applyVariant(script, parseReplayVariant("io-uring"));
    ASSERT_TRUE(variant);
    std::size_t queued = 0;
    for (const ReplayStep& step : variant->threads[0].steps) {
        const bool queues = step.call == Call::Write || step.call == Call::Fsync;
        if (step.call != Call::Open) { // an open's flags are its open flags
            EXPECT_EQ((step.flags & kQueued) != 0, queues) << callName(step.call);
        }
        queued += queues ? step.count : 0;
    }
    EXPECT_EQ(queued, 4u * 16u + 4u) << "every write and every sync, the same calls";
    EXPECT_EQ(variant->writeCalls, script.writeCalls);
    EXPECT_EQ(variant->syncCalls, script.syncCalls);
    EXPECT_EQ(breach(script, *variant), "");
    EXPECT_TRUE(parseReplayVariant("io-uring").runsOn(trace::System::Linux));
    EXPECT_FALSE(parseReplayVariant("io-uring").runsOn(trace::System::Windows));
    EXPECT_FALSE(applyVariant(scriptOf(logger()), parseReplayVariant("io-uring"))) << "a stream's file";
}

// On Windows the queued way is overlapped WriteFile: the same writes and syncs flagged, and the open too (its
// handle is FILE_FLAG_OVERLAPPED); the O_DIRECT batches are NO_BUFFERING | WRITE_THROUGH handles; each way
// offered only where the recording's system has its calls, and its advice in that system's calls.
TEST(ReplayVariants, OnWindowsTheQueuedWayIsOverlappedAndTheBatchesAreUnbuffered)
{
    ReplayScript windows = scriptOf(recordWriter(4));
    windows.system = trace::System::Windows;
    windows.traceName = "journal.iolab-trace";
    const auto variant = applyVariant(windows, parseReplayVariant("overlapped"));
    ASSERT_TRUE(variant);
    std::size_t queued = 0;
    for (const ReplayStep& step : variant->threads[0].steps) {
        const bool queues = step.call == Call::Write || step.call == Call::Fsync || step.call == Call::Open;
        EXPECT_EQ((step.flags & kQueued) != 0, queues) << callName(step.call);
        queued += queues && step.call != Call::Open ? step.count : 0;
    }
    EXPECT_EQ(queued, 4u * 16u + 4u);
    EXPECT_EQ(breach(windows, *variant), "");

    std::vector<std::string> names;
    for (const ReplayVariant& v : variantsFor(windows))
        names.push_back(v.name());
    EXPECT_THAT(names, ::testing::ElementsAre("coalesce", "rewrite-segment", "direct-batch", "mmap-batch",
                                              "overlapped", "sync-at-close"));
    names.clear();
    for (const ReplayVariant& v : variantsFor(scriptOf(recordWriter(4))))
        names.push_back(v.name());
    EXPECT_THAT(names, ::testing::Not(::testing::Contains("overlapped")));

    const auto onLinux = std::make_shared<const ReplayScript>(scriptOf(recordWriter(4)));
    try {
        scriptForVariant(onLinux, "overlapped");
        ADD_FAILURE() << "a Windows way run on a Linux recording";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("the variant overlapped is a Windows way"));
        EXPECT_THAT(e.what(), HasSubstr("recorded on Linux"));
    }
    try {
        scriptForVariant(std::make_shared<const ReplayScript>(windows), "io-uring");
        ADD_FAILURE() << "a Linux way run on a Windows recording";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("the variant io-uring is a Linux way: journal.iolab-trace was "
                                        "recorded on Windows"));
    }

    const auto direct = applyVariant(windows, parseReplayVariant("direct-batch"));
    ASSERT_TRUE(direct);
    EXPECT_EQ(direct->threads[0].steps.front().flags & (trace::OpenDirect | trace::OpenDSync),
              trace::OpenDirect | trace::OpenDSync)
        << "NO_BUFFERING | WRITE_THROUGH on Windows";
    EXPECT_EQ(breach(windows, *direct), "");
    const VariantAdvice onWindows = adviceFor(parseReplayVariant("direct-batch"), trace::System::Windows);
    EXPECT_THAT(onWindows.snippet, HasSubstr("FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH"));
    EXPECT_THAT(onWindows.snippet, ::testing::Not(HasSubstr("O_DIRECT")));
    EXPECT_THAT(onWindows.others, HasSubstr("Linux: open with O_DIRECT | O_DSYNC"));
    EXPECT_THAT(adviceFor(parseReplayVariant("direct-batch"), trace::System::Linux).snippet,
                HasSubstr("O_DIRECT | O_DSYNC"));
    EXPECT_THAT(adviceFor(parseReplayVariant("mmap-batch"), trace::System::Windows).snippet,
                HasSubstr("MapViewOfFile"));
    EXPECT_THAT(adviceFor(parseReplayVariant("overlapped"), trace::System::Windows).snippet,
                HasSubstr("GetOverlappedResult"));
    // Every way a Windows recording is offered, in Windows' calls.
    for (VariantKind kind : kVariantKinds) {
        const ReplayVariant v{kind, kind == VariantKind::StdioBuffer ? 65536u : 0u};
        if (!v.runsOn(trace::System::Windows))
            continue;
        const std::string snippet = adviceFor(v, trace::System::Windows).snippet;
        for (const char* posix :
             {"fsync(", "fdatasync(", "pwrite(", "= open(", "pthread_", "O_WRONLY", "O_DIRECT"})
            EXPECT_THAT(snippet, ::testing::Not(HasSubstr(posix))) << v.name();
    }
}

TEST(ReplayVariants, SyncingOnlyAtCloseIsWeakerAndCaught)
{
    const ReplayScript script = scriptOf(recordWriter(4));
    const ReplayVariant weaker = parseReplayVariant("sync-at-close");
    EXPECT_TRUE(weaker.weakens());
    const auto variant = applyVariant(script, weaker);
    ASSERT_TRUE(variant);
    EXPECT_EQ(variant->syncCalls, 1u);
    EXPECT_THAT(breach(script, *variant), HasSubstr("its 1st sync point (after 4 KiB handed over)"));
}

TEST(ReplayVariants, EachAppliesOnlyWhereItChangesSomething)
{
    std::vector<std::string> names;
    for (const ReplayVariant& v : variantsFor(scriptOf(recordWriter(4))))
        names.push_back(v.name());
    EXPECT_THAT(names, ::testing::ElementsAre("coalesce", "writev", "prealloc-fdatasync", "rewrite-segment",
                                              "direct-batch", "mmap-batch", "io-uring", "sync-at-close"));
    names.clear();
    for (const ReplayVariant& v : variantsFor(scriptOf(logger())))
        names.push_back(v.name());
    EXPECT_THAT(names,
                ::testing::ElementsAre("stdio-buffer-64K", "stdio-buffer-1M", "stdio-unlocked", "coalesce",
                                       "prealloc-fdatasync", "rewrite-segment", "sync-at-close"));
}

TEST(ReplayVariants, NamesComeBackAndAnUnknownOneIsRefused)
{
    for (VariantKind kind : kVariantKinds) {
        const std::string name = ReplayVariant{kind, kind == VariantKind::StdioBuffer ? 65536u : 0u}.name();
        EXPECT_EQ(parseReplayVariant(name).name(), name);
    }
    for (const char* name : {"stdio-buffer-64K", "stdio-buffer-1M", "rewrite-segment", "io-uring", "writev"})
        EXPECT_EQ(parseReplayVariant(name).name(), name);
    EXPECT_THROW(parseReplayVariant("faster"), InputError);
    EXPECT_THROW(parseReplayVariant("stdio-buffer-0"), InputError);
    for (VariantKind kind : kVariantKinds)
        for (trace::System system : {trace::System::Linux, trace::System::Windows}) {
            const ReplayVariant v{kind, kind == VariantKind::StdioBuffer ? 65536u : 0u};
            const VariantAdvice advice = adviceFor(v, system);
            EXPECT_FALSE(advice.change.empty() || advice.snippet.empty() || advice.others.empty() ||
                         advice.cost.empty())
                << v.name();
        }
}

namespace {

// `files` small files, each written to a temporary name, fsynced, closed and renamed into place; with
// `folderSync`, the folder fsynced after each rename.
SyntheticTrace smallFiles(int files, bool folderSync)
{
    SyntheticTrace t;
    for (int i = 0; i < files; ++i) {
        const std::string name = "/data/file" + std::to_string(i);
        t.open(10, 10, name + ".tmp", kCreate, 3);
        t.transfer(10, 10, Call::Write, 3, 2048);
        t.call(10, 10, Call::Fsync, 3);
        t.call(10, 10, Call::Close, 3);
        auto& rename = t.call(10, 10, Call::Rename);
        rename.path = name + ".tmp";
        rename.path2 = name;
        if (folderSync) {
            t.open(10, 10, "/data", trace::OpenRead | trace::OpenDirectory, 4);
            t.call(10, 10, Call::Fsync, 4);
            t.call(10, 10, Call::Close, 4);
        }
    }
    return t;
}

// Two threads appending records to one descriptor, each syncing after its own: both write, then both sync.
SyntheticTrace twoAppenders(int records)
{
    SyntheticTrace t;
    t.open(10, 10, "/data/journal", kCreate | trace::OpenAppend, 3);
    for (int r = 0; r < records; ++r) {
        for (std::uint32_t tid : {10u, 11u})
            t.transfer(10, tid, Call::Write, 3, 256);
        for (std::uint32_t tid : {10u, 11u})
            t.call(10, tid, Call::Fdatasync, 3);
    }
    t.call(10, 10, Call::Close, 3);
    return t;
}

} // namespace

TEST(ReplayVariants, UnlockedStdioMakesEachPutWithTheUnlockedCallAndNothingElse)
{
    const ReplayScript script = scriptOf(logger());
    const auto variant = applyVariant(script, parseReplayVariant("stdio-unlocked"));
    ASSERT_TRUE(variant);
    ASSERT_EQ(variant->threads[0].steps.size(), script.threads[0].steps.size());
    std::size_t unlocked = 0;
    for (std::size_t i = 0; i < script.threads[0].steps.size(); ++i) {
        const ReplayStep& was = script.threads[0].steps[i];
        const ReplayStep& now = variant->threads[0].steps[i];
        EXPECT_EQ(now.call, was.call);
        EXPECT_EQ(now.bytes, was.bytes);
        if (now.call == Call::FPrintf && (now.flags & kStreamUnlocked) != 0)
            unlocked += now.count;
    }
    EXPECT_EQ(unlocked, 300u) << "every fprintf";
    EXPECT_EQ(breach(script, *variant), "");
    EXPECT_FALSE(applyVariant(scriptOf(recordWriter(3)), parseReplayVariant("stdio-unlocked")))
        << "no stream, nothing to unlock";
}

TEST(ReplayVariants, ASyncfsBatchWritesEveryFileThenSyncsOnceThenRenames)
{
    const ReplayScript script = scriptOf(smallFiles(3, false));
    const auto variant = applyVariant(script, parseReplayVariant("syncfs-batch"));
    ASSERT_TRUE(variant);
    EXPECT_THAT(callsOf(variant->threads[0]),
                ::testing::ElementsAre(Call::Open, Call::Write, Call::Close, Call::Open, Call::Write,
                                       Call::Close, Call::Open, Call::Write, Call::Syncfs, Call::Close,
                                       Call::Rename, Call::Rename, Call::Rename));
    EXPECT_EQ(variant->syncCalls, 1u);
    EXPECT_EQ(variant->bytesWritten, script.bytesWritten);
    EXPECT_EQ(breach(script, *variant), "") << "each file durable before its rename, as it was";
}

TEST(ReplayVariants, ASyncfsBatchTakesEachFoldersFsyncAlongWithItsRename)
{
    const ReplayScript script = scriptOf(smallFiles(2, true));
    const auto variant = applyVariant(script, parseReplayVariant("syncfs-batch"));
    ASSERT_TRUE(variant);
    EXPECT_THAT(callsOf(variant->threads[0]),
                ::testing::ElementsAre(Call::Open, Call::Write, Call::Close, Call::Open, Call::Write,
                                       Call::Syncfs, Call::Close, Call::Rename, Call::Open, Call::Fsync,
                                       Call::Close, Call::Rename, Call::Open, Call::Fsync, Call::Close));
    EXPECT_EQ(breach(script, *variant), "");
}

TEST(ReplayVariants, ASyncfsBatchNeedsTwoFilesAndLinux)
{
    EXPECT_FALSE(applyVariant(scriptOf(smallFiles(1, false)), parseReplayVariant("syncfs-batch")))
        << "one file has nothing to batch";
    EXPECT_FALSE(applyVariant(scriptOf(recordWriter(3)), parseReplayVariant("syncfs-batch")));
    ReplayScript windows = scriptOf(smallFiles(3, false));
    windows.system = trace::System::Windows;
    windows.traceName = "saver.iolab-trace";
    EXPECT_FALSE(applyVariant(windows, parseReplayVariant("syncfs-batch")));
    try {
        scriptForVariant(std::make_shared<const ReplayScript>(windows), "syncfs-batch");
        ADD_FAILURE() << "a Linux way run on a Windows recording";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("the variant syncfs-batch is a Linux way: saver.iolab-trace was "
                                        "recorded on Windows"));
    }
    std::vector<std::string> names;
    for (const ReplayVariant& v : variantsFor(windows))
        names.push_back(v.name());
    EXPECT_THAT(names, ::testing::Not(::testing::Contains("syncfs-batch")));
}

TEST(ReplayVariants, AWriterPoolSharesTheFilesOutOverFourThreadsAndWaitsForThem)
{
    const ReplayScript script = scriptOf(smallFiles(6, true));
    const auto variant = applyVariant(script, parseReplayVariant("writer-pool"));
    ASSERT_TRUE(variant);
    ASSERT_EQ(variant->threads.size(), 1u + kWriterPoolThreads);
    // The program's thread only waits for the pool: two steps that make no call, two threads each.
    const auto& own = variant->threads[0].steps;
    ASSERT_EQ(own.size(), 2u);
    std::set<std::uint32_t> joined;
    for (const ReplayStep& join : own) {
        EXPECT_EQ(join.count, 0u);
        for (const ReplayWait& wait : join.waits) {
            joined.insert(wait.thread);
            EXPECT_EQ(wait.steps, variant->threads[wait.thread].steps.size()) << "all of its steps";
        }
    }
    EXPECT_EQ(joined, (std::set<std::uint32_t>{1, 2, 3, 4}));
    // Files 0 and 4 on the first pool thread, 1 and 5 on the second, one each on the others; each file still
    // opened, written, synced, closed, renamed, its folder synced.
    EXPECT_EQ(callsOf(variant->threads[1]).size(), 16u);
    EXPECT_EQ(callsOf(variant->threads[3]).size(), 8u);
    EXPECT_THAT(callsOf(variant->threads[3]),
                ::testing::ElementsAre(Call::Open, Call::Write, Call::Fsync, Call::Close, Call::Rename,
                                       Call::Open, Call::Fsync, Call::Close));
    EXPECT_EQ(variant->threads[3].steps.front().waits[0].thread, 0u) << "starts where the program's run did";
    EXPECT_EQ(variant->syncCalls, script.syncCalls);
    EXPECT_EQ(variant->bytesWritten, script.bytesWritten);
    EXPECT_EQ(breach(script, *variant), "");
    EXPECT_FALSE(applyVariant(scriptOf(smallFiles(3, false)), parseReplayVariant("writer-pool")))
        << "fewer files than threads: nothing to share out";
}

TEST(DurabilityContract, AnAddedSyncIsLetBeAndAnAddedOrMovedRenameIsCaught)
{
    const ReplayScript script = scriptOf(smallFiles(2, false));
    // A sync the program did not make, before the first file's own: more durable, not less.
    ReplayScript more = script;
    auto& steps = more.threads[0].steps;
    steps.insert(steps.begin() + 2, steps[2]);
    EXPECT_EQ(breach(script, more), "");
    // The first rename made before the file's sync.
    ReplayScript early = script;
    auto& first = early.threads[0].steps;
    std::swap(first[2], first[4]); // fsync <-> rename
    EXPECT_THAT(breach(script, early), HasSubstr("its 1st sync point (after 2 KiB handed over) comes after a "
                                                 "rename it preceded"));
}

TEST(ReplayVariants, AGroupCommitSharesTheSyncsOfThreadsOnOneFile)
{
    const ReplayScript script = scriptOf(twoAppenders(3));
    const auto variant = applyVariant(script, parseReplayVariant("group-commit"));
    ASSERT_TRUE(variant);
    std::size_t grouped = 0;
    std::size_t begun = 0;
    for (const ReplayThread& thread : variant->threads)
        for (const ReplayStep& step : thread.steps) {
            grouped += step.group;
            for (const ReplayWait& wait : step.waits)
                begun += wait.thread != kNoReplaySlot && wait.begun;
        }
    EXPECT_EQ(grouped, 6u) << "every fdatasync of the shared file";
    EXPECT_GT(begun, 0u) << "a write after another thread's sync waits for it to begin, not to end";
    EXPECT_EQ(variant->syncCalls, script.syncCalls);
    EXPECT_EQ(breach(script, *variant), "");
    // One thread syncing its own file has nobody to share with.
    EXPECT_FALSE(applyVariant(scriptOf(recordWriter(3)), parseReplayVariant("group-commit")));
    // One thread's fdatasync never stands for another's fsync: a file synced both ways is left alone.
    SyntheticTrace mixed;
    mixed.open(10, 10, "/data/journal", kCreate | trace::OpenAppend, 3);
    for (std::uint32_t tid : {10u, 11u}) {
        mixed.transfer(10, tid, Call::Write, 3, 256);
        mixed.call(10, tid, tid == 10 ? Call::Fsync : Call::Fdatasync, 3);
    }
    EXPECT_FALSE(applyVariant(scriptOf(mixed), parseReplayVariant("group-commit")));
}

TEST(ReplayVariants, ASyncLeftOutKeepsItsPlaceInTheOrderAcrossThreads)
{
    // Each thread's fdatasync waited for the other's write; a write that waited for a left-out sync must
    // still come after that write (the file's records keep their order), so the sync stays as a step that
    // only waits.
    const ReplayScript script = scriptOf(twoAppenders(3));
    const auto variant = applyVariant(script, parseReplayVariant("sync-at-close"));
    ASSERT_TRUE(variant);
    EXPECT_EQ(countOf(*variant, Call::Fdatasync), 1u);
    std::size_t placeholders = 0;
    for (const ReplayThread& thread : variant->threads)
        for (const ReplayStep& step : thread.steps)
            if (step.count == 0) {
                ++placeholders;
                EXPECT_EQ(step.risk, RiskNone);
                EXPECT_EQ(step.content, kNoReplaySlot);
                EXPECT_NE(step.waits[0].thread, kNoReplaySlot);
            }
    EXPECT_GT(placeholders, 0u);
    EXPECT_EQ(variant->syncCalls, 1u) << "a step that only waits makes no call";
}

TEST(ReplayScript, ACallMadeWhileAnotherThreadsSyncRanWaitsOnlyForItToBegin)
{
    SyntheticTrace t;
    t.open(10, 10, "/data/journal", kCreate, 3);
    t.transfer(10, 10, Call::Write, 3, 256);
    auto& sync = t.call(10, 10, Call::Fdatasync, 3);
    sync.endNs += 1'000'000; // still syncing when thread 11 writes
    t.transfer(10, 11, Call::Write, 3, 256);
    t.call(10, 11, Call::Fdatasync, 3);
    t.transfer(10, 10, Call::Write, 3, 256); // after thread 11's sync returned
    const ReplayScript script = scriptOf(t);
    const ReplayWait& overlapped = script.threads[1].steps[0].waits[0];
    EXPECT_EQ(overlapped.thread, 0u);
    EXPECT_EQ(overlapped.steps, 3u);
    EXPECT_TRUE(overlapped.begun);
    const ReplayWait& after = script.threads[0].steps[3].waits[0];
    EXPECT_EQ(after.thread, 1u);
    EXPECT_FALSE(after.begun) << "the program's write began after the sync had returned";
}

namespace {

// A replay case of `variant` whose measured repetitions ran at `rates` MB/s (durable), 100 MB each; at
// `apparent` MB/s until their last call returned (as durable when none is given).
CaseResult wayCase(const std::string& variant, const std::vector<double>& rates,
                   std::vector<double> apparent = {})
{
    if (apparent.empty())
        apparent = rates;
    CaseResult c;
    c.testCase.strategy = std::string(kReplayStrategy);
    c.testCase.direction = Direction::Write;
    c.testCase.target = TargetKind::Directory;
    c.testCase.extraAxes["replay-variant"] = variant;
    c.status = Status::Ok;
    for (std::size_t i = 0; i < rates.size(); ++i) {
        RepetitionResult r;
        r.index = static_cast<std::uint32_t>(i);
        r.returnSeconds = 100.0 / apparent[i];
        r.apparentMBps = apparent[i];
        r.durableMBps = rates[i];
        r.insideSeconds = 100.0 / apparent[i];
        c.repetitions.push_back(r);
    }
    c.apparentMBps = summarize(apparent);
    c.durableMBps = summarize(rates);
    return c;
}

ProgramProfile writerProfile()
{
    ProgramProfile profile;
    profile.wallNs = 1'000'000'000;
    profile.insideNs = 900'000'000;
    profile.bytesWritten = 64 * 4096;
    profile.writeCalls = 64;
    profile.syncs = 4;
    return profile;
}

std::string adviceText(const RunResult& result)
{
    std::string text;
    for (const auto& line : adviseProgram(result, scriptOf(recordWriter(4)), writerProfile()).lines)
        text += line + "\n";
    return text;
}

} // namespace

TEST(ProgramAdvice, NoWayIsNamedInsideTheNoiseAndTheWeakerWayNeverIs)
{
    // Coalescing 3% faster with 5% spread, preallocation the same: nothing beats the program beyond the
    // noise. sync-at-close is 3x faster, but weaker: it is never the answer.
    RunResult result;
    result.cases = {wayCase("recorded", {100, 95, 105, 98, 102}),
                    wayCase("coalesce", {103, 97, 108, 101, 99}),
                    wayCase("prealloc-fdatasync", {99, 104, 96, 101, 100}),
                    wayCase("sync-at-close", {300, 310, 290, 305, 295})};
    const std::string text = adviceText(result);
    EXPECT_THAT(text,
                HasSubstr("None of the 2 ways IOLab measured that keep your program's durability is faster"));
    EXPECT_THAT(text, ::testing::Not(HasSubstr("The change:")));
    const std::size_t weaker = text.find("never the answer");
    ASSERT_NE(weaker, std::string::npos) << text;
    EXPECT_EQ(text.substr(0, weaker).find("sync-at-close"), std::string::npos) << text;
}

TEST(ProgramAdvice, AClearLeadIsNamedWithItsChange)
{
    RunResult result;
    result.cases = {wayCase("recorded", {100, 98, 102, 99, 101}),
                    wayCase("coalesce", {150, 148, 152, 149, 151}),
                    wayCase("prealloc-fdatasync", {99, 104, 96, 101, 100})};
    const std::string text = adviceText(result);
    EXPECT_THAT(text, HasSubstr("take 667 ms to run where your program's own calls take 1.0 s"));
    EXPECT_THAT(text, HasSubstr("(coalesce): 50% faster (1.50x your program's speed), measured here"));
    EXPECT_THAT(text, HasSubstr("by the durable rate, which also counts making durable what the program left "
                                "unsynced at its end, 150 against 100 MB/s, 1.50x"));
    EXPECT_THAT(text, HasSubstr("The change: collect each record in memory"));
    EXPECT_THAT(text, HasSubstr("  - prealloc-fdatasync:")) << "the other way, listed, not named";
}

TEST(ProgramAdvice, AWayFasterStillButInsideTheNoiseIsSaidBesideTheOneNamed)
{
    RunResult result;
    result.cases = {wayCase("recorded", {100, 98, 102, 99, 101}),
                    wayCase("coalesce", {150, 148, 152, 149, 151}),
                    wayCase("direct-batch", {300, 95, 320, 90, 310})};
    const std::string text = adviceText(result);
    EXPECT_THAT(text, HasSubstr("(coalesce): 50% faster"));
    EXPECT_THAT(text,
                HasSubstr("  direct-batch ran faster still here (3.00x your program's speed), but its lead "
                          "is not beyond the noise of 5 repetitions over the 2 ways tried"));

    // A noisy way slower than the one named is not said to be faster.
    result.cases = {wayCase("recorded", {100, 98, 102, 99, 101}),
                    wayCase("coalesce", {150, 148, 152, 149, 151}),
                    wayCase("direct-batch", {140, 95, 145, 90, 130})};
    const std::string slower = adviceText(result);
    EXPECT_THAT(slower, HasSubstr("(coalesce): 50% faster"));
    EXPECT_THAT(slower, ::testing::Not(HasSubstr("ran faster still"))) << slower;
}

TEST(ProgramAdvice, TheWaysOfOneTraceAreComparedTogetherWhateverTheirLargestCall)
{
    // The program's calls are 256 B, coalesce's 4 KiB: one program's ways, one "fastest" sentence, not one
    // per call size. Another trace's replay is another program: a sentence of its own.
    RunResult result;
    result.cases = {wayCase("recorded", {100, 98, 102, 99, 101}),
                    wayCase("coalesce", {150, 148, 152, 149, 151}),
                    wayCase("recorded", {50, 49, 51, 50, 52})};
    const std::uint64_t chunks[] = {256, 4096, 256};
    const char* traces[] = {"/tmp/writer.iolab-trace", "/tmp/writer.iolab-trace", "/tmp/other.iolab-trace"};
    for (std::uint32_t i = 0; i < result.cases.size(); ++i) {
        result.cases[i].index = i;
        result.cases[i].testCase.chunkBytes = chunks[i];
        result.cases[i].testCase.extraAxes["replay"] = std::string(traces[i]);
    }
    std::vector<std::string> fastest;
    for (const Finding& f : findings(result, nullptr))
        if (f.kind == Finding::Kind::Fastest)
            fastest.push_back(f.text);
    ASSERT_EQ(fastest.size(), 2u);
    EXPECT_THAT(fastest, ::testing::Contains(HasSubstr(
                             "Of the ways the replay made writer.iolab-trace's calls, the fastest")));
    EXPECT_THAT(fastest,
                ::testing::Contains(HasSubstr("Of the ways the replay made other.iolab-trace's calls")));
    EXPECT_THAT(fastest, ::testing::Each(::testing::Not(HasSubstr("per call"))));
}

TEST(ProgramAdvice, TheWeakerWayIsNeverTheFastestInTheResultsFindings)
{
    // sync-at-close runs 3x the program's rate, but keeps fewer durability points: the results' "fastest"
    // sentence names a way that keeps them (here the program's own calls, the only other case).
    RunResult result;
    result.cases = {wayCase("recorded", {100, 98, 102, 99, 101}),
                    wayCase("sync-at-close", {300, 310, 290, 305, 295})};
    for (std::uint32_t i = 0; i < result.cases.size(); ++i) {
        result.cases[i].index = i;
        result.cases[i].testCase.chunkBytes = 4096;
    }
    std::vector<std::string> fastest;
    for (const Finding& f : findings(result, nullptr))
        if (f.kind == Finding::Kind::Fastest)
            fastest.push_back(f.text);
    ASSERT_EQ(fastest.size(), 1u);
    EXPECT_THAT(fastest.front(), HasSubstr("case 1"));
    EXPECT_THAT(fastest.front(), ::testing::Not(HasSubstr("sync-at-close")));
}

TEST(ProgramAdvice, WhenNoWayCouldBeMeasuredTheAnswerSaysSoAndNamesNone)
{
    RunResult result;
    result.cases = {wayCase("recorded", {100, 98, 102, 99, 101}), wayCase("syncfs-batch", {})};
    result.cases[1].status = Status::Failed;
    result.cases[1].reason = "syncfs failed: Input/output error (EIO)";
    const std::string text = adviceText(result);
    EXPECT_THAT(text, HasSubstr("No other way that keeps your program's durability could be measured here (1 "
                                "failed or not run, below)"));
    EXPECT_THAT(text, HasSubstr("syncfs-batch: failed (syncfs failed: Input/output error (EIO))"));
    EXPECT_THAT(text, ::testing::Not(HasSubstr("The change:")));
}

TEST(ProgramAdvice, AWayThatOnlyLeavesLessToFlushAtTheEndIsNotNamed)
{
    // Coalescing 1.5x by the durable rate, but no faster to run: the program would gain nothing.
    RunResult result;
    result.cases = {wayCase("recorded", {100, 98, 102, 99, 101}),
                    wayCase("coalesce", {150, 148, 152, 149, 151}, {100, 98, 102, 99, 101})};
    const std::string text = adviceText(result);
    EXPECT_THAT(text,
                HasSubstr("The one way IOLab measured that keeps your program's durability is not faster"));
    EXPECT_THAT(text, ::testing::Not(HasSubstr("The change:")));
    EXPECT_THAT(text, HasSubstr("  - coalesce: 1.0 s to run, 1.00x your program's speed; 150 MB/s durable: "
                                "1.50x by the durable rate only: no faster to run beyond the noise."));
}
