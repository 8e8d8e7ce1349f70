// SPDX-License-Identifier: MIT
// The report's findings: each is made from the figures, carries its numbers, and is not made when the figures
// do not support it.
#include "core/analysis/findings.h"
#include "core/base/stats.h"
#include "core/base/units.h"
#include "core/engine/registry.h"
#include "tests/support/fakes.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

CaseResult okCase(std::uint32_t index, const std::string& strategy, std::uint64_t chunk, double apparent,
                  double durable, double cv = 0.01)
{
    CaseResult c;
    c.index = index;
    c.testCase.strategy = strategy;
    c.testCase.chunkBytes = chunk;
    c.testCase.totalBytes = 256 * kMiB;
    if (strategy == "stdio")
        c.testCase.buffer = {BufferMode::Default, 0};
    c.apparentMBps.count = 3;
    c.apparentMBps.median = apparent;
    c.apparentMBps.cv = cv;
    c.apparentMBps.ciLow = apparent * 0.9;
    c.apparentMBps.ciHigh = apparent * 1.1;
    c.durableMBps.count = 3;
    c.durableMBps.median = durable;
    c.durableMBps.cv = cv;
    c.durableMBps.ciLow = durable * 0.9;
    c.durableMBps.ciHigh = durable * 1.1;
    for (std::uint32_t r = 0; r < 3; ++r) {
        RepetitionResult rep;
        rep.index = r + 1;
        rep.bytes = c.testCase.totalBytes;
        rep.returnSeconds = static_cast<double>(rep.bytes) / (apparent * kBytesPerMB);
        rep.durableSeconds = static_cast<double>(rep.bytes) / (durable * kBytesPerMB);
        rep.deviceObserved = true;
        rep.deviceWrittenBytes = rep.bytes;
        c.repetitions.push_back(rep);
    }
    return c;
}

std::vector<Finding> ofKind(const std::vector<Finding>& all, Finding::Kind kind)
{
    std::vector<Finding> out;
    for (const auto& f : all) {
        if (f.kind == kind)
            out.push_back(f);
    }
    return out;
}

struct FindingsTest : ::testing::Test
{
    FakeBehaviour behaviour;
    Registry registry;
    RunResult run;

    void SetUp() override
    {
        for (const char* id : {"stdio", "write", "direct"}) {
            auto s = std::make_unique<FakeStrategy>(id, behaviour);
            s->mutableInfo().needsDirectIo = std::string(id) == "direct";
            s->mutableInfo().durableEachWrite = std::string(id) == "pwritev2-dsync"; // as it declares itself
            registry.add(std::move(s));
        }
        run.host.ramBytes = 16 * kGiB;
        run.target.fsType = "ext4";
    }
};

} // namespace

TEST_F(FindingsTest, FastestPerChunkWithItsSpeedupOverPlainStdio)
{
    run.cases = {okCase(0, "stdio", 4096, 1000, 990), okCase(1, "write", 4096, 2100, 2000),
                 okCase(2, "write", 65536, 6000, 5900), okCase(3, "direct", 65536, 1500, 1500)};
    const auto fastest = ofKind(findings(run, &registry), Finding::Kind::Fastest);
    ASSERT_EQ(fastest.size(), 2u);
    EXPECT_EQ(fastest[0].caseIndex, 1u);
    EXPECT_THAT(
        fastest[0].text,
        HasSubstr("At 4 KiB per call, the fastest write to a file is case 2 (write 4 KiB) at 2.00 GB/s "
                  "durable (2.10 GB/s apparent), 2.02x plain stdio (990.0 MB/s)"));
    EXPECT_EQ(fastest[1].caseIndex, 2u);
    EXPECT_THAT(fastest[1].text, HasSubstr("3.93x the slowest there, case 4"));
}

// Issue 14: plain write "won" at 3.85 GB/s apparent while it reached the disk at 1.14 GB/s, and vmsplice was
// named the fastest write beside disk writes.
TEST_F(FindingsTest, FileWritesRankByDurableRateAndPipesAreTheirOwnGroup)
{
    CaseResult pipe = okCase(3, "vmsplice", 65536, 9000, 9000);
    pipe.testCase.target = TargetKind::Pipe;
    run.cases = {okCase(0, "stdio", 65536, 1000, 600), okCase(1, "write", 65536, 3850, 1140),
                 okCase(2, "stdio", 65536, 3100, 1900), pipe};
    run.cases[2].testCase.buffer = {BufferMode::Bytes, 1 * kMiB};
    auto fastest = ofKind(findings(run, &registry), Finding::Kind::Fastest);
    ASSERT_EQ(fastest.size(), 2u);
    EXPECT_EQ(fastest[0].caseIndex, 2u) << fastest[0].text;
    EXPECT_THAT(fastest[0].text, HasSubstr("at 1.90 GB/s durable (3.10 GB/s apparent), 3.17x plain stdio"));
    EXPECT_EQ(fastest[1].caseIndex, 3u);
    EXPECT_THAT(fastest[1].text, HasSubstr("the fastest write into a pipe is case 4"));
    EXPECT_THAT(fastest[1].text, HasSubstr("(the only case of its kind at this size)"));

    fastest = ofKind(findings(run, &registry, Ranking::Apparent), Finding::Kind::Fastest);
    ASSERT_EQ(fastest.size(), 2u);
    EXPECT_EQ(fastest[0].caseIndex, 1u);
    EXPECT_THAT(fastest[0].text, HasSubstr("at 3.85 GB/s apparent (1.14 GB/s durable), 3.85x plain stdio"));
}

TEST_F(FindingsTest, DurableGapNamesBothRates)
{
    run.host.ramBytes = 256 * kMiB; // the data does not fit in RAM: a plain durable gap
    run.cases = {okCase(0, "write", 65536, 2100, 310)};
    const auto gaps = ofKind(findings(run, &registry), Finding::Kind::DurableGap);
    ASSERT_EQ(gaps.size(), 1u);
    EXPECT_THAT(gaps[0].text, HasSubstr("returned at 2.10 GB/s but reached the device at 310.0 MB/s"));
    EXPECT_THAT(gaps[0].text, HasSubstr("85% of the time went into the final fsync"));
    run.cases = {okCase(0, "write", 65536, 2100, 1500)};
    EXPECT_TRUE(ofKind(findings(run, &registry), Finding::Kind::DurableGap).empty());
}

