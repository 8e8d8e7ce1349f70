// SPDX-License-Identifier: MIT
// Case axes as declarations (issue 15 §1): old files open and save byte for byte as before, and an axis added
// through its declaration alone shows in expansion, refusal, matrix and result JSON, CSV and the case label.
#include "core/formats/matrix_json.h"
#include "core/formats/result_csv.h"
#include "core/formats/result_json.h"
#include "core/model/axes.h"
#include "core/model/matrix_draft.h"
#include "tests/support/fakes.h"
#include "tests/support/test_axis.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace iolab {
namespace {

using test::FakeBehaviour;
using test::FakeStrategy;
using ::testing::HasSubstr;

std::string dataFile(const std::string& name)
{
    const std::string path = std::string(IOLAB_SOURCE_DIR) + "/tests/data/" + name;
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << path;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Files written by IOLab before the axes were declarations (commit cc8c769): read and written again, they are
// the same bytes the old code produced, plus the keys of the axes declared since (the reader CPU: "any", as
// those runs let the scheduler place a pipe's reader).
struct GoldenFiles
{
    const char* result;
    const char* resaved; // what the old code wrote after reading `result`, with the newer axes
    const char* csv;     // the old code's repetition CSV of `result`, with the newer axes' columns
};

class GoldenResult : public ::testing::TestWithParam<GoldenFiles>
{};

TEST_P(GoldenResult, ReadsAndWritesAsBefore)
{
    const RunResult result = resultFromJson(dataFile(GetParam().result), GetParam().result);
    // After a change that adds to every file (a new axis, a schema version), IOLAB_REWRITE_GOLDEN=1 writes
    // the expected files anew; read their diff before committing them.
    if (std::getenv("IOLAB_REWRITE_GOLDEN") != nullptr) {
        const std::string dir = std::string(IOLAB_SOURCE_DIR) + "/tests/data/";
        std::ofstream(dir + GetParam().resaved, std::ios::binary) << resultToJson(result).dump(1) << "\n";
        std::ofstream(dir + GetParam().csv, std::ios::binary) << toCsv(repetitionRows(result));
    }
    EXPECT_EQ(resultToJson(result).dump(1) + "\n", dataFile(GetParam().resaved));
    EXPECT_EQ(toCsv(repetitionRows(result)), dataFile(GetParam().csv));
}

INSTANTIATE_TEST_SUITE_P(
    OldFiles, GoldenResult,
    ::testing::Values(GoldenFiles{"golden-result.json", "golden-result.resaved.json", "golden-result.csv"},
                      GoldenFiles{"golden-axes-result.json", "golden-axes-result.resaved.json",
                                  "golden-axes-result.csv"}));

TEST(GoldenMatrix, EveryAxisReadsAndWritesAsBefore)
{
    const std::string text = dataFile("golden-axes-matrix.json");
    const Matrix m = parseMatrixJson(text, "golden-axes-matrix.json");
    ASSERT_EQ(m.groups.size(), 2u);
    EXPECT_EQ(m.groups[1].hints, (std::vector<ReadHint>{ReadHint::Sequential, ReadHint::NoReuse}));
    EXPECT_EQ(m.groups[0].preallocations,
              (std::vector<Preallocate>{Preallocate::Fallocate, Preallocate::Overwrite}));
    EXPECT_EQ(matrixToJson(m).dump(2) + "\n", text);
}

TEST(CaseAxes, EachKeyIsDeclaredOnce)
{
    for (auto key : {&AxisSpec::matrixKey, &AxisSpec::resultKey, &AxisSpec::csvColumn, &AxisSpec::cliFlag}) {
        std::vector<std::string> keys;
        for (const auto& axis : caseAxes())
            if (!(axis.*key).empty())
                keys.push_back(axis.*key);
        std::sort(keys.begin(), keys.end());
        EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end()) << keys.front();
    }
    for (const auto& axis : caseAxes()) {
        EXPECT_TRUE(axis.format && axis.parse) << axis.name;
        EXPECT_EQ(axis.matrixKey.empty(), !axis.addGroupValue) << axis.name;
    }
}

class TestOnlyAxis : public ::testing::Test
{
protected:
    TestOnlyAxis()
    {
        m_registry.add(std::make_unique<FakeStrategy>("fake", m_behaviour));
        auto reader = std::make_unique<FakeStrategy>("fake-read", m_behaviour);
        reader->mutableInfo().direction = Direction::Read;
        reader->mutableInfo().syncModes = {SyncMode::None};
        reader->mutableInfo().preallocations = {Preallocate::None};
        m_registry.add(std::move(reader));
    }

