// SPDX-License-Identifier: MIT
// Power-loss exposure (issue 17): the loops publish the durable position once per completed sync, and the
// case's figures come from its sync policy and those moments (core/engine/exposure.h).
#include "core/base/units.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/exposure.h"
#include "core/engine/strategy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <deque>
#include <string>
#include <thread>
#include <vector>

using namespace iolab;
using namespace std::chrono_literals;
using ::testing::HasSubstr;

TEST(ExposureLoop, PublishesTheDurablePositionAtEachCompletedSyncOnly)
{
    Progress progress;
    std::vector<std::uint64_t> durableAtEachSync; // what was published when each sync began
    std::uint64_t writes = 0;
    const auto end = runChunks(
        10 * 100 + 50, std::uint64_t{100}, 3, progress,
        [&](std::uint64_t, std::uint64_t) {
            ++writes;
            // Nothing is published per write: between syncs the position stays where the last sync left it.
            EXPECT_EQ(progress.durable.load(), (writes - 1) / 3 * 300) << "write " << writes;
            return true;
        },
        [&] {
            durableAtEachSync.push_back(progress.durable.load());
            if (durableAtEachSync.size() == 2)
                std::this_thread::sleep_for(20ms); // the second sync is slow: its writes waited that long
            return true;
        });
    EXPECT_EQ(end, LoopEnd::Completed);
    EXPECT_EQ(durableAtEachSync, (std::vector<std::uint64_t>{0, 300, 600}));
    // After the loop: the 9 writes the three syncs covered; the tenth and the tail await the job's sync.
    EXPECT_EQ(progress.durable.load(), 900u);
    EXPECT_EQ(progress.bytes.load(), 1050u);
    EXPECT_GE(progress.longestWait, 20ms);
}

TEST(ExposureLoop, ALoopWithoutSyncsPublishesNothing)
{
    Progress progress;
    runChunks(
        4096, std::uint64_t{1}, 0, progress, [](std::uint64_t, std::uint64_t) { return true; },
        [] { return true; });
    EXPECT_EQ(progress.bytes.load(), 4096u);
    EXPECT_EQ(progress.durable.load(), 0u);
    EXPECT_EQ(progress.longestWait, TimingClock::duration{});
}

TEST(ExposureLoop, AFailedSyncPublishesNothing)
{
    Progress progress;
    const auto end = runChunks(
        1000, std::uint64_t{100}, 2, progress, [](std::uint64_t, std::uint64_t) { return true; },
        [] { return false; });
    EXPECT_EQ(end, LoopEnd::Failed);
    EXPECT_EQ(progress.durable.load(), 0u);
}

namespace {

// A queue whose sync is a call made with nothing in flight (as Windows' overlapped writer's).
struct DrainedQueue
{
    std::deque<std::uint64_t> pending;
    std::vector<std::uint64_t> durableAtSync;
    Progress* progress = nullptr;

    bool submit(std::uint64_t, std::uint64_t size)
    {
        pending.push_back(size);
        return true;
    }
    Reaped reap(std::uint64_t)
    {
        Reaped out;
        out.requests = pending.size();
        for (const auto size : pending)
            out.bytes += size;
        pending.clear();
        return out;
    }
    bool sync()
    {
        durableAtSync.push_back(progress->durable.load());
        return true;
    }
};

// A queue that puts syncs in line (io_uring's drain): a reap returns the writes before a sync, the sync and
// the writes after it together, so only the first part is durable.
struct QueuedSyncQueue
{
    std::deque<std::uint64_t> pending; // sizes; 0 marks a sync
    bool submit(std::uint64_t, std::uint64_t size)
    {
        pending.push_back(size);
        return true;
    }
    bool submitSync()
    {
        pending.push_back(0);
        return true;
    }
    Reaped reap(std::uint64_t)
    {
        Reaped out;
        for (const auto size : pending) {
            if (size == 0) {
                ++out.syncs;
                out.syncedBytes = out.bytes;
            } else {
                ++out.requests;
                out.bytes += size;
            }
        }
        pending.clear();
        return out;
    }
};

} // namespace

