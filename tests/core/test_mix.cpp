// SPDX-License-Identifier: MIT
// Read/write mixes and hot spots (issue 39, part 3): the distributions' draws against their exact shares,
// the mix's choice, the axes that carry them, the result files and the exports. The calls themselves are
// checked against strace, fio and a loop device's counters in tests/cli/mix_against_tools.py.
#include "core/analysis/findings.h"
#include "core/analysis/mix_answer.h"
#include "core/analysis/verdict.h"
#include "core/base/error.h"
#include "core/engine/offset_picker.h"
#include "core/formats/diskspd_job.h"
#include "core/formats/fio_job.h"
#include "core/formats/matrix_json.h"
#include "core/formats/result_csv.h"
#include "core/formats/result_json.h"
#include "core/model/axes.h"
#include "core/model/matrix.h"
#include "tests/support/fakes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <vector>

namespace iolab {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(RandomDist, SpellingsReadBackAndBadOnesAreRefused)
{
    EXPECT_EQ(parseRandomDist("uniform"), (RandomDist{RandomDistKind::Uniform, 0}));
    EXPECT_EQ(parseRandomDist("zipf:1.2"), (RandomDist{RandomDistKind::Zipf, 1.2}));
    EXPECT_EQ(parseRandomDist("zipf:1.20"), parseRandomDist("zipf:1.2"));
    EXPECT_EQ(parseRandomDist("pareto:0.9"), (RandomDist{RandomDistKind::Pareto, 0.9}));
    for (const char* text : {"none", "uniform", "zipf:1.2", "zipf:0.8", "pareto:0.9", "pareto:0.25"})
        EXPECT_EQ(toString(parseRandomDist(text)), text);
    for (const char* bad : {"", "zipf", "zipf:", "zipf:x", "zipf:0", "zipf:101", "pareto:1", "pareto:0",
                            "pareto:1.5", "normal:0.5", "gauss", "zipf:1.2x"})
        EXPECT_THROW((void)parseRandomDist(bad), InputError) << bad;
    EXPECT_EQ(parseReadPercent("70"), 70U);
    EXPECT_EQ(parseReadPercent("70%"), 70U);
    EXPECT_EQ(parseReadPercent("0"), 0U);
    EXPECT_EQ(parseReadPercent("100%"), 100U);
    for (const char* bad : {"", "%", "101", "-5", "7.5", "seventy", "70%%"})
        EXPECT_THROW((void)parseReadPercent(bad), InputError) << bad;
    EXPECT_EQ(randomDistWords(parseRandomDist("pareto:0.9")),
              "a Pareto hot spot (90% of requests on 10% of the file)");
    EXPECT_EQ(randomDistWords(parseRandomDist("pareto:0.2")),
              "a Pareto hot spot (80% of requests on 20% of the file)");
}

TEST(RandomDist, TheHotSharesAreTheDistributionsOwn)
{
    const RandomDist uniform{RandomDistKind::Uniform, 0};
    EXPECT_DOUBLE_EQ(hotShare(uniform, 1000, 0.1), 0.1);
    // Zipf over 4 ranks: weights 1, 1/2^t, 1/3^t, 1/4^t.
    const RandomDist zipf{RandomDistKind::Zipf, 1.0};
    EXPECT_NEAR(hotShare(zipf, 4, 0.5), (1 + 0.5) / (1 + 0.5 + 1.0 / 3 + 0.25), 1e-12);
    // fio's pareto:h: a share h of the requests on the hottest 1 - h of the range, and h, 1 - h alike.
    EXPECT_NEAR(hotShare(parseRandomDist("pareto:0.9"), 1000, 0.1), 0.9, 1e-9);
    EXPECT_NEAR(hotShare(parseRandomDist("pareto:0.8"), 1000, 0.2), 0.8, 1e-9);
    EXPECT_NEAR(hotShare(parseRandomDist("pareto:0.2"), 1000, 0.2), 0.8, 1e-9);
    // Past a million ranks the sum is the integral's: continuous with the exact sum below.
    const RandomDist theta{RandomDistKind::Zipf, 1.2};
    EXPECT_NEAR(hotShare(theta, 1'000'000, 0.5), hotShare(theta, 1'000'001, 0.5), 1e-6);
    EXPECT_GT(hotShare(theta, 4'000'000, 0.01), hotShare(theta, 4'000'000, 0.001));
}

// The exact Zipf sampler against the exact probabilities: each of the first ranks within 0.5 points over
// 400,000 draws (about ten standard deviations), for theta below, at and above 1.
TEST(RandomDist, ZipfDrawsFollowTheExactProbabilities)
{
    constexpr std::uint64_t kRanks = 1000;
    constexpr int kDraws = 400'000;
    for (const double theta : {0.6, 1.0, 1.2, 2.5}) {
        ZipfRanks ranks(kRanks, theta);
        FastRandom random(7);
        std::map<std::uint64_t, int> counts;
        for (int i = 0; i < kDraws; ++i) {
            const std::uint64_t k = ranks.next(random);
            ASSERT_GE(k, 1U);
            ASSERT_LE(k, kRanks);
            ++counts[k];
        }
        double sum = 0;
        for (std::uint64_t k = 1; k <= kRanks; ++k)
            sum += std::pow(static_cast<double>(k), -theta);
        for (std::uint64_t k = 1; k <= 5; ++k)
            EXPECT_NEAR(counts[k] / static_cast<double>(kDraws),
                        std::pow(static_cast<double>(k), -theta) / sum, 0.005)
                << "theta " << theta << ", rank " << k;
        double top = 0;
        for (std::uint64_t k = 1; k <= kRanks / 10; ++k)
            top += counts[k];
        EXPECT_NEAR(top / kDraws, hotShare({RandomDistKind::Zipf, theta}, kRanks, 0.1), 0.005) << theta;
    }
}

TEST(RandomDist, HotSpotsAreChunkAlignedSharedByThreadsAndScattered)
{
    constexpr std::uint64_t kChunk = 4096;
    constexpr std::uint64_t kFile = 4096 * kChunk;
    for (const char* text : {"zipf:1.2", "pareto:0.9", "pareto:0.1"}) {
        const RandomDist dist = parseRandomDist(text);
        std::map<std::uint64_t, int> first;
        std::map<std::uint64_t, int> second;
        HotSpotOffsets a(dist, 0, kFile, kChunk);
        HotSpotOffsets b(dist, 1, kFile, kChunk);
        std::uint64_t hot = 0;
        for (int i = 0; i < 100'000; ++i) {
            const std::uint64_t x = a.next();
            ASSERT_EQ(x % kChunk, 0U);
            ASSERT_LT(x, kFile);
            ++first[x];
            ++second[b.next()];
            hot += a.rank() < 410 ? 1 : 0;
        }
        // The hottest tenth of the chunks, by their counts: the threads' are the same chunks, rank 0's among
        // them, and not the file's first tenth.
        const auto hottest = [](const std::map<std::uint64_t, int>& counts) {
            std::vector<std::pair<int, std::uint64_t>> byCount;
            for (const auto& [chunk, n] : counts)
                byCount.emplace_back(n, chunk);
            std::sort(byCount.rbegin(), byCount.rend());
            std::set<std::uint64_t> top;
            for (std::size_t i = 0; i < byCount.size() && top.size() < 410; ++i)
                top.insert(byCount[i].second);
            return top;
        };
        const auto hotA = hottest(first);
        const auto hotB = hottest(second);
        std::size_t shared = 0;
        std::size_t atStart = 0;
        for (const std::uint64_t chunk : hotA) {
            shared += hotB.count(chunk);
            atStart += chunk < kFile / 10 ? 1 : 0;
        }
        EXPECT_GT(shared, hotA.size() * 8 / 10) << text << ": the threads heat different chunks";
        EXPECT_TRUE(hotA.count(a.chunkOfRank(0) * kChunk)) << text;
        EXPECT_LT(atStart, hotA.size() / 5)
            << text << ": the hot chunks sit at the file's start, not scattered";
        EXPECT_NEAR(static_cast<double>(hot) / 100'000.0, hotShare(dist, 4096, 410 / 4096.0), 0.01) << text;
    }
}

TEST(Mix, TheChoiceKeepsItsShareAndItsEnds)
{
    for (const std::uint32_t percent : {0U, 1U, 30U, 70U, 99U, 100U}) {
        MixChooser chooser(percent, 3);
        int reads = 0;
        for (int i = 0; i < 200'000; ++i)
            reads += chooser.nextIsRead() ? 1 : 0;
        if (percent == 0 || percent == 100)
            EXPECT_EQ(reads, percent == 0 ? 0 : 200'000);
        else
            EXPECT_NEAR(reads / 200'000.0, percent / 100.0, 0.005) << percent;
    }
}

class MixAxes : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto reader = std::make_unique<test::FakeStrategy>("read-random", m_behaviour);
        StrategyInfo& info = reader->mutableInfo();
        info = readerInfo(info);
        info.randomOffsets = true;
        info.layout = DataLayout::SharedFile;
        info.hints = {ReadHint::Normal};
        m_registry.add(std::move(reader));
        auto writer = std::make_unique<test::FakeStrategy>("write-random", m_behaviour);
        writer->mutableInfo().randomOffsets = true;
        m_registry.add(std::move(writer));
        m_registry.add(std::make_unique<test::FakeStrategy>("write", m_behaviour));
        m_target.logicalBlockBytes = 512;
    }

    ExpandedMatrix expandGroup(const MatrixGroup& g)
    {
        return expand(Matrix{"m", "", {g}}, m_registry, m_target);
    }

    test::FakeBehaviour m_behaviour;
    Registry m_registry;
    TargetInfo m_target;
};

TEST_F(MixAxes, RandomReadersTakeThemAndOthersSayWhereToGo)
{
    MatrixGroup g;
    g.strategies = {"read-random", "write-random", "write"};
    g.chunks = {4096};
    g.sizes = {1 << 20};
    const auto plain = expandGroup(g);
    ASSERT_EQ(plain.cases.size(), 3U);
    EXPECT_EQ(plain.cases[0].randomDist.kind, RandomDistKind::Uniform);
    EXPECT_FALSE(plain.cases[0].readPercent);
    EXPECT_EQ(plain.cases[1].randomDist.kind, RandomDistKind::None);
    EXPECT_EQ(plain.cases[0].label().find("dist="), std::string::npos) << "uniform is no news in a label";

    g.readPercents = {70U, 100U};
    g.randomDists = {parseRandomDist("zipf:1.2")};
    const auto mixed = expandGroup(g);
    ASSERT_EQ(mixed.cases.size(), 2U);
    EXPECT_TRUE(mixes(mixed.cases[0]));
    EXPECT_FALSE(mixes(mixed.cases[1]));
    EXPECT_THAT(mixed.cases[0].label(), HasSubstr("read=70% dist=zipf:1.2"));
    ASSERT_EQ(mixed.refused.size(), 4U);
    EXPECT_THAT(mixed.refused[0].reason, HasSubstr("write-random writes every chunk of a new file once"));
    EXPECT_THAT(mixed.refused[0].reason, HasSubstr("read-random, uring-random-read"));
    EXPECT_THAT(mixed.refused[2].reason, HasSubstr("is for the random readers of a shared file"));
    // Mixes and hot spots are workloads: ranked only against their like.
    EXPECT_FALSE(sameArrangement(mixed.cases[0], mixed.cases[1]));
    EXPECT_FALSE(sameArrangement(mixed.cases[1], plain.cases[0]));
}

TEST_F(MixAxes, AMatrixFileKeepsThem)
{
    const Matrix m = parseMatrixJson(
        R"({"groups": [{"strategies": ["read-random"], "chunks": ["4K"], "sizes": ["1M"],
            "readPercents": ["70%", "none"], "randomDists": ["pareto:0.9"]}]})",
        "m.json");
    ASSERT_EQ(m.groups.size(), 1U);
    EXPECT_EQ(m.groups[0].readPercents, (std::vector<std::optional<std::uint32_t>>{70U, std::nullopt}));
    EXPECT_EQ(parseMatrixJson(matrixToJson(m).dump(), "m.json"), m);
    try {
        (void)parseMatrixJson(
            R"({"groups": [{"strategies": ["read-random"], "chunks": ["4K"], "sizes": ["1M"],
            "readPercents": ["170"]}]})",
            "m.json");
        FAIL() << "a read share above 100% was taken";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("m.json"));
        EXPECT_THAT(e.what(), HasSubstr("outside 0 to 100"));
    }
}

