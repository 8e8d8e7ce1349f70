// SPDX-License-Identifier: MIT
// The sync lab (issue 17): methods named as pg_test_fsync names them, ops/s counted per op as it counts them,
// the verdicts (the fastest durable method, etcd's fdatasync rule) and the pg_test_fsync layout.
#include "core/analysis/findings.h"
#include "core/analysis/sync_lab.h"
#include "core/base/units.h"
#include "core/engine/registry.h"
#include "tests/support/fakes.h"
#include "tests/support/sync_cases.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

class SyncLab : public ::testing::Test
{
protected:
    SyncLab()
    {
        for (const char* id : {"write", "direct"})
            m_registry.add(std::make_unique<FakeStrategy>(id, m_behaviour));
        auto linked = std::make_unique<FakeStrategy>("uring-linked-sync", m_behaviour);
        linked->mutableInfo().syncInsideCalls = true;
        m_registry.add(std::move(linked));
        auto dsync = std::make_unique<FakeStrategy>("pwritev2-dsync", m_behaviour);
        dsync->mutableInfo().durableEachWrite = true;
        m_registry.add(std::move(dsync));
        auto range = std::make_unique<FakeStrategy>("sync-file-range", m_behaviour);
        range->mutableInfo().notDurable = "data only, no flush";
        m_registry.add(std::move(range));
    }

    FakeBehaviour m_behaviour;
    Registry m_registry;
};

} // namespace

TEST(Durability, FromTheSyncPolicyAndWhatTheStrategyDeclares)
{
    const auto of = [](SyncPolicy sync) {
        Case c;
        c.strategy = "write";
        c.sync = sync;
        return durabilityOf(c, nullptr).durability;
    };
    EXPECT_EQ(of({SyncMode::FdatasyncEvery, 1}), Durability::EachWrite);
    EXPECT_EQ(of({SyncMode::FsyncEvery, 1}), Durability::EachWrite);
    EXPECT_EQ(of({SyncMode::ODsync, 0}), Durability::EachWrite);
    EXPECT_EQ(of({SyncMode::OSync, 0}), Durability::EachWrite);
    EXPECT_EQ(of({SyncMode::FsyncEvery, 16}), Durability::EveryNWrites);
    EXPECT_EQ(of({SyncMode::FdatasyncEnd, 0}), Durability::AtEnd);
    EXPECT_EQ(of({}), Durability::AtEnd);

    StrategyInfo range;
    range.notDurable = "no flush";
    Case c;
    c.sync = {SyncMode::ODsync, 0}; // even so: what it calls a sync is not one
    EXPECT_EQ(durabilityOf(c, &range).durability, Durability::Never);
    StrategyInfo dsync;
    dsync.durableEachWrite = true;
    EXPECT_EQ(durabilityOf(Case{}, &dsync).durability, Durability::EachWrite);
}

TEST_F(SyncLab, MethodsAreNamedAsPgTestFsyncNamesThemAndCountedPerOp)
{
    RunResult r;
    r.cases = {
        syncMethodCase(0, "write", {SyncMode::FdatasyncEvery, 1}, 900),
        syncMethodCase(1, "direct", {SyncMode::ODsync, 0}, 1100),
        syncMethodCase(2, "direct", {SyncMode::OSync, 0}, 1000, 1'000'000, Preallocate::Overwrite, 2 * kKiB),
        syncMethodCase(3, "write", {}, 400'000, 1000),
        syncMethodCase(4, "write", {SyncMode::FdatasyncEvery, 1}, 700, 2'000'000, Preallocate::None)};
    const auto rows = syncLabRows(r, &m_registry);
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0].method, "fdatasync");
    EXPECT_EQ(rows[0].durableCallName, "fdatasync");
    EXPECT_NEAR(rows[0].opsPerSecond, 900, 1e-6);
    EXPECT_NEAR(rows[0].usPerOp, 1e6 / 900, 1e-6);
    EXPECT_EQ(rows[1].method, "open_datasync");
    EXPECT_EQ(rows[2].method, " 8 *  2kB open_sync writes");
    EXPECT_EQ(rows[2].opBytes, 16 * kKiB);
    EXPECT_NEAR(rows[2].opsPerSecond, 1000.0 / 8, 1e-6) << "one op is 16 KiB in 8 writes of 2 KiB";
    EXPECT_EQ(rows[3].method, "write");
    EXPECT_EQ(rows[3].shape, WriteShape::Overwrite);
    EXPECT_EQ(rows[4].shape, WriteShape::Append);

    // A write linked to its sync: the call is the durable op; its sync histogram holds only the final sync.
    RunResult linked;
    linked.cases = {syncMethodCase(0, "uring-linked-sync", {SyncMode::FdatasyncEvery, 1}, 900, 2'000'000)};
    linked.cases[0].syncLatency->summary = LatencySummary{.count = 1, .p99Ns = 100'000};
    const auto linkedRows = syncLabRows(linked, &m_registry);
    ASSERT_EQ(linkedRows.size(), 1u);
    EXPECT_EQ(linkedRows[0].method, "io_uring write + linked fdatasync");
    EXPECT_EQ(linkedRows[0].durableCallName, "write + linked sync");
    ASSERT_TRUE(linkedRows[0].durableCall);
    EXPECT_EQ(linkedRows[0].durableCall->p99Ns, 2'000'000u);
}