TEST_F(FindingsTest, NoiseAboveFivePercent)
{
    run.cases = {okCase(0, "write", 4096, 1000, 1000, 0.12), okCase(1, "write", 65536, 1000, 1000, 0.04)};
    const auto noise = ofKind(findings(run, &registry), Finding::Kind::Noise);
    ASSERT_EQ(noise.size(), 1u);
    EXPECT_EQ(noise[0].caseIndex, 0u);
    EXPECT_THAT(noise[0].text, HasSubstr("vary by 12.0% (CV over 3)"));
}

TEST_F(FindingsTest, NoiseFromFiveRepetitionsIsJudgedWithoutTheLowestAndHighest)
{
    // Five repetitions each; case 0 has one slowed repetition, case 1 a spread through the middle.
    const std::vector<std::vector<double>> rates = {{1000, 1010, 600, 990, 1005},
                                                    {800, 900, 1000, 1100, 1200}};
    run.cases.clear();
    for (std::uint32_t i = 0; i < rates.size(); ++i) {
        CaseResult c = okCase(i, "write", 65536, 1000, 1000);
        c.repetitions.clear();
        for (std::uint32_t r = 0; r < rates[i].size(); ++r) {
            RepetitionResult rep;
            rep.index = r + 1;
            rep.bytes = c.testCase.totalBytes;
            rep.apparentMBps = rates[i][r];
            rep.durableMBps = rates[i][r];
            rep.returnSeconds = static_cast<double>(rep.bytes) / (rates[i][r] * kBytesPerMB);
            rep.durableSeconds = rep.returnSeconds;
            c.repetitions.push_back(rep);
        }
        c.apparentMBps = summarize(rates[i]);
        c.durableMBps = c.apparentMBps;
        run.cases.push_back(c);
    }
    const auto noise = ofKind(findings(run, &registry), Finding::Kind::Noise);
    ASSERT_EQ(noise.size(), 1u)
        << "the single slowed repetition moves neither the median nor the trimmed mean";
    EXPECT_EQ(noise[0].caseIndex, 1u);
    EXPECT_THAT(noise[0].text, HasSubstr("the middle 3 of 5 repetitions vary by 10.0%"));
}

TEST_F(FindingsTest, NoiseIsJudgedOnTheRankedRate)
{
    // A buffered write whose calls returned at rates that swing with the page cache while the durable rate,
    // the one the answer quotes, held steady: not noisy when ranked by durable, noisy when ranked by
    // apparent, and each time the quoted interval is that of the judged rate.
    CaseResult c = okCase(0, "write", 65536, 3000, 1000);
    c.repetitions.clear();
    const std::vector<double> apparent = {2000, 2600, 3000, 3400, 4000};
    const std::vector<double> durable = {980, 995, 1000, 1005, 1020};
    for (std::uint32_t r = 0; r < apparent.size(); ++r) {
        RepetitionResult rep;
        rep.index = r + 1;
        rep.bytes = c.testCase.totalBytes;
        rep.apparentMBps = apparent[r];
        rep.durableMBps = durable[r];
        rep.returnSeconds = static_cast<double>(rep.bytes) / (apparent[r] * kBytesPerMB);
        rep.durableSeconds = static_cast<double>(rep.bytes) / (durable[r] * kBytesPerMB);
        c.repetitions.push_back(rep);
    }
    c.apparentMBps = summarize(apparent);
    c.durableMBps = summarize(durable);
    run.cases = {c};
    EXPECT_TRUE(ofKind(findings(run, &registry), Finding::Kind::Noise).empty());
    const auto noise = ofKind(findings(run, &registry, Ranking::Apparent), Finding::Kind::Noise);
    ASSERT_EQ(noise.size(), 1u);
    EXPECT_THAT(noise[0].text, HasSubstr("the middle 3 of 5 repetitions vary by 13.3%"));
    EXPECT_THAT(noise[0].text,
                HasSubstr(fmt::format("the 95% CI is {}", formatRate(c.apparentMBps.ciLow * kBytesPerMB))));

    // The other way round: steady calls, a final fsync that swings.
    for (std::uint32_t r = 0; r < apparent.size(); ++r)
        std::swap(run.cases[0].repetitions[r].apparentMBps, run.cases[0].repetitions[r].durableMBps);
    std::swap(run.cases[0].apparentMBps, run.cases[0].durableMBps);
    const auto durableNoise = ofKind(findings(run, &registry), Finding::Kind::Noise);
    ASSERT_EQ(durableNoise.size(), 1u);
    EXPECT_THAT(
        durableNoise[0].text,
        HasSubstr(fmt::format("the 95% CI is {}", formatRate(run.cases[0].durableMBps.ciLow * kBytesPerMB))));
    EXPECT_TRUE(ofKind(findings(run, &registry, Ranking::Apparent), Finding::Kind::Noise).empty());
}

TEST_F(FindingsTest, NoiseOfTwoRepetitionsDoesNotQuoteAZeroRate)
{
    // Two repetitions 40% apart: Student's t for one degree of freedom is 12.7, so the interval of the mean
    // reaches below zero. The finding says so instead of quoting "0.0 kB/s" as its lower end.
    CaseResult c = okCase(0, "pipe-write", 65536, 3000, 3000);
    c.testCase.target = TargetKind::Pipe;
    c.repetitions.clear();
    const std::vector<double> rates = {2000, 3000};
    for (std::uint32_t r = 0; r < rates.size(); ++r) {
        RepetitionResult rep;
        rep.index = r + 1;
        rep.bytes = c.testCase.totalBytes;
        rep.apparentMBps = rates[r];
        rep.returnSeconds = static_cast<double>(rep.bytes) / (rates[r] * kBytesPerMB);
        c.repetitions.push_back(rep);
    }
    c.apparentMBps = summarize(rates);
    ASSERT_LT(c.apparentMBps.ciLow, 0);
    run.cases = {c};
    const auto noise = ofKind(findings(run, &registry), Finding::Kind::Noise);
    ASSERT_EQ(noise.size(), 1u);
    EXPECT_THAT(noise[0].text,
                HasSubstr(fmt::format("the 95% CI of 2 repetitions reaches down to zero (its top "
                                      "is {})",
                                      formatRate(c.apparentMBps.ciHigh * kBytesPerMB))));
    EXPECT_THAT(noise[0].text, Not(HasSubstr("0.0 kB/s")));
}

