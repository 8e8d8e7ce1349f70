// SPDX-License-Identifier: MIT
#include "core/base/error.h"
#include "core/base/stats.h"
#include "core/base/units.h"
#include "core/formats/matrix_json.h"
#include "core/formats/presets.h"
#include "core/model/matrix.h"
#include "core/model/matrix_draft.h"
#include "tests/support/fakes.h"

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

class MatrixTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto stdio = std::make_unique<FakeStrategy>("stdio", m_behaviour);
        stdio->mutableInfo().usesStdioBuffer = true;
        stdio->mutableInfo().targets = {TargetKind::Directory, TargetKind::Null};
        m_registry.add(std::move(stdio));
        m_registry.add(std::make_unique<FakeStrategy>("write", m_behaviour));
        auto direct = std::make_unique<FakeStrategy>("direct", m_behaviour);
        direct->mutableInfo().needsBlockAlignedChunks = true;
        m_registry.add(std::move(direct));
        m_registry.add(
            std::make_unique<FakeStrategy>("pipe-write", m_behaviour, std::vector{TargetKind::Pipe}));
        auto gone = std::make_unique<FakeStrategy>("gone", m_behaviour);
        gone->mutableInfo().unavailable = "not on this OS";
        m_registry.add(std::move(gone));
        m_target.logicalBlockBytes = 512;
    }

    std::string reasonFor(Case c) { return refusalReason(c, m_registry, m_target); }

    static Case basic(std::string strategy)
    {
        Case c;
        c.strategy = std::move(strategy);
        c.chunkBytes = 4096;
        c.totalBytes = 1 << 20;
        return c;
    }

    FakeBehaviour m_behaviour;
    Registry m_registry;
    TargetInfo m_target;
};

} // namespace

TEST_F(MatrixTest, ExpandsTheCartesianProduct)
{
    MatrixGroup g;
    g.strategies = {"stdio"};
    g.chunks = {1, 4096};
    g.sizes = {1 << 20};
    g.buffers = {{BufferMode::None, 0}, {BufferMode::Default, 0}, {BufferMode::Bytes, 65536}};
    g.threads = {1, 2};
    const auto expanded = expand(Matrix{"m", "", {g}}, m_registry, m_target);
    EXPECT_EQ(expanded.cases.size(), 2u * 3u * 2u);
    EXPECT_TRUE(expanded.refused.empty());
    EXPECT_EQ(expanded.cases.front().buffer.mode, BufferMode::None);
    EXPECT_EQ(expanded.cases.front().target, TargetKind::Directory);
}

TEST_F(MatrixTest, DefaultsFillOptionalAxes)
{
    MatrixGroup g;
    g.strategies = {"stdio", "write", "pipe-write"};
    g.chunks = {4096};
    g.sizes = {1 << 20};
    const auto expanded = expand(Matrix{"m", "", {g}}, m_registry, m_target);
    ASSERT_EQ(expanded.cases.size(), 3u);
    EXPECT_EQ(expanded.cases[0].buffer.mode, BufferMode::Default);
    EXPECT_EQ(expanded.cases[1].buffer.mode, BufferMode::NotApplicable);
    EXPECT_EQ(expanded.cases[2].target, TargetKind::Pipe);
    EXPECT_EQ(expanded.cases[1].sync.mode, SyncMode::None);
    EXPECT_EQ(expanded.cases[1].threads, 1u);
}

TEST_F(MatrixTest, EveryInvalidCombinationIsListedWithItsReason)
{
    MatrixGroup g;
    g.strategies = {"stdio", "write"};
    g.chunks = {4096};
    g.sizes = {1 << 20};
    g.buffers = {{BufferMode::Bytes, 65536}};
    const auto expanded = expand(Matrix{"m", "", {g}}, m_registry, m_target);
    ASSERT_EQ(expanded.cases.size(), 1u);
    ASSERT_EQ(expanded.refused.size(), 1u);
    EXPECT_EQ(expanded.refused[0].testCase.strategy, "write");
    EXPECT_THAT(expanded.refused[0].reason, HasSubstr("applies only to stdio strategies"));
}