TEST(ExposureLoop, AQueueThatSyncsWhenDrainedPublishesWhatItHadReaped)
{
    Progress progress;
    DrainedQueue queue;
    queue.progress = &progress;
    const auto end = runQueuedChunks(std::uint64_t{1000}, std::uint64_t{100}, 4, 4, progress, queue);
    EXPECT_EQ(end, LoopEnd::Completed);
    EXPECT_EQ(queue.durableAtSync, (std::vector<std::uint64_t>{0, 400}));
    EXPECT_EQ(progress.durable.load(), 800u);
    EXPECT_EQ(progress.bytes.load(), 1000u);
}

TEST(ExposureLoop, AQueuedSyncCoversOnlyTheWritesReapedBeforeIt)
{
    Progress progress;
    QueuedSyncQueue queue;
    // Depth 8, a sync every 3 writes: the first reap holds 3 writes, a sync and 3 more writes, a sync, ...
    const auto end = runQueuedChunks(std::uint64_t{700}, std::uint64_t{100}, 8, 3, progress, queue);
    EXPECT_EQ(end, LoopEnd::Completed);
    EXPECT_EQ(progress.bytes.load(), 700u);
    EXPECT_EQ(progress.durable.load(), 600u) << "the seventh write came after the last queued sync";
}

namespace {

StrategyInfo writer(std::string id)
{
    StrategyInfo info;
    info.id = std::move(id);
    info.targets = {TargetKind::Directory};
    return info;
}

Case fileWrite(const std::string& strategy, SyncPolicy sync, std::uint64_t chunk = 4 * kKiB)
{
    Case c;
    c.strategy = strategy;
    c.direction = Direction::Write;
    c.chunkBytes = chunk;
    c.totalBytes = kMiB;
    c.sync = sync;
    c.threads = 1;
    c.target = TargetKind::Directory;
    return c;
}

} // namespace

