// SPDX-License-Identifier: MIT
// Until steady (issue 39, part 1): the detector that ends a write once its rate is flat, the sustained
// figures read off a write's samples (the drop, the cache's size, the rates), the answer, and the share of
// free space a write is sized to when the run is planned.
#include "core/analysis/sustained.h"
#include "core/analysis/system_checks.h"
#include "core/analysis/verdict.h"
#include "core/base/error.h"
#include "core/base/units.h"
#include "core/engine/run_plan.h"
#include "core/engine/steady.h"
#include "core/formats/csv.h"
#include "core/formats/result_csv.h"
#include "core/formats/result_json.h"
#include "core/model/axes.h"
#include "tests/support/fakes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace iolab {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr double kTick = 0.1; // the sampler's and the watch's 10 Hz

// A writer to files, O_DIRECT's twin and a pipe writer, as the built-in strategies declare them.
const Registry& registry()
{
    static FakeBehaviour behaviour;
    static const Registry r = [] {
        Registry out;
        out.add(std::make_unique<FakeStrategy>("write", behaviour));
        auto direct = std::make_unique<FakeStrategy>("direct", behaviour);
        direct->mutableInfo().needsDirectIo = true;
        out.add(std::move(direct));
        out.add(std::make_unique<FakeStrategy>("pipe-write", behaviour, std::vector{TargetKind::Pipe}));
        return out;
    }();
    return r;
}

// Feeds the detector a rate given per second of the write, every tick, until it says steady or `seconds`
// pass; the time it said so, or -1.
double feed(SteadyDetector& d, const std::function<double(double)>& mbpsAt, double seconds)
{
    double bytes = 0;
    for (double t = kTick; t <= seconds + 1e-9; t += kTick) {
        bytes += mbpsAt(t) * 1e6 * kTick;
        if (d.add(t, static_cast<std::uint64_t>(bytes)))
            return t;
    }
    return -1;
}

TEST(SteadyRule, SpellingsReadBackAndBadOnesAreRefused)
{
    EXPECT_EQ(parseSteadyRule("off"), SteadyRule{});
    EXPECT_EQ(parseSteadyRule("on"), (SteadyRule{SteadyMode::Settle, kDefaultSteadyWindowMs}));
    EXPECT_EQ(parseSteadyRule("5s"), (SteadyRule{SteadyMode::Settle, 5000}));
    EXPECT_EQ(parseSteadyRule("past-cache"), (SteadyRule{SteadyMode::PastCache, kDefaultSteadyWindowMs}));
    EXPECT_EQ(parseSteadyRule("past-cache:30s"), (SteadyRule{SteadyMode::PastCache, 30000}));
    for (const char* text : {"off", "5s", "past-cache:10s", "1500ms"})
        EXPECT_EQ(toString(parseSteadyRule(text)), text);
    for (const char* bad : {"yes", "past-cache5s", "past-cache:", "100ms", "20m", ""})
        EXPECT_THROW((void)parseSteadyRule(bad), InputError) << bad;
}

TEST(SteadyDetector, AFlatRateIsSteadyOneWindowAfterTheRamp)
{
    SteadyDetector d({SteadyMode::Settle, 2000}, false);
    const double at = feed(
        d, [](double) { return 100.0; }, 10);
    ASSERT_GT(at, 0);
    EXPECT_NEAR(at, 0.5 + 2.0, 0.15); // a ramp of a quarter window, then one window
    ASSERT_TRUE(d.state());
    EXPECT_NEAR(d.state()->mbps, 100.0, 0.5);
    EXPECT_NEAR(d.state()->fromSeconds, at - 2.0, 1e-9);
    EXPECT_NEAR(static_cast<double>(d.state()->fromBytes), d.state()->fromSeconds * 100e6, 1e6);
}

TEST(SteadyDetector, ARisingRateOrAWideSpreadIsNotSteady)
{
    SteadyDetector rising({SteadyMode::Settle, 2000}, false);
    EXPECT_LT(feed(
                  rising, [](double t) { return 50.0 + 20.0 * t; }, 10),
              0); // +40% over a window
    // Every other bin at half the rate: the mean is flat, the spread is not.
    SteadyDetector sawtooth({SteadyMode::Settle, 2000}, false);
    EXPECT_LT(feed(
                  sawtooth, [](double t) { return std::fmod(t, 1.0) < 0.5 ? 100.0 : 40.0; }, 10),
              0);
    SteadyDetector off({}, false);
    EXPECT_LT(feed(
                  off, [](double) { return 100.0; }, 10),
              0);
}