    Matrix matrix(std::vector<std::string> depths, std::vector<std::uint32_t> threads = {1}) const
    {
        MatrixGroup g;
        g.strategies = {"fake"};
        g.chunks = {4096};
        g.sizes = {1 << 20};
        g.threads = std::move(threads);
        for (const auto& d : depths)
            findAxisByMatrixKey("depths")->addGroupValue(g, d, "");
        return Matrix{"depths", {}, {g}};
    }

    test::QueueDepthAxis m_axis;
    FakeBehaviour m_behaviour;
    Registry m_registry;
    TargetInfo m_target{.path = "/fake", .device = "fakedev"};
};

TEST_F(TestOnlyAxis, ExpandsWithItsDefaultAndItsValues)
{
    auto e = expand(matrix({}), m_registry, m_target);
    ASSERT_EQ(e.cases.size(), 1u);
    EXPECT_EQ(e.cases[0].extraAxes.at("depths"), "1") << "the declared default";
    EXPECT_THAT(e.cases[0].label(), HasSubstr(" depth=1"));

    e = expand(matrix({"1", "08", "128"}), m_registry, m_target);
    ASSERT_EQ(e.cases.size(), 3u);
    EXPECT_EQ(e.cases[1].extraAxes.at("depths"), "8") << "values are kept in their canonical spelling";
    EXPECT_EQ(caseCount(matrix({"1", "8", "128"}, {1, 2}), m_registry), 6u);
}

TEST_F(TestOnlyAxis, RefusesWithItsDeclaredReason)
{
    const auto e = expand(matrix({"1", "8"}, {1, 2}), m_registry, m_target);
    ASSERT_EQ(e.cases.size(), 3u);
    ASSERT_EQ(e.refused.size(), 1u);
    EXPECT_EQ(e.refused[0].reason, "queue depth 8 is for one thread; the case has 2");

    Matrix reads = matrix({"4"});
    reads.groups[0].strategies = {"fake-read"};
    const auto r = expand(reads, m_registry, m_target);
    ASSERT_EQ(r.refused.size(), 1u);
    EXPECT_EQ(r.refused[0].reason, "fake-read takes no test depth (4)");

    reads.groups[0].extraAxes.clear();
    const auto plain = expand(reads, m_registry, m_target);
    ASSERT_EQ(plain.cases.size(), 1u);
    EXPECT_TRUE(plain.cases[0].extraAxes.empty())
        << "a strategy that does not take the axis carries no value";
}

TEST_F(TestOnlyAxis, BadValuesNameTheValue)
{
    MatrixGroup g;
    EXPECT_THROW(findAxisByMatrixKey("depths")->addGroupValue(g, "deep", ""), InputError);
    try {
        parseMatrixJson(R"({"strategies": ["fake"], "chunks": [1], "sizes": [1], "depths": [1, 300]})",
                        "m.json");
        FAIL() << "300 is outside the declared range";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("m.json.depths[1]: queue depth 300 is outside 1 to 128"));
    }
}

TEST_F(TestOnlyAxis, MatrixJsonRoundTrip)
{
    const Matrix m = matrix({"1", "16"});
    const auto j = matrixToJson(m);
    EXPECT_EQ(j.at("groups")[0].at("depths"), nlohmann::json::parse("[1, 16]"));
    EXPECT_EQ(parseMatrixJson(j.dump(), "m.json"), m);
    EXPECT_EQ(
        parseMatrixJson(R"({"strategies": ["fake"], "chunks": [1], "sizes": [1], "depths": "4"})", "m.json")
            .groups[0]
            .extraAxes.at("depths"),
        std::vector<std::string>{"4"});
}