// The axes' refusal rules are asked in a fixed order: a case that breaks several gets the first reason, as
// before the rules were declarations (core/model/axes.cpp ranks them).
TEST_F(MatrixTest, ACaseBreakingSeveralRulesGetsTheFirstReason)
{
    auto reader = std::make_unique<FakeStrategy>("reader", m_behaviour);
    reader->mutableInfo().direction = Direction::Read;
    reader->mutableInfo().syncModes = {SyncMode::None};
    m_registry.add(std::move(reader));

    Case c = basic("write");
    c.target = TargetKind::Pipe;
    c.hint = ReadHint::Random;
    c.sync = {SyncMode::FsyncEnd, 0};
    EXPECT_EQ(reasonFor(c), "write writes to a directory target, not to pipe") << "the target first";
    c.target = TargetKind::Directory;
    EXPECT_EQ(reasonFor(c), "the read hint axis (random) applies only to reads; write writes");

    c = basic("stdio");
    c.hint = ReadHint::Random;
    EXPECT_EQ(reasonFor(c), "stdio needs a stdio buffer setting (none, default or a size)")
        << "the buffer before the read axes";
    c.buffer = {BufferMode::Default, 0};
    c.target = TargetKind::Null;
    c.hint = ReadHint::NotApplicable;
    c.sync = {SyncMode::FsyncEnd, 0};
    c.preallocate = Preallocate::Fallocate;
    EXPECT_EQ(reasonFor(c), "sync policy fsync-end needs a file; a null target has nothing to sync")
        << "the sync policy before the preallocation";

    c = basic("reader");
    c.direction = Direction::Read;
    c.sync = {SyncMode::FsyncEnd, 0};
    EXPECT_EQ(reasonFor(c), "reader reads; sync policy fsync-end applies to writes")
        << "a read's sync policy before its missing cache state";
    c.sync = {};
    EXPECT_EQ(reasonFor(c), "reader needs a cache state (cold or warm)");
    c.direction = Direction::Write;
    EXPECT_EQ(reasonFor(c), "reader reads; the case says write") << "the direction before the read axes";
}

// A case's label names its axes in one fixed order, whatever order they are declared in.
TEST_F(MatrixTest, LabelNamesTheAxesInItsOrder)
{
    Case c = basic("stdio");
    c.buffer = {BufferMode::Bytes, 65536};
    c.sync = {SyncMode::FsyncEnd, 0};
    c.threads = 2;
    c.target = TargetKind::Null;
    c.preallocate = Preallocate::Fallocate;
    EXPECT_EQ(c.label(),
              "stdio chunk=4K buf=64K sync=fsync-end threads=2 size=1M target=null prealloc=fallocate");
    Case r = basic("fread");
    r.direction = Direction::Read;
    r.buffer = {BufferMode::None, 0};
    r.hint = ReadHint::Sequential;
    r.cache = CacheState::Warm;
    r.fileSet = parseFileSet("20x4K");
    EXPECT_EQ(r.label(), "fread chunk=4K buf=none hint=sequential cache=warm threads=1 files=20x4K");
}

TEST_F(MatrixTest, PreallocateIsAnAxisOfFileWrites)
{
    auto mapped = std::make_unique<FakeStrategy>("mmap-window", m_behaviour);
    mapped->mutableInfo().needsFallocate = true;
    m_registry.add(std::move(mapped));
    MatrixGroup g;
    g.strategies = {"write", "mmap-window", "pipe-write"};
    g.chunks = {4096};
    g.sizes = {1 << 20};
    g.preallocations = {Preallocate::None, Preallocate::Fallocate, Preallocate::Overwrite};
    const Matrix m{"m", "", {g}};
    const auto expanded = expand(m, m_registry, m_target);
    EXPECT_EQ(caseCount(m, m_registry), 9u);
    std::vector<std::string> labels;
    for (const auto& c : expanded.cases)
        labels.push_back(c.label());
    EXPECT_THAT(labels,
                ::testing::ElementsAre("write chunk=4K sync=none threads=1 size=1M",
                                       "write chunk=4K sync=none threads=1 size=1M prealloc=fallocate",
                                       "write chunk=4K sync=none threads=1 size=1M prealloc=overwrite",
                                       "mmap-window chunk=4K sync=none threads=1 size=1M",
                                       "mmap-window chunk=4K sync=none threads=1 size=1M prealloc=overwrite",
                                       "pipe-write chunk=4K sync=none threads=1 size=1M target=pipe"));
    ASSERT_EQ(expanded.refused.size(), 3u);
    EXPECT_THAT(expanded.refused[0].reason, HasSubstr("mmap-window always reserves its file's space"));
    EXPECT_THAT(expanded.refused[1].reason, HasSubstr("preallocate fallocate needs a file; a pipe target"));
    EXPECT_THAT(expanded.refused[2].reason, HasSubstr("preallocate overwrite needs a file; a pipe target"));

    // A filesystem without fallocate: refused with the probe's reason; overwrite still runs.
    m_target.fallocateProblem = "vfat at /mnt does not support fallocate";
    Case c{"write", Direction::Write, 4096, 1 << 20};
    c.preallocate = Preallocate::Fallocate;
    EXPECT_EQ(refusalReason(c, m_registry, m_target),
              "preallocate fallocate: vfat at /mnt does not support fallocate");
    c.preallocate = Preallocate::Overwrite;
    EXPECT_EQ(refusalReason(c, m_registry, m_target), "");

    // Spelled and stored like the other axes.
    EXPECT_EQ(parsePreallocate("overwrite"), Preallocate::Overwrite);
    EXPECT_THROW(parsePreallocate("zero"), InputError);
    const auto json = matrixToJson(m).dump();
    EXPECT_THAT(json, HasSubstr(R"("preallocate":["none","fallocate","overwrite"])"));
    EXPECT_EQ(parseMatrixJson(json, "m.json"), m);
}