TEST(SteadyDetector, OneStalledBinDoesNotHideAFlatRate)
{
    SteadyDetector d({SteadyMode::Settle, 2000}, false);
    // A stall of one tick in every window: fio's band test would never pass; the median spread does.
    const double at = feed(
        d, [](double t) { return std::fmod(t, 2.0) < 0.1 ? 10.0 : 100.0; }, 10);
    EXPECT_GT(at, 0);
}

TEST(SteadyDetector, PastCacheWaitsForTheRateBehindTheCache)
{
    SteadyDetector settle({SteadyMode::Settle, 2000}, false);
    const auto cache = [](double t) {
        return t < 4.0 ? 200.0 : 50.0;
    };
    EXPECT_LT(feed(settle, cache, 10), 4.0) << "settle ends inside the fast cache: the flaw past-cache fixes";
    SteadyDetector past({SteadyMode::PastCache, 2000}, false);
    const double at = feed(past, cache, 10);
    ASSERT_GT(at, 4.0);
    EXPECT_GE(past.state()->fromSeconds, 4.0 - 0.2) << "within a bin of the drop";
    EXPECT_NEAR(past.state()->mbps, 50.0, 0.5);
    EXPECT_NEAR(past.state()->fastestMBps, 200.0, 0.5);
    // Without a drop it never ends the write: the caps do.
    SteadyDetector flat({SteadyMode::PastCache, 2000}, false);
    EXPECT_LT(feed(
                  flat, [](double) { return 200.0; }, 20),
              0);
}

// A write until steady's case: samples at 10 Hz at the given rate per second, and one measured repetition.
CaseResult steadyCase(const std::function<double(double)>& mbpsAt, double seconds, SteadyRule rule,
                      std::optional<SteadyState> steady)
{
    CaseResult c;
    c.index = 0;
    c.status = Status::Ok;
    c.testCase.strategy = "direct";
    c.testCase.chunkBytes = 1 << 20;
    c.testCase.totalBytes = 64ULL << 30;
    c.testCase.steady = rule;
    double bytes = 0;
    for (double t = kTick; t <= seconds + 1e-9; t += kTick) {
        Sample s;
        s.runSeconds = 5.0 + t;
        s.repetition = 0;
        s.intervalMBps = mbpsAt(t);
        bytes += s.intervalMBps * 1e6 * kTick;
        s.bytesDone = static_cast<std::uint64_t>(bytes);
        c.samples.push_back(s);
    }
    RepetitionResult r;
    r.index = 0;
    r.bytes = static_cast<std::uint64_t>(bytes);
    r.returnSeconds = seconds;
    r.steady = steady;
    c.repetitions.push_back(r);
    return c;
}

TEST(Sustained, TheDropTheCacheAndTheRateBehindIt)
{
    SteadyState steady;
    steady.fromSeconds = 6.0;
    steady.reachedSeconds = 8.0;
    steady.mbps = 30.2;
    const auto c = steadyCase([](double t) { return t < 2.95 ? 120.0 : 30.0; }, 8.0,
                              {SteadyMode::PastCache, 2000}, steady);
    const auto f = sustainedFigures(c);
    ASSERT_TRUE(f);
    ASSERT_TRUE(f->cacheBytes);
    EXPECT_NEAR(static_cast<double>(*f->cacheBytes), 2.9 * 120e6, 1e3); // the samples up to 2.9 s
    EXPECT_NEAR(f->cacheSeconds, 2.9, 1e-6);
    EXPECT_NEAR(f->fastMBps, 120.0, 0.5);
    EXPECT_NEAR(f->afterMBps, 30.2, 1e-9) << "the steady window's rate, where it settled after the drop";
    EXPECT_FALSE(f->endedAtCap);
    const std::string answer = sustainedAnswer(c);
    EXPECT_THAT(answer, HasSubstr("at 120.0 MB/s for the first 331.9 MiB (2.9 s)"));
    EXPECT_THAT(answer, HasSubstr("then at 30.2 MB/s, steady from 6.0 s"));
    EXPECT_THAT(answer, HasSubstr("4.0x slower"));
}