TEST(ExposurePlan, FollowsTheSyncPolicyAndWhatTheStrategyDeclares)
{
    const auto none = exposurePlan(fileWrite("write", {}), writer("write"));
    EXPECT_EQ(none.point, DurablePoint::RunEnd);
    const auto every = exposurePlan(fileWrite("write", {SyncMode::FdatasyncEvery, 8}), writer("write"));
    EXPECT_EQ(every.point, DurablePoint::LoopSyncs);
    EXPECT_EQ(every.syncEveryBytes, 32 * kKiB);
    EXPECT_EQ(every.method, "fdatasync every 8 writes: at most 32 KiB per thread");
    const auto everyOne = exposurePlan(fileWrite("write", {SyncMode::FsyncEvery, 1}), writer("write"));
    EXPECT_EQ(everyOne.point, DurablePoint::LoopSyncs) << "the write has returned, its fsync has not";
    EXPECT_EQ(exposurePlan(fileWrite("write", {SyncMode::FsyncEnd, 0}), writer("write")).point,
              DurablePoint::JobEnd);
    EXPECT_EQ(exposurePlan(fileWrite("write", {SyncMode::ODsync, 0}), writer("write")).point,
              DurablePoint::EachWrite);

    auto dsync = writer("pwritev2-dsync");
    dsync.durableEachWrite = true;
    EXPECT_EQ(exposurePlan(fileWrite("pwritev2-dsync", {}), dsync).point, DurablePoint::EachWrite);
    auto linked = writer("uring-linked-sync");
    linked.syncInsideCalls = true;
    EXPECT_EQ(exposurePlan(fileWrite("uring-linked-sync", {SyncMode::FdatasyncEvery, 1}), linked).point,
              DurablePoint::EachWrite);
    EXPECT_EQ(exposurePlan(fileWrite("uring-linked-sync", {SyncMode::FdatasyncEvery, 4}), linked).point,
              DurablePoint::LoopSyncs);
    auto group = writer("group-commit");
    group.countsCommittedWrites = true;
    EXPECT_EQ(exposurePlan(fileWrite("group-commit", {SyncMode::FdatasyncEvery, 1}), group).point,
              DurablePoint::EachWrite);
    auto range = writer("sync-file-range");
    range.notDurable = "no flush";
    const auto rangePlan = exposurePlan(fileWrite("sync-file-range", {}), range);
    EXPECT_EQ(rangePlan.point, DurablePoint::RunEnd) << "its syncs make nothing durable";

    auto stdio = writer("stdio");
    stdio.usesStdioBuffer = true;
    auto buffered = fileWrite("stdio", {SyncMode::OSync, 0});
    buffered.buffer = {BufferMode::Bytes, 64 * kKiB};
    const auto held = exposurePlan(buffered, stdio);
    EXPECT_EQ(held.point, DurablePoint::HeldBack);
    EXPECT_EQ(held.heldBackBytes, 64 * kKiB);
    buffered.buffer = {BufferMode::Default, 0};
    EXPECT_EQ(exposurePlan(buffered, stdio).heldBackBytes, std::nullopt) << "the C library's own size";
    buffered.buffer = {BufferMode::None, 0};
    EXPECT_EQ(exposurePlan(buffered, stdio).point, DurablePoint::EachWrite);
    auto batch = writer("mmap-batch-direct");
    batch.holdsBackBytes = 16 * kKiB;
    EXPECT_EQ(exposurePlan(fileWrite("mmap-batch-direct", {SyncMode::ODsync, 0}), batch).heldBackBytes,
              16 * kKiB);

    // Rewriting one chunk: however many writes wait, the file holds one chunk per thread to lose.
    auto rewrite = fileWrite("write", {});
    rewrite.preallocate = Preallocate::Rewrite;
    const auto rewritePlan = exposurePlan(rewrite, writer("write"));
    EXPECT_EQ(rewritePlan.point, DurablePoint::RunEnd);
    EXPECT_EQ(rewritePlan.fileBytesPerThread, rewrite.chunkBytes);
    EXPECT_THAT(rewritePlan.method, HasSubstr("every write rewrites the file's first"));
    rewrite.sync = {SyncMode::ODsync, 0};
    EXPECT_EQ(exposurePlan(rewrite, writer("write")).fileBytesPerThread, std::nullopt) << "nothing waits";

    auto read = fileWrite("read", {});
    read.direction = Direction::Read;
    EXPECT_EQ(exposurePlan(read, writer("read")).point, DurablePoint::NotApplicable);
    auto pipe = fileWrite("write", {});
    pipe.target = TargetKind::Null;
    EXPECT_EQ(exposurePlan(pipe, writer("write")).point, DurablePoint::NotApplicable);
}