TEST_F(MatrixTest, DuplicatesAcrossGroupsAreListedNotDropped)
{
    MatrixGroup g;
    g.strategies = {"write"};
    g.chunks = {4096};
    g.sizes = {1 << 20};
    const auto expanded = expand(Matrix{"m", "", {g, g}}, m_registry, m_target);
    EXPECT_EQ(expanded.cases.size(), 1u);
    ASSERT_EQ(expanded.refused.size(), 1u);
    EXPECT_THAT(expanded.refused[0].reason, HasSubstr("duplicate of case 1"));
}

TEST_F(MatrixTest, CaseCountIsWhatExpandMakes)
{
    MatrixGroup g;
    g.strategies = {"write", "stdio", "pipe-write"};
    g.chunks = {4096, 65536};
    g.sizes = {1 << 20, 1 << 22};
    g.syncs = {SyncPolicy{}, SyncPolicy{SyncMode::FsyncEnd, 0}};
    g.threads = {1, 2};
    const Matrix m{"m", "", {g, g}};
    const auto expanded = expand(m, m_registry, m_target);
    EXPECT_EQ(caseCount(m, m_registry), expanded.cases.size() + expanded.refused.size());
    EXPECT_EQ(caseCount(m, m_registry), 2u * 3u * 2u * 2u * 2u * 2u);
}

TEST_F(MatrixTest, TenMillionCasesAreRefusedWithTheCountBeforeExpanding)
{
    MatrixGroup g;
    g.strategies = {"write"};
    for (std::uint64_t i = 1; i <= 1000; ++i)
        g.chunks.push_back(i);
    for (std::uint64_t i = 1; i <= 100; ++i)
        g.sizes.push_back(i << 20);
    for (std::uint32_t i = 1; i <= 100; ++i)
        g.threads.push_back(i);
    const Matrix m{"huge", "", {g}};
    EXPECT_EQ(caseCount(m, m_registry), 10'000'000u);
    try {
        (void)expand(m, m_registry, m_target);
        ADD_FAILURE() << "a 10,000,000-case matrix was expanded";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("10,000,000 cases"));
        EXPECT_THAT(e.what(), HasSubstr("limit of 100,000 cases"));
    }
    // Groups add up: three groups of 100,000 cases each are over the limit together.
    MatrixGroup wide = g;
    wide.threads = {1};
    Matrix many{"many", "", {}};
    for (int i = 0; i < 3; ++i)
        many.groups.push_back(wide);
    for (auto& group : many.groups)
        group.sizes.resize(100, 1 << 20);
    EXPECT_EQ(caseCount(many, m_registry), 300'000u);
    EXPECT_THROW(validate(many, m_registry), InputError);
}

