// SPDX-License-Identifier: MIT
// The CrystalDiskMark grid: which case fills which cell, what stands in where the queued case did not run,
// and the text a support engineer pastes into a ticket.
#include "core/analysis/cdm_grid.h"
#include "core/engine/registry.h"
#include "tests/support/fakes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

class CdmGridTest : public ::testing::Test
{
protected:
    CdmGridTest()
    {
        declare("uring-read-direct", Direction::Read, false, 4096);
        declare("uring-write-direct", Direction::Write, false, 4096);
        declare("uring-random-read-direct", Direction::Read, true, 4096);
        declare("uring-random-write-direct", Direction::Write, true, 4096);
        declare("read-random-direct", Direction::Read, true, 0);
        declare("read", Direction::Read, false, 0, false);
    }

    void declare(const std::string& id, Direction direction, bool random, std::uint32_t depth,
                 bool direct = true)
    {
        auto s = std::make_unique<FakeStrategy>(id, m_behaviour);
        s->mutableInfo().direction = direction;
        s->mutableInfo().randomOffsets = random;
        s->mutableInfo().maxQueueDepth = depth;
        s->mutableInfo().needsDirectIo = direct;
        m_registry.add(std::move(s));
    }

    void add(const std::string& strategy, Direction direction, std::uint64_t chunk, std::uint32_t depth,
             std::uint32_t threads, double mbps, Status status = Status::Ok)
    {
        CaseResult c;
        c.index = static_cast<std::uint32_t>(m_result.cases.size());
        c.testCase = Case{strategy, direction, chunk, 1 << 30, {}, {}, threads, TargetKind::Directory};
        c.testCase.queueDepth = depth;
        c.status = status;
        c.reason = status == Status::Ok ? "" : "io_uring is disabled on this machine";
        if (status == Status::Ok) {
            c.apparentMBps.count = 3;
            c.apparentMBps.median = mbps;
            c.apparentMBps.min = mbps * 0.9;
            c.apparentMBps.max = mbps * 1.1;
            LatencyDistribution d;
            d.summary.count = 100;
            d.summary.p99Ns = 250'000;
            c.callLatency = d;
        }
        m_result.cases.push_back(c);
    }

    FakeBehaviour m_behaviour;
    Registry m_registry;
    RunResult m_result;
};

} // namespace