TEST_F(TestOnlyAxis, ResultJsonAndCsv)
{
    RunResult result;
    result.matrix = matrix({"1", "32"});
    for (const auto& c : expand(result.matrix, m_registry, m_target).cases) {
        CaseResult r;
        r.index = static_cast<std::uint32_t>(result.cases.size());
        r.testCase = c;
        result.cases.push_back(r);
    }
    ASSERT_EQ(result.cases.size(), 2u);
    const auto j = resultToJson(result);
    EXPECT_EQ(j.at("cases")[1].at("case").at("testDepth"), 32);
    EXPECT_EQ(resultFromJson(j.dump(), "r.json"), result);

    const auto rows = repetitionRows(result);
    const auto column = std::find(rows[0].begin(), rows[0].end(), "test_depth");
    ASSERT_NE(column, rows[0].end());
    const auto at = static_cast<std::size_t>(column - rows[0].begin());
    EXPECT_EQ(rows[2][at], "32");
    EXPECT_THAT(rows[2][1], HasSubstr("depth=32"));

    // A result written before the axis existed opens, its cases carrying no value.
    auto old = j;
    for (auto& c : old.at("cases"))
        c.at("case").erase("testDepth");
    EXPECT_TRUE(resultFromJson(old.dump(), "old.json").cases[0].testCase.extraAxes.empty());
}

// Its values are numbers (a count), so the charts can take it as their columns: it joins the numeric axes
// after the built-in ones (its results column's rank), never as an automatic choice, which it declares none
// of.
TEST_F(TestOnlyAxis, ChartsCanTakeItAsTheirColumns)
{
    std::vector<std::string> numeric;
    for (const AxisSpec* a : numericAxes())
        numeric.push_back(a->resultKey);
    EXPECT_EQ(numeric,
              (std::vector<std::string>{"chunkBytes", "queueDepth", "threads", "totalBytes", "testDepth"}));
    std::vector<std::string> automatic;
    for (const AxisSpec* a : automaticChartAxes())
        automatic.push_back(a->resultKey);
    EXPECT_EQ(automatic, (std::vector<std::string>{"chunkBytes", "queueDepth", "threads"}))
        << "chunk size first";

    const AxisSpec& depth = *findAxisByResultKey("testDepth");
    EXPECT_EQ(chartName(depth), "test depth") << "no chart name of its own: its name";
    EXPECT_EQ(chartName(*findAxisByResultKey("threads")), "threads");
    Case c = expand(matrix({"32"}), m_registry, m_target).cases.at(0);
    EXPECT_EQ(numericValue(depth, c), 32u);
    EXPECT_EQ(numericValue(*findAxisByResultKey("chunkBytes"), c), 4096u) << "read from its format";
    EXPECT_EQ(numericValue(*findAxisByResultKey("totalBytes"), c), 1u << 20);
    c.extraAxes.clear();
    EXPECT_EQ(numericValue(depth, c), std::nullopt) << "a case that carries no depth has none";
    EXPECT_EQ(numericValue(*findAxisByResultKey("strategy"), c), std::nullopt) << "not a number";
}

TEST_F(TestOnlyAxis, EditorDraftTakesItFromTheDeclaration)
{
    MatrixDraft draft = MatrixDraft::fresh(m_registry);
    const StrategyDraft& writer = *draft.find("fake");
    EXPECT_TRUE(writer.takes("depths"));
    EXPECT_EQ(writer.extraAxes.at("depths"), std::vector<std::string>{"1"}) << "the declared default";
    EXPECT_FALSE(draft.find("fake-read")->takes("depths"));
    EXPECT_FALSE(draft.find("fake-read")->extraAxes.contains("depths"));

    draft.find("fake")->chunks = {4096};
    EXPECT_FALSE(draft.toMatrix().groups[0].extraAxes.contains("depths")) << "the default is left implicit";

    // A matrix's values come into the draft sorted as numbers, and go back out.
    const Matrix m = matrix({"16", "1", "8"});
    draft = MatrixDraft::fromMatrix(m, m_registry);
    EXPECT_EQ(draft.find("fake")->extraAxes.at("depths"), (std::vector<std::string>{"1", "8", "16"}));
    EXPECT_EQ(expand(draft.toMatrix(), m_registry, m_target).cases.size(), 3u);

    // Two groups that give the writer different depths merge, and the note says so.
    Matrix two = m;
    two.groups.push_back(matrix({"32"}).groups[0]);
    draft = MatrixDraft::fromMatrix(two, m_registry);
    EXPECT_EQ(draft.find("fake")->extraAxes.at("depths"), (std::vector<std::string>{"1", "8", "16", "32"}));
    EXPECT_THAT(draft.note, HasSubstr("fake appear in several groups"));

    draft.find("fake")->extraAxes.erase("depths");
    EXPECT_EQ(draft.problem(), "fake has no test depth ticked");
}

} // namespace
} // namespace iolab