TEST_F(MatrixTest, OneHundredThousandCasesExpandQuickly)
{
    // The duplicate check once compared each case with every earlier one: 5 * 10^9 comparisons here.
    MatrixGroup g;
    g.strategies = {"write"};
    for (std::uint64_t i = 1; i <= 1000; ++i)
        g.chunks.push_back(i);
    for (std::uint64_t i = 1; i <= 100; ++i)
        g.sizes.push_back(i << 20);
    const auto start = std::chrono::steady_clock::now();
    const auto expanded = expand(Matrix{"m", "", {g}}, m_registry, m_target);
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(expanded.cases.size(), 100'000u);
    EXPECT_TRUE(expanded.refused.empty());
    EXPECT_LT(took, std::chrono::seconds(20)); // about 0.2 s; the quadratic check took minutes
}

struct RefusalRow
{
    const char* name;
    std::function<void(Case&)> change;
    const char* reason;
};

class Refusals : public MatrixTest, public ::testing::WithParamInterface<RefusalRow>
{};

TEST_P(Refusals, GiveTheirReason)
{
    Case c = basic("write");
    GetParam().change(c);
    EXPECT_THAT(reasonFor(c), HasSubstr(GetParam().reason));
}

INSTANTIATE_TEST_SUITE_P(
    Matrix, Refusals,
    ::testing::Values(RefusalRow{"Unavailable", [](Case& c) { c.strategy = "gone"; }, "not on this OS"},
                      RefusalRow{"WrongTarget", [](Case& c) { c.target = TargetKind::Pipe; },
                                 "writes to a directory target"},
                      RefusalRow{"PipeStrategyOnDirectory", [](Case& c) { c.strategy = "pipe-write"; },
                                 "not to directory"},
                      RefusalRow{"BufferOnNonStdio",
                                 [](Case& c) {
                                     c.buffer = {BufferMode::Bytes, 1024};
                                 },
                                 "applies only to stdio strategies"},
                      RefusalRow{"StdioWithoutBuffer", [](Case& c) { c.strategy = "stdio"; },
                                 "needs a stdio buffer setting"},
                      RefusalRow{"SyncOnNull",
                                 [](Case& c) {
                                     c.strategy = "stdio";
                                     c.buffer = {BufferMode::Default, 0};
                                     c.target = TargetKind::Null;
                                     c.sync = {SyncMode::FsyncEnd, 0};
                                 },
                                 "has nothing to sync"},
                      RefusalRow{"UnsupportedSync",
                                 [](Case& c) {
                                     c.sync = {SyncMode::ODsync, 0};
                                 },
                                 "the fake syncs only at the end"},
                      RefusalRow{"ChunkLargerThanShare",
                                 [](Case& c) {
                                     c.chunkBytes = 1 << 20;
                                     c.threads = 2;
                                 },
                                 "larger than each thread's share"},
                      RefusalRow{"LessThanAByteEach",
                                 [](Case& c) {
                                     c.totalBytes = 2;
                                     c.chunkBytes = 1;
                                     c.threads = 4;
                                 },
                                 "less than one byte each"},
                      RefusalRow{"DirectMisalignedChunk",
                                 [](Case& c) {
                                     c.strategy = "direct";
                                     c.chunkBytes = 1000;
                                 },
                                 "not a multiple of the target's logical block size (512 B)"},
                      RefusalRow{"DirectMisalignedShare",
                                 [](Case& c) {
                                     c.strategy = "direct";
                                     c.chunkBytes = 512;
                                     c.totalBytes = 512 * 3 + 100;
                                 },
                                 "must be a multiple of the logical block size"}),
    [](const auto& row) { return std::string(row.param.name); });

TEST_F(MatrixTest, TargetCapabilityProblemsRefuseTheStrategiesThatNeedThem)
{
    auto& direct = const_cast<StrategyInfo&>(m_registry.find("direct")->info());
    direct.needsDirectIo = true;
    auto& write = const_cast<StrategyInfo&>(m_registry.find("write")->info());
    write.needsFallocate = true;
    m_target.directIoProblem = "tmpfs at /mnt does not support O_DIRECT";
    EXPECT_EQ(reasonFor(basic("direct")), "tmpfs at /mnt does not support O_DIRECT");
    EXPECT_EQ(reasonFor(basic("write")), "");
    m_target.fallocateProblem = "vfat at /mnt does not support fallocate";
    EXPECT_EQ(reasonFor(basic("write")), "vfat at /mnt does not support fallocate");
    Case onNull = basic("stdio");
    onNull.buffer = {BufferMode::Default, 0};
    onNull.target = TargetKind::Null;
    EXPECT_EQ(reasonFor(onNull), "");
}

TEST_F(MatrixTest, ValidCaseHasNoReason)
{
    EXPECT_EQ(reasonFor(basic("write")), "");
    Case direct = basic("direct");
    EXPECT_EQ(reasonFor(direct), "");
}

TEST_F(MatrixTest, ValidationRejectsBadValues)
{
    MatrixGroup g;
    g.strategies = {"write"};
    g.chunks = {4096};
    g.sizes = {1 << 20};
    auto check = [&](auto change, const char* text) {
        MatrixGroup bad = g;
        change(bad);
        try {
            validate(Matrix{"m", "", {bad}}, m_registry);
            ADD_FAILURE() << "accepted: " << text;
        } catch (const InputError& e) {
            EXPECT_THAT(e.what(), HasSubstr(text));
        }
    };
    check([](MatrixGroup& b) { b.strategies = {"nope"}; }, "unknown strategy 'nope'");
    check([](MatrixGroup& b) { b.chunks = {0}; }, "a chunk of 0 bytes");
    check([](MatrixGroup& b) { b.sizes = {0}; }, "a total size of 0 bytes");
    check([](MatrixGroup& b) { b.sizes = {1ULL << 50}; }, "larger than the");
    check([](MatrixGroup& b) { b.threads = {2000}; }, "outside the allowed range 1 to 1024");
    check([](MatrixGroup& b) { b.strategies.clear(); }, "no strategy given");
    EXPECT_THROW(validate(Matrix{"m", "", {}}, m_registry), InputError);
}

TEST(MatrixJson, ParsesGroupsAndTopLevelAxes)
{
    const auto m = parseMatrixJson(R"({"name": "x", "groups": [
        {"strategies": ["stdio"], "chunks": ["1", 4096], "sizes": ["64M"], "buffers": ["none", "64K"],
         "syncs": ["fsync-every:8"], "threads": [1, 4], "targets": ["null"]}]})",
                                   "x.json");
    ASSERT_EQ(m.groups.size(), 1u);
    const auto& g = m.groups[0];
    EXPECT_EQ(g.chunks, (std::vector<std::uint64_t>{1, 4096}));
    EXPECT_EQ(g.sizes, (std::vector<std::uint64_t>{64 << 20}));
    EXPECT_EQ(g.buffers[1].bytes, 65536u);
    EXPECT_EQ(g.syncs[0].everyWrites, 8u);
    EXPECT_EQ(g.threads, (std::vector<std::uint32_t>{1, 4}));
    EXPECT_EQ(g.targets[0], TargetKind::Null);

    const auto flat =
        parseMatrixJson(R"({"strategies": "write", "chunks": "4K", "sizes": 1048576})", "f.json");
    ASSERT_EQ(flat.groups.size(), 1u);
    EXPECT_EQ(flat.groups[0].strategies, std::vector<std::string>{"write"});
}