TEST_F(FindingsTest, CacheIllusionFromRamSizeAndFromDeviceBytes)
{
    run.cases = {okCase(0, "write", 65536, 5000, 400)};
    auto illusions = ofKind(findings(run, &registry), Finding::Kind::CacheIllusion);
    ASSERT_EQ(illusions.size(), 1u);
    EXPECT_THAT(illusions[0].text, HasSubstr("returned at 5.00 GB/s but reached the device at 400.0 MB/s"));
    EXPECT_THAT(illusions[0].text, HasSubstr("All 256 MiB fit in the page cache (16 GiB of RAM)"));
    EXPECT_TRUE(ofKind(findings(run, &registry), Finding::Kind::DurableGap).empty())
        << "one finding, not two";

    run.host.ramBytes = 256 * kMiB; // no longer fits
    run.cases = {okCase(0, "write", 65536, 1000, 900)};
    for (auto& r : run.cases[0].repetitions)
        r.deviceWrittenBytes = r.bytes / 10;
    illusions = ofKind(findings(run, &registry), Finding::Kind::CacheIllusion);
    ASSERT_EQ(illusions.size(), 1u);
    EXPECT_THAT(illusions[0].text, HasSubstr("the device saw 76.8 MiB written for 768 MiB"));
}

// Issue 34: the durable-gap form of the cache illusion only where every byte fit in the page cache, went
// through it, and the gap is more than kDurableGapFactor; otherwise the plain durable gap or nothing.
TEST_F(FindingsTest, TheRamFormOfTheCacheIllusionMustNotFireWithoutItsEvidence)
{
    const auto kinds = [&](CaseResult c) {
        run.cases = {std::move(c)};
        const auto all = findings(run, &registry);
        return std::pair{ofKind(all, Finding::Kind::CacheIllusion).size(),
                         ofKind(all, Finding::Kind::DurableGap).size()};
    };
    using Counts = std::pair<std::size_t, std::size_t>; // illusions, durable gaps
    EXPECT_EQ(kinds(okCase(0, "write", 65536, 5000, 400)), (Counts{1, 0})) << "the control: it fires";
    EXPECT_EQ(kinds(okCase(0, "write", 65536, 800, 400)), (Counts{0, 0}))
        << "exactly twice: no gap to speak of";
    EXPECT_EQ(kinds(okCase(0, "write", 65536, 801, 400)), (Counts{1, 0})) << "just over twice";
    EXPECT_EQ(kinds(okCase(0, "direct", 65536, 5000, 400)), (Counts{0, 1}))
        << "O_DIRECT skips the page cache";
    auto dsync = okCase(0, "write", 65536, 5000, 400);
    dsync.testCase.sync = {SyncMode::ODsync, 0};
    EXPECT_EQ(kinds(dsync), (Counts{0, 1}));
    auto fsyncEnd = okCase(0, "write", 65536, 5000, 400);
    fsyncEnd.testCase.sync = {SyncMode::FsyncEnd, 0};
    EXPECT_EQ(kinds(fsyncEnd), (Counts{0, 1}));
    auto pipe = okCase(0, "write", 65536, 5000, 400);
    pipe.testCase.target = TargetKind::Pipe;
    EXPECT_EQ(kinds(pipe), (Counts{0, 0}));
    run.host.ramBytes = 512 * kMiB; // 256 MiB x 2 is not under it
    EXPECT_EQ(kinds(okCase(0, "write", 65536, 5000, 400)), (Counts{0, 1}));
    run.host.ramBytes = 512 * kMiB + 1;
    EXPECT_EQ(kinds(okCase(0, "write", 65536, 5000, 400)), (Counts{1, 0}));
    run.host.ramBytes = 0; // not known: no claim about what fit
    EXPECT_EQ(kinds(okCase(0, "write", 65536, 5000, 400)), (Counts{0, 1}));
}

// The device-shortfall form: only when the device was watched and saw under half of what the measured
// repetitions wrote; a warm-up or a failed repetition is not evidence either way.
TEST_F(FindingsTest, TheDeviceShortfallFormMustNotFireWithoutItsEvidence)
{
    run.host.ramBytes = 256 * kMiB; // nothing fits: only the device's bytes can make the finding
    const auto illusions = [&](const std::function<void(CaseResult&)>& change) {
        auto c = okCase(0, "write", 65536, 1000, 900);
        change(c);
        run.cases = {c};
        return ofKind(findings(run, &registry), Finding::Kind::CacheIllusion);
    };
    const auto seen = [](double share) {
        return [share](CaseResult& c) {
            for (auto& r : c.repetitions)
                r.deviceWrittenBytes = static_cast<std::uint64_t>(static_cast<double>(r.bytes) * share);
        };
    };
    ASSERT_EQ(illusions(seen(0.49)).size(), 1u) << "the control: it fires";
    EXPECT_THAT(illusions(seen(0.49))[0].text, HasSubstr("the device saw"));
    EXPECT_TRUE(illusions(seen(0.5)).empty()) << "half is not under half";
    EXPECT_TRUE(illusions(seen(1.0)).empty());
    EXPECT_TRUE(illusions([](CaseResult& c) {
                    for (auto& r : c.repetitions) {
                        r.deviceObserved = false; // the device's counters could not be read
                        r.deviceWrittenBytes = 0;
                    }
                }).empty());
    // The measured repetitions' device saw 60%: a warm-up or a failed repetition that it saw nothing of would
    // bring the sum under half if it were counted.
    EXPECT_TRUE(illusions([&](CaseResult& c) {
                    seen(0.6)(c);
                    auto warmup = c.repetitions[0];
                    warmup.warmup = true;
                    warmup.index = 0;
                    warmup.deviceWrittenBytes = 0;
                    c.repetitions.insert(c.repetitions.begin(), warmup);
                }).empty());
    EXPECT_TRUE(illusions([&](CaseResult& c) {
                    seen(0.6)(c);
                    auto failed = c.repetitions[0];
                    failed.outcome = Outcome{Status::Failed, 28, "write", "no space left on the device"};
                    failed.deviceWrittenBytes = 0;
                    c.repetitions.push_back(failed);
                }).empty());
}

