// SPDX-License-Identifier: MIT
// The verdict: groups that are never compared with each other, a ranking by durable or apparent rate, and
// sentences for a customer (plain names, units on every number, terms explained once).
#include "core/analysis/finding_kinds.h"
#include "core/analysis/findings.h"
#include "core/analysis/verdict.h"
#include "core/base/error.h"
#include "core/base/units.h"
#include "core/engine/registry.h"
#include "core/model/axes.h"
#include "tests/support/fakes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

using namespace iolab;
using namespace iolab::test;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

CaseResult okCase(std::uint32_t index, const std::string& strategy, std::uint64_t chunk, double apparent,
                  double durable, TargetKind target = TargetKind::Directory)
{
    CaseResult c;
    c.index = index;
    c.testCase.strategy = strategy;
    c.testCase.chunkBytes = chunk;
    c.testCase.totalBytes = 4 * kGiB;
    c.testCase.target = target;
    if (strategy == "stdio" || strategy == "stdio-unlocked")
        c.testCase.buffer = {BufferMode::Default, 0};
    for (Summary* s : {&c.apparentMBps, &c.durableMBps}) {
        s->count = 3;
        s->cv = 0.01;
    }
    c.apparentMBps.median = apparent;
    c.durableMBps.median = durable;
    for (std::uint32_t r = 0; r < 3; ++r) {
        RepetitionResult rep;
        rep.index = r + 1;
        rep.bytes = c.testCase.totalBytes;
        rep.returnSeconds = static_cast<double>(rep.bytes) / (apparent * kBytesPerMB);
        rep.durableSeconds = static_cast<double>(rep.bytes) / (durable * kBytesPerMB);
        c.repetitions.push_back(rep);
    }
    return c;
}

CaseResult readCase(std::uint32_t index, const std::string& strategy, std::uint64_t chunk, double rate,
                    CacheState cache)
{
    CaseResult c = okCase(index, strategy, chunk, rate, rate);
    c.testCase.direction = Direction::Read;
    c.testCase.buffer = {};
    c.testCase.hint = ReadHint::Normal;
    c.testCase.cache = cache;
    return c;
}

std::string joined(const std::vector<std::string>& lines)
{
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
}

struct VerdictTest : ::testing::Test
{
    FakeBehaviour behaviour;
    Registry registry;
    RunResult run;

    void SetUp() override
    {
        for (const char* id :
             {"stdio", "stdio-unlocked", "write", "direct", "pipe-write", "vmsplice", "read"}) {
            auto s = std::make_unique<FakeStrategy>(id, behaviour);
            s->mutableInfo().needsDirectIo = std::string(id) == "direct";
            registry.add(std::move(s));
        }
        run.host.ramBytes = 2 * kGiB; // the 4 GiB cases do not fit: no cache illusion unless a test wants one
        run.target.fsType = "ext4";
        run.options.repetitions = 5;
    }
};

} // namespace

TEST(Ranking, SpellingsRoundTripAndBadOnesNameTheChoices)
{
    EXPECT_EQ(toString(Ranking::Durable), "durable");
    EXPECT_EQ(toString(Ranking::Apparent), "apparent");
    EXPECT_EQ(parseRanking("durable"), Ranking::Durable);
    EXPECT_EQ(parseRanking("apparent"), Ranking::Apparent);
    try {
        parseRanking("fastest");
        FAIL() << "accepted 'fastest'";
    } catch (const InputError& e) {
        EXPECT_THAT(std::string(e.what()), AllOf(HasSubstr("'fastest'"), HasSubstr("durable, apparent")));
    }
}