TEST(MatrixJson, SyntaxErrorNamesLineAndColumn)
{
    try {
        parseMatrixJson("{\n  \"strategies\": [\"stdio\",\n  \"chunks\": 4\n}", "bad.json");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("bad.json: not valid JSON at line 3, column 11 (byte 39): "
                                        "unexpected character ':'; expected ']'"));
        EXPECT_THAT(e.what(), Not(HasSubstr("json.exception")));
    }
}

TEST(MatrixJson, SyntaxErrorsArePlainSentencesWithAPlace)
{
    auto message = [](std::string_view text) {
        try {
            parseMatrixJson(text, "m.json");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    for (const std::string_view text : std::initializer_list<std::string_view>{
             "", "   \n", "{\"strategies\": [\"write\"", "nope", "{\"a\": tru}",
             std::string_view("\x7f\x45\x4c\x46\x02", 5)}) {
        const auto m = message(text);
        EXPECT_THAT(m, HasSubstr("m.json: not valid JSON")) << text;
        EXPECT_THAT(m, Not(HasSubstr("json.exception"))) << m;
        EXPECT_THAT(m, Not(HasSubstr("parse_error"))) << m;
        EXPECT_THAT(m, Not(HasSubstr("["))) << m;
    }
    EXPECT_EQ(message(""), "m.json: not valid JSON: the file is empty");
    EXPECT_THAT(message("{\"strategies\": [\"write\""),
                HasSubstr("the text ends at line 1, column 24 before the JSON is complete"));
    EXPECT_THAT(message("nope"), HasSubstr("at line 1, column 2 (byte 2): unexpected character 'o'"));
    EXPECT_THAT(message(std::string_view("\x7f\x45\x4c\x46\x02", 5)),
                HasSubstr("at line 1, column 1 (byte 1): unexpected byte 0x7F"));
}

TEST(MatrixJson, SchemaErrorsNameThePlace)
{
    auto message = [](const char* text) {
        try {
            parseMatrixJson(text, "m.json");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_THAT(message(R"({"groups": [{"chunks": ["4Q"]}]})"), HasSubstr("groups[0].chunks[0]"));
    EXPECT_THAT(message(R"({"chunks": ["-4K"]})"), HasSubstr("negative"));
    EXPECT_THAT(message(R"({"chunkz": [1]})"), HasSubstr("unknown key 'chunkz'"));
    EXPECT_THAT(message(R"({"threads": [0]})"), HasSubstr("outside the allowed range"));
    EXPECT_THAT(message(R"([1, 2])"), HasSubstr("must be a JSON object"));
    EXPECT_THAT(message(R"({"syncs": ["later"]})"), HasSubstr("unknown sync policy"));
}

// "alternate": the cases take turns, when the run does not say; kept through a round trip, and anything but
// true or false refused with what it means.
TEST(MatrixJson, AMatrixMayAskForItsCasesToTakeTurns)
{
    const Matrix m = parseMatrixJson(R"({"alternate": true, "strategies": ["write"], "chunks": ["4K"],
                                         "sizes": ["1M"]})",
                                     "m.json");
    EXPECT_EQ(m.alternate, std::optional(true));
    EXPECT_EQ(parseMatrixJson(matrixToJson(m).dump(), "m"), m);
    EXPECT_FALSE(parseMatrixJson(R"({"strategies": ["write"], "chunks": ["4K"], "sizes": ["1M"]})", "m.json")
                     .alternate.has_value());
    try {
        parseMatrixJson(R"({"alternate": "yes", "strategies": ["write"]})", "m.json");
        FAIL() << "accepted";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("m.json: \"alternate\" must be true (the cases take turns"));
    }
}

TEST(MatrixJson, RoundTripsEveryPreset)
{
    for (const auto& preset : builtinPresets()) {
        const auto text = matrixToJson(preset).dump();
        EXPECT_EQ(parseMatrixJson(text, preset.name), preset) << preset.name;
    }
}

TEST(Presets, NamesFromTheIssue)
{
    for (const char* name : {"quick", "stdio-per-byte", "sync-modes", "bandwidth-4k", "pipe"})
        EXPECT_TRUE(findPreset(name).has_value()) << name;
    EXPECT_FALSE(findPreset("nope").has_value());
    const auto perByte = *findPreset("stdio-per-byte");
    EXPECT_EQ(perByte.groups[0].buffers.size(), 8u);
    EXPECT_EQ(perByte.groups[0].chunks, std::vector<std::uint64_t>{1});
}

TEST(MatrixJson, TheShippedExampleParsesAndValidates)
{
    std::ifstream in(IOLAB_SOURCE_DIR "/resources/matrices/example.json");
    ASSERT_TRUE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    const auto m = parseMatrixJson(text.str(), "example.json");
    ASSERT_EQ(m.groups.size(), 2u);
    EXPECT_EQ(m.groups[1].threads, (std::vector<std::uint32_t>{1, 4}));
    EXPECT_EQ(m.groups[0].buffers.size(), 3u);
}

// Issue 14: every preset names the question it answers and holds the baseline of each of its cases, so that
// the speed-up column is filled.
TEST(Presets, EachAsksAQuestionAndHoldsItsBaselines)
{
    const std::set<std::string> pipes{"pipe-write", "vmsplice"};
    const std::set<std::string> fileSets{"files-serial", "files-pool", "files-per-thread"};
    const std::set<std::string> reads{"read",      "read-direct", "read-random",   "read-random-direct",
                                      "mmap-read", "fread",       "fread-unlocked"};
    for (const auto& preset : builtinPresets()) {
        EXPECT_FALSE(preset.question.empty()) << preset.name;
        EXPECT_TRUE(preset.question.ends_with("?")) << preset.name << ": " << preset.question;
        const auto has = [&](const std::string& strategy, std::uint64_t chunk, const FileSetSpec* set) {
            for (const auto& g : preset.groups) {
                const bool named =
                    std::find(g.strategies.begin(), g.strategies.end(), strategy) != g.strategies.end();
                const bool chunked = std::find(g.chunks.begin(), g.chunks.end(), chunk) != g.chunks.end();
                const bool buffered = strategy != "stdio" || g.buffers.empty() ||
                                      std::find(g.buffers.begin(), g.buffers.end(),
                                                StdioBuffer{BufferMode::Default, 0}) != g.buffers.end();
                const bool sameSet = set == nullptr || std::find(g.fileSets.begin(), g.fileSets.end(),
                                                                 *set) != g.fileSets.end();
                if (named && chunked && buffered && sameSet)
                    return true;
            }
            return false;
        };
        for (const auto& g : preset.groups) {
            // A write until steady answers how fast one write goes on, not how it compares (the sustained
            // preset): no baseline.
            if (!g.steadyRules.empty() &&
                std::all_of(g.steadyRules.begin(), g.steadyRules.end(), [](SteadyRule r) { return r.on(); }))
                continue;
            for (const auto& s : g.strategies) {
                for (std::uint64_t chunk : g.chunks) {
                    if (fileSets.contains(s)) {
                        for (const auto& set : g.fileSets)
                            EXPECT_TRUE(has("files-serial", chunk, &set)) << preset.name << ": " << s;
                    } else {
                        const std::string base = pipes.contains(s)   ? "pipe-write"
                                                 : reads.contains(s) ? "read"
                                                                     : "stdio";
                        EXPECT_TRUE(has(base, chunk, nullptr)) << preset.name << ": " << s << " at " << chunk
                                                               << " B has no " << base << " baseline";
                    }
                }
            }
        }
    }
}

TEST(Presets, QuickAsksOneQuestionAtOneChunkSize)
{
    const auto quick = *findPreset("quick");
    std::set<std::uint64_t> chunks;
    std::set<std::string> strategies;
    for (const auto& g : quick.groups) {
        chunks.insert(g.chunks.begin(), g.chunks.end());
        strategies.insert(g.strategies.begin(), g.strategies.end());
        EXPECT_TRUE(g.buffers.empty() && g.syncs.empty() && g.threads.empty()) << "one case per strategy";
    }
    EXPECT_EQ(chunks, std::set<std::uint64_t>{64 * kKiB});
    for (const char* s : {"stdio", "stdio-unlocked", "write", "direct", "mmap-window", "mmap-batch-direct",
                          "pipe-write", "vmsplice"})
        EXPECT_TRUE(strategies.contains(s)) << s;
    EXPECT_THAT(quick.question, HasSubstr("64 KiB"));
    // Enough repetitions that one slowed by the host is left out, as the trimmed mean leaves it out.
    EXPECT_EQ(quick.repetitions, kTrimmedMeanMinCount);
}

TEST_F(MatrixTest, RepetitionsAreKeptByJsonAndTheDraftAndChecked)
{
    const auto m = parseMatrixJson(
        R"({"repetitions": 7, "strategies": ["write"], "chunks": "4K", "sizes": 1048576})", "r.json");
    EXPECT_EQ(m.repetitions, 7u);
    EXPECT_EQ(matrixToJson(m)["repetitions"], 7);
    EXPECT_EQ(parseMatrixJson(matrixToJson(m).dump(), "again.json"), m);
    EXPECT_EQ(MatrixDraft::fromMatrix(m, m_registry).toMatrix().repetitions, 7u);
    const auto none =
        parseMatrixJson(R"({"strategies": ["write"], "chunks": "4K", "sizes": 1048576})", "n.json");
    EXPECT_FALSE(none.repetitions.has_value());
    EXPECT_FALSE(matrixToJson(none).contains("repetitions")) << "an optional key";
    for (const char* bad : {"0", "1001", "-2", "2.5", "\"five\""}) {
        try {
            parseMatrixJson(fmt::format(R"({{"repetitions": {}, "strategies": ["write"], "chunks": "4K",
                                             "sizes": 1048576}})",
                                        bad),
                            "bad.json");
            FAIL() << "accepted repetitions " << bad;
        } catch (const InputError& e) {
            EXPECT_THAT(
                std::string(e.what()),
                HasSubstr(fmt::format("bad.json: \"repetitions\" must be a whole number from 1 to 1000, "
                                      "found {}",
                                      bad)));
        }
    }
    Matrix tooMany = m;
    tooMany.repetitions = 0;
    EXPECT_THROW(validate(tooMany, m_registry), InputError);
}