namespace iolab {
namespace {

// The 16 TiB limit on a case's total size is one check, used by validate() and the matrix editor.
TEST(TotalSizeLimit, OneByteTo16TiB)
{
    EXPECT_FALSE(totalSizeAllowed(0));
    EXPECT_TRUE(totalSizeAllowed(1));
    EXPECT_TRUE(totalSizeAllowed(16ULL << 40));
    EXPECT_FALSE(totalSizeAllowed((16ULL << 40) + 1));

    test::FakeBehaviour behaviour;
    Registry registry;
    registry.add(std::make_unique<test::FakeStrategy>("fake", behaviour));
    MatrixGroup g;
    g.strategies = {"fake"};
    g.chunks = {4096};
    g.sizes = {(16ULL << 40) + 1};
    try {
        validate(Matrix{"big", {}, {g}}, registry);
        FAIL() << "over the limit";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), ::testing::HasSubstr("larger than the 16 TiB limit"));
    }
}

} // namespace
} // namespace iolab

namespace iolab {
namespace {

// The reader CPU axis (where a pipe's reader thread runs): a built-in declaration like the others.
class ReaderCpuAxis : public ::testing::Test
{
protected:
    ReaderCpuAxis()
    {
        m_registry.add(std::make_unique<test::FakeStrategy>("fake-pipe", m_behaviour,
                                                            std::vector<TargetKind>{TargetKind::Pipe}));
        m_registry.add(std::make_unique<test::FakeStrategy>("fake", m_behaviour));
    }

    static Matrix matrix(std::vector<std::string> strategies, std::vector<ReaderCpu> placements)
    {
        MatrixGroup g;
        g.strategies = std::move(strategies);
        g.chunks = {65536};
        g.sizes = {1 << 20};
        g.readerCpus = std::move(placements);
        return Matrix{"pipes", {}, {g}};
    }

    test::FakeBehaviour m_behaviour;
    Registry m_registry;
    TargetInfo m_target{.path = "/fake", .device = "fakedev"};
};

TEST_F(ReaderCpuAxis, PipesExpandOverItAndTheDefaultIsTheScheduler)
{
    auto e = expand(matrix({"fake-pipe"}, {}), m_registry, m_target);
    ASSERT_EQ(e.cases.size(), 1u);
    EXPECT_EQ(e.cases[0].readerCpu, ReaderCpu::Any);
    EXPECT_THAT(e.cases[0].label(), ::testing::Not(HasSubstr("reader=")))
        << "the default leaves the label as it was";

    e = expand(matrix({"fake-pipe"}, {ReaderCpu::Same, ReaderCpu::Other}), m_registry, m_target);
    ASSERT_EQ(e.cases.size(), 2u);
    EXPECT_EQ(e.cases[0].readerCpu, ReaderCpu::Same);
    EXPECT_THAT(e.cases[0].label(), HasSubstr(" reader=same"));
    EXPECT_THAT(e.cases[1].label(), HasSubstr(" reader=other"));
}

TEST_F(ReaderCpuAxis, AFileWriteHasNoReaderToPlace)
{
    const auto e = expand(matrix({"fake", "fake-pipe"}, {ReaderCpu::Same}), m_registry, m_target);
    ASSERT_EQ(e.cases.size(), 1u);
    EXPECT_EQ(e.cases[0].strategy, "fake-pipe");
    ASSERT_EQ(e.refused.size(), 1u);
    EXPECT_EQ(e.refused[0].reason,
              "reader CPU same places a pipe's reader thread; a directory target has none");
}

TEST_F(ReaderCpuAxis, FilesAndFlagsSpellIt)
{
    const Matrix m = matrix({"fake-pipe"}, {ReaderCpu::Other, ReaderCpu::Same});
    const auto j = matrixToJson(m);
    EXPECT_EQ(j.at("groups")[0].at("readerCpus"), nlohmann::json::parse(R"(["other", "same"])"));
    EXPECT_EQ(parseMatrixJson(j.dump(), "m.json"), m);
    try {
        parseMatrixJson(
            R"({"strategies": ["fake-pipe"], "chunks": [1], "sizes": [1], "readerCpus": ["near"]})",
            "m.json");
        FAIL() << "'near' is no placement";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("unknown reader CPU 'near' (use any, same or other)"));
    }
    const AxisSpec* axis = findAxisByMatrixKey("readerCpus");
    ASSERT_NE(axis, nullptr);
    EXPECT_EQ(axis->cliFlag, "--reader-cpu");
    EXPECT_EQ(axis->csvColumn, "reader_cpu");
    Case c;
    axis->parse(c, "same");
    EXPECT_EQ(c.readerCpu, ReaderCpu::Same);
    EXPECT_EQ(axis->format(c), "same");
    EXPECT_EQ(axis->oldFileValue, "any") << "runs from before the axis let the scheduler place the reader";
}

} // namespace
} // namespace iolab