TEST_F(SyncLab, TheFastestDurableMethodIsNeverOneThatIsNotDurable)
{
    RunResult r;
    r.cases = {syncMethodCase(0, "write", {SyncMode::FdatasyncEvery, 1}, 900),
               syncMethodCase(1, "sync-file-range", {}, 5000), // fastest, but data only, no flush
               syncMethodCase(2, "write", {}, 400'000),        // faster still, and syncs nothing
               syncMethodCase(3, "pwritev2-dsync", {}, 1200)};
    const auto rows = syncLabRows(r, &m_registry);
    const auto v = syncLabVerdicts(rows);
    ASSERT_TRUE(v.fastestDurable);
    EXPECT_EQ(rows[*v.fastestDurable].method, "pwritev2 RWF_DSYNC");
    EXPECT_THAT(v.fastestText, HasSubstr("1200 writes/s"));
    EXPECT_THAT(v.fastestText, HasSubstr("1.33x write + fdatasync's 900 writes/s"));

    const auto distrusted = syncLabVerdicts(rows, {3});
    ASSERT_TRUE(distrusted.fastestDurable);
    EXPECT_EQ(rows[*distrusted.fastestDurable].method, "fdatasync")
        << "a flush too fast to trust is left out";
}

TEST_F(SyncLab, EtcdsRuleIsAP99FdatasyncUnderTenMilliseconds)
{
    for (const auto& [p99Ns, ok] : {std::pair{9'900'000ULL, true}, std::pair{10'100'000ULL, false}}) {
        RunResult r;
        r.cases = {syncMethodCase(0, "write", {SyncMode::FdatasyncEvery, 1}, 900, 100'000),
                   syncMethodCase(1, "write", {SyncMode::FdatasyncEvery, 1}, 800, p99Ns, Preallocate::None)};
        const auto v = syncLabVerdicts(syncLabRows(r, &m_registry));
        ASSERT_TRUE(v.etcdOk);
        EXPECT_EQ(*v.etcdOk, ok) << p99Ns << " ns: the appending row is the one judged (a log appends)";
        EXPECT_THAT(v.etcdText, HasSubstr(ok ? "within" : "above"));
        EXPECT_THAT(v.etcdText, HasSubstr("appending, case 2"));
    }
    RunResult none;
    none.cases = {syncMethodCase(0, "direct", {SyncMode::ODsync, 0}, 1100)};
    EXPECT_FALSE(syncLabVerdicts(syncLabRows(none, &m_registry)).etcdOk) << "no fdatasync row, no verdict";
}

// A flush too fast to trust does not answer etcd's question on its own: a trusted fdatasync row is judged
// first, and where there is none the answer says the figure may not hold.
TEST_F(SyncLab, EtcdsRuleJudgesATrustedFdatasyncFirstAndSaysWhenItCannot)
{
    RunResult r;
    r.cases = {syncMethodCase(0, "write", {SyncMode::FdatasyncEvery, 1}, 900, 100'000),
               syncMethodCase(1, "write", {SyncMode::FdatasyncEvery, 1}, 800, 200'000, Preallocate::None)};
    const auto rows = syncLabRows(r, &m_registry);
    const auto v = syncLabVerdicts(rows, {1});
    EXPECT_THAT(v.etcdText, HasSubstr("overwriting, case 1")) << "the trusted row, though it overwrites";
    EXPECT_THAT(v.etcdText, Not(HasSubstr("too fast")));
    const auto both = syncLabVerdicts(rows, {0, 1});
    EXPECT_THAT(both.etcdText, HasSubstr("appending, case 2"));
    EXPECT_THAT(both.etcdText, HasSubstr("returned too fast for the device to have stored the data"));
}

// Without 8 KiB ops, the fastest durable method is chosen among ops of one size, the one most methods share,
// and the answer names it: a 4 KiB fdatasync is no rival of a 1 MiB one.
TEST_F(SyncLab, TheFastestDurableMethodIsChosenAmongOpsOfOneSize)
{
    RunResult r;
    r.cases = {
        syncMethodCase(0, "write", {SyncMode::FdatasyncEvery, 1}, 3000, 300'000, Preallocate::None, 4 * kKiB),
        syncMethodCase(1, "direct", {SyncMode::ODsync, 0}, 2500, 400'000, Preallocate::None, 4 * kKiB),
        syncMethodCase(2, "write", {SyncMode::FdatasyncEvery, 1}, 200, 6'000'000, Preallocate::None, kMiB)};
    const auto rows = syncLabRows(r, &m_registry);
    const auto v = syncLabVerdicts(rows);
    ASSERT_TRUE(v.fastestDurable);
    EXPECT_EQ(rows[*v.fastestDurable].caseIndex, 0u);
    EXPECT_THAT(v.fastestText,
                HasSubstr("The fastest way to make each 4 KiB write durable here is fdatasync"));
    // Were the 1 MiB case faster in ops, it is still not the answer for 4 KiB writes.
    r.cases[2] =
        syncMethodCase(2, "write", {SyncMode::FdatasyncEvery, 1}, 9000, 6'000'000, Preallocate::None, kMiB);
    const auto again = syncLabRows(r, &m_registry);
    EXPECT_EQ(again[*syncLabVerdicts(again).fastestDurable].caseIndex, 0u);
}

TEST_F(SyncLab, ThePgLayoutHasItsSectionsColumnsAndVerdicts)
{
    RunResult r;
    r.cases = {
        syncMethodCase(0, "direct", {SyncMode::ODsync, 0}, 1100),
        syncMethodCase(1, "write", {SyncMode::FdatasyncEvery, 1}, 900),
        syncMethodCase(2, "write", {SyncMode::FsyncEvery, 1}, 800),
        syncMethodCase(3, "direct", {SyncMode::OSync, 0}, 700),
        syncMethodCase(4, "direct", {SyncMode::OSync, 0}, 1000, 1'000'000, Preallocate::Overwrite, 16 * kKiB),
        syncMethodCase(5, "write", {}, 400'000, 1000),
        syncMethodCase(6, "pwritev2-dsync", {}, 1200),
        syncMethodCase(7, "write", {SyncMode::FdatasyncEvery, 1}, 600, 2'000'000, Preallocate::None)};
    r.cases[3].status = Status::Ok;
    const std::string text = formatPgTestFsync(r, &m_registry);
    EXPECT_THAT(text, HasSubstr("5.0 s per test"));
    EXPECT_THAT(text, HasSubstr("Compare file sync methods using one 8kB write:"));
    EXPECT_THAT(
        text, HasSubstr("        open_datasync                          1100.000 ops/sec     909 usecs/op"));
    EXPECT_THAT(text, HasSubstr("        fsync_writethrough                          n/a\n"));
    EXPECT_THAT(text, HasSubstr("Compare open_sync with different write sizes:"));
    EXPECT_THAT(text, HasSubstr(" 1 * 16kB open_sync write "));
    EXPECT_THAT(text, HasSubstr(" 2 *  8kB open_sync writes              350.000 ops/sec    2857 usecs/op"))
        << "its 8 kB open_sync, counted as pg_test_fsync counts it: 16 kB in two writes per op";
    EXPECT_THAT(text, HasSubstr("Non-sync'ed 8kB writes:"));
    EXPECT_THAT(text, HasSubstr("IOLab: methods pg_test_fsync does not have"));
    EXPECT_THAT(text, HasSubstr("pwritev2 RWF_DSYNC"));
    EXPECT_THAT(text, HasSubstr("IOLab: appending to a growing file"));
    EXPECT_THAT(text, HasSubstr("p99 us"));
    EXPECT_THAT(text,
                HasSubstr("The fastest way to make each 8 KiB write durable here is pwritev2 RWF_DSYNC"));
    EXPECT_THAT(text, HasSubstr("etcd's rule"));
    // pg_test_fsync's order: open_datasync, fdatasync, fsync, fsync_writethrough, open_sync.
    const auto at = [&](const char* s) {
        return text.find(s);
    };
    EXPECT_LT(at("open_datasync "), at("        fdatasync "));
    EXPECT_LT(at("        fdatasync "), at("        fsync "));
    EXPECT_LT(at("        fsync "), at("fsync_writethrough"));
    EXPECT_LT(at("fsync_writethrough"), at("        open_sync "));
    EXPECT_THAT(text, Not(HasSubstr("other cases of the run")));
}

// pg_test_fsync rewrites the first block of its file on every op. Where the run has rows of that shape, they
// fill its sections; the same methods overwriting a pre-written file front to back come under IOLab's own
// heading, and each verdict names the shape it judges.
TEST_F(SyncLab, ThePgSectionsHoldTheRowsThatRewriteOneBlockAsPgTestFsyncDoes)
{
    RunResult r;
    r.cases = {
        syncMethodCase(0, "write", {SyncMode::FdatasyncEvery, 1}, 900, 1'000'000, Preallocate::Rewrite),
        syncMethodCase(1, "write", {SyncMode::FdatasyncEvery, 1}, 700, 1'000'000, Preallocate::Overwrite),
        syncMethodCase(2, "direct", {SyncMode::ODsync, 0}, 1500, 1'000'000, Preallocate::Rewrite),
        syncMethodCase(3, "direct", {SyncMode::ODsync, 0}, 1300, 1'000'000, Preallocate::Overwrite),
        syncMethodCase(4, "direct", {SyncMode::OSync, 0}, 2000, 1'000'000, Preallocate::Rewrite, 4 * kKiB),
        syncMethodCase(5, "direct", {SyncMode::OSync, 0}, 1800, 1'000'000, Preallocate::Overwrite, 4 * kKiB),
        syncMethodCase(6, "pwritev2-dsync", {}, 1000, 1'000'000, Preallocate::Rewrite)};
    const auto rows = syncLabRows(r, &m_registry);
    ASSERT_EQ(rows.size(), 7u);
    EXPECT_EQ(rows[0].shape, WriteShape::Rewrite);
    EXPECT_EQ(rows[1].shape, WriteShape::Overwrite);

    const std::string text = formatPgTestFsync(r, &m_registry);
    const auto pgSection = text.find("Compare file sync methods using one 8kB write:");
    const auto sizes = text.find("Compare open_sync with different write sizes:");
    const auto own =
        text.find("IOLab: methods pg_test_fsync does not have, 8kB writes rewriting one block in "
                  "place:");
    const auto walk = text.find("IOLab: overwriting a pre-written file front to back");
    ASSERT_NE(pgSection, std::string::npos) << text;
    ASSERT_NE(sizes, std::string::npos) << text;
    ASSERT_NE(own, std::string::npos) << text;
    ASSERT_NE(walk, std::string::npos) << text;
    const auto line = [&](const char* method, double ops) {
        return text.find(fmt::format("        {:<34}{:>13.3f} ops/sec", method, ops));
    };
    EXPECT_GT(line("open_datasync", 1500), pgSection);
    EXPECT_LT(line("open_datasync", 1500), sizes) << "the rewriting open_datasync is pg_test_fsync's";
    EXPECT_GT(line("fdatasync", 900), pgSection);
    EXPECT_LT(line("fdatasync", 900), sizes);
    EXPECT_GT(line(" 4 *  4kB open_sync writes", 500), sizes) << "2000 writes of 4 KiB a second: 500 ops";
    EXPECT_LT(line(" 4 *  4kB open_sync writes", 500), own);
    EXPECT_GT(line("pwritev2 RWF_DSYNC", 1000), own);
    EXPECT_LT(line("pwritev2 RWF_DSYNC", 1000), walk);
    EXPECT_GT(line("fdatasync", 700), walk) << "the overwriting fdatasync is IOLab's";
    EXPECT_GT(line("open_datasync", 1300), walk);
    EXPECT_GT(line(" 4 *  4kB open_sync writes", 450), walk);
    EXPECT_THAT(text, HasSubstr("is open_datasync (rewriting one block, case 3): 1500 writes/s"));
    EXPECT_THAT(text, HasSubstr("1.67x write + fdatasync's 900 writes/s"))
        << "against fdatasync of the same shape, not the overwriting one";
    EXPECT_THAT(text, HasSubstr("(overwriting, case 2)")) << "etcd's rule: the closer shape to a log first";
}

TEST_F(SyncLab, APgReportLeavesOutAMethodWhoseFlushesReturnedTooFastForItsDisk)
{
    RunResult r;
    r.target.device = "sda";
    r.target.deviceModel = "ST4000DM004";
    r.target.rotational = true; // a spinning disk, not a virtual one
    r.target.writeCache = "write back";
    // fdatasync in 0.5 ms on a 7200 rpm disk: a cache said yes. open_datasync at 5 ms is believable.
    r.cases = {syncMethodCase(0, "write", {SyncMode::FdatasyncEvery, 1}, 1900, 1'000'000),
               syncMethodCase(1, "direct", {SyncMode::ODsync, 0}, 190, 10'000'000)};
    r.cases[0].syncLatency->summary.count = 1000;
    EXPECT_EQ(flushDistrustedCases(r, &m_registry), std::vector<std::uint32_t>{0});
    const std::string text = formatPgTestFsync(r, &m_registry);
    EXPECT_THAT(text, HasSubstr("The fastest way to make each 8 KiB write durable here is open_datasync"));
    EXPECT_THAT(text, HasSubstr("flushes returned too fast to be trusted are left out"));
}