namespace {

// A read of 256 MiB per repetition from the given cache state, the device delivering `deliveredShare` of it.
CaseResult readCase(CacheState cache, double deliveredShare, bool observed = true)
{
    CaseResult c = okCase(0, "read", kMiB, 900, 900);
    c.testCase.direction = Direction::Read;
    c.testCase.cache = cache;
    c.testCase.hint = ReadHint::Normal;
    for (auto& r : c.repetitions) {
        r.deviceWrittenBytes = 0;
        r.deviceObserved = observed;
        r.deviceReadBytes = static_cast<std::uint64_t>(static_cast<double>(r.bytes) * deliveredShare);
    }
    return c;
}

} // namespace

// The cold-read form: a cold read the device delivered under half of; never a warm read, an unwatched device,
// or half delivered.
TEST_F(FindingsTest, TheColdReadFormFiresOnlyWhenTheDeviceDeliveredUnderHalf)
{
    const auto illusions = [&](CaseResult c) {
        run.cases = {std::move(c)};
        return ofKind(findings(run, &registry), Finding::Kind::CacheIllusion);
    };
    const auto fired = illusions(readCase(CacheState::Cold, 0.1));
    ASSERT_EQ(fired.size(), 1u);
    EXPECT_EQ(fired[0].caseIndex, 0u);
    EXPECT_THAT(fired[0].text,
                HasSubstr("the device delivered 76.8 MiB for the 768 MiB the case read from a cold "
                          "cache; the rest came from memory"));
    EXPECT_EQ(illusions(readCase(CacheState::Cold, 0.49)).size(), 1u);
    EXPECT_TRUE(illusions(readCase(CacheState::Cold, 0.5)).empty());
    EXPECT_TRUE(illusions(readCase(CacheState::Cold, 1.0)).empty());
    EXPECT_TRUE(illusions(readCase(CacheState::Warm, 0.0)).empty())
        << "a warm read comes from memory by design";
    EXPECT_TRUE(illusions(readCase(CacheState::NotApplicable, 0.0)).empty());
    EXPECT_TRUE(illusions(readCase(CacheState::Cold, 0.0, false)).empty()) << "the device was not watched";
    // The two measured repetitions' device delivered 60%, the warm-up's nothing (it warmed the cache):
    // counted, the warm-up would bring the sum to 40%.
    auto withWarmup = readCase(CacheState::Cold, 0.6);
    withWarmup.repetitions[0].warmup = true;
    withWarmup.repetitions[0].deviceReadBytes = 0;
    EXPECT_TRUE(illusions(withWarmup).empty()) << "a warm-up's read is not the case's";
}

// Issue 39: a hot spot re-reads its hot chunks, rightly from memory after their first read, so a cold hot
// spot the device delivered a tenth of is no failed eviction; and a mix's writes deliver nothing, so only its
// reads are weighed against what the device delivered.
TEST_F(FindingsTest, TheColdReadFormSparesHotSpotsAndWeighsOnlyAMixsReads)
{
    const auto illusions = [&](CaseResult c) {
        run.cases = {std::move(c)};
        return ofKind(findings(run, &registry), Finding::Kind::CacheIllusion);
    };
    for (const RandomDist dist :
         {RandomDist{RandomDistKind::Zipf, 1.2}, RandomDist{RandomDistKind::Pareto, 0.9}}) {
        auto hot = readCase(CacheState::Cold, 0.1);
        hot.testCase.strategy = "read-random";
        hot.testCase.randomDist = dist;
        EXPECT_TRUE(illusions(hot).empty()) << toString(dist);
    }
    auto uniform = readCase(CacheState::Cold, 0.1);
    uniform.testCase.strategy = "read-random";
    uniform.testCase.randomDist = {RandomDistKind::Uniform, 0};
    EXPECT_EQ(illusions(uniform).size(), 1u) << "the control: a uniform cold read the device skipped";

    // Half of each repetition's bytes were reads. The device delivered 30% of all bytes: 60% of the reads,
    // no finding; counting the writes too would make it 30% and accuse the case. At 20% (40% of the
    // reads) it fires.
    const auto mixed = [](double deliveredShare) {
        auto c = readCase(CacheState::Cold, deliveredShare);
        c.testCase.strategy = "read-random";
        c.testCase.readPercent = 50;
        for (auto& r : c.repetitions) {
            MixFigures mix;
            mix.reads.bytes = r.bytes / 2;
            mix.writes.bytes = r.bytes - mix.reads.bytes;
            r.mix = mix;
        }
        return c;
    };
    EXPECT_TRUE(illusions(mixed(0.3)).empty());
    const auto fired = illusions(mixed(0.2));
    ASSERT_EQ(fired.size(), 1u);
    EXPECT_THAT(fired[0].text, HasSubstr("for the 384 MiB the case read"));
}

// Issue 14: a direct write on ext4 whose final fsync is long (the device's cache and the new file's blocks
// are flushed) was accused of "O_DIRECT not honoured". Only evidence of the page cache makes that finding.
TEST_F(FindingsTest, DirectIoWithALongFinalFsyncButNothingCachedIsNoFault)
{
    run.cases = {okCase(0, "direct", 1 * kMiB, 2000, 800), okCase(1, "write", 1 * kMiB, 2000, 800)};
    for (auto& r : run.cases[0].repetitions) {
        r.cachedAfterBytes = 0;
        r.dirtyBeforeBytes = 2 * kMiB;
        r.dirtyAfterBytes = 3 * kMiB;
    }
    const auto all = findings(run, &registry);
    EXPECT_TRUE(ofKind(all, Finding::Kind::DirectIgnored).empty()) << "no accusation without evidence";
    const auto flushes = ofKind(all, Finding::Kind::FinalFlush);
    ASSERT_EQ(flushes.size(), 1u);
    EXPECT_EQ(flushes[0].caseIndex, 0u);
    EXPECT_THAT(flushes[0].text,
                HasSubstr("the final fsync took 60% of the time (201 ms of 336 ms a repetition)"));
    EXPECT_THAT(flushes[0].text,
                HasSubstr("the device's write cache and the file's new blocks were flushed"));
    EXPECT_THAT(flushes[0].text, HasSubstr("0 B of the data was in the page cache"));
    EXPECT_EQ(toString(Finding::Kind::FinalFlush), "final flush");

    for (auto& r : run.cases[0].repetitions)
        r.durableSeconds = r.returnSeconds * 1.1;
    EXPECT_TRUE(ofKind(findings(run, &registry), Finding::Kind::FinalFlush).empty())
        << "a short fsync is news to no one";
}