TEST_F(MatrixTest, QuestionIsKeptByJsonAndTheDraft)
{
    const auto m = parseMatrixJson(
        R"({"name": "x", "question": "Which write call should a logger use?", "strategies": ["write"],
            "chunks": "4K", "sizes": 1048576})",
        "q.json");
    EXPECT_EQ(m.question, "Which write call should a logger use?");
    EXPECT_EQ(matrixToJson(m)["question"], "Which write call should a logger use?");
    EXPECT_EQ(MatrixDraft::fromMatrix(m, m_registry).toMatrix().question, m.question);
    const auto none =
        parseMatrixJson(R"({"strategies": ["write"], "chunks": "4K", "sizes": 1048576})", "n.json");
    EXPECT_TRUE(none.question.empty());
    EXPECT_FALSE(matrixToJson(none).contains("question")) << "an optional key";
    try {
        parseMatrixJson(R"({"question": 3, "strategies": ["write"], "chunks": "4K", "sizes": 1048576})",
                        "bad.json");
        FAIL() << "accepted a number as the question";
    } catch (const InputError& e) {
        EXPECT_THAT(std::string(e.what()), HasSubstr("bad.json: \"question\" must be a string"));
    }
}

// Two readers with the same hints share a group only when that group means the same for both: a hint that is
// one reader's default is left implicit, which would give the other reader its own default instead.
TEST_F(MatrixTest, DraftGroupsOnlyRowsWhoseGroupMeansTheSame)
{
    for (const auto& [id, hint] :
         {std::pair{"reader-random", ReadHint::Random}, {"reader-normal", ReadHint::Normal}}) {
        auto reader = std::make_unique<FakeStrategy>(id, m_behaviour);
        reader->mutableInfo().direction = Direction::Read;
        reader->mutableInfo().syncModes = {SyncMode::None};
        reader->mutableInfo().hints = {hint, ReadHint::Random, ReadHint::Normal};
        m_registry.add(std::move(reader));
    }
    MatrixDraft draft = MatrixDraft::fresh(m_registry);
    for (const char* id : {"reader-random", "reader-normal"}) {
        draft.find(id)->chunks = {4096};
        draft.find(id)->hints = {ReadHint::Random};
    }
    const Matrix m = draft.toMatrix();
    TargetInfo target;
    target.logicalBlockBytes = 512;
    const auto cases = expand(m, m_registry, target).cases;
    ASSERT_EQ(cases.size(), 2u);
    EXPECT_EQ(cases[0].hint, ReadHint::Random);
    EXPECT_EQ(cases[1].hint, ReadHint::Random) << "reader-normal keeps the random hint it was given";
}