// A measured mix: case 1 reads 70% of its requests over a Zipf hot spot, case 2 is its 100% twin.
RunResult mixedRun()
{
    RunResult run;
    for (const std::uint32_t percent : {70U, 100U}) {
        CaseResult c;
        c.index = static_cast<std::uint32_t>(run.cases.size());
        c.status = Status::Ok;
        Case& k = c.testCase;
        k.strategy = "uring-random-read-direct";
        k.direction = Direction::Read;
        k.chunkBytes = 4096;
        k.totalBytes = 64ULL << 20;
        k.queueDepth = 32;
        k.cache = CacheState::Cold;
        k.readPercent = percent;
        k.randomDist = parseRandomDist("zipf:1.2");
        RepetitionResult rep;
        rep.index = 1;
        rep.outcome = Outcome::success();
        rep.bytes = k.totalBytes;
        rep.returnSeconds = 1.0;
        rep.apparentMBps = percent == 70 ? 64.6 : 80.0;
        rep.durableMBps = rep.apparentMBps;
        if (percent == 70) {
            MixSide reads{11'040, 11'040 * 4096ULL, 45.2, 11'040, LatencySummary{}};
            reads.latency->count = 11'040;
            reads.latency->p99Ns = 2'100'000;
            MixSide writes{4'730, 4'730 * 4096ULL, 19.4, 4'730, std::nullopt};
            rep.mix = MixFigures{reads, writes};
        }
        c.repetitions = {rep};
        c.apparentMBps.count = c.durableMBps.count = 1;
        c.apparentMBps.median = c.durableMBps.median = rep.apparentMBps;
        if (percent == 70) {
            c.mix = CaseMix{};
            c.mix->readMBps.count = c.mix->writeMBps.count = 1;
            c.mix->readMBps.median = 45.2;
            c.mix->writeMBps.median = 19.4;
            c.mix->readIops.median = 11'040;
            c.mix->writeIops.median = 4'730;
            c.mix->readOps = 11'040;
            c.mix->writeOps = 4'730;
            LatencyHistogram writes;
            for (int i = 0; i < 4'730; ++i)
                writes.record(3'400'000);
            c.mix->writeLatency = writes.distribution();
        }
        run.cases.push_back(c);
    }
    return run;
}

TEST(Mix, TheSummaryGivesEachWayItsFiguresAndTheSweep)
{
    const auto answers = mixAnswers(mixedRun());
    ASSERT_EQ(answers.size(), 2U);
    EXPECT_THAT(answers[0], HasSubstr("reads 45.2 MB/s, 11,040 IOPS"));
    EXPECT_THAT(answers[0], HasSubstr("writes 19.4 MB/s, 4,730 IOPS, p99 3.40 ms"));
    EXPECT_THAT(answers[0], HasSubstr("64.6 MB/s together"));
    // One repetition each: the change is what was measured, not a finding.
    EXPECT_THAT(answers[1], HasSubstr("80.0 MB/s at 100% reads, 64.6 MB/s at 70% reads; the 0.81x from 100% "
                                      "to 70% reads is not a finding (1 and 1 repetition"));
    const Verdict v = verdict(mixedRun(), nullptr);
    // Which way is fastest at each share first, then what each way of the mix got.
    const auto mix = std::find_if(v.answers.begin(), v.answers.end(),
                                  [](const std::string& a) { return a.starts_with("Mix, "); });
    ASSERT_NE(mix, v.answers.end());
    EXPECT_NE(mix, v.answers.begin());
    EXPECT_THAT(v.answers.front(), HasSubstr("To read 70% and write 30% of the requests"));
    EXPECT_THAT(v.question, HasSubstr("with a hot spot"));
}

TEST(Mix, ResultFilesKeepBothWays)
{
    RunResult run = mixedRun();
    const std::string text = resultToJson(run).dump();
    const RunResult back = resultFromJson(text, "mixed.json");
    EXPECT_EQ(back.cases[0].mix, run.cases[0].mix);
    EXPECT_EQ(back.cases[0].repetitions[0].mix, run.cases[0].repetitions[0].mix);
    EXPECT_EQ(back.cases[0].testCase, run.cases[0].testCase);
    EXPECT_FALSE(back.cases[1].mix);
    const auto rows = summaryRows(run);
    const auto& header = rows.front();
    const auto column = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    ASSERT_LT(column("write_p99_us"), header.size());
    EXPECT_EQ(rows[1][column("read_MBps")], "45.2");
    EXPECT_EQ(rows[1][column("write_iops")], "4730");
    EXPECT_EQ(rows[1][column("write_p99_us")], "3400");
    EXPECT_EQ(rows[2][column("read_MBps")], "");
}

TEST(Mix, FioAndDiskSpdRunTheSameMixAndSayWhatDiffers)
{
    const Case k = mixedRun().cases[0].testCase;
    const FioJob fio = fioJob(k, {});
    EXPECT_THAT(fio.text, HasSubstr("rw=randrw\n"));
    EXPECT_THAT(fio.text, HasSubstr("rwmixread=70\n"));
    EXPECT_THAT(fio.text, HasSubstr("random_distribution=zipf:1.2\n"));
    EXPECT_THAT(fio.text, HasSubstr("differs: IOLab draws the hot spot's ranks exactly"));
    const DiskspdJob diskspd = diskspdJob(k, {});
    EXPECT_THAT(diskspd.text, HasSubstr(" -w30 "));
    // The hottest 1% and the next 9% of 16,384 chunks under zipf:1.2.
    const auto top1 = static_cast<int>(std::lround(hotShare(k.randomDist, 16384, 0.01) * 100));
    const auto top10 = static_cast<int>(std::lround(hotShare(k.randomDist, 16384, 0.10) * 100));
    EXPECT_THAT(diskspd.text, HasSubstr(fmt::format(" -rdpct{}/1:{}/9 ", top1, top10 - top1)));
    EXPECT_THAT(diskspd.text, HasSubstr("DiskSpd has neither Zipf nor Pareto"));
}

} // namespace
} // namespace iolab

// A sweep states its change as a fact only when it holds against the noise (r1: "1.17x from 100% to 70%
// reads" between two noisy cases whose intervals overlapped).
TEST(Mix, TheSweepsChangeIsAFactOnlyBeyondTheNoise)
{
    const auto sweep = [](std::vector<double> pure, std::vector<double> mixed) {
        RunResult run = mixedRun();
        for (CaseResult& c : run.cases) {
            const std::vector<double>& rates = *c.testCase.readPercent == 70 ? mixed : pure;
            c.repetitions.clear();
            for (std::size_t i = 0; i < rates.size(); ++i) {
                RepetitionResult rep;
                rep.index = static_cast<std::uint32_t>(i + 1);
                rep.outcome = Outcome::success();
                rep.bytes = c.testCase.totalBytes;
                rep.returnSeconds = 1.0;
                rep.apparentMBps = rep.durableMBps = rates[i];
                c.repetitions.push_back(rep);
            }
            c.apparentMBps = c.durableMBps = summarize(rates);
            if (c.mix) {
                c.mix->readMBps.median = c.apparentMBps.median * 0.7;
                c.mix->writeMBps.median = c.apparentMBps.median * 0.3;
            }
        }
        return mixAnswers(run).back();
    };
    const std::string noisy = sweep({60.2, 48.6, 71.0}, {70.1, 67.2, 72.4});
    EXPECT_THAT(noisy, HasSubstr("is within the noise (p = "));
    EXPECT_THAT(noisy, Not(HasSubstr("(1.")));
    const std::string holds = sweep({80.0, 80.5, 79.5}, {64.6, 64.9, 64.3});
    EXPECT_THAT(holds, HasSubstr("64.6 MB/s at 70% reads (0.81x from 100% to 70% reads)."));
}

// The Fastest findings rank a mix apart from pure reads, as the Summary does: a 70/30 mix is never "the
// fastest cold read", nor tied with one.
TEST(Mix, AMixIsNeverRankedAmongPureReadsInTheFindings)
{
    const auto found = findings(mixedRun(), nullptr);
    std::vector<std::string> fastest;
    for (const Finding& f : found)
        if (f.kind == Finding::Kind::Fastest)
            fastest.push_back(f.text);
    ASSERT_EQ(fastest.size(), 2U) << ::testing::PrintToString(fastest);
    for (const std::string& text : fastest)
        EXPECT_THAT(text, HasSubstr("the only case of its kind at this size")) << text;
}