TEST(ExposureFigures, FromTheThreadsCountersAndTheirDurableMoments)
{
    const auto t0 = TimingClock::time_point{} + 1h;
    ThreadExposure a{.bytes = kMiB,
                     .durable = kMiB - 8 * kKiB,
                     .durableAt = t0 + 900ms,
                     .longestWait = 30ms,
                     .ended = t0 + 1s};
    ThreadExposure b{
        .bytes = kMiB, .durable = kMiB, .durableAt = t0 + 950ms, .longestWait = 40ms, .ended = t0 + 960ms};

    ExposurePlan every;
    every.point = DurablePoint::LoopSyncs;
    every.syncEveryBytes = 32 * kKiB;
    const auto one = computeExposure(every, {a}, t0 + 2s);
    EXPECT_EQ(one.maxBytes, 32 * kKiB);
    EXPECT_EQ(one.basis, ExposureBasis::Exact);
    EXPECT_NEAR(*one.maxSeconds, 0.1, 1e-9) << "the last stretch: the last sync to the job's end";
    const auto two = computeExposure(every, {a, b}, t0 + 2s);
    EXPECT_EQ(two.maxBytes, 64 * kKiB);
    EXPECT_EQ(two.basis, ExposureBasis::AtMost) << "the threads' peaks need not coincide";

    ExposurePlan end;
    end.point = DurablePoint::RunEnd;
    ThreadExposure c{.bytes = kMiB, .durableAt = t0, .ended = t0 + 1s};
    ThreadExposure d{.bytes = 2 * kMiB, .durableAt = t0, .ended = t0 + 1500ms};
    const auto run = computeExposure(end, {c, d}, t0 + 3s);
    EXPECT_EQ(run.maxBytes, 3 * kMiB);
    EXPECT_EQ(run.basis, ExposureBasis::Exact) << "all of it waits for the run's fsync together";
    EXPECT_NEAR(*run.maxSeconds, 3.0, 1e-9);

    ExposurePlan rewritten = end;
    rewritten.fileBytesPerThread = 8 * kKiB;
    const auto capped = computeExposure(rewritten, {c, d}, t0 + 3s);
    EXPECT_EQ(capped.maxBytes, 16 * kKiB) << "one rewritten chunk per thread's file";
    EXPECT_NEAR(*capped.maxSeconds, 3.0, 1e-9) << "for as long as the writes waited";
    Progress live[2];
    live[0].bytes = kMiB;
    live[1].bytes = 2 * kMiB;
    EXPECT_EQ(atRiskNow(rewritten, live, 2), 16 * kKiB);

    ExposurePlan job;
    job.point = DurablePoint::JobEnd;
    EXPECT_NEAR(*computeExposure(job, {c, d}, t0 + 3s).maxSeconds, 1.5, 1e-9) << "each until its own sync";

    ExposurePlan each;
    each.point = DurablePoint::EachWrite;
    const auto none = computeExposure(each, {c, d}, t0 + 3s);
    EXPECT_EQ(none.maxBytes, 0u);
    EXPECT_EQ(none.maxSeconds, 0.0);

    ExposurePlan held;
    held.point = DurablePoint::HeldBack;
    const auto unknown = computeExposure(held, {c}, t0 + 3s);
    EXPECT_FALSE(unknown.maxBytes) << "a buffer of unknown size";
    EXPECT_FALSE(unknown.maxSeconds) << "its flushes are not seen";
    held.heldBackBytes = 64 * kKiB;
    const auto bound = computeExposure(held, {c}, t0 + 3s);
    EXPECT_EQ(bound.maxBytes, 64 * kKiB);
    EXPECT_EQ(bound.basis, ExposureBasis::AtMost);
    EXPECT_EQ(formatExposure(bound), "at most 64 KiB for an unknown time");
}

TEST(ExposureFigures, TheCaseTakesTheWorstMeasuredRepetition)
{
    RepetitionResult warm;
    warm.warmup = true;
    warm.atRisk = Exposure{.maxBytes = 10 * kMiB, .maxSeconds = 9.0};
    RepetitionResult r1;
    r1.atRisk = Exposure{.maxBytes = 2 * kMiB, .maxSeconds = 0.5, .basis = ExposureBasis::AtMost};
    RepetitionResult r2;
    r2.atRisk = Exposure{.maxBytes = 1 * kMiB, .maxSeconds = 1.5};
    const auto worst = worstExposure({warm, r1, r2});
    ASSERT_TRUE(worst);
    EXPECT_EQ(worst->maxBytes, 2 * kMiB);
    EXPECT_EQ(worst->maxSeconds, 1.5);
    EXPECT_EQ(worst->basis, ExposureBasis::AtMost);
    EXPECT_EQ(formatExposure(*worst), "at most 2 MiB for 1.5 s");
    EXPECT_FALSE(worstExposure({warm})) << "no measured repetition";
    RepetitionResult read; // no exposure: not a file write
    EXPECT_FALSE(worstExposure({read}));
    EXPECT_EQ(formatExposure(Exposure{.maxBytes = 64 * kMiB, .maxSeconds = 0.0123}), "64 MiB for 12.3 ms");
}
