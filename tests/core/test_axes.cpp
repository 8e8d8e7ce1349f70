// SPDX-License-Identifier: MIT
// Case axes as declarations (issue 15 §1): old files open and save byte for byte as before, and an axis added
// through its declaration alone shows in expansion, refusal, matrix and result JSON, CSV and the case label.
#include "core/base/stats.h"
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
#include <iterator>
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

// The figures that matter in the golden results, worked out by hand from the repetitions in the input files,
// so that a rewrite of the expected files (IOLAB_REWRITE_GOLDEN) cannot carry a wrong figure in unnoticed:
// each case's median, mean, sample standard deviation, CV, 95% interval (Student's t for 2 degrees of
// freedom, 4.303 as the published table and IOLab's give it; exactly 4.30265), trimmed mean (of three values:
// the median) and count, in what IOLab writes and in what its statistics make of the same values.
struct HandFigures
{
    std::uint32_t caseIndex;
    bool durable; // else apparent
    double median;
    double mean;
    double stddev;
    double cv;
    double ciLow;
    double ciHigh;
};

// tests/data/golden-result.json: seven cases, the last failed in its warm-up (no measured repetition).
const HandFigures kGoldenResultFigures[] = {
    // case 1 (stdio 4 KiB), durable: 765.9880, 470.0677, 539.2267 (the warm-up left out).
    //   median 539.2267; mean (765.9880 + 470.0677 + 539.2267) / 3 = 591.7608;
    //   stddev sqrt((174.2272^2 + -121.6931^2 + -52.5341^2) / 2) = 154.7969; CV 154.7969 / 591.7608 =
    //   0.26159;
    //   CI 591.7608 -/+ 4.303 x 154.7969 / sqrt(3) = 591.7608 -/+ 384.5679; trimmed mean of three = the
    //   median.
    {0, true, 539.2267, 591.7608, 154.7969, 0.26159, 207.1929, 976.3287},
    // case 1 (stdio 4 KiB), apparent: 768.5953, 470.2995, 539.9468 (the warm-up left out).
    //   median 539.9468; mean (768.5953 + 470.2995 + 539.9468) / 3 = 592.9472;
    //   stddev sqrt((175.6481^2 + -122.6477^2 + -53.0004^2) / 2) = 156.0509; CV 156.0509 / 592.9472 =
    //   0.26318;
    //   CI 592.9472 -/+ 4.303 x 156.0509 / sqrt(3) = 592.9472 -/+ 387.6832; trimmed mean of three = the
    //   median.
    {0, false, 539.9468, 592.9472, 156.0509, 0.26318, 205.2641, 980.6304},
    // case 2 (stdio 64 KiB), durable: 1867.7692, 1243.4827, 1145.3374 (the warm-up left out).
    //   median 1243.4827; mean (1867.7692 + 1243.4827 + 1145.3374) / 3 = 1418.8631;
    //   stddev sqrt((448.9061^2 + -175.3804^2 + -273.5257^2) / 2) = 391.8490; CV 391.8490 / 1418.8631 =
    //   0.27617;
    //   CI 1418.8631 -/+ 4.303 x 391.8490 / sqrt(3) = 1418.8631 -/+ 973.4854; trimmed mean of three = the
    //   median.
    {1, true, 1243.4827, 1418.8631, 391.8490, 0.27617, 445.3776, 2392.3485},
    // case 2 (stdio 64 KiB), apparent: 1870.5232, 1247.4836, 1146.7822 (the warm-up left out).
    //   median 1247.4836; mean (1870.5232 + 1247.4836 + 1146.7822) / 3 = 1421.5963;
    //   stddev sqrt((448.9268^2 + -174.1127^2 + -274.8141^2) / 2) = 392.0289; CV 392.0289 / 1421.5963 =
    //   0.27577;
    //   CI 1421.5963 -/+ 4.303 x 392.0289 / sqrt(3) = 1421.5963 -/+ 973.9324; trimmed mean of three = the
    //   median.
    {1, false, 1247.4836, 1421.5963, 392.0289, 0.27577, 447.6639, 2395.5287},
    // case 3 (write 4 KiB), durable: 823.6037, 701.0219, 701.1105 (the warm-up left out).
    //   median 701.1105; mean (823.6037 + 701.0219 + 701.1105) / 3 = 741.9120;
    //   stddev sqrt((81.6917^2 + -40.8902^2 + -40.8016^2) / 2) = 70.7471; CV 70.7471 / 741.9120 = 0.09536;
    //   CI 741.9120 -/+ 4.303 x 70.7471 / sqrt(3) = 741.9120 -/+ 175.7598; trimmed mean of three = the
    //   median.
    {2, true, 701.1105, 741.9120, 70.7471, 0.09536, 566.1522, 917.6718},
    // case 3 (write 4 KiB), apparent: 824.3457, 701.4996, 844.9871 (the warm-up left out).
    //   median 824.3457; mean (824.3457 + 701.4996 + 844.9871) / 3 = 790.2775;
    //   stddev sqrt((34.0682^2 + -88.7779^2 + 54.7096^2) / 2) = 77.5735; CV 77.5735 / 790.2775 = 0.09816;
    //   CI 790.2775 -/+ 4.303 x 77.5735 / sqrt(3) = 790.2775 -/+ 192.7188; trimmed mean of three = the
    //   median.
    {2, false, 824.3457, 790.2775, 77.5735, 0.09816, 597.5587, 982.9963},
    // case 4 (write 64 KiB), durable: 3746.7207, 1860.1752, 1538.5323 (the warm-up left out).
    //   median 1860.1752; mean (3746.7207 + 1860.1752 + 1538.5323) / 3 = 2381.8094;
    //   stddev sqrt((1364.9113^2 + -521.6342^2 + -843.2771^2) / 2) = 1192.9379; CV 1192.9379 / 2381.8094 =
    //   0.50085;
    //   CI 2381.8094 -/+ 4.303 x 1192.9379 / sqrt(3) = 2381.8094 -/+ 2963.6611; trimmed mean of three = the
    //   median.
    {3, true, 1860.1752, 2381.8094, 1192.9379, 0.50085, -581.8517, 5345.4705},
    // case 4 (write 64 KiB), apparent: 3757.5070, 1863.7798, 1542.6071 (the warm-up left out).
    //   median 1863.7798; mean (3757.5070 + 1863.7798 + 1542.6071) / 3 = 2387.9646;
    //   stddev sqrt((1369.5424^2 + -524.1849^2 + -845.3575^2) / 2) = 1196.8804; CV 1196.8804 / 2387.9646 =
    //   0.50121;
    //   CI 2387.9646 -/+ 4.303 x 1196.8804 / sqrt(3) = 2387.9646 -/+ 2973.4557; trimmed mean of three = the
    //   median.
    {3, false, 1863.7798, 2387.9646, 1196.8804, 0.50121, -585.4911, 5361.4203},
    // case 5 (direct 4 KiB), durable: 697.3295, 820.8507, 617.1245 (the warm-up left out).
    //   median 697.3295; mean (697.3295 + 820.8507 + 617.1245) / 3 = 711.7682;
    //   stddev sqrt((-14.4387^2 + 109.0825^2 + -94.6437^2) / 2) = 102.6277; CV 102.6277 / 711.7682 = 0.14419;
    //   CI 711.7682 -/+ 4.303 x 102.6277 / sqrt(3) = 711.7682 -/+ 254.9620; trimmed mean of three = the
    //   median.
    {4, true, 697.3295, 711.7682, 102.6277, 0.14419, 456.8063, 966.7302},
    // case 5 (direct 4 KiB), apparent: 697.9436, 822.1202, 617.6856 (the warm-up left out).
    //   median 697.9436; mean (697.9436 + 822.1202 + 617.6856) / 3 = 712.5832;
    //   stddev sqrt((-14.6395^2 + 109.5370^2 + -94.8975^2) / 2) = 103.0005; CV 103.0005 / 712.5832 = 0.14455;
    //   CI 712.5832 -/+ 4.303 x 103.0005 / sqrt(3) = 712.5832 -/+ 255.8881; trimmed mean of three = the
    //   median.
    {4, false, 697.9436, 712.5832, 103.0005, 0.14455, 456.6950, 968.4713},
    // case 6 (direct 64 KiB), durable: 3725.8468, 1597.1990, 1928.6992 (the warm-up left out).
    //   median 1928.6992; mean (3725.8468 + 1597.1990 + 1928.6992) / 3 = 2417.2483;
    //   stddev sqrt((1308.5985^2 + -820.0493^2 + -488.5491^2) / 2) = 1145.3364; CV 1145.3364 / 2417.2483 =
    //   0.47382;
    //   CI 2417.2483 -/+ 4.303 x 1145.3364 / sqrt(3) = 2417.2483 -/+ 2845.4031; trimmed mean of three = the
    //   median.
    {5, true, 1928.6992, 2417.2483, 1145.3364, 0.47382, -428.1548, 5262.6514},
    // case 6 (direct 64 KiB), apparent: 3740.0764, 1601.6599, 1932.8510 (the warm-up left out).
    //   median 1932.8510; mean (3740.0764 + 1601.6599 + 1932.8510) / 3 = 2424.8624;
    //   stddev sqrt((1315.2140^2 + -823.2025^2 + -492.0115^2) / 2) = 1150.9834; CV 1150.9834 / 2424.8624 =
    //   0.47466;
    //   CI 2424.8624 -/+ 4.303 x 1150.9834 / sqrt(3) = 2424.8624 -/+ 2859.4320; trimmed mean of three = the
    //   median.
    {5, false, 1932.8510, 2424.8624, 1150.9834, 0.47466, -434.5696, 5284.2944},
};