namespace iolab {
namespace {

// The data pattern axis: every strategy takes it (default iolab); pipes and the null device refuse any other.
class PatternAxis : public ::testing::Test
{
protected:
    PatternAxis()
    {
        m_registry.add(std::make_unique<test::FakeStrategy>("fake-pipe", m_behaviour,
                                                            std::vector<TargetKind>{TargetKind::Pipe}));
        m_registry.add(std::make_unique<test::FakeStrategy>("fake", m_behaviour));
    }

    static Matrix matrix(std::vector<std::string> strategies, std::vector<DataPattern> patterns)
    {
        MatrixGroup g;
        g.strategies = std::move(strategies);
        g.chunks = {65536};
        g.sizes = {1 << 20};
        g.patterns = std::move(patterns);
        return Matrix{"patterns", {}, {g}};
    }

    test::FakeBehaviour m_behaviour;
    Registry m_registry;
    TargetInfo m_target{.path = "/fake", .device = "fakedev"};
};

TEST_F(PatternAxis, ExpandsWithIolabByDefaultAndLabelsTheOthers)
{
    auto e = expand(matrix({"fake"}, {}), m_registry, m_target);
    ASSERT_EQ(e.cases.size(), 1u);
    EXPECT_EQ(e.cases[0].pattern, DataPattern{});
    EXPECT_THAT(e.cases[0].label(), ::testing::Not(HasSubstr("pattern=")));
    e = expand(
        matrix({"fake"}, {DataPattern{PatternKind::Zeros}, DataPattern{PatternKind::Compressible, 50}}),
        m_registry, m_target);
    ASSERT_EQ(e.cases.size(), 2u);
    EXPECT_THAT(e.cases[0].label(), HasSubstr(" pattern=zeros"));
    EXPECT_THAT(e.cases[1].label(), HasSubstr(" pattern=compressible:50%"));
    EXPECT_FALSE(sameArrangement(e.cases[0], e.cases[1])) << "a zeros rate never passes for a random one";
}

TEST_F(PatternAxis, APipeRefusesAnyPatternButIolab)
{
    const auto e =
        expand(matrix({"fake", "fake-pipe"}, {DataPattern{PatternKind::Zeros}}), m_registry, m_target);
    ASSERT_EQ(e.cases.size(), 1u);
    EXPECT_EQ(e.cases[0].strategy, "fake");
    ASSERT_EQ(e.refused.size(), 1u);
    EXPECT_EQ(
        e.refused[0].reason,
        "pattern zeros: the bytes fake-pipe writes into a pipe reach no filesystem or device, so no pattern "
        "changes them");
}

TEST_F(PatternAxis, FilesAndFlagsSpellIt)
{
    const Matrix m =
        matrix({"fake"}, {DataPattern{PatternKind::Random}, DataPattern{PatternKind::Compressible, 30}});
    const auto j = matrixToJson(m);
    EXPECT_EQ(j.at("groups")[0].at("patterns"), nlohmann::json::parse(R"(["random", "compressible:30%"])"));
    EXPECT_EQ(parseMatrixJson(j.dump(), "m.json"), m);
    try {
        parseMatrixJson(R"({"strategies": ["fake"], "chunks": [1], "sizes": [1], "patterns": ["ones"]})",
                        "m.json");
        FAIL() << "'ones' is no pattern";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(),
                    HasSubstr("unknown pattern 'ones' (use iolab, zeros, random or compressible:N%"));
    }
    const AxisSpec* axis = findAxisByMatrixKey("patterns");
    ASSERT_NE(axis, nullptr);
    EXPECT_EQ(axis->cliFlag, "--pattern");
    Case c;
    axis->parse(c, "zeros");
    EXPECT_EQ(c.pattern.kind, PatternKind::Zeros);
    EXPECT_EQ(axis->format(c), "zeros");
    EXPECT_EQ(axis->oldFileValue, "iolab") << "runs from before the axis wrote IOLab's own pattern";
}

} // namespace
} // namespace iolab