TEST(Ranking, GroupsKeepFilesPipesAndCacheStatesApart)
{
    Case c;
    c.direction = Direction::Write;
    c.target = TargetKind::Directory;
    EXPECT_EQ(comparisonGroup(c), ComparisonGroup::FileWrites);
    EXPECT_TRUE(ranksDurable(c, Ranking::Durable));
    EXPECT_FALSE(ranksDurable(c, Ranking::Apparent));
    c.target = TargetKind::Pipe;
    EXPECT_EQ(comparisonGroup(c), ComparisonGroup::StreamWrites);
    EXPECT_FALSE(ranksDurable(c, Ranking::Durable)) << "a pipe has no durable figure";
    c.target = TargetKind::Null;
    EXPECT_EQ(comparisonGroup(c), ComparisonGroup::StreamWrites);
    c.direction = Direction::Read;
    c.target = TargetKind::Directory;
    c.cache = CacheState::Cold;
    EXPECT_EQ(comparisonGroup(c), ComparisonGroup::ColdReads);
    EXPECT_FALSE(ranksDurable(c, Ranking::Durable));
    c.cache = CacheState::Warm;
    EXPECT_EQ(comparisonGroup(c), ComparisonGroup::WarmReads);
    EXPECT_EQ(toString(ComparisonGroup::FileWrites), "writes to a file");
    EXPECT_THAT(toString(ComparisonGroup::StreamWrites), HasSubstr("pipe"));
    EXPECT_THAT(toString(ComparisonGroup::ColdReads), HasSubstr("cold"));
    EXPECT_THAT(toString(ComparisonGroup::WarmReads), HasSubstr("warm"));
}

TEST(Ranking, RankedRateIsDurableForFileWritesOnly)
{
    CaseResult file = okCase(0, "write", 4096, 3850, 1140);
    EXPECT_DOUBLE_EQ(rankedRate(file, Ranking::Durable).median, 1140);
    EXPECT_DOUBLE_EQ(rankedRate(file, Ranking::Apparent).median, 3850);
    CaseResult pipe = okCase(1, "vmsplice", 4096, 9000, 8000, TargetKind::Pipe);
    EXPECT_DOUBLE_EQ(rankedRate(pipe, Ranking::Durable).median, 9000);
}

TEST_F(VerdictTest, FastestFileWriteIsTheDurableOneAndPipesAreAnsweredApart)
{
    // Plain write "wins" by apparent rate, stdio-unlocked by what reached the disk; vmsplice is faster
    // than both but writes into a pipe.
    run.cases = {okCase(0, "stdio", 65536, 1000, 600), okCase(1, "write", 65536, 3850, 1140),
                 okCase(2, "stdio-unlocked", 65536, 3100, 1900),
                 okCase(3, "pipe-write", 65536, 5000, 5000, TargetKind::Pipe),
                 okCase(4, "vmsplice", 65536, 9000, 9000, TargetKind::Pipe)};
    const Verdict v = verdict(run, &registry);
    ASSERT_EQ(v.answers.size(), 2u);
    EXPECT_EQ(v.answers[0], "To write 64 KiB chunks to a file here, `stdio-unlocked` is fastest: 1.90 GB/s "
                            "durable (3.10 GB/s apparent), 3.2x plain `stdio` (600.0 MB/s).");
    EXPECT_THAT(v.answers[1], AllOf(HasSubstr("into a pipe"), HasSubstr("`vmsplice` is fastest: 9.00 GB/s"),
                                    HasSubstr("1.8x plain `pipe-write` (5.00 GB/s)")));
    EXPECT_THAT(v.answers[1], Not(HasSubstr("durable")));

    const Verdict apparent = verdict(run, &registry, Ranking::Apparent);
    EXPECT_THAT(apparent.answers[0],
                HasSubstr("`write` is fastest: 3.85 GB/s apparent (1.14 GB/s durable), 3.9x plain `stdio`"));
}

TEST_F(VerdictTest, ACaseRewritingOneChunkIsNoRivalOfWritesThatFillAFile)
{
    // 64 MiB of writes into one 8 KiB block: its bytes per second are not what reached the disk.
    run.cases = {okCase(0, "stdio", 8192, 500, 400), okCase(1, "write", 8192, 900, 600),
                 okCase(2, "write", 8192, 6800, 6400)};
    run.cases[2].testCase.preallocate = Preallocate::Rewrite;
    const Verdict v = verdict(run, &registry);
    ASSERT_EQ(v.answers.size(), 1u);
    EXPECT_THAT(v.answers[0], HasSubstr("`write` is fastest: 600.0 MB/s durable"));
    EXPECT_THAT(v.answers[0], Not(HasSubstr("6.40 GB/s")));
    EXPECT_EQ(baselineCase(run, 1), std::optional<std::size_t>{0});
    EXPECT_EQ(baselineCase(run, 2), std::nullopt) << "no speed-up over plain stdio either";
}