// Seen on a busy machine: Dirty + Writeback rose by 263 MiB during a 512 MiB direct write while none of the
// file was cached; the rise was other processes' writes.
TEST_F(FindingsTest, DirectIoWithNothingCachedIsNotAccusedOnASystemWideDirtyRise)
{
    run.cases = {okCase(0, "direct", 1 * kMiB, 400, 398)};
    for (auto& r : run.cases[0].repetitions) {
        r.cachedAfterBytes = 0;
        r.dirtyBeforeBytes = 71 * kMiB;
        r.dirtyAfterBytes = 334 * kMiB;
    }
    EXPECT_TRUE(ofKind(findings(run, &registry), Finding::Kind::DirectIgnored).empty());
}

TEST_F(FindingsTest, DirectIoWithoutEvidenceSaysNothingCouldBeChecked)
{
    run.cases = {okCase(0, "direct", 1 * kMiB, 2000, 800)}; // no cachedAfter or Dirty figures, as on Windows
    const auto all = findings(run, &registry);
    EXPECT_TRUE(ofKind(all, Finding::Kind::DirectIgnored).empty());
    const auto flushes = ofKind(all, Finding::Kind::FinalFlush);
    ASSERT_EQ(flushes.size(), 1u);
    EXPECT_THAT(flushes[0].text, HasSubstr("could not be checked on this system"));
}

TEST_F(FindingsTest, DirectIoThatTheCacheHeldOrThatLivesInMemory)
{
    run.cases = {okCase(0, "direct", 1 * kMiB, 2000, 800)};
    for (auto& r : run.cases[0].repetitions)
        r.cachedAfterBytes = r.bytes;
    auto ignored = ofKind(findings(run, &registry), Finding::Kind::DirectIgnored);
    ASSERT_EQ(ignored.size(), 1u);
    EXPECT_EQ(ignored[0].caseIndex, 0u);
    EXPECT_THAT(ignored[0].text,
                HasSubstr("768 MiB of the 768 MiB written was in the page cache after the writes"));
    EXPECT_TRUE(ofKind(findings(run, nullptr), Finding::Kind::DirectIgnored).empty())
        << "without the registry nothing says which strategy bypasses the cache";

    for (auto& r : run.cases[0].repetitions) {
        r.cachedAfterBytes.reset(); // residency unknown: the system's Dirty + Writeback decides
        r.dirtyBeforeBytes = 1 * kMiB;
        r.dirtyAfterBytes = r.bytes; // grew by about what was written, in every repetition
    }
    ignored = ofKind(findings(run, &registry), Finding::Kind::DirectIgnored);
    ASSERT_EQ(ignored.size(), 1u);
    EXPECT_THAT(ignored[0].text,
                HasSubstr("(Dirty + Writeback) grew by at least 255 MiB in every repetition of 256 MiB"));
    run.cases[0].repetitions[1].dirtyAfterBytes = 2 * kMiB;
    EXPECT_TRUE(ofKind(findings(run, &registry), Finding::Kind::DirectIgnored).empty())
        << "one repetition that did not grow it: other processes' writes, not this case's";

    run.target.fsType = "tmpfs";
    run.cases = {okCase(0, "direct", 1 * kMiB, 2000, 2000)};
    ignored = ofKind(findings(run, &registry), Finding::Kind::DirectIgnored);
    ASSERT_EQ(ignored.size(), 1u);
    EXPECT_THAT(ignored[0].text, HasSubstr("tmpfs accepts O_DIRECT, but its data lives in memory"));
}

TEST_F(FindingsTest, FailedRefusedAndCancelledAreFindingsToo)
{
    CaseResult failed = okCase(0, "write", 4096, 0, 0);
    failed.status = Status::Failed;
    failed.reason = "write: No space left on device (ENOSPC)";
    failed.apparentMBps = {};
    CaseResult stopped = okCase(2, "write", 4096, 0, 0);
    stopped.status = Status::Cancelled; // the case the stop came in: planned, listed, not run to its end
    stopped.apparentMBps = {};
    run.cases = {failed, okCase(1, "stdio", 4096, 900, 850), stopped};
    run.cancelled = true;
    const auto all = findings(run, &registry);
    const auto bad = ofKind(all, Finding::Kind::Failed);
    ASSERT_EQ(bad.size(), 1u);
    EXPECT_THAT(bad[0].text, HasSubstr("case 1 (write 4 KiB)"));
    EXPECT_THAT(bad[0].text, HasSubstr("failed: write: No space left on device"));
    const auto cancelled = ofKind(all, Finding::Kind::Cancelled);
    ASSERT_EQ(cancelled.size(), 1u);
    EXPECT_EQ(cancelled[0].text,
              "The run was stopped at case 3 of 3, so this report covers the 2 cases that ran.")
        << "the failed case ran; the stopped one did not";
    EXPECT_EQ(ofKind(all, Finding::Kind::Fastest).size(), 1u);
    EXPECT_THAT(ofKind(all, Finding::Kind::Fastest)[0].text, HasSubstr("plain stdio baseline itself"));
}