void expectFigures(const nlohmann::json& summary, const HandFigures& hand, const std::string& what)
{
    SCOPED_TRACE(what);
    EXPECT_EQ(summary.at("count").get<std::size_t>(), 3u)
        << "three measured repetitions, the warm-up left out";
    EXPECT_NEAR(summary.at("median").get<double>(), hand.median, 1e-4);
    EXPECT_NEAR(summary.at("mean").get<double>(), hand.mean, 1e-4);
    EXPECT_NEAR(summary.at("stddev").get<double>(), hand.stddev, 1e-4);
    EXPECT_NEAR(summary.at("cv").get<double>(), hand.cv, 5e-6);
    EXPECT_NEAR(summary.at("ciLow").get<double>(), hand.ciLow, 1e-4);
    EXPECT_NEAR(summary.at("ciHigh").get<double>(), hand.ciHigh, 1e-4);
    EXPECT_NEAR(summary.at("trimmedMean").get<double>(), hand.median, 1e-4);
}

// The measured repetitions' rates as the input file holds them.
std::vector<double> measuredRates(const CaseResult& c, bool durable)
{
    std::vector<double> rates;
    for (const auto& r : c.repetitions) {
        if (!r.warmup && r.outcome.ok())
            rates.push_back(durable ? r.durableMBps : r.apparentMBps);
    }
    return rates;
}

