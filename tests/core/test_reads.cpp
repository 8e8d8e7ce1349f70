// SPDX-License-Identifier: MIT
// The read side of the engine without an OS: file-set specs and sizes, data-set plans, the read axes of a
// matrix, data sets in a (fake) workspace, percentiles and the cache warnings.
#include "core/analysis/warnings.h"
#include "core/base/error.h"
#include "core/base/stats.h"
#include "core/base/units.h"
#include "core/engine/data_sets.h"
#include "core/engine/file_set.h"
#include "core/engine/registry.h"
#include "core/engine/runner.h"
#include "core/formats/matrix_json.h"
#include "core/formats/presets.h"
#include "core/model/matrix.h"
#include "tests/support/fakes.h"
#include "tests/support/input_error.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

double meanOf(const std::vector<std::uint64_t>& sizes)
{
    return static_cast<double>(std::accumulate(sizes.begin(), sizes.end(), std::uint64_t{0})) /
           static_cast<double>(sizes.size());
}

// A strategy that only declares itself: enough for matrix expansion.
class DeclaredStrategy final : public Strategy
{
public:
    explicit DeclaredStrategy(StrategyInfo info) : m_info(std::move(info)) {}
    const StrategyInfo& info() const override { return m_info; }
    std::unique_ptr<Job> prepare(const JobSpec&, Outcome& outcome) const override
    {
        outcome = {Status::Failed, 0, "prepare", "declared only"};
        return nullptr;
    }

private:
    StrategyInfo m_info;
};

StrategyInfo readerInfo(const char* id, DataLayout layout, Parallelism parallelism = Parallelism::Threads)
{
    StrategyInfo info;
    info.id = id;
    info.direction = Direction::Read;
    info.layout = layout;
    info.hints = {ReadHint::Normal, ReadHint::Sequential, ReadHint::Random};
    info.hintRefusal = "no such hint here";
    info.parallelism = parallelism;
    info.targets = {TargetKind::Directory};
    info.syncModes = {SyncMode::None};
    return info;
}

class ReadMatrix : public ::testing::Test
{
protected:
    ReadMatrix()
    {
        StrategyInfo writer;
        writer.id = "writer";
        writer.targets = {TargetKind::Directory};
        writer.syncModes = {SyncMode::None};
        m_registry.add(std::make_unique<DeclaredStrategy>(writer));
        m_registry.add(std::make_unique<DeclaredStrategy>(readerInfo("reader", DataLayout::FilePerThread)));
        m_registry.add(std::make_unique<DeclaredStrategy>(
            readerInfo("serial", DataLayout::FileSet, Parallelism::Single)));
        m_registry.add(std::make_unique<DeclaredStrategy>(readerInfo("pool", DataLayout::FileSet)));
        m_registry.add(std::make_unique<DeclaredStrategy>(
            readerInfo("each", DataLayout::FileSet, Parallelism::PerFile)));
    }
    Registry m_registry;
    TargetInfo m_target;
};

} // namespace