TEST_F(FindingsTest, ShortRepetitions)
{
    run.cases = {okCase(0, "write", 65536, 5000, 5000)}; // 256 MiB at 5 GB/s: 54 ms
    const auto shorts = ofKind(findings(run, &registry), Finding::Kind::Short);
    ASSERT_EQ(shorts.size(), 1u);
    EXPECT_THAT(shorts[0].text, HasSubstr("a repetition took 54 ms"));
    run.cases = {okCase(0, "write", 65536, 500, 500)};
    EXPECT_TRUE(ofKind(findings(run, &registry), Finding::Kind::Short).empty());
    run.cases = {okCase(0, "write", 65536, 5000, 5000), okCase(1, "write", 4096, 500, 500),
                 okCase(2, "stdio", 4096, 2560, 2560)};
    const auto grouped = ofKind(findings(run, &registry), Finding::Kind::Short);
    ASSERT_EQ(grouped.size(), 1u) << "said once for all short cases";
    EXPECT_THAT(grouped[0].text, HasSubstr("cases 1, 3: a repetition took only 54 ms to 105 ms"));
}

TEST_F(FindingsTest, ShortIsJudgedOnTheRankedTime)
{
    // A buffered write returned in 54 ms (5 GB/s) but reached the disk in 268 ms (1 GB/s): ranked by what
    // reached the disk, the repetition is long enough, and calling it short would be a false accusation.
    run.cases = {okCase(0, "write", 65536, 5000, 1000)};
    EXPECT_TRUE(ofKind(findings(run, &registry, Ranking::Durable), Finding::Kind::Short).empty());
    const auto apparent = ofKind(findings(run, &registry, Ranking::Apparent), Finding::Kind::Short);
    ASSERT_EQ(apparent.size(), 1u);
    EXPECT_THAT(apparent[0].text, HasSubstr("a repetition took 54 ms"));
}

TEST_F(FindingsTest, BaselineIsPlainStdioWithItsDefaultBufferAtTheSameChunk)
{
    CaseResult unbuffered = okCase(0, "stdio", 4096, 100, 100);
    unbuffered.testCase.buffer = {BufferMode::None, 0};
    run.cases = {unbuffered, okCase(1, "stdio", 4096, 900, 900), okCase(2, "write", 4096, 1000, 1000),
                 okCase(3, "write", 512, 100, 100)};
    EXPECT_EQ(baselineCase(run, 2), 1u);
    EXPECT_EQ(baselineCase(run, 0), 1u);
    EXPECT_FALSE(baselineCase(run, 3).has_value());
    run.cases.erase(run.cases.begin() + 1);
    EXPECT_EQ(baselineCase(run, 1), 0u) << "any stdio buffer when there is no default one";
}