TEST_F(VerdictTest, CasesThatDifferOnlyInQueueDepthAreNamedApart)
{
    registry.add(std::make_unique<FakeStrategy>("uring-write-direct", behaviour));
    run.cases = {okCase(0, "uring-write-direct", 65536, 300, 290),
                 okCase(1, "uring-write-direct", 65536, 230, 220)};
    run.cases[0].testCase.queueDepth = 8;
    run.cases[1].testCase.queueDepth = 1;
    const Verdict v = verdict(run, &registry);
    ASSERT_FALSE(v.answers.empty());
    EXPECT_THAT(v.answers[0], HasSubstr("`uring-write-direct` with 8 requests in flight is fastest"));
    EXPECT_THAT(v.answers[0], HasSubstr("the slowest, `uring-write-direct` (220.0 MB/s)"))
        << "QD1, the default, is not spelled out";
    EXPECT_EQ(findingSubject(run.cases[0]), "case 1 (uring-write-direct 64 KiB, QD 8)");
    EXPECT_EQ(findingSubject(run.cases[1]), "case 2 (uring-write-direct 64 KiB)");
}

TEST_F(VerdictTest, QuestionFromTheMatrixOrMadeFromTheCases)
{
    run.cases = {okCase(0, "stdio", 65536, 1000, 600), okCase(1, "write", 65536, 3850, 1140)};
    EXPECT_EQ(verdict(run, &registry).question,
              "Which way is fastest to write 64 KiB chunks to a file on this "
              "machine?");
    run.matrix.question = "Which write call should a logger use?";
    EXPECT_EQ(verdict(run, &registry).question, "Which write call should a logger use?");
}

TEST_F(VerdictTest, AQuestionAboutPipesNamesOnlyWhatRan)
{
    run.cases = {okCase(0, "pipe-write", 65536, 5000, 5000, TargetKind::Pipe),
                 okCase(1, "vmsplice", 65536, 9000, 9000, TargetKind::Pipe)};
    EXPECT_EQ(verdict(run, &registry).question,
              "Which way is fastest to write 64 KiB chunks into a pipe on this "
              "machine?");
    run.cases.push_back(okCase(2, "write", 65536, 4000, 4000, TargetKind::Null));
    EXPECT_THAT(verdict(run, &registry).question, HasSubstr("into a pipe or the null device"));
}

TEST_F(VerdictTest, PipesAreComparedWithTheirReaderPlacedAlike)
{
    // vmsplice with the reader on the writer's CPU is compared with pipe-write placed the same way, not with
    // the slower pipe-write whose reader ran on another CPU; each placement gets its own answer, which names
    // it (the pipe preset asks about both).
    auto pipe = [](std::uint32_t index, const std::string& strategy, double rate, ReaderCpu placement) {
        CaseResult c = okCase(index, strategy, 65536, rate, rate, TargetKind::Pipe);
        c.testCase.readerCpu = placement;
        return c;
    };
    run.cases = {pipe(0, "pipe-write", 5000, ReaderCpu::Same), pipe(1, "pipe-write", 1500, ReaderCpu::Other),
                 pipe(2, "vmsplice", 8000, ReaderCpu::Same), pipe(3, "vmsplice", 3000, ReaderCpu::Other)};
    const Verdict v = verdict(run, &registry);
    // One answer per placement, in the order the run measured them.
    ASSERT_EQ(v.answers.size(), 2u);
    EXPECT_EQ(v.answers[0],
              "To write 64 KiB chunks into a pipe, `vmsplice` with the reader on the writer's CPU is "
              "fastest: 8.00 GB/s, 1.6x plain `pipe-write` (5.00 GB/s).");
    EXPECT_EQ(v.answers[1],
              "To write 64 KiB chunks into a pipe, `vmsplice` with the reader on another CPU is "
              "fastest: 3.00 GB/s, 2.0x plain `pipe-write` (1.50 GB/s).");
    EXPECT_EQ(baselineCase(run, 3), 1u) << "the other-CPU vmsplice's baseline is the other-CPU pipe-write";

    // One placement: one answer, as before.
    run.cases = {pipe(0, "pipe-write", 5000, ReaderCpu::Same), pipe(1, "vmsplice", 8000, ReaderCpu::Same)};
    EXPECT_EQ(verdict(run, &registry).answers.size(), 1u);
}