TEST(FileSetSpec, ParsesEverySpellingAndPrintsItBack)
{
    const auto fixed = parseFileSet("2000x4K");
    EXPECT_EQ(fixed.files, 2000u);
    EXPECT_EQ(fixed.mix, SizeMix::Fixed);
    EXPECT_EQ(fixed.minBytes, 4096u);
    const auto uniform = parseFileSet("500x1K-64K");
    EXPECT_EQ(uniform.mix, SizeMix::Uniform);
    EXPECT_EQ(uniform.minBytes, 1024u);
    EXPECT_EQ(uniform.maxBytes, 65536u);
    const auto article = parseFileSet("1000xarticle-10k-large");
    EXPECT_EQ(article.mix, SizeMix::Article);
    EXPECT_EQ(article.minBytes, 10'008u);
    EXPECT_EQ(article.maxBytes, 138'634'176u);
    for (const char* text : {"2000x4K", "500x1K-64K", "1000xarticle-2b", "3x1"})
        EXPECT_EQ(toString(parseFileSet(text)), text);
}

TEST(FileSetSpec, RefusesNonsenseWithTheAcceptedForms)
{
    EXPECT_THAT(inputError([] { parseFileSet("4K"); }), HasSubstr("COUNTxSIZE"));
    EXPECT_THAT(inputError([] { parseFileSet("0x4K"); }), HasSubstr("file count must be from 1"));
    EXPECT_THAT(inputError([] { parseFileSet("10xarticle-9z"); }), HasSubstr("article-2b"));
    EXPECT_THAT(inputError([] { parseFileSet("10x64K-1K"); }), HasSubstr("smallest size is larger"));
    EXPECT_THAT(inputError([] { parseFileSet("10x0"); }), HasSubstr("0 bytes"));
    EXPECT_THAT(inputError([] { parseFileSet("10x2G"); }), HasSubstr("sequential read strategies"));
}

TEST(FileSetSizes, FixedAndUniformFollowTheirDefinition)
{
    const auto fixed = fileSetSizes(parseFileSet("100x4K"));
    EXPECT_TRUE(std::all_of(fixed.begin(), fixed.end(), [](auto s) { return s == 4096; }));
    const auto uniform = fileSetSizes(parseFileSet("1000x1K-3K"));
    EXPECT_EQ(*std::min_element(uniform.begin(), uniform.end()), 1025u);
    EXPECT_EQ(*std::max_element(uniform.begin(), uniform.end()), 3071u);
    EXPECT_NEAR(meanOf(uniform), 2048, 2);
}

TEST(FileSetSizes, ArticleMixesKeepTheirBoundsAndMean)
{
    for (const auto& mix : articleMixes()) {
        const auto sizes = fileSetSizes(parseFileSet(fmt::format("20000x{}", mix.name)));
        EXPECT_GE(*std::min_element(sizes.begin(), sizes.end()), mix.minBytes) << mix.name;
        EXPECT_LE(*std::max_element(sizes.begin(), sizes.end()), mix.maxBytes) << mix.name;
        // Quantile sampling misses only the tail above the last quantile: within 10% of the mean.
        EXPECT_NEAR(meanOf(sizes), static_cast<double>(mix.meanBytes),
                    0.10 * static_cast<double>(mix.meanBytes))
            << mix.name;
        // Heavy-tailed: most files are below the mean.
        const auto below =
            std::count_if(sizes.begin(), sizes.end(), [&](auto s) { return s < mix.meanBytes; });
        EXPECT_GT(below, 14000) << mix.name;
    }
}

TEST(FileSetSizes, DeterministicAndShuffled)
{
    const auto spec = parseFileSet("2000xarticle-2b");
    const auto a = fileSetSizes(spec);
    EXPECT_EQ(a, fileSetSizes(spec));
    EXPECT_FALSE(std::is_sorted(a.begin(), a.end()));
    EXPECT_EQ(std::accumulate(a.begin(), a.end(), std::uint64_t{0}), fileSetBytes(spec));
}

TEST(FileSetSizes, ParetoShapeReproducesTheMean)
{
    const double shape = paretoShapeForMean(2, 25'720'320, 40'953);
    EXPECT_GT(shape, 0.0);
    // Against a direct numeric integration of the bounded Pareto density.
    const double lo = 2;
    const double hi = 25'720'320;
    const double norm = 1 - std::pow(lo / hi, shape);
    double mean = 0;
    const int steps = 200000;
    const double a = std::log(lo);
    const double b = std::log(hi);
    for (int i = 0; i < steps; ++i) {
        const double x = std::exp(a + (b - a) * (i + 0.5) / steps);
        const double density = shape * std::pow(lo, shape) * std::pow(x, -shape - 1) / norm;
        mean += x * density * x * (b - a) / steps; // dx = x d(log x)
    }
    EXPECT_NEAR(mean, 40'953, 40'953 * 0.01);
}

TEST(DataSetPlan, FileSetsNestTwoDeepWithAtMost64FilesPerFolder)
{
    Case c;
    c.strategy = "pool";
    c.fileSet = parseFileSet("2000x1K-4K");
    const auto plan = planDataSet(c, DataLayout::FileSet, 3);
    ASSERT_EQ(plan.files.size(), 2000u);
    EXPECT_EQ(plan.directories.front(), "set-3");
    std::map<std::string, int> perFolder;
    std::set<std::string> paths;
    std::set<std::uint64_t> offsets;
    std::uint64_t total = 0;
    for (const auto& f : plan.files) {
        const auto folder = f.relativePath.substr(0, f.relativePath.rfind('/'));
        EXPECT_NE(std::find(plan.directories.begin(), plan.directories.end(), folder),
                  plan.directories.end());
        EXPECT_EQ(std::count(f.relativePath.begin(), f.relativePath.end(), '/'), 3) << f.relativePath;
        ++perFolder[folder];
        paths.insert(f.relativePath);
        offsets.insert(f.patternOffset);
        total += f.bytes;
    }
    EXPECT_EQ(paths.size(), 2000u);
    EXPECT_GT(offsets.size(), 1000u) << "files start at different places of the pattern";
    for (const auto& [folder, count] : perFolder)
        EXPECT_LE(count, 64) << folder;
    EXPECT_EQ(total, plan.totalBytes);
    // Parents come before their children, so they can be created in order and removed in reverse.
    for (std::size_t i = 0; i < plan.directories.size(); ++i) {
        const auto& d = plan.directories[i];
        const auto parent = d.substr(0, d.rfind('/'));
        if (parent != d) {
            EXPECT_LT(std::find(plan.directories.begin(), plan.directories.end(), parent) -
                          plan.directories.begin(),
                      static_cast<std::ptrdiff_t>(i));
        }
    }
}

TEST(DataSetPlan, PerThreadFilesTakeTheWritersShares)
{
    Case c;
    c.threads = 3;
    c.totalBytes = 10'000;
    const auto plan = planDataSet(c, DataLayout::FilePerThread, 1);
    ASSERT_EQ(plan.files.size(), 3u);
    EXPECT_EQ(plan.files[0].bytes, 3333u);
    EXPECT_EQ(plan.files[2].bytes, 3334u);
    EXPECT_EQ(planDataSet(c, DataLayout::SharedFile, 1).files.size(), 1u);
    EXPECT_NE(dataSetKey(c, DataLayout::SharedFile), dataSetKey(c, DataLayout::FilePerThread));
}

TEST(Percentile, NearestRankOnHandComputedValues)
{
    const std::vector<double> v{5, 1, 4, 2, 3, 10, 9, 8, 7, 6};
    EXPECT_DOUBLE_EQ(percentile(v, 50), 5);
    EXPECT_DOUBLE_EQ(percentile(v, 99), 10);
    EXPECT_DOUBLE_EQ(percentile(v, 90), 9);
    EXPECT_DOUBLE_EQ(percentile(v, 0), 1);
    EXPECT_DOUBLE_EQ(percentile(std::vector<double>{}, 50), 0);

    // 99.9% of 100,000 values is the 99,900th, not the 99,901st: 99.9 / 100 * 100000 rounds a hair above a
    // whole number in binary. Here the 100 slowest are 40 ms and the rest 10 us.
    std::vector<double> calls(100000, 10e-6);
    std::fill(calls.end() - 100, calls.end(), 40e-3);
    EXPECT_DOUBLE_EQ(percentile(calls, 99.9), 10e-6);
    EXPECT_DOUBLE_EQ(percentile(calls, 99.91), 40e-3);
    EXPECT_DOUBLE_EQ(percentile(calls, 100), 40e-3);
}

TEST_F(ReadMatrix, ReadsTakeTheirDefaultsAndWritesRefuseTheReadAxes)
{
    MatrixGroup g;
    g.strategies = {"writer", "reader"};
    g.chunks = {4096};
    g.sizes = {kMiB};
    const auto plain = expand(Matrix{"m", "", {g}}, m_registry, m_target);
    ASSERT_EQ(plain.cases.size(), 2u);
    EXPECT_EQ(plain.cases[0].direction, Direction::Write);
    EXPECT_EQ(plain.cases[0].cache, CacheState::NotApplicable);
    EXPECT_EQ(plain.cases[1].direction, Direction::Read);
    EXPECT_EQ(plain.cases[1].hint, ReadHint::Normal);
    EXPECT_EQ(plain.cases[1].cache, CacheState::Cold);
    EXPECT_EQ(plain.cases[1].label(), "reader chunk=4K hint=normal cache=cold threads=1 size=1M");

    g.hints = {ReadHint::Sequential, ReadHint::NoReuse};
    g.caches = {CacheState::Warm};
    const auto axes = expand(Matrix{"m", "", {g}}, m_registry, m_target);
    ASSERT_EQ(axes.cases.size(), 1u);
    EXPECT_EQ(axes.cases[0].hint, ReadHint::Sequential);
    EXPECT_EQ(axes.cases[0].cache, CacheState::Warm);
    ASSERT_EQ(axes.refused.size(), 3u);
    EXPECT_THAT(axes.refused[0].reason, HasSubstr("applies only to reads"));
    EXPECT_THAT(axes.refused[2].reason, HasSubstr("does not take read hint noreuse: no such hint here"));
}

TEST_F(ReadMatrix, FileSetReadersTakeTheSetsAndTheirParallelism)
{
    MatrixGroup g;
    g.strategies = {"serial", "pool", "each"};
    g.chunks = {64 * kKiB};
    g.threads = {1, 8, 256};
    g.fileSets = {parseFileSet("500x4K"), parseFileSet("2000x4K")};
    const auto e = expand(Matrix{"m", "", {g}}, m_registry, m_target);
    std::vector<std::string> labels;
    for (const auto& c : e.cases) {
        labels.push_back(c.label());
        EXPECT_EQ(c.totalBytes, c.fileSet.files * 4096ULL);
    }
    EXPECT_THAT(labels,
                ::testing::ElementsAre("serial chunk=64K hint=normal cache=cold threads=1 files=500x4K",
                                       "serial chunk=64K hint=normal cache=cold threads=1 files=2000x4K",
                                       "pool chunk=64K hint=normal cache=cold threads=1 files=500x4K",
                                       "pool chunk=64K hint=normal cache=cold threads=8 files=500x4K",
                                       "pool chunk=64K hint=normal cache=cold threads=256 files=500x4K",
                                       "pool chunk=64K hint=normal cache=cold threads=1 files=2000x4K",
                                       "pool chunk=64K hint=normal cache=cold threads=8 files=2000x4K",
                                       "pool chunk=64K hint=normal cache=cold threads=256 files=2000x4K",
                                       "each chunk=64K hint=normal cache=cold threads=500 files=500x4K"));
    ASSERT_EQ(e.refused.size(), 1u);
    EXPECT_THAT(e.refused[0].reason, HasSubstr("would start 2000 threads at once, over the limit of 1024"));
}

TEST_F(ReadMatrix, BadReadInputIsRefusedWithAReason)
{
    MatrixGroup g;
    g.strategies = {"pool"};
    g.chunks = {4096};
    EXPECT_THAT(inputError([&] {
                    validate(Matrix{"m", "", {g}}, m_registry);
                }),
                HasSubstr("no file set given"));
    g.fileSets = {parseFileSet("10x4K")};
    g.threads = {1025};
    EXPECT_THAT(inputError([&] {
                    validate(Matrix{"m", "", {g}}, m_registry);
                }),
                HasSubstr("outside the allowed range 1 to 1024"));
    EXPECT_THAT(inputError([] {
                    parseMatrixJson(R"({"strategies":["pool"],"chunks":["4K"],"files":["lots"]})", "m.json");
                }),
                HasSubstr("m.json.files[0]"));
    EXPECT_THAT(inputError([] {
                    parseMatrixJson(R"({"strategies":["x"],"chunks":["4K"],"hints":["fast"]})", "m.json");
                }),
                HasSubstr("unknown read hint 'fast'"));
}

TEST_F(ReadMatrix, ReadAxesRoundTripThroughJson)
{
    MatrixGroup g;
    g.strategies = {"pool", "reader"};
    g.chunks = {4096};
    g.sizes = {kMiB};
    g.hints = {ReadHint::Random};
    g.caches = {CacheState::Cold, CacheState::Warm};
    g.fileSets = {parseFileSet("100xarticle-1k")};
    const Matrix m{"m", "d", {g}};
    EXPECT_EQ(matrixFromJson(matrixToJson(m), "m"), m);
}

TEST(DataSets, WrittenOnceReusedAndRemovedAtTheEnd)
{
    FakeWorkspace workspace;
    std::atomic<bool> stop{false};
    DataSets sets(workspace, stop);
    Case c;
    c.fileSet = parseFileSet("100x4K");
    Outcome outcome;
    const DataSet* first = sets.prepare(c, DataLayout::FileSet, true, outcome);
    ASSERT_NE(first, nullptr) << outcome.message;
    EXPECT_EQ(workspace.dataFiles.size(), 100u);
    EXPECT_EQ(first->totalBytes, 409'600u);
    EXPECT_EQ(sets.prepare(c, DataLayout::FileSet, true, outcome), first) << "the same set is reused";
    EXPECT_EQ(workspace.dataFiles.size(), 100u);
    sets.removeAll();
    EXPECT_TRUE(workspace.live().empty()) << "files and folders all removed";
}

TEST(DataSets, TooLargeForTheFreeSpaceIsRefusedBeforeWriting)
{
    FakeWorkspace workspace;
    workspace.free = 70 * kMiB;
    std::atomic<bool> stop{false};
    DataSets sets(workspace, stop);
    Case c;
    c.fileSet = parseFileSet("1000x64K"); // 62.5 MiB plus a block per file (3.9 MiB) and the 4 MiB margin
    Outcome outcome;
    EXPECT_EQ(sets.prepare(c, DataLayout::FileSet, true, outcome), nullptr);
    EXPECT_EQ(outcome.status, Status::Refused);
    EXPECT_THAT(outcome.message, HasSubstr("needs 70.4 MiB of free space"));
    EXPECT_THAT(outcome.message, HasSubstr("nothing was written"));
    EXPECT_TRUE(workspace.dataFiles.empty());
    EXPECT_TRUE(workspace.live().empty());
}

// A run whose cases take turns needs every read case's set until its last round: a set that does not fit
// beside the earlier ones is refused, saying why, and the earlier ones stay.
TEST(DataSets, CasesTakingTurnsKeepTheEarlierSetsAndSaySoWhenTheNextDoesNotFit)
{
    FakeWorkspace workspace;
    workspace.free = 50 * kMiB;
    std::atomic<bool> stop{false};
    Case small;
    small.fileSet = parseFileSet("10x4K");
    Case large;
    large.fileSet = parseFileSet("600x64K"); // 37.5 MiB, 40 MiB with its blocks: fits alone, not beside
    for (const bool inTurns : {false, true}) {
        DataSets sets(workspace, stop, !inTurns);
        Outcome outcome;
        ASSERT_NE(sets.prepare(small, DataLayout::FileSet, true, outcome), nullptr) << outcome.message;
        workspace.free = 40 * kMiB; // the first set took its room
        const DataSet* second = sets.prepare(large, DataLayout::FileSet, true, outcome);
        if (!inTurns) {
            EXPECT_EQ(second, nullptr) << "still too large once the first set is gone";
            EXPECT_THAT(outcome.message, Not(HasSubstr("take turns")));
            EXPECT_TRUE(workspace.live().empty()) << "the first set was removed to make room";
        } else {
            EXPECT_EQ(second, nullptr);
            EXPECT_EQ(outcome.status, Status::Refused);
            EXPECT_THAT(outcome.message, HasSubstr("the cases take turns"));
            EXPECT_FALSE(workspace.live().empty()) << "the first set is kept";
        }
        sets.removeAll();
        workspace.free = 50 * kMiB;
    }
}

TEST(DataSets, TheSpaceMarginIsFivePercentAndAtLeastFourMiB)
{
    EXPECT_EQ(spaceMarginBytes(0), 4 * kMiB);
    EXPECT_EQ(spaceMarginBytes(1 * kMiB), 4 * kMiB);
    EXPECT_EQ(spaceMarginBytes(80 * kMiB), 4 * kMiB);
    EXPECT_EQ(spaceMarginBytes(100 * kMiB), 5 * kMiB);
    EXPECT_EQ(spaceMarginBytes(1 * kGiB), kGiB / 20);
    EXPECT_EQ(spaceMarginBytes(1ULL << 44), (1ULL << 44) / 20); // 16 TiB: no overflow
    EXPECT_EQ(spaceMarginBytes(101), 4 * kMiB);
    // A 1 MiB write case: its data, 1 MiB of scratch and the margin fit in an 8 MiB filesystem.
    Case c;
    c.totalBytes = 1 * kMiB;
    EXPECT_EQ(spaceNeeded(c), 6 * kMiB);
    c.totalBytes = 1 * kGiB;
    EXPECT_EQ(spaceNeeded(c), kGiB + kMiB + kGiB / 20);
    // Preallocate rewrite writes one chunk per thread again and again: a terabyte of 8 KiB rewrites by two
    // threads needs 16 KiB of data.
    c.totalBytes = 1024 * kGiB;
    c.chunkBytes = 8 * kKiB;
    c.threads = 2;
    c.preallocate = Preallocate::Rewrite;
    EXPECT_EQ(spaceNeeded(c), 16 * kKiB + 2 * kMiB + 4 * kMiB);
}

TEST(DataSets, CancelWhileWritingRemovesWhatWasWritten)
{
    FakeWorkspace workspace;
    std::atomic<bool> stop{true};
    DataSets sets(workspace, stop);
    Case c;
    c.fileSet = parseFileSet("10x4K");
    Outcome outcome;
    EXPECT_EQ(sets.prepare(c, DataLayout::FileSet, true, outcome), nullptr);
    EXPECT_EQ(outcome.status, Status::Cancelled);
    EXPECT_TRUE(workspace.live().empty());
}

TEST(CacheWarnings, ColdReadsThatHitTheCacheOrCannotTellAreFlagged)
{
    CaseResult r;
    r.testCase.direction = Direction::Read;
    r.testCase.cache = CacheState::Cold;
    r.dataSetBytes = 100 * kMiB;
    r.cacheMethod = "evicted somehow";
    for (std::uint32_t i = 0; i < 3; ++i) {
        RepetitionResult rep;
        rep.index = i;
        rep.apparentMBps = 1000;
        rep.returnSeconds = 1;
        rep.cachedBytes = 0;
        r.repetitions.push_back(rep);
    }
    r.apparentMBps = summarize(std::vector<double>{1000, 1000, 1000});
    HostInfo host;
    host.ramBytes = kGiB;
    EXPECT_TRUE(caseWarnings(r, &host).empty());

    r.repetitions[1].cachedBytes = 60 * kMiB;
    const auto cached = caseWarnings(r, &host);
    ASSERT_EQ(cached.size(), 1u);
    EXPECT_THAT(cached[0], HasSubstr("60% of the data set (60 MiB of 100 MiB) was still in the page cache"));

    for (auto& rep : r.repetitions)
        rep.cachedBytes.reset();
    const auto unknown = caseWarnings(r, &host);
    ASSERT_EQ(unknown.size(), 1u);
    EXPECT_THAT(unknown[0], HasSubstr("cannot show whether the eviction (evicted somehow) worked"));
    host.ramBytes = 64 * kMiB;
    EXPECT_TRUE(caseWarnings(r, &host).empty()) << "a set larger than RAM cannot stay cached";
    r.testCase.cache = CacheState::Warm;
    host.ramBytes = kGiB;
    EXPECT_TRUE(caseWarnings(r, &host).empty()) << "warm is asked for";
}

TEST(Presets, ReadPresetsExpandToTheirSweeps)
{
    for (const char* name : {"small-files", "read-seq", "cdm"})
        ASSERT_TRUE(findPreset(name).has_value()) << name;
    EXPECT_FALSE(findPreset("cdm-like").has_value()) << "cdm replaced it: threads no longer fake a queue";
    const auto small = *findPreset("small-files");
    ASSERT_EQ(small.groups.size(), 1u);
    EXPECT_EQ(small.groups[0].threads, (std::vector<std::uint32_t>{1, 2, 4, 8, 16, 32, 64, 128, 256}));
    EXPECT_EQ(small.groups[0].fileSets.size(), 4u);
    // CrystalDiskMark's four rows, read and write, through each OS's queue.
    const auto cdm = *findPreset("cdm");
    ASSERT_EQ(cdm.groups.size(), 6u);
    EXPECT_EQ(cdm.groups[2].strategies,
              (std::vector<std::string>{"uring-write-direct", "overlapped-write-direct"}));
    EXPECT_EQ(cdm.groups[2].chunks, std::vector<std::uint64_t>{1 << 20});
    EXPECT_EQ(cdm.groups[2].queueDepths, (std::vector<std::uint32_t>{1, 8}));
    EXPECT_EQ(cdm.groups[3].chunks, std::vector<std::uint64_t>{4096});
    EXPECT_EQ(cdm.groups[3].queueDepths, (std::vector<std::uint32_t>{1, 32}));
    EXPECT_EQ(cdm.groups[5].strategies,
              (std::vector<std::string>{"uring-random-read-direct", "overlapped-random-read-direct"}));
}
