// SPDX-License-Identifier: MIT
// The read strategies on this OS, run by the real engine in a temp folder: every byte read is checked
// against what the data set holds, damage and vanished files fail the case with the file's name, file sets
// of 2,000 files read correctly at every pool cap, eviction leaves the data out of the page cache (checked
// with mincore where the OS can tell), and nothing is left behind.
#include "core/base/units.h"
#include "core/engine/pattern.h"
#include "core/engine/runner.h"
#include "core/engine/workspace.h"
#include "core/model/matrix.h"
#include "platform/platform.h"
#include "tests/support/capabilities.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

std::string join(std::initializer_list<std::string> parts)
{
    std::string path;
    for (const auto& p : parts)
        path += (path.empty() ? "" : std::string(1, kSeparator)) + p;
    return path;
}

// Damages the data set between the warm-up and the first measured repetition.
class Saboteur final : public RunObserver
{
public:
    Saboteur(Workspace& workspace, std::function<void(const std::string& folder)> act)
        : m_workspace(workspace), m_act(std::move(act))
    {}
    void repetitionFinished(const RepetitionFinished& r) override
    {
        if (r.repetition.warmup && !m_done) {
            m_done = true;
            m_act(m_workspace.folder());
        }
    }

private:
    Workspace& m_workspace;
    std::function<void(const std::string&)> m_act;
    bool m_done = false;
};

class Reads : public ::testing::Test
{
protected:
    Reads() : m_target(inspectTarget(m_dir.path())), m_probe(makeSystemProbe())
    {
        registerBuiltinStrategies(m_registry);
        probeCapabilities(m_target);
        m_options.repetitions = 2;
        m_options.warmups = 1;
        m_options.verifyFiles = true;
        m_options.sampleIntervalMs = 10;
    }

    RunResult run(const Matrix& m, RunObserver* observer = nullptr,
                  const std::function<void(Workspace&)>& withWorkspace = {})
    {
        const auto expanded = expand(m, m_registry, m_target);
        for (const auto& r : expanded.refused)
            ADD_FAILURE() << r.testCase.label() << ": " << r.reason;
        auto workspace = makeWorkspace(m_target);
        if (withWorkspace)
            withWorkspace(*workspace);
        Runner runner(m_registry, *workspace, *m_probe);
        auto result = runner.run(RunPlan{m, m_target, expanded}, m_options, {}, observer);
        EXPECT_EQ(m_dir.entryCount(), 0u) << "the run folder and its data sets are gone";
        return result;
    }

    void expectAllRead(const RunResult& result, std::size_t cases)
    {
        EXPECT_EQ(result.cases.size(), cases);
        for (const auto& c : result.cases) {
            EXPECT_EQ(c.status, Status::Ok) << c.testCase.label() << ": " << c.reason;
            EXPECT_EQ(c.repetitions.size(), 3u) << c.testCase.label();
            for (const auto& rep : c.repetitions) {
                EXPECT_TRUE(rep.verified) << c.testCase.label();
                EXPECT_EQ(rep.bytes, c.testCase.totalBytes) << c.testCase.label();
            }
        }
    }

    Registry m_registry;
    TempDir m_dir;
    TargetInfo m_target;
    std::unique_ptr<SystemProbe> m_probe;
    RunOptions m_options;
};

MatrixGroup group(std::vector<std::string> strategies, std::vector<std::uint64_t> chunks,
                  std::vector<std::uint64_t> sizes)
{
    MatrixGroup g;
    g.strategies = std::move(strategies);
    g.chunks = std::move(chunks);
    g.sizes = std::move(sizes);
    return g;
}

} // namespace

TEST_F(Reads, EverySequentialAndRandomReaderReadsExactlyTheBytesWritten)
{
    // Odd chunks leave tails; three threads read three files (sequential) or share one (random); O_DIRECT
    // readers get block multiples.
#ifdef _WIN32
    auto buffered = group({"read", "fread", "mmap-read", "read-random"}, {4096, 5000}, {3 * kMiB + 4});
#else
    auto buffered =
        group({"read", "fread", "fread-unlocked", "mmap-read", "read-random"}, {4096, 5000}, {3 * kMiB + 4});
#endif
    buffered.threads = {1, 3};
    auto direct = group({"read-direct", "read-random-direct"}, {4096, 64 * kKiB}, {3 * kMiB});
    direct.threads = {1, 3};
    auto warm = group({"read"}, {kMiB}, {2 * kMiB});
    warm.caches = {CacheState::Warm};
    warm.hints = {ReadHint::Sequential, ReadHint::Random};
    const auto result = run(Matrix{"t", "", {buffered, direct, warm}});
    expectAllRead(result, buffered.strategies.size() * 4 + 8 + 2);
    for (const auto& c : result.cases)
        EXPECT_FALSE(c.cacheMethod.empty()) << c.testCase.label();
}