// Issue 39: rows that differ only in io_uring's options, or in the pipe reader's kind, wait or the writer's
// pages, are named apart in the Summary (a user saw "`uring-random-read-direct` with 32 requests in flight"
// as both the fastest and the slowest).
TEST_F(VerdictTest, CasesThatDifferOnlyInIoUringOptionsOrThePipeReaderAreNamedApart)
{
    registry.add(std::make_unique<FakeStrategy>("uring-random-read-direct", behaviour));
    const auto uring = [](std::uint32_t index, const char* options, double rate) {
        CaseResult c = readCase(index, "uring-random-read-direct", 4096, rate, CacheState::Cold);
        c.testCase.queueDepth = 32;
        c.testCase.uring = parseUringOptions(options);
        return c;
    };
    run.cases = {uring(0, "plain", 60), uring(1, "fixedbufs+registerfiles", 80), uring(2, "sqpoll", 310)};
    Verdict v = verdict(run, &registry);
    ASSERT_FALSE(v.answers.empty());
    EXPECT_THAT(v.answers[0],
                HasSubstr("`uring-random-read-direct` with 32 requests in flight and io_uring's "
                          "sqpoll is fastest: 310.0 MB/s"));
    EXPECT_THAT(v.answers[0],
                HasSubstr("the slowest, `uring-random-read-direct` with 32 requests in flight and "
                          "a plain io_uring ring (60.0 MB/s)"));
    EXPECT_EQ(findingSubject(run.cases[2]),
              "case 3 (uring-random-read-direct 4 KiB, QD 32, io_uring's sqpoll)");
    run.cases = {uring(0, "auto", 60)};
    EXPECT_THAT(verdict(run, &registry).answers.at(0), Not(HasSubstr("io_uring")))
        << "auto, what these strategies always did, needs no words";

    const auto pipe = [](std::uint32_t index, const std::string& strategy, double rate, const char* kind,
                         const char* wait, const char* pages) {
        CaseResult c = okCase(index, strategy, 65536, rate, rate, TargetKind::Pipe);
        c.testCase.readerCpu = ReaderCpu::Other;
        c.testCase.extraAxes = {{"readerKinds", kind}, {"readerWaits", wait}, {"pipePages", pages}};
        return c;
    };
    run.cases = {pipe(0, "pipe-write", 1100, "thread", "block", "normal"),
                 pipe(1, "vmsplice", 7500, "thread", "spin", "normal"),
                 pipe(2, "vmsplice", 4200, "thread", "block", "thp"),
                 pipe(3, "pipe-write", 1300, "process", "block", "normal"),
                 pipe(4, "vmsplice", 7200, "process", "spin", "thp")};
    v = verdict(run, &registry);
    ASSERT_EQ(v.answers.size(), 2u) << "a reader thread and a reader process are answered apart";
    EXPECT_THAT(v.answers[0],
                HasSubstr("`vmsplice` with a spinning reader on another CPU is fastest: 7.50 GB/s"));
    EXPECT_THAT(v.answers[0], HasSubstr("plain `pipe-write` (1.10 GB/s)"));
    EXPECT_THAT(v.answers[1],
                HasSubstr("`vmsplice` with a spinning reader process on another CPU and huge pages "
                          "(thp) is fastest: 7.20 GB/s"));
    EXPECT_EQ(readerCpuWords(run.cases[3].testCase), "a reader process on another CPU");
    run.cases[3].testCase.readerCpu = ReaderCpu::Any;
    EXPECT_EQ(readerCpuWords(run.cases[3].testCase), "a reader process");
    EXPECT_EQ(readerCpuWords(run.cases[2].testCase), "the reader on another CPU");
    run.cases[2].testCase.readerCpu = ReaderCpu::Any;
    EXPECT_EQ(readerCpuWords(run.cases[2].testCase), "") << "a thread placed by the scheduler, as before";
}