TEST(Sustained, NoDropIsNotInventedFromNoise)
{
    // +-15% noise around 100 MB/s, never a step.
    const auto noisy = [](double t) {
        return 100.0 + 15.0 * std::sin(t * 7.3) * std::cos(t * 2.1);
    };
    const auto c = steadyCase(noisy, 20.0, {SteadyMode::PastCache, 2000}, std::nullopt);
    const auto f = sustainedFigures(c);
    ASSERT_TRUE(f);
    EXPECT_FALSE(f->cacheBytes);
    EXPECT_TRUE(f->endedAtCap);
    // One slow second in the middle is not a cache running full either: the rate came back.
    const auto dip = steadyCase([](double t) { return t > 8 && t < 9 ? 30.0 : 100.0; }, 20.0,
                                {SteadyMode::PastCache, 2000}, std::nullopt);
    EXPECT_FALSE(sustainedFigures(dip)->cacheBytes);
    EXPECT_THAT(sustainedAnswer(dip), Not(HasSubstr("fast cache of")));
}

// The cache-cliff finding of a watched write takes the sustained figures: no drop there, no cliff, even where
// the quarters the finding compares on its own would differ (a slow start, then a flat rate).
TEST(Sustained, NoCacheCliffWhereTheSustainedFiguresSeeNoDrop)
{
    const auto rising = steadyCase([](double t) { return t < 1.5 ? 20.0 : 100.0; }, 20.0,
                                   {SteadyMode::PastCache, 2000}, std::nullopt);
    EXPECT_FALSE(sustainedFigures(rising)->cacheBytes) << "a rise is no drop";
    EXPECT_FALSE(cacheCliffFinding(rising, true));
    const auto flat =
        steadyCase([](double) { return 100.0; }, 20.0, {SteadyMode::PastCache, 2000}, std::nullopt);
    EXPECT_FALSE(cacheCliffFinding(flat, true));
    const auto dropped = steadyCase([](double t) { return t < 8 ? 120.0 : 30.0; }, 20.0,
                                    {SteadyMode::PastCache, 2000}, std::nullopt);
    const auto cliff = cacheCliffFinding(dropped, true);
    ASSERT_TRUE(cliff);
    EXPECT_THAT(cliff->text, HasSubstr(formatBytes(*sustainedFigures(dropped)->cacheBytes)))
        << "the finding and the answer give one size for the cache";
}

TEST(Sustained, AnswersWithoutADrop)
{
    SteadyState steady;
    steady.fromSeconds = 1.0;
    steady.fromBytes = 100'000'000;
    steady.mbps = 100.0;
    const auto settled = steadyCase([](double) { return 100.0; }, 4.0, {SteadyMode::Settle, 2000}, steady);
    EXPECT_THAT(sustainedAnswer(settled), HasSubstr("at a steady 100.0 MB/s from 1.0 s"));
    EXPECT_THAT(sustainedAnswer(settled), HasSubstr("a fast cache may still fill later"));
    const auto flat =
        steadyCase([](double) { return 100.0; }, 20.0, {SteadyMode::PastCache, 2000}, std::nullopt);
    EXPECT_THAT(sustainedAnswer(flat), HasSubstr("no drop within the"));
    EXPECT_THAT(sustainedAnswer(flat), HasSubstr("larger than that, or there is none"));
    const auto wandering = steadyCase([](double t) { return 50.0 + 5.0 * t; }, 20.0,
                                      {SteadyMode::PastCache, 2000}, std::nullopt);
    EXPECT_THAT(sustainedAnswer(wandering), HasSubstr("the rate did not settle"));
    const auto brief =
        steadyCase([](double) { return 100.0; }, 0.6, {SteadyMode::PastCache, 10000}, std::nullopt);
    EXPECT_FALSE(sustainedFigures(brief));
    EXPECT_THAT(sustainedAnswer(brief), HasSubstr("too soon to judge its rate"));
    auto plain = settled;
    plain.testCase.steady = {};
    EXPECT_EQ(sustainedAnswer(plain), "");
}

TEST(Sustained, TheVerdictAsksTheSustainedQuestionAndAnswersItFirst)
{
    SteadyState steady;
    steady.fromSeconds = 6.0;
    steady.mbps = 30.0;
    RunResult run;
    run.cases.push_back(steadyCase([](double t) { return t < 2.95 ? 120.0 : 30.0; }, 8.0,
                                   {SteadyMode::PastCache, 2000}, steady));
    auto& c = run.cases.front();
    c.apparentMBps.median = c.durableMBps.median = 50.0;
    c.apparentMBps.count = c.durableMBps.count = 1;
    const Verdict v = verdict(run, &registry());
    EXPECT_EQ(v.question, "How much can be written at full speed, and how fast after that?");
    ASSERT_FALSE(v.answers.empty());
    EXPECT_THAT(v.answers.front(), HasSubstr("Sustained write"));
    for (const auto& a : v.answers)
        EXPECT_THAT(a, Not(HasSubstr("the only case of its kind")))
            << "a lone write until steady ranks nothing";
}