TEST_F(CdmGridTest, EachCellComesFromItsCase)
{
    add("uring-read-direct", Direction::Read, 1 << 20, 8, 1, 3000);
    add("uring-write-direct", Direction::Write, 1 << 20, 1, 1, 900);
    add("uring-random-read-direct", Direction::Read, 4096, 32, 1, 400);
    add("read", Direction::Read, 4096, 0, 1, 50); // buffered: not a grid case
    const auto grid = cdmGrid(m_result, m_registry);
    ASSERT_TRUE(grid);
    EXPECT_EQ(grid->rows[0].name, "SEQ1M Q8T1");
    EXPECT_EQ(grid->rows[0].cells[0].caseIndex, 0u);
    EXPECT_DOUBLE_EQ(grid->rows[0].cells[0].medianMBps, 3000);
    EXPECT_DOUBLE_EQ(grid->rows[0].cells[0].lowMBps, 2700);
    EXPECT_NEAR(grid->rows[0].cells[0].iops, 3000e6 / (1 << 20), 1e-6);
    EXPECT_EQ(grid->rows[0].cells[0].p99Ns, 250'000u);
    EXPECT_EQ(grid->rows[1].cells[1].caseIndex, 1u) << "SEQ1M Q1T1 write";
    EXPECT_EQ(grid->rows[2].cells[0].caseIndex, 2u) << "RND4K Q32T1 read";
    EXPECT_FALSE(grid->rows[3].cells[0].caseIndex) << "RND4K Q1T1 read did not run";
    EXPECT_EQ(grid->rows[3].cells[0].note, "not in this run");

    const std::string text = cdmGridText(*grid, m_result);
    EXPECT_THAT(text, HasSubstr("SEQ1M Q8T1"));
    EXPECT_THAT(text, HasSubstr("3000 (2700-3300)"));
    EXPECT_THAT(text, HasSubstr("IOPS, p99 250 us"));
    EXPECT_THAT(text, HasSubstr("CrystalDiskMark shows the best of N"));
}

TEST_F(CdmGridTest, ThreadsStandInForAQueueThatDidNotRunAndTheCellSaysSo)
{
    add("uring-random-read-direct", Direction::Read, 4096, 32, 1, 0, Status::Unsupported);
    add("read-random-direct", Direction::Read, 4096, 0, 32, 380);
    const auto grid = cdmGrid(m_result, m_registry);
    ASSERT_TRUE(grid);
    const CdmCell& cell = grid->rows[2].cells[0];
    EXPECT_EQ(cell.caseIndex, 1u);
    EXPECT_THAT(cell.note, HasSubstr("stood in: 32 threads of read-random-direct instead of a queue of 32"));
    EXPECT_THAT(cell.note, HasSubstr("io_uring is disabled"));
}

TEST_F(CdmGridTest, AFailedCaseWithoutAStandInSaysWhy)
{
    add("uring-write-direct", Direction::Write, 1 << 20, 8, 1, 0, Status::Failed);
    const auto grid = cdmGrid(m_result, m_registry);
    ASSERT_TRUE(grid);
    EXPECT_THAT(grid->rows[0].cells[1].note, HasSubstr("not measured: io_uring is disabled"));
    EXPECT_EQ(grid->rows[0].cells[1].repetitions, 0u);
}

TEST_F(CdmGridTest, ARunWithoutGridCasesHasNoGrid)
{
    add("read", Direction::Read, 4096, 0, 1, 50);
    EXPECT_FALSE(cdmGrid(m_result, m_registry));
}

// CrystalDiskMark's cells are pure reads or pure writes at uniform offsets: a 70/30 mix's combined rate or a
// hot spot's must never pass for RND4K Read, while a 100% read share at uniform offsets is a pure read.
TEST_F(CdmGridTest, AMixOrAHotSpotNeverFillsACell)
{
    add("uring-random-read-direct", Direction::Read, 4096, 1, 1, 70.1);
    m_result.cases.back().testCase.readPercent = 70;
    m_result.cases.back().testCase.randomDist = {RandomDistKind::Uniform, 0};
    add("uring-random-read-direct", Direction::Read, 4096, 1, 1, 80.9);
    m_result.cases.back().testCase.readPercent = 100;
    m_result.cases.back().testCase.randomDist = {RandomDistKind::Zipf, 1.2};
    add("uring-random-read-direct", Direction::Read, 4096, 1, 1, 60.2);
    m_result.cases.back().testCase.readPercent = 100;
    m_result.cases.back().testCase.randomDist = {RandomDistKind::Uniform, 0};
    add("uring-random-read-direct", Direction::Read, 4096, 32, 1, 314);
    m_result.cases.back().testCase.readPercent = 70;
    m_result.cases.back().testCase.randomDist = {RandomDistKind::Uniform, 0};
    add("uring-random-read-direct", Direction::Read, 4096, 32, 1, 500);
    m_result.cases.back().testCase.randomDist = {RandomDistKind::Pareto, 0.9};
    const auto grid = cdmGrid(m_result, m_registry);
    ASSERT_TRUE(grid);
    EXPECT_EQ(grid->rows[3].cells[0].caseIndex, 2u);
    EXPECT_DOUBLE_EQ(grid->rows[3].cells[0].medianMBps, 60.2);
    EXPECT_FALSE(grid->rows[2].cells[0].caseIndex);
    EXPECT_EQ(grid->rows[2].cells[0].note, "not in this run");
}