TEST_F(VerdictTest, AnAxisDeclaredAsAnArrangementSplitsTheAnswersThroughItsDeclarationAlone)
{
    // A test-only axis, declared as an arrangement of the machine (as the memory limit is): nothing in
    // the verdict names it, yet each of its values gets its own answer against a baseline arranged alike.
    AxisSpec limit;
    limit.name = "io quota";
    limit.matrixKey = "ioQuotas";
    limit.resultKey = "ioQuota";
    limit.csvColumn = "io_quota";
    limit.appliesTo = [](const StrategyInfo&) {
        return true;
    };
    limit.arrangement = true;
    limit.shortText = [](const Case& c) {
        return "quota=" + extraAxisValue(c, "ioQuotas", "none");
    };
    declareExtraAxis(std::move(limit));
    auto limited = [](CaseResult c, const std::string& value) {
        c.testCase.extraAxes["ioQuotas"] = value;
        return c;
    };
    run.cases = {limited(okCase(0, "stdio", 65536, 3000, 2000), "none"),
                 limited(okCase(1, "write", 65536, 3100, 2400), "none"),
                 limited(okCase(2, "stdio", 65536, 900, 500), "256M"),
                 limited(okCase(3, "write", 65536, 1000, 800), "256M")};
    const Verdict v = verdict(run, &registry);
    EXPECT_TRUE(sameArrangement(run.cases[0].testCase, run.cases[1].testCase));
    EXPECT_FALSE(sameArrangement(run.cases[1].testCase, run.cases[3].testCase));
    EXPECT_EQ(arrangementText(run.cases[3].testCase), "quota=256M");
    EXPECT_EQ(baselineCase(run, 3), 2u) << "the limited write's baseline is the limited stdio";
    removeExtraAxis("ioQuotas");
    ASSERT_EQ(v.answers.size(), 2u);
    EXPECT_THAT(v.answers[0],
                HasSubstr("`write` is fastest: 2.40 GB/s durable (3.10 GB/s apparent), 1.2x plain "
                          "`stdio` (2.00 GB/s)"));
    EXPECT_THAT(v.answers[1],
                HasSubstr("`write` is fastest: 800.0 MB/s durable (1.00 GB/s apparent), 1.6x plain "
                          "`stdio` (500.0 MB/s)"));
}

TEST_F(VerdictTest, SeveralChunkSizesNameTheChunkOfTheWinner)
{
    run.cases = {okCase(0, "stdio", 4096, 500, 400), okCase(1, "write", 4096, 800, 500),
                 okCase(2, "stdio", 1 * kMiB, 1000, 900), okCase(3, "write", 1 * kMiB, 2000, 1800)};
    const Verdict v = verdict(run, &registry);
    ASSERT_EQ(v.answers.size(), 1u);
    EXPECT_EQ(v.answers[0],
              "To write to a file here, `write` with 1 MiB chunks is fastest: 1.80 GB/s durable "
              "(2.00 GB/s apparent), 2.0x plain `stdio` (900.0 MB/s).");
}

TEST_F(VerdictTest, ReadsAnsweredPerCacheState)
{
    run.cases = {readCase(0, "read", 1 * kMiB, 800, CacheState::Cold),
                 readCase(1, "read", 1 * kMiB, 6000, CacheState::Warm)};
    const Verdict v = verdict(run, &registry);
    ASSERT_EQ(v.answers.size(), 2u);
    EXPECT_THAT(v.answers[0],
                HasSubstr("from a cold cache in 1 MiB chunks here, `read` is fastest: 800.0 MB/s"));
    EXPECT_THAT(v.answers[1],
                HasSubstr("from a warm cache in 1 MiB chunks here, `read` is fastest: 6.00 GB/s"));
    EXPECT_THAT(v.answers[0], HasSubstr("it is plain `read` itself, the baseline"));

    run.cases = {okCase(0, "pipe-write", 65536, 3890, 3890, TargetKind::Pipe),
                 okCase(1, "vmsplice", 65536, 2910, 2910, TargetKind::Pipe)};
    EXPECT_THAT(
        verdict(run, &registry).answers[0],
        HasSubstr("`pipe-write` is fastest: 3.89 GB/s; it is plain `pipe-write` itself, the baseline, and "
                  "the next, `vmsplice`, reached 2.91 GB/s (0.75x)."));
}