TEST(Sustained, TheSteadyStateAndTheAxesRoundTripThroughResultFiles)
{
    SteadyState steady{6.0, 720'000'000, 8.0, 30.25, 120.5, true};
    RunResult run;
    run.cases.push_back(steadyCase([](double) { return 100.0; }, 3.0, {SteadyMode::PastCache, 3000}, steady));
    run.cases[0].testCase.freeSharePercent = 25;
    const RunResult back = resultFromJson(resultToJson(run).dump(), "test.json");
    ASSERT_EQ(back.cases.size(), 1U);
    EXPECT_EQ(back.cases[0].repetitions[0].steady, steady);
    EXPECT_EQ(back.cases[0].testCase.steady, run.cases[0].testCase.steady);
    EXPECT_EQ(back.cases[0].testCase.freeSharePercent, 25U);
    const std::string csv = toCsv(repetitionRows(run));
    EXPECT_THAT(csv, HasSubstr("until_steady,free_space_share"));
    EXPECT_THAT(csv, HasSubstr(",past-cache:3s,25%,"));
    EXPECT_THAT(csv, HasSubstr("steady_from_s,steady_from_bytes,steady_MBps,uring_in_effect,read_MBps,"));
    EXPECT_THAT(csv, HasSubstr(",6,720000000,30.25,,"));
}

TEST(FreeShare, AWriteIsSizedAtItsShareOfTheFreeSpaceWhenPlanned)
{
    Matrix m;
    MatrixGroup g;
    g.strategies = {"write"};
    g.chunks = {1 << 20};
    g.sizes = {1ULL << 40};
    g.freeSharesPercent = {25};
    m.groups = {g};
    TargetInfo target;
    target.path = "/somewhere";
    target.freeBytes = 10ULL << 30;
    const auto plan = makeRunPlan(m, registry(), target);
    ASSERT_EQ(plan->cases().size(), 1U);
    EXPECT_EQ(plan->cases()[0].totalBytes, (10ULL << 30) / 4); // a whole number of 1 MiB chunks
    EXPECT_THAT(plan->cases()[0].label(), HasSubstr("of-free=25%"));
    // The size stays a cap.
    m.groups[0].sizes = {1ULL << 30};
    EXPECT_EQ(makeRunPlan(m, registry(), target)->cases()[0].totalBytes, 1ULL << 30);
    // Unknown free space: refused with the reason, never guessed.
    target.freeBytes = 0;
    const auto unknown = makeRunPlan(m, registry(), target);
    EXPECT_TRUE(unknown->cases().empty());
    ASSERT_EQ(unknown->refused().size(), 1U);
    EXPECT_THAT(unknown->refused()[0].reason, HasSubstr("no free space to take 25% of"));
    // Never all of it, and only writes.
    MatrixGroup all = g;
    EXPECT_THROW(findAxisByMatrixKey("freeSpaceShares")->addGroupValue(all, "100%", "--free-share"),
                 InputError);
    EXPECT_THROW(findAxisByMatrixKey("freeSpaceShares")->addGroupValue(all, "51%", "--free-share"),
                 InputError);
}

TEST(SteadyAxis, RefusedWhereNoRateOfWritesToFilesIsWatched)
{
    Matrix m;
    MatrixGroup pipe;
    pipe.strategies = {"pipe-write"};
    pipe.chunks = {65536};
    pipe.sizes = {1 << 20};
    pipe.steadyRules = {parseSteadyRule("on")};
    MatrixGroup memory;
    memory.strategies = {"write"};
    memory.chunks = {65536};
    memory.sizes = {1 << 20};
    memory.memoryLimitsBytes = {1ULL << 30};
    memory.steadyRules = {parseSteadyRule("on")};
    m.groups = {pipe, memory};
    TargetInfo target;
    target.path = "/somewhere";
    target.freeBytes = 10ULL << 30;
    const auto plan = makeRunPlan(m, registry(), target);
    std::string reasons;
    for (const auto& r : plan->refused())
        reasons += r.reason + "\n";
    EXPECT_THAT(reasons, HasSubstr("until steady watches the rate of writes to files"));
    EXPECT_THAT(reasons, HasSubstr("runs in a child process"));
}

} // namespace
} // namespace iolab