void expectHandFigures(const char* input, const char* resaved, const std::vector<HandFigures>& figures,
                       std::size_t caseCount, std::size_t csvRows)
{
    const RunResult result = resultFromJson(dataFile(input), input);
    ASSERT_EQ(result.cases.size(), caseCount);
    const auto written = nlohmann::json::parse(dataFile(resaved));
    ASSERT_EQ(written.at("cases").size(), caseCount);
    for (const auto& hand : figures) {
        const std::string key = hand.durable ? "durableMBps" : "apparentMBps";
        const std::string what =
            std::string(resaved) + " case " + std::to_string(hand.caseIndex + 1) + " " + key;
        expectFigures(written.at("cases").at(hand.caseIndex).at(key), hand, what);
        // IOLab's statistics over the same three values.
        const auto rates = measuredRates(result.cases.at(hand.caseIndex), hand.durable);
        ASSERT_EQ(rates.size(), 3u) << what;
        expectFigures(nlohmann::json{{"count", summarize(rates).count},
                                     {"median", summarize(rates).median},
                                     {"mean", summarize(rates).mean},
                                     {"stddev", summarize(rates).stddev},
                                     {"cv", summarize(rates).cv},
                                     {"ciLow", summarize(rates).ciLow},
                                     {"ciHigh", summarize(rates).ciHigh},
                                     {"trimmedMean", summarize(rates).trimmedMean}},
                      hand, what + " (summarize)");
    }
    // One CSV row per repetition, warm-ups included: counted in the input, not by the code.
    const std::string csv = toCsv(repetitionRows(result));
    EXPECT_EQ(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')), csvRows + 1)
        << "a header line";
}

TEST(GoldenFigures, TheFirstRunsFiguresAreWhatHandArithmeticGives)
{
    expectHandFigures("golden-result.json", "golden-result.resaved.json",
                      {std::begin(kGoldenResultFigures), std::end(kGoldenResultFigures)}, 7, 6 * 4 + 1);
    // Case 7 failed in its warm-up: nothing measured, every figure zero.
    const auto written = nlohmann::json::parse(dataFile("golden-result.resaved.json"));
    EXPECT_EQ(written.at("cases").at(6).at("status"), "failed");
    EXPECT_EQ(written.at("cases").at(6).at("durableMBps").at("count"), 0);
    EXPECT_EQ(written.at("cases").at(6).at("durableMBps").at("median"), 0.0);
}

// tests/data/golden-axes-result.json: four cases, one per kind of axis, each holding the first run's case 1
// repetitions, so each has case 1's figures.
TEST(GoldenFigures, TheAxesRunsFiguresAreWhatHandArithmeticGives)
{
    std::vector<HandFigures> figures;
    for (std::uint32_t index = 0; index < 4; ++index) {
        for (const auto& hand : kGoldenResultFigures) {
            if (hand.caseIndex == 0) {
                figures.push_back(hand);
                figures.back().caseIndex = index;
            }
        }
    }
    ASSERT_EQ(figures.size(), 8u);
    expectHandFigures("golden-axes-result.json", "golden-axes-result.resaved.json", figures, 4, 4 * 4);
}

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