// Issue 39: a read/write mix writes to the file too, so it is ranked by what reached the disk (its writes'
// fsync included): the buffered mix's page-cache writes made it faster only apparently.
TEST_F(VerdictTest, AMixIsRankedByItsDurableRate)
{
    for (const char* id : {"read-random", "read-random-direct"})
        registry.add(std::make_unique<FakeStrategy>(id, behaviour));
    const auto mix = [](std::uint32_t index, const std::string& strategy, double apparent, double durable) {
        CaseResult c = readCase(index, strategy, 4096, apparent, CacheState::Cold);
        c.durableMBps.median = durable;
        c.testCase.readPercent = 70;
        return c;
    };
    run.cases = {mix(0, "read-random", 900, 300), mix(1, "read-random-direct", 600, 550)};
    const Verdict durable = verdict(run, &registry);
    ASSERT_FALSE(durable.answers.empty());
    EXPECT_THAT(durable.answers[0],
                HasSubstr("`read-random-direct` is fastest: 550.0 MB/s durable (600.0 MB/s apparent)"));
    const Verdict apparent = verdict(run, &registry, Ranking::Apparent);
    ASSERT_FALSE(apparent.answers.empty());
    EXPECT_THAT(apparent.answers[0],
                HasSubstr("`read-random` is fastest: 900.0 MB/s apparent (300.0 MB/s durable)"));

    // The control: without the mix they are reads, one rate each, and the faster read leads.
    for (auto& c : run.cases)
        c.testCase.readPercent.reset();
    const Verdict reads = verdict(run, &registry);
    ASSERT_FALSE(reads.answers.empty());
    EXPECT_THAT(reads.answers[0],
                AllOf(HasSubstr("`read-random` is fastest: 900.0 MB/s"), Not(HasSubstr("durable"))));
}

TEST_F(VerdictTest, HighlightsAreTheMostImportantFindingsInPlainWords)
{
    run.host.ramBytes = 64 * kGiB; // everything fits in RAM: cache illusions
    CaseResult noisy = okCase(2, "stdio-unlocked", 65536, 3100, 3000);
    noisy.apparentMBps.cv = 0.2;
    noisy.durableMBps.cv = 0.2;
    CaseResult failed = okCase(3, "write", 4096, 0, 0);
    failed.status = Status::Failed;
    failed.reason = "write: No space left on device (ENOSPC)";
    failed.apparentMBps = {};
    failed.durableMBps = {};
    run.cases = {okCase(0, "stdio", 65536, 5000, 400), okCase(1, "write", 65536, 5000, 400), noisy, failed};
    const Verdict v = verdict(run, &registry);
    ASSERT_EQ(v.highlights.size(), 3u);
    EXPECT_EQ(v.highlights[0].kind, Finding::Kind::CacheIllusion);
    EXPECT_THAT(v.highlights[0].what, HasSubstr("(1 more case like it.)"));
    EXPECT_EQ(v.highlights[1].kind, Finding::Kind::Failed);
    EXPECT_THAT(v.highlights[1].what, HasSubstr("`write` with 4 KiB chunks failed: write: No space left"));
    EXPECT_EQ(v.highlights[2].kind, Finding::Kind::Noise);
    run.cancelled = true;
    const Verdict stopped = verdict(run, &registry);
    bool cancelled = false;
    for (const auto& h : stopped.highlights) {
        if (h.kind == Finding::Kind::Cancelled) {
            cancelled = true;
            EXPECT_EQ(h.what, "The run was stopped before its end; the answer covers the 4 cases that ran.");
        }
    }
    EXPECT_TRUE(cancelled);
    EXPECT_THAT(joined(v.terms), HasSubstr("95% CI (confidence interval)"));
    const std::regex caseNumber("case [0-9]");
    for (const auto& h : v.highlights) {
        EXPECT_FALSE(std::regex_search(h.what, caseNumber)) << h.what;
        EXPECT_FALSE(h.advice.empty());
    }
    for (const auto& a : v.answers)
        EXPECT_FALSE(std::regex_search(a, caseNumber)) << a;
}

