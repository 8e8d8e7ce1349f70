// SPDX-License-Identifier: MIT
// The io_uring options axis (--uring, issue 39): its spellings, its labels, its refusals, and result files
// from before it, whose uring-* cases read as auto (what those strategies did: register where allowed) and
// every other case as n/a.
#include "core/base/error.h"
#include "core/model/axes.h"
#include "core/model/case_json.h"
#include "core/model/strategy_info.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace iolab;
using ::testing::HasSubstr;

TEST(UringAxis, SpellingsRoundTripInOneOrder)
{
    EXPECT_EQ(toString(parseUringOptions("auto")), "auto");
    EXPECT_EQ(toString(parseUringOptions("plain")), "plain");
    EXPECT_EQ(toString(parseUringOptions("n/a")), "n/a");
    EXPECT_EQ(toString(parseUringOptions("sqpoll+fixedbufs")), "fixedbufs+sqpoll");
    EXPECT_EQ(toString(parseUringOptions("iopoll+registerfiles+sqpoll+fixedbufs")),
              "fixedbufs+registerfiles+sqpoll+iopoll");
    const UringOptions both = parseUringOptions("fixedbufs+registerfiles");
    EXPECT_TRUE(both.fixedBuffers);
    EXPECT_TRUE(both.registeredFiles);
    EXPECT_FALSE(both.sqPoll);
    EXPECT_TRUE(UringOptions::automatic().wantsFixedBuffers());
    EXPECT_FALSE(UringOptions::plain().wantsRegisteredFiles());
    // Only what both had is claimed.
    EXPECT_EQ(toString(UringOptions::common(both, parseUringOptions("registerfiles+sqpoll"))),
              "registerfiles");
    EXPECT_THROW(parseUringOptions("hipri"), InputError);
    EXPECT_THROW(parseUringOptions("fixedbufs+fixedbufs"), InputError);
    EXPECT_THROW(parseUringOptions(""), InputError);
    try {
        parseUringOptions("fixedbuf");
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("unknown io_uring option 'fixedbuf'"));
        EXPECT_THAT(e.what(), HasSubstr("fixedbufs, registerfiles, sqpoll and iopoll"));
    }
}

TEST(UringAxis, LabelsNameAnExplicitValueOnly)
{
    Case c{"uring-write", Direction::Write, 4096, 1 << 20};
    c.queueDepth = 8;
    c.uring = UringOptions::automatic();
    const std::string before = c.label();
    EXPECT_THAT(before, ::testing::Not(HasSubstr("uring=")))
        << "auto, the old behaviour, keeps the old labels (and case keys)";
    c.uring = parseUringOptions("sqpoll");
    EXPECT_THAT(c.label(), HasSubstr("qd=8 uring=sqpoll"));
}

TEST(UringAxis, ResultsFromBeforeTheAxisReadAsAutoForUringCasesOnly)
{
    Case uring{"uring-read-direct", Direction::Read, 4096, 1 << 20};
    uring.queueDepth = 4;
    uring.uring = UringOptions::automatic();
    nlohmann::json j = caseToJson(uring);
    EXPECT_EQ(j.at("uring"), "auto");
    j.erase("uring");
    EXPECT_EQ(caseFromJson(j).uring, UringOptions::automatic());

    const Case plain{"write", Direction::Write, 4096, 1 << 20};
    nlohmann::json k = caseToJson(plain);
    EXPECT_EQ(k.at("uring"), "n/a");
    k.erase("uring");
    EXPECT_FALSE(caseFromJson(k).uring.applies());
    EXPECT_EQ(caseFromJson(k), plain);
}

TEST(UringAxis, RefusalsSayWhy)
{
    const AxisSpec* axis = findAxisByMatrixKey("uringOptions");
    ASSERT_NE(axis, nullptr);
    EXPECT_EQ(axis->cliFlag, "--uring");
    EXPECT_EQ(axis->oldFileValue, "auto");
    StrategyInfo write{.id = "write"};
    StrategyInfo uringBuffered{.id = "uring-read"};
    uringBuffered.takesUringOptions = true;
    StrategyInfo uringDirect = uringBuffered;
    uringDirect.id = "uring-write-direct";
    uringDirect.needsDirectIo = true;
    EXPECT_FALSE(axis->takenBy(write));
    EXPECT_TRUE(axis->takenBy(uringDirect));
    const auto reason = [&](const Case& c, const StrategyInfo& info) {
        std::string out;
        for (const auto& rule : axis->refusals)
            out += rule.reason(c, info, TargetInfo{});
        return out;
    };
    Case c{"write", Direction::Write, 4096, 1 << 20};
    c.uring = parseUringOptions("sqpoll");
    EXPECT_EQ(reason(c, write),
              "io_uring options (sqpoll) are for the uring-* queued strategies; write does not use io_uring");
    c.uring = {};
    EXPECT_EQ(reason(c, write), "");
    c.strategy = "uring-read";
    c.uring = parseUringOptions("iopoll");
    EXPECT_THAT(reason(c, uringBuffered), HasSubstr("goes through the page cache (use uring-read-direct)"));
    c.strategy = "uring-write-direct";
    EXPECT_EQ(reason(c, uringDirect), "");
    c.sync = {SyncMode::FsyncEnd, 0};
    EXPECT_THAT(reason(c, uringDirect), HasSubstr("takes only reads and writes"));
    c.sync = {SyncMode::ODsync, 0};
    EXPECT_EQ(reason(c, uringDirect), "") << "O_DSYNC is an open flag: no fsync goes through the ring";
}
