// SPDX-License-Identifier: MIT
// Issue 17: power-loss exposure computed on real runs in a temp folder: the bytes acknowledged but not yet
// durable at their peak and the longest wait, per sync policy (core/engine/exposure.h).
#include "core/base/units.h"
#include "tests/support/capabilities.h"
#include "tests/support/real_runs.h"

#include <gtest/gtest.h>

#include <string>

using namespace iolab;
using namespace iolab::test;

namespace {

class ExposureRuns : public RealRuns
{
protected:
    CaseResult runOne(const std::string& strategy, SyncPolicy sync, std::uint64_t size = kMiB,
                      std::uint32_t threads = 1)
    {
        MatrixGroup g;
        g.strategies = {strategy};
        g.chunks = {4 * kKiB};
        g.sizes = {size};
        g.syncs = {sync};
        g.threads = {threads};
        return RealRuns::runOne(g);
    }

    // The one measured repetition's exposure, with the case's own being the same.
    static iolab::Exposure exposureOf(const CaseResult& c)
    {
        EXPECT_EQ(c.status, Status::Ok) << c.reason;
        EXPECT_EQ(c.repetitions.size(), 1u);
        if (c.repetitions.empty() || !c.repetitions[0].atRisk || !c.atRisk) {
            ADD_FAILURE() << "no exposure";
            return {};
        }
        EXPECT_EQ(*c.atRisk, *c.repetitions[0].atRisk);
        return *c.atRisk;
    }
};

} // namespace

TEST_F(ExposureRuns, WithoutASyncEverythingWaitsForTheRunsFsync)
{
    const auto c = runOne("write", {});
    const auto e = exposureOf(c);
    EXPECT_EQ(e.maxBytes, kMiB);
    EXPECT_EQ(e.basis, ExposureBasis::Exact);
    ASSERT_TRUE(e.maxSeconds);
    const auto& rep = c.repetitions[0];
    EXPECT_GT(*e.maxSeconds, 0.0);
    EXPECT_LE(*e.maxSeconds, rep.durableSeconds + 1e-3) << "from the thread's start to the run's fsync";
    EXPECT_GE(*e.maxSeconds, rep.durableSeconds * 0.5);
    EXPECT_NE(e.method.find("no sync"), std::string::npos) << e.method;
}

TEST_F(ExposureRuns, ASyncEveryNWritesBoundsItToNChunksPerThread)
{
    const auto one = exposureOf(runOne("write", {SyncMode::FsyncEvery, 8})); // Windows has no fdatasync
    EXPECT_EQ(one.maxBytes, 32 * kKiB);
    EXPECT_EQ(one.basis, ExposureBasis::Exact);
    ASSERT_TRUE(one.maxSeconds);
    EXPECT_GT(*one.maxSeconds, 0.0);

    const auto c = runOne("write", {SyncMode::FsyncEvery, 4}, kMiB, 2);
    const auto two = exposureOf(c);
    EXPECT_EQ(two.maxBytes, 2 * 16 * kKiB);
    EXPECT_EQ(two.basis, ExposureBasis::AtMost) << "two threads' peaks summed";
    ASSERT_TRUE(two.maxSeconds);
    EXPECT_LT(*two.maxSeconds, c.repetitions[0].durableSeconds)
        << "a sync every 4 writes, not only at the end";
}

TEST_F(ExposureRuns, ASyncAtTheEndCoversEachThreadUntilItsJobReturns)
{
    const auto c = runOne("write", {SyncMode::FsyncEnd, 0});
    const auto e = exposureOf(c);
    EXPECT_EQ(e.maxBytes, kMiB);
    ASSERT_TRUE(e.maxSeconds);
    EXPECT_GT(*e.maxSeconds, 0.0);
    EXPECT_LE(*e.maxSeconds, c.repetitions[0].returnSeconds + 1e-3) << "its own fsync, inside the timed part";
}

TEST_F(ExposureRuns, DurableWritesHaveNothingAtRisk)
{
    const auto e = exposureOf(runOne("write", {SyncMode::ODsync, 0}, 256 * kKiB));
    EXPECT_EQ(e.maxBytes, 0u);
    EXPECT_EQ(e.maxSeconds, 0.0);
    EXPECT_EQ(e.basis, ExposureBasis::Exact);
}

#ifndef _WIN32
TEST_F(ExposureRuns, SyncFileRangeMakesNothingDurableUntilTheRunsFsync)
{
    const auto c = runOne("sync-file-range", {}, 256 * kKiB);
    const auto e = exposureOf(c);
    EXPECT_EQ(e.maxBytes, 256 * kKiB) << "its calls flush nothing: all of it waits";
    ASSERT_TRUE(e.maxSeconds);
    EXPECT_GE(*e.maxSeconds, c.repetitions[0].returnSeconds);
    EXPECT_NE(e.method.find("not durable"), std::string::npos) << e.method;
}

TEST_F(ExposureRuns, AnIoUringWriteLinkedToItsSyncHasNothingAtRisk)
{
    const auto c = runOne("uring-linked-sync", {SyncMode::FdatasyncEvery, 1}, 128 * kKiB);
    if ((c.status == Status::Unsupported || c.status == Status::Refused) && mayLackUring(c.reason))
        GTEST_SKIP() << c.reason;
    EXPECT_EQ(exposureOf(c).maxBytes, 0u);
}
#endif

TEST_F(ExposureRuns, SamplesCarryTheBytesAtRisk)
{
    m_options.sampling = true;
    m_options.sampleIntervalMs = 5;
    const auto none = runOne("write", {}, 64 * kMiB);
    ASSERT_EQ(none.status, Status::Ok) << none.reason;
    for (const Sample& s : none.samples) {
        // The at-risk figure reads the counters a moment after bytesDone did.
        EXPECT_GE(s.atRiskBytes, s.bytesDone) << "no sync: every counted byte waits, at " << s.runSeconds;
        EXPECT_LE(s.atRiskBytes, 64 * kMiB);
    }
    const auto dsync = runOne("write", {SyncMode::ODsync, 0}, 256 * kKiB);
    for (const Sample& s : dsync.samples)
        EXPECT_EQ(s.atRiskBytes, 0u);
    EXPECT_FALSE(dsync.samples.empty() && none.samples.empty()) << "no sample at all in 5 ms steps";
}