// The highlights come in the order of importance their kinds declare, with the advice declared for them
// (core/analysis/finding_kinds.h); the fastest, the answer itself, is none of them.
TEST_F(VerdictTest, HighlightsFollowTheirKindsDeclarations)
{
    run.host.ramBytes = 64 * kGiB;
    CaseResult noisy = okCase(2, "stdio-unlocked", 65536, 3100, 3000);
    noisy.apparentMBps.cv = 0.2;
    noisy.durableMBps.cv = 0.2;
    CaseResult failed = okCase(3, "write", 4096, 0, 0);
    failed.status = Status::Failed;
    failed.reason = "write: No space left on device (ENOSPC)";
    failed.apparentMBps = {};
    failed.durableMBps = {};
    run.cases = {okCase(0, "stdio", 65536, 5000, 400), okCase(1, "write", 65536, 5000, 400), noisy, failed};
    run.cancelled = true;
    const Verdict v = verdict(run, &registry);
    ASSERT_EQ(v.highlights.size(), 3u);
    for (std::size_t i = 0; i < v.highlights.size(); ++i) {
        const FindingKindSpec& spec = findingKind(v.highlights[i].kind);
        EXPECT_NE(spec.mark, FindingMark::Answer);
        EXPECT_EQ(v.highlights[i].advice, spec.advice) << spec.id;
        if (i > 0) {
            EXPECT_LT(findingKind(v.highlights[i - 1].kind).importance, spec.importance) << spec.id;
        }
    }
    // The lowest importance of the kinds found comes first, among them the three marked bad.
    EXPECT_EQ(v.highlights[0].kind, Finding::Kind::CacheIllusion);
    EXPECT_EQ(v.highlights[1].kind, Finding::Kind::Failed);
    EXPECT_EQ(v.highlights[2].kind, Finding::Kind::Cancelled);
}

// Issue 17: a flush too fast for the disk is among what matters most, in plain words, with what to do.
TEST_F(VerdictTest, AFlushTooFastForTheDiskIsHighlightedWithAdvice)
{
    run.target.device = "sda";
    run.target.rotational = true;
    run.target.writeCache = "write back";
    CaseResult synced = okCase(0, "write", 65536, 100, 100);
    synced.testCase.sync = {SyncMode::FsyncEvery, 16};
    LatencyHistogram syncs;
    for (int i = 0; i < 50; ++i)
        syncs.record(400'000);
    synced.syncLatency = syncs.distribution();
    run.cases = {synced};
    const Verdict v = verdict(run, &registry);
    ASSERT_FALSE(v.highlights.empty());
    EXPECT_EQ(v.highlights[0].kind, Finding::Kind::FlushHonesty);
    EXPECT_THAT(
        v.highlights[0].what,
        HasSubstr("`write` with fsync every 16 writes and 64 KiB chunks: its sync calls took a median of "
                  "400 us"));
    EXPECT_THAT(v.highlights[0].advice, HasSubstr("whether it survives a power cut"));
    EXPECT_THAT(joined(v.terms), HasSubstr("fsync:"));
}

TEST_F(VerdictTest, LimitsAndTermsExplainedOnce)
{
    run.target.device = "vda";
    run.target.deviceModel = "QEMU HARDDISK";
    run.options.repetitions = 3;
    run.cases = {okCase(0, "stdio", 65536, 1000, 600), okCase(1, "write", 65536, 3850, 1140)};
    const Verdict v = verdict(run, &registry);
    const std::string limits = joined(v.limits);
    EXPECT_THAT(limits, HasSubstr("virtual disk (QEMU HARDDISK)"));
    EXPECT_THAT(limits, HasSubstr("Each case ran 3 times"));
    std::size_t durableTerms = 0;
    for (const auto& t : v.terms)
        durableTerms += t.starts_with("durable:") ? 1 : 0;
    EXPECT_EQ(durableTerms, 1u);
    EXPECT_THAT(joined(v.terms), AllOf(HasSubstr("apparent:"), HasSubstr("speed-up"), HasSubstr("chunk:")));
}

// A run of pipes moved no byte through the target's disk: what the disk cannot say is not among its limits
// (a reviewer read a write-back cache and a virtual disk under a pipe-only Summary).
TEST_F(VerdictTest, APipeOnlyRunHasNoLimitsOfTheDisk)
{
    run.target.device = "vda";
    run.target.deviceModel = "QEMU HARDDISK";
    run.target.writeCache = "write back";
    run.cases = {okCase(0, "pipe-write", 65536, 3000, 3000, TargetKind::Pipe),
                 okCase(1, "vmsplice", 65536, 7000, 7000, TargetKind::Pipe)};
    std::string limits = joined(verdict(run, &registry).limits);
    EXPECT_THAT(limits, Not(HasSubstr("virtual disk")));
    EXPECT_THAT(limits, Not(HasSubstr("write-back cache")));
    // The control: one write to a file brings both back.
    run.cases.push_back(okCase(2, "write", 65536, 3850, 1140));
    limits = joined(verdict(run, &registry).limits);
    EXPECT_THAT(limits, HasSubstr("virtual disk (QEMU HARDDISK)"));
    EXPECT_THAT(limits, HasSubstr("write-back cache"));
}

// Seen on the shared VM: a 512 MiB repetition during which the device wrote 2.4 GiB.
TEST_F(VerdictTest, OtherWritersOnTheDeviceAreALimit)
{
    run.cases = {okCase(0, "stdio", 65536, 1000, 600), okCase(1, "write", 65536, 3850, 1140)};
    for (auto& c : run.cases) {
        for (auto& r : c.repetitions) {
            r.deviceObserved = true;
            r.deviceWrittenBytes = r.bytes + r.bytes / 20; // the journal and metadata on top
        }
    }
    EXPECT_THAT(joined(verdict(run, &registry).limits), Not(HasSubstr("other programs")));
    for (auto& r : run.cases[1].repetitions)
        r.deviceWrittenBytes = r.bytes * 5;
    EXPECT_THAT(
        joined(verdict(run, &registry).limits),
        HasSubstr("The device wrote 72.6 GiB while the cases wrote 24 GiB: other programs were writing"));
}

TEST_F(VerdictTest, LinesAreHeadedSummaryAndWrapped)
{
    run.cases = {okCase(0, "stdio", 65536, 1000, 600), okCase(1, "write", 65536, 3850, 1140)};
    const auto lines = verdictLines(verdict(run, &registry), 60);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines[0], "Summary");
    for (const auto& l : lines)
        EXPECT_LE(l.size(), 60u) << l;
    const std::string text = joined(lines);
    EXPECT_THAT(text, AllOf(HasSubstr("Question: Which way is fastest"), HasSubstr("Answer:"),
                            HasSubstr("`write` is")));
    EXPECT_THAT(text, Not(HasSubstr("3.85\n"))) << "a number stays with its unit";

    run.cases.clear();
    EXPECT_THAT(joined(verdictLines(verdict(run, &registry))), HasSubstr("no answer"));
}