// Issue 34: --size, --duration and --reps over a preset or a matrix file. Every case that takes them gets
// them; a file-set reader keeps its set and has no time limit (its part of a mixed group becomes a group of
// its own, in place); the matrix records what was set, which its sentence and its JSON say.
TEST_F(MatrixTest, OverridesSetEveryCaseAndTheMatrixSaysSo)
{
    auto files = std::make_unique<FakeStrategy>("files-serial", m_behaviour);
    files->mutableInfo().layout = DataLayout::FileSet;
    files->mutableInfo().direction = Direction::Read;
    m_registry.add(std::move(files));
    Matrix m{"sync-lab", "8 KiB writes for 5 s", {}};
    MatrixGroup mixed;
    mixed.strategies = {"write", "files-serial", "direct"};
    mixed.chunks = {4 * kKiB};
    mixed.sizes = {64 * kMiB};
    mixed.fileSets = {parseFileSet("10x4K")};
    MatrixGroup capped;
    capped.strategies = {"stdio"};
    capped.chunks = {4 * kKiB};
    capped.sizes = {4 * kGiB};
    capped.timeLimitsMs = {5000};
    capped.memoryLimitsBytes = {kGiB};
    m.groups = {mixed, capped};
    m.repetitions = 1;

    applyOverrides(m, CaseOverrides{{256 * kMiB}, {1000}, 2, {}}, m_registry);
    ASSERT_EQ(m.groups.size(), 4u);
    const std::vector<std::vector<std::string>> order{{"write"}, {"files-serial"}, {"direct"}, {"stdio"}};
    for (std::size_t i = 0; i < order.size(); ++i) {
        EXPECT_EQ(m.groups[i].strategies, order[i]);
        EXPECT_EQ(m.groups[i].sizes, std::vector<std::uint64_t>{256 * kMiB});
        EXPECT_EQ(m.groups[i].timeLimitsMs,
                  i == 1 ? std::vector<std::uint64_t>{} : std::vector<std::uint64_t>{1000})
            << "a file-set reader reads every file: it takes no time limit";
    }
    EXPECT_EQ(m.groups[1].fileSets, mixed.fileSets);
    EXPECT_EQ(m.groups[3].memoryLimitsBytes, std::vector<std::uint64_t>{64 * kMiB}) << "a quarter, as before";
    EXPECT_EQ(m.repetitions, 2u);
    EXPECT_EQ(m.overridden.untouched, std::vector<std::string>{"files-serial"});
    EXPECT_EQ(overridesText(m),
              "size 256 MiB (memory limit scaled with it to 64 MiB), duration 1 s, 2 "
              "repetitions; the file-set readers (files-serial) read every file of their sets "
              "as before");

    const nlohmann::json json = matrixToJson(m);
    ASSERT_TRUE(json.contains("overridden")) << json.dump();
    EXPECT_EQ(json["overridden"]["text"], overridesText(m));
    EXPECT_EQ(json["overridden"]["timeLimits"], nlohmann::json::array({"1s"}));
    EXPECT_EQ(parseMatrixJson(json.dump(), "result"), m) << "a result's matrix reads back with its overrides";

    Matrix untimed{"quick", "", {capped}};
    applyOverrides(untimed, CaseOverrides{{}, {0}, std::nullopt, {}}, m_registry);
    EXPECT_EQ(untimed.groups[0].timeLimitsMs, std::vector<std::uint64_t>{0});
    EXPECT_EQ(overridesText(untimed), "no time limit (each case runs to its size)");
    EXPECT_EQ(overridesText(Matrix{}), "") << "nothing overridden, nothing said";
    EXPECT_FALSE(matrixToJson(Matrix{"quick", "", {capped}}).contains("overridden"));
}