namespace {

// A case's call latency: `fast` calls of 10 us and `slow` calls of `slowNs`.
LatencyDistribution latencyOf(std::uint64_t fast, std::uint64_t slow, std::uint64_t slowNs)
{
    LatencyHistogram h;
    for (std::uint64_t i = 0; i < fast; ++i)
        h.record(10'000);
    for (std::uint64_t i = 0; i < slow; ++i)
        h.record(slowNs);
    return h.distribution();
}

} // namespace

// Issue 16: a tail finding only where the slowest calls are far from the median, with enough calls to say so.
TEST_F(FindingsTest, TailOnlyWhereTheSlowestCallsAreFarFromTheMedian)
{
    CaseResult tail = okCase(0, "write", 4096, 1000, 1000);
    tail.callLatency = latencyOf(9980, 20, 40'000'000); // 0.2% of the calls wait 40 ms
    run.cases = {tail};
    auto found = ofKind(findings(run, &registry), Finding::Kind::Tail);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_THAT(found[0].text, HasSubstr("p99.9 of its calls is"));
    EXPECT_THAT(found[0].text, HasSubstr("20 of 10000 calls"));

    // Must not fire: a tail of 5x the median, or a large factor over too few calls to have a p99.
    CaseResult mild = okCase(0, "write", 4096, 1000, 1000);
    mild.callLatency = latencyOf(9980, 20, 50'000);
    CaseResult few = okCase(1, "write", 65536, 1000, 1000);
    few.callLatency = latencyOf(100, 2, 40'000'000);
    CaseResult none = okCase(2, "direct", 65536, 1000, 1000);
    run.cases = {mild, few, none};
    EXPECT_TRUE(ofKind(findings(run, &registry), Finding::Kind::Tail).empty());
}

// Issue 16: a queue-depth sweep is described only where three or more depths of one otherwise equal case ran,
// and "helps" only where the rate grew by a fifth or more.
TEST_F(FindingsTest, QueueDepthSweepSaysWhereItStoppedHelpingAndNothingWithoutASweep)
{
    const auto at = [](std::uint32_t index, std::uint32_t depth, double rate) {
        CaseResult c = okCase(index, "direct", 4096, rate, rate);
        c.testCase.queueDepth = depth;
        return c;
    };
    run.cases = {at(0, 1, 40), at(1, 8, 150), at(2, 32, 300), at(3, 128, 310)};
    auto found = ofKind(findings(run, &registry), Finding::Kind::QueueDepth);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_THAT(found[0].text, HasSubstr("helps up to QD32, then flat"));

    run.cases = {at(0, 1, 40), at(1, 8, 41), at(2, 32, 42)};
    found = ofKind(findings(run, &registry), Finding::Kind::QueueDepth);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_THAT(found[0].text, HasSubstr("did not help"));

    // Must not fire: two depths only, or three depths of cases that differ in more than the depth.
    run.cases = {at(0, 1, 40), at(1, 32, 300)};
    EXPECT_TRUE(ofKind(findings(run, &registry), Finding::Kind::QueueDepth).empty());
    CaseResult other = at(2, 128, 310);
    other.testCase.chunkBytes = 65536;
    run.cases = {at(0, 1, 40), at(1, 32, 300), other};
    EXPECT_TRUE(ofKind(findings(run, &registry), Finding::Kind::QueueDepth).empty());
}

// Issue 17, flush honesty: a sync or a synchronous write that returned faster than the medium can store data
// is said with its numbers and the device facts it was judged by; where those facts cannot settle it, the
// finding says IOLab cannot tell; where the data lives in memory, the cache is power-protected, the case
// failed or has no latency figures, nothing is said.
namespace {

struct FlushRow
{
    const char* name;
    // The target.
    std::string fsType = "ext4";
    std::string device = "sda";
    std::string model = "ST4000DM004";
    std::optional<bool> rotational = true;
    std::string writeCache = "write back";
    std::optional<bool> fua = false;
    std::optional<bool> powerProtected = std::nullopt;
    // The case: each write synchronous (O_DSYNC) or sync calls (fsync every 16 writes) timed.
    std::string strategy = "write";
    bool syncEachWrite = false;
    std::uint64_t chunkBytes = 64 * kKiB;
    std::uint64_t medianNs = 1'900'000;
    std::uint64_t calls = 100;
    bool failed = false;
    // What the finding must and must not say; none expected when `says` is empty.
    std::vector<std::string> says;
    std::vector<std::string> neverSays;
};

void PrintTo(const FlushRow& row, std::ostream* os)
{
    *os << row.name;
}

LatencyDistribution latencyAt(std::uint64_t calls, std::uint64_t ns)
{
    LatencyHistogram h;
    for (std::uint64_t i = 0; i < calls; ++i)
        h.record(ns);
    return h.distribution();
}

const std::string kAccuses = "A cache acknowledged";
const std::string kCannotTell = "IOLab cannot tell";

const FlushRow kFlushRows[] = {
    {.name = "RotationalSyncUnder2ms",
     .says = {"case 1 (write 64 KiB, fsync-every:16): its sync calls took a median of 1.90 ms, under the "
              "2.00 ms below which no spinning disk stores data",
              "A cache acknowledged the flush, not the platter: the drive's write cache or, on a virtual "
              "machine, the host's",
              "data reported durable may be lost on a power cut",
              "Device facts: sda (ST4000DM004), rotational, write cache: write back, FUA: no."},
     .neverSays = {kCannotTell}},
    {.name = "RotationalSyncOver2ms", .medianNs = 2'100'000},
    {.name = "RotationalTooFewSyncs", .calls = 2},
    {.name = "SolidStateFastSync", .rotational = false, .medianNs = 300'000},
    {.name = "RotationalUnknown",
     .rotational = std::nullopt,
     .medianNs = 800'000,
     .says = {"its sync calls took a median of 800 us. IOLab cannot tell whether the flush reached stable "
              "media: the system did not report whether sda is rotational, and under 2.00 ms is too fast for "
              "a spinning disk but not for a solid-state one"},
     .neverSays = {kAccuses}},
    {.name = "NoBlockDevice",
     .fsType = "nfs4",
     .device = "",
     .model = "",
     .rotational = std::nullopt,
     .writeCache = "",
     .fua = std::nullopt,
     .medianNs = 800'000,
     .says =
         {"IOLab cannot tell whether the flush reached stable media: the system did not report whether the "
          "device is rotational (there is no single block device under this nfs4 filesystem to ask)",
          "Device facts: no block device, rotational: unknown, write cache: unknown."},
     .neverSays = {kAccuses}},
    {.name = "VirtioSaysRotational",
     .device = "vda",
     .model = "",
     .medianNs = 600'000,
     .says = {"its sync calls took a median of 600 us, under the 2.00 ms below which no spinning disk stores "
              "data, but vda is a virtual disk, which may say it is rotational whatever the host keeps it on",
              "IOLab cannot tell which from inside the virtual machine"},
     .neverSays = {kAccuses}},
    {.name = "QemuDiskSaysRotational",
     .model = "QEMU HARDDISK",
     .medianNs = 600'000,
     .says = {"sda is a virtual disk"},
     .neverSays = {kAccuses}},
    {.name = "Tmpfs", .fsType = "tmpfs", .device = "", .rotational = std::nullopt, .medianNs = 1'000},
    {.name = "WindowsPowerProtectedCache",
     .device = R"(\\.\C:)",
     .fua = std::nullopt,
     .powerProtected = true,
     .medianNs = 100'000},
    {.name = "WindowsCacheNotPowerProtected",
     .device = R"(\\.\C:)",
     .fua = std::nullopt,
     .powerProtected = false,
     .medianNs = 100'000,
     .says = {"the drive's write cache or, on a virtual machine, the host's, which the device reports is not "
              "power-protected, so data reported durable may be lost on a power cut",
              "write cache: write back, power-protected: no."}},
    {.name = "FailedCase", .failed = true},
    {.name = "NoLatencyFigures", .calls = 0},
    {.name = "DirectWritesIntoAWriteThroughDisk", .writeCache = "write through", .strategy = "direct"},
    {.name = "DirectWritesIntoAWriteBackDisk", .strategy = "direct", .says = {kAccuses}},
    {.name = "ODsync4KiBUnder20us",
     .model = "Samsung SSD 870",
     .rotational = false,
     .syncEachWrite = true,
     .chunkBytes = 4 * kKiB,
     .medianNs = 19'000,
     .says =
         {"case 1 (write 4 KiB, O_DSYNC): its synchronous writes took a median of 19.0 us, under the 20.0 "
          "us a flash page program takes at the least. A cache acknowledged the writes, not the medium",
          "Device facts: sda (Samsung SSD 870), solid state, write cache: write back, FUA: no."},
     .neverSays = {kCannotTell}},
    {.name = "ODsync4KiBOver20us",
     .rotational = false,
     .syncEachWrite = true,
     .chunkBytes = 4 * kKiB,
     .medianNs = 21'000},
    {.name = "ODsync8KiBUnder20us",
     .rotational = false,
     .syncEachWrite = true,
     .chunkBytes = 8 * kKiB,
     .medianNs = 15'000},
    {.name = "RwfDsyncStrategy4KiBUnder20us",
     .rotational = false,
     .strategy = "pwritev2-dsync",
     .chunkBytes = 4 * kKiB,
     .medianNs = 12'000,
     .says = {"case 1 (pwritev2-dsync 4 KiB): its synchronous writes took a median of 12.0 us"}},
    {.name = "ODsyncWriteThroughDevice",
     .device = "nvme0n1",
     .rotational = false,
     .writeCache = "write through",
     .syncEachWrite = true,
     .chunkBytes = 4 * kKiB,
     .medianNs = 9'000,
     .says = {"The device reports no volatile write cache, so either it stores data that fast (persistent "
              "memory, a RAM disk, a power-protected cache) or it hides a volatile cache; IOLab cannot tell "
              "which"},
     .neverSays = {kAccuses}},
    {.name = "ODsyncWriteCacheUnknown",
     .rotational = false,
     .writeCache = "",
     .syncEachWrite = true,
     .chunkBytes = 4 * kKiB,
     .medianNs = 9'000,
     .says = {"IOLab cannot tell whether a volatile cache acknowledged them: the system did not report the "
              "device's write cache"},
     .neverSays = {kAccuses}},
    {.name = "ODsyncOnTmpfs",
     .fsType = "tmpfs",
     .device = "",
     .rotational = std::nullopt,
     .syncEachWrite = true,
     .chunkBytes = 4 * kKiB,
     .medianNs = 2'000},
};

class FlushHonesty : public ::testing::TestWithParam<FlushRow>
{
protected:
    void SetUp() override
    {
        for (const char* id : {"write", "direct", "pwritev2-dsync"}) {
            auto s = std::make_unique<FakeStrategy>(id, behaviour);
            s->mutableInfo().needsDirectIo = std::string(id) == "direct";
            s->mutableInfo().durableEachWrite = std::string(id) == "pwritev2-dsync"; // as it declares itself
            registry.add(std::move(s));
        }
    }
    FakeBehaviour behaviour;
    Registry registry;
};

} // namespace

TEST_P(FlushHonesty, JudgedByTheDeviceFacts)
{
    const FlushRow& row = GetParam();
    RunResult run;
    run.host.ramBytes = 16 * kGiB;
    run.target.fsType = row.fsType;
    run.target.device = row.device;
    run.target.deviceModel = row.model;
    run.target.rotational = row.rotational;
    run.target.writeCache = row.writeCache;
    run.target.fua = row.fua;
    run.target.powerProtected = row.powerProtected;
    CaseResult c = okCase(0, row.strategy, row.chunkBytes, 100, 100);
    if (row.syncEachWrite) {
        c.testCase.sync = {SyncMode::ODsync, 0};
        if (row.calls > 0)
            c.callLatency = latencyAt(row.calls, row.medianNs);
    } else if (row.strategy != "pwritev2-dsync") {
        c.testCase.sync = {SyncMode::FsyncEvery, 16};
        if (row.calls > 0)
            c.syncLatency = latencyAt(row.calls, row.medianNs);
    } else if (row.calls > 0) {
        c.callLatency = latencyAt(row.calls, row.medianNs);
    }
    if (row.failed) {
        c.status = Status::Failed;
        c.reason = "write failed: No space left on device (ENOSPC)";
    }
    run.cases = {c};
    const auto found = ofKind(findings(run, &registry), Finding::Kind::FlushHonesty);
    if (row.says.empty()) {
        EXPECT_TRUE(found.empty()) << found.front().text;
        return;
    }
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].caseIndex, 0u);
    for (const auto& words : row.says)
        EXPECT_THAT(found[0].text, HasSubstr(words));
    for (const auto& words : row.neverSays)
        EXPECT_THAT(found[0].text, ::testing::Not(HasSubstr(words)));
}

INSTANTIATE_TEST_SUITE_P(Issue17, FlushHonesty, ::testing::ValuesIn(kFlushRows),
                         [](const auto& row) { return std::string(row.param.name); });

// One finding per case, the accusation before an "IOLab cannot tell", in case order among the problems.
TEST_F(FindingsTest, FlushHonestyOncePerCaseAccusationFirstInCaseOrder)
{
    run.target.device = "sdb";
    run.target.writeCache = "write back"; // rotational unknown
    CaseResult both = okCase(0, "write", 4096, 100, 100);
    both.testCase.sync = {SyncMode::ODsync, 0};
    both.callLatency = latencyAt(1000, 10'000); // accuses: under 20 us with a write-back cache
    both.syncLatency = latencyAt(10, 500'000);  // cannot tell: rotational unknown
    CaseResult syncs = okCase(1, "write", 65536, 100, 100);
    syncs.testCase.sync = {SyncMode::FsyncEvery, 16};
    syncs.syncLatency = latencyAt(10, 500'000);
    run.cases = {both, syncs};
    const auto found = ofKind(findings(run, &registry), Finding::Kind::FlushHonesty);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].caseIndex, 0u);
    EXPECT_THAT(found[0].text, HasSubstr("A cache acknowledged the writes"));
    EXPECT_EQ(found[1].caseIndex, 1u);
    EXPECT_THAT(found[1].text, HasSubstr("IOLab cannot tell"));
    EXPECT_EQ(toString(Finding::Kind::FlushHonesty), "flush honesty");
}

// The write cache as the CLI, the GUI, the PDF and the flush-honesty finding state it.
TEST(TargetFacts, WriteCacheInAFewWordsAndVirtualDisksRecognised)
{
    TargetInfo t;
    EXPECT_EQ(describeWriteCache(t), "unknown");
    t.writeCache = "write back";
    EXPECT_EQ(describeWriteCache(t), "write back");
    t.fua = false;
    EXPECT_EQ(describeWriteCache(t), "write back, FUA: no");
    t = {};
    t.writeCache = "write back";
    t.flushSupported = true;
    t.powerProtected = false;
    t.writeThroughSupported = true;
    EXPECT_EQ(describeWriteCache(t), "write back, flush: yes, power-protected: no, write-through: yes");
    t.writeCache.clear();
    EXPECT_EQ(describeWriteCache(t), "mode unknown, flush: yes, power-protected: no, write-through: yes");

    const auto virtualDisk = [](std::string device, std::string model) {
        TargetInfo target;
        target.device = std::move(device);
        target.deviceModel = std::move(model);
        return looksVirtual(target);
    };
    EXPECT_TRUE(virtualDisk("vda", ""));
    EXPECT_TRUE(virtualDisk("xvdb", ""));
    EXPECT_TRUE(virtualDisk("sda", "QEMU HARDDISK"));
    EXPECT_TRUE(virtualDisk(R"(\\.\C:)", "Red Hat VirtIO"));
    EXPECT_TRUE(virtualDisk("sdb", "Msft Virtual Disk"));
    EXPECT_FALSE(virtualDisk("sda", "ST4000DM004"));
    EXPECT_FALSE(virtualDisk("nvme0n1", "Samsung SSD 980 PRO"));
}