// A replay is answered with its time inside the calls against the program's; the "differs by more than 15%"
// sentence fires only beyond 15%, never on a faithful replay, and a replay is never ranked as a way to write.
TEST_F(VerdictTest, AReplayIsAnsweredAgainstItsProgramAndFlaggedOnlyBeyondFifteenPercent)
{
    const auto replayRun = [&](double insideSeconds) {
        RunResult r = run;
        CaseResult c = okCase(0, "replay", 4096, 100, 90);
        c.testCase.extraAxes["replay"] = "/traces/app.iolab-trace";
        ReplayRecord record;
        record.program = "/usr/bin/sqlite3 db";
        record.recordedInsideSeconds = 1.0;
        record.writeCalls = 300;
        record.syncCalls = 100;
        record.bytesWritten = 1228800;
        c.replay = record;
        for (auto& rep : c.repetitions)
            rep.insideSeconds = insideSeconds;
        r.cases = {c};
        return verdict(r, &registry);
    };
    const Verdict faithful = replayRun(1.10);
    ASSERT_FALSE(faithful.answers.empty());
    EXPECT_THAT(faithful.answers.front(), HasSubstr("sqlite3's file I/O"));
    EXPECT_THAT(faithful.answers.front(), HasSubstr("(1.10x)"));
    EXPECT_THAT(faithful.answers.front(), Not(HasSubstr("differs")));
    EXPECT_THAT(faithful.answers.front(), Not(HasSubstr("fastest")));
    EXPECT_THAT(faithful.question, HasSubstr("replayed call for call"));
    const Verdict off = replayRun(1.30);
    EXPECT_THAT(off.answers.front(), HasSubstr("differs from the recording by more than 15%"));
}
