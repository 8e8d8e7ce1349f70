// SPDX-License-Identifier: MIT
// Issue 17: a case bounded by time as well as by size (--duration, fio's runtime=) ends at its time limit as
// it would at its size: the job syncs and closes, the run counts what was written by then, and that much is
// verified, on real files.
#include "core/base/units.h"
#include "tests/support/capabilities.h"
#include "tests/support/real_runs.h"

#include <gtest/gtest.h>

#include <chrono>
#include <stop_token>
#include <string_view>
#include <thread>

using namespace iolab;
using namespace iolab::test;

namespace {

class TimeLimit : public RealRuns
{
protected:
    TimeLimit() { m_options.verifyFiles = true; }

    // One case of `strategy` with O_DSYNC 4 KiB writes: each waits for the device, so that the limit comes
    // long before the size.
    CaseResult runOne(const std::string& strategy, std::uint64_t size, Preallocate preallocate,
                      std::uint64_t limitMs)
    {
        MatrixGroup g;
        g.strategies = {strategy};
        g.chunks = {4 * kKiB};
        g.sizes = {size};
        g.syncs = {SyncPolicy{SyncMode::ODsync, 0}};
        g.preallocations = {preallocate};
        g.timeLimitsMs = {limitMs};
        return RealRuns::runOne(g);
    }
};

} // namespace

TEST_F(TimeLimit, AGrowingFileEndsAtTheLimitSyncedAndVerifiedWhole)
{
    if (folderLivesInMemory(m_target))
        GTEST_SKIP() << "the temp folder is in memory: an O_DSYNC write does not wait for a device";
    const auto c = runOne("write", 1 * kGiB, Preallocate::None, 300);
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    ASSERT_EQ(c.repetitions.size(), 1u);
    const auto& rep = c.repetitions[0];
    EXPECT_TRUE(rep.timeLimitReached);
    EXPECT_GT(rep.bytes, 0u);
    EXPECT_LT(rep.bytes, 1 * kGiB);
    EXPECT_EQ(rep.bytes % (4 * kKiB), 0u) << "whole writes, no tail";
    EXPECT_GE(rep.returnSeconds, 0.3);
    // It ends at the limit, not at 1 GiB (minutes of O_DSYNC writes): the loop polls the limit once per
    // batch, a batch is at most 16 writes of 4 KiB, and it shrinks once it takes over 20 ms. So past the
    // limit come at most the rest of one batch, 16 writes at the slowest this repetition saw, plus 0.1 s for
    // the scheduler of a loaded 2-CPU machine. A fixed bound does not hold there: one O_DSYNC write stalled
    // for over a second with five builds and their tests on the same disk (2.0 s against a 1.5 s bound).
    ASSERT_TRUE(rep.callLatency.has_value()) << "O_DSYNC writes are system calls: latency auto times them";
    const double slowestWrite = static_cast<double>(rep.callLatency->maxNs) * 1e-9;
    EXPECT_LT(rep.returnSeconds, 0.3 + 16 * slowestWrite + 0.1)
        << "the slowest write took " << slowestWrite << " s; a loop polls the limit once per batch";
    EXPECT_TRUE(rep.verified) << "the file holds exactly the bytes written by the limit: " << rep.bytes
                              << " bytes, " << rep.outcome.message;
    EXPECT_GT(c.apparentMBps.median, 0.0);
}

TEST_F(TimeLimit, AnOverwrittenFileIsVerifiedUpToWhatWasWrittenByTheLimit)
{
    if (folderLivesInMemory(m_target))
        GTEST_SKIP() << "the temp folder is in memory: an O_DSYNC write does not wait for a device";
    // pg_test_fsync's shape: a file written beforehand, overwritten in place until the time is up.
    const auto c = runOne("write", 64 * kMiB, Preallocate::Overwrite, 200);
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    const auto& rep = c.repetitions.at(0);
    if (!rep.timeLimitReached)
        GTEST_SKIP() << "64 MiB of O_DSYNC 4 KiB writes took under 200 ms here: nothing was cut short";
    EXPECT_LT(rep.bytes, 64 * kMiB);
    EXPECT_TRUE(rep.verified) << "the file is longer than what was written; its written part is checked";
}

TEST_F(TimeLimit, ARewriteOfOneBlockNeedsOneBlockOfSpaceAndIsVerified)
{
    // pg_test_fsync's shape: the first block rewritten until the time is up. A terabyte bounded by 200 ms
    // needs one chunk of free space, not a terabyte; the file is that chunk, holding the last write.
    for (const char* strategy : {"write", "direct"}) {
        if (std::string_view(strategy) == "direct" && mayLackDirectIo(m_target))
            continue; // O_DIRECT (NO_BUFFERING) is tested where the filesystem takes it
        const auto c = runOne(strategy, 1024 * kGiB, Preallocate::Rewrite, 200);
        ASSERT_EQ(c.status, Status::Ok) << strategy << ": " << c.reason;
        const auto& rep = c.repetitions.at(0);
        EXPECT_TRUE(rep.timeLimitReached) << strategy;
        EXPECT_GT(rep.bytes, 4 * kKiB) << strategy << ": many writes of the one block";
        EXPECT_EQ(rep.bytes % (4 * kKiB), 0u) << strategy;
        EXPECT_TRUE(rep.verified) << strategy << ": " << rep.outcome.message;
        EXPECT_GT(c.apparentMBps.median, 0.0) << strategy;
    }
}

TEST_F(TimeLimit, ARandomWriterCutShortIsNotCalledVerified)
{
    if (folderLivesInMemory(m_target))
        GTEST_SKIP() << "the temp folder is in memory: an O_DSYNC write does not wait for a device";
    const auto c = runOne("write-random", 1 * kGiB, Preallocate::None, 200);
    ASSERT_EQ(c.status, Status::Ok) << c.reason << " (" << c.repetitions.at(0).bytes
                                    << " bytes, limit reached " << c.repetitions.at(0).timeLimitReached
                                    << ")";
    const auto& rep = c.repetitions.at(0);
    EXPECT_TRUE(rep.timeLimitReached) << rep.bytes << " bytes";
    EXPECT_FALSE(rep.verified) << "the chunks it did not reach are holes among those it wrote";
}

TEST_F(TimeLimit, ACancelDuringATimeLimitedCaseIsStillACancel)
{
    MatrixGroup g;
    g.strategies = {"write"};
    g.chunks = {4 * kKiB};
    g.sizes = {1 * kGiB};
    g.syncs = {SyncPolicy{SyncMode::ODsync, 0}};
    g.timeLimitsMs = {60'000};
    std::stop_source stop;
    std::jthread canceller([&stop] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        stop.request_stop();
    });
    const auto result = run(g, stop.get_token());
    EXPECT_TRUE(result.cancelled);
    ASSERT_EQ(result.cases.size(), 1u);
    EXPECT_EQ(result.cases[0].status, Status::Cancelled);
}