TEST_F(Reads, ADamagedByteFailsTheCaseWithTheFileAndOffset)
{
    auto g = group({"read"}, {4096}, {kMiB});
    auto workspace = makeWorkspace(m_target);
    Saboteur saboteur(*workspace, [](const std::string& folder) {
        std::fstream f(join({folder, "set-1", "f000000.dat"}),
                       std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(5000);
        f.put('\0'); // the pattern never holds a zero byte
    });
    const auto expanded = expand(Matrix{"t", "", {g}}, m_registry, m_target);
    Runner runner(m_registry, *workspace, *m_probe);
    const auto result =
        runner.run(RunPlan{Matrix{"t", "", {g}}, m_target, expanded}, m_options, {}, &saboteur);
    ASSERT_EQ(result.cases.size(), 1u);
    EXPECT_EQ(result.cases[0].status, Status::Failed);
    EXPECT_THAT(result.cases[0].reason, HasSubstr("f000000.dat: byte 5000 differs from what was written"));
    EXPECT_EQ(m_dir.entryCount(), 0u);
}

TEST_F(Reads, AFileVanishingMidRunFailsTheCaseWithItsName)
{
    MatrixGroup g;
    g.strategies = {"files-pool"};
    g.chunks = {4096};
    g.threads = {4};
    g.fileSets = {parseFileSet("200x1K-8K")};
    auto workspace = makeWorkspace(m_target);
    Saboteur saboteur(*workspace, [](const std::string& folder) {
        std::filesystem::remove(join({folder, "set-1", "d00", "d00", "f000007.dat"}));
    });
    const Matrix m{"t", "", {g}};
    Runner runner(m_registry, *workspace, *m_probe);
    const auto result = runner.run(*makeRunPlan(m, m_registry, m_target), m_options, {}, &saboteur);
    ASSERT_EQ(result.cases.size(), 1u);
    EXPECT_EQ(result.cases[0].status, Status::Failed);
    EXPECT_THAT(result.cases[0].reason, HasSubstr("f000007.dat"));
    EXPECT_EQ(m_dir.entryCount(), 0u);
}

TEST_F(Reads, TwoThousandFilesAreReadCorrectlyAtEveryCap)
{
    MatrixGroup g;
    g.strategies = {"files-serial", "files-pool"};
    g.chunks = {4096};
    g.threads = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    g.fileSets = {parseFileSet("2000x1-6K")};
    MatrixGroup each;
    each.strategies = {"files-per-thread"};
    each.chunks = {64 * kKiB};
    each.fileSets = {parseFileSet("1000x1-6K")};
    m_options.repetitions = 1;
    const auto result = run(Matrix{"t", "", {g, each}});
    ASSERT_EQ(result.cases.size(), 11u);
    for (const auto& c : result.cases) {
        EXPECT_EQ(c.status, Status::Ok) << c.testCase.label() << ": " << c.reason;
        for (const auto& rep : c.repetitions) {
            EXPECT_TRUE(rep.verified) << c.testCase.label();
            EXPECT_EQ(rep.files, c.testCase.fileSet.files) << c.testCase.label();
            EXPECT_EQ(rep.bytes, c.testCase.totalBytes) << c.testCase.label();
            EXPECT_GT(rep.fileP50Seconds, 0.0);
            EXPECT_GE(rep.fileP99Seconds, rep.fileP50Seconds);
        }
        EXPECT_GT(c.filesPerSecond.median, 0.0) << c.testCase.label();
    }
    EXPECT_EQ(result.cases.back().testCase.threads, 1000u);
}

TEST_F(Reads, EvictionLeavesTheFilesOutOfThePageCache)
{
    auto workspace = makeWorkspace(m_target);
    const Pattern pattern(kMiB);
    std::atomic<bool> stop{false};
    Outcome outcome;
    const std::string path = workspace->pathFor("f000000.dat", outcome);
    ASSERT_TRUE(outcome.ok()) << outcome.message;
    ASSERT_TRUE(workspace->writeDataFile(path, 8 * kMiB, 123, pattern, stop, 0).ok());
    ASSERT_TRUE(workspace->verify(path, 8 * kMiB, pattern, 123).ok()) << "read once: cached";
    const auto warm = workspace->cachedBytes(path);
    ASSERT_TRUE(workspace->evict(path).ok());
    const auto cold = workspace->cachedBytes(path);
#ifdef _WIN32
    EXPECT_FALSE(warm.has_value()) << "Windows has no mincore: residency is unknown, and said so";
    EXPECT_FALSE(cold.has_value());
#else
    ASSERT_TRUE(warm.has_value() && cold.has_value());
    if (folderLivesInMemory(m_target))
        GTEST_SKIP() << "tmpfs keeps its files in the page cache; eviction cannot work there";
    EXPECT_EQ(*warm, 8 * kMiB);
    EXPECT_LT(*cold, 8 * kMiB / 10) << "fdatasync + POSIX_FADV_DONTNEED dropped the pages";
#endif
    workspace->remove(path);
    workspace->close();
    EXPECT_EQ(m_dir.entryCount(), 0u);
}

TEST_F(Reads, ColdAndWarmCasesMeasureWhatTheySay)
{
    auto g = group({"read"}, {kMiB}, {16 * kMiB});
    g.caches = {CacheState::Cold, CacheState::Warm};
    const auto result = run(Matrix{"t", "", {g}});
    ASSERT_EQ(result.cases.size(), 2u);
    const auto& cold = result.cases[0];
    const auto& warm = result.cases[1];
    EXPECT_THAT(cold.cacheMethod, HasSubstr("cold"));
    EXPECT_THAT(warm.cacheMethod, HasSubstr("warm"));
    ASSERT_FALSE(warm.repetitions.empty());
    ASSERT_FALSE(cold.repetitions.empty());
    // Where residency is known (Linux: mincore), every repetition reports it; Windows has no way to tell.
#ifdef _WIN32
    for (const auto* rep : {&warm.repetitions.front(), &cold.repetitions.front()})
        EXPECT_FALSE(rep->cachedBytes.has_value()) << "Windows cannot tell: unknown, not a guess";
#else
    // Warm: the file read into the page cache before timing. A machine short of memory (two sanitizer test
    // processes at once) may evict a page or two of it again: 15 of 16 MiB was seen under TSan.
    for (const auto& rep : warm.repetitions) {
        ASSERT_TRUE(rep.cachedBytes.has_value()) << "mincore tells the page cache's share on Linux";
        EXPECT_GE(*rep.cachedBytes, 16 * kMiB * 9 / 10);
        EXPECT_LE(*rep.cachedBytes, 16 * kMiB);
    }
    for (const auto& rep : cold.repetitions) {
        ASSERT_TRUE(rep.cachedBytes.has_value()) << "mincore tells the page cache's share on Linux";
        if (folderLivesInMemory(m_target))
            EXPECT_EQ(*rep.cachedBytes, 16 * kMiB)
                << "tmpfs keeps its files in the page cache: eviction cannot work";
        else
            EXPECT_LT(*rep.cachedBytes, 16 * kMiB / 10);
    }
#endif
}

TEST_F(Reads, DropCachesAsRootOrAClearRefusal)
{
    auto workspace = makeWorkspace(m_target);
    const auto outcome = workspace->dropCaches();
#ifdef _WIN32
    EXPECT_EQ(outcome.status, Status::Unsupported);
    EXPECT_FALSE(canDropCaches());
#else
    if (runningAsRoot()) {
        EXPECT_TRUE(canDropCaches());
        EXPECT_TRUE(outcome.ok()) << outcome.message;
        auto g = group({"read"}, {kMiB}, {4 * kMiB});
        m_options.dropCaches = true;
        const auto result = run(Matrix{"t", "", {g}});
        ASSERT_EQ(result.cases.size(), 1u);
        EXPECT_EQ(result.cases[0].status, Status::Ok) << result.cases[0].reason;
        EXPECT_THAT(result.cases[0].cacheMethod, HasSubstr("drop_caches"));
    } else {
        EXPECT_FALSE(canDropCaches());
        EXPECT_FALSE(outcome.ok());
        EXPECT_THAT(outcome.message, HasSubstr("needs root"));
    }
#endif
    workspace->close();
}
