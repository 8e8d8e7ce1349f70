// SPDX-License-Identifier: MIT
// iolab-cli's sync lab, issue 34 section 4: --size, --duration and --reps over a preset or a matrix file, the
// pg_test_fsync layout with the findings and verdicts after it, methods named in words, and a stopped run
// that counts the cases that ran.
#include "core/base/units.h"
#include "core/formats/result_json.h"
#include "tests/support/process.h"
#include "tests/support/result_schema.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <thread>

using namespace iolab;
using namespace iolab::test;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

class CliSyncLab : public ::testing::Test
{
protected:
    ProcessResult cli(std::vector<std::string> args)
    {
        return runProcess(IOLAB_CLI_PATH, args, {stateHome(m_state.path())});
    }

    static void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
    static std::string slurp(const std::string& path)
    {
        std::ifstream in(path);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
    static std::vector<std::string> linesOf(const std::string& text)
    {
        std::vector<std::string> lines;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            lines.push_back(line);
        return lines;
    }
    // Within each section of a pg layout (lines between blank ones), every method's " ops/sec" and
    // " usecs/op" begin in the same columns.
    static void expectAlignedSections(const std::string& text)
    {
        std::optional<std::pair<std::size_t, std::size_t>> columns;
        for (const auto& line : linesOf(text)) {
            if (line.empty()) {
                columns.reset();
                continue;
            }
            if (!line.starts_with("        ") || line.find(" ops/sec") == std::string::npos)
                continue;
            const std::pair at{line.find(" ops/sec"), line.find(" usecs/op")};
            if (!columns)
                columns = at;
            EXPECT_EQ(at, *columns) << line << "\n" << text;
        }
    }

    TempDir m_target;
    TempDir m_out;
    TempDir m_state;
};

// Two of the sync lab's methods as a matrix file: 5 s each over 64 MiB, three repetitions.
constexpr const char* kTwoMethods = R"({"name": "two methods", "repetitions": 3, "groups": [
  {"strategies": ["write"], "chunks": ["8K"], "sizes": ["64M"], "syncs": ["fdatasync-every:1"],
   "preallocate": ["rewrite"], "timeLimits": ["5s"]},
  {"strategies": ["direct"], "chunks": ["8K"], "sizes": ["64M"], "syncs": ["O_DSYNC"],
   "preallocate": ["rewrite"], "timeLimits": ["5s"]}]})";

} // namespace

// --size, --duration and --reps over a matrix file set every case, and the Summary and the result JSON say
// so.
TEST_F(CliSyncLab, OverridesSetEveryCaseOfAMatrixFileAndTheSummaryAndJsonSaySo)
{
    const auto matrix = m_out / "two.json";
    write(matrix, kTwoMethods);
    const auto json = m_out / "r.json";
    const auto r =
        cli({"run", "--target", m_target.path(), "--matrix", matrix, "--duration", "200ms", "--reps", "1",
             "--size", "2M", "--warmups", "0", "--quiet", "--no-sampling", "--json", json});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out,
                HasSubstr("\nOverridden for every case: size 2 MiB, duration 200 ms, 1 repetition.\n"));
    EXPECT_TRUE(test::followsResultSchema(json));
    const RunResult result = resultFromJson(slurp(json), json);
    ASSERT_EQ(result.cases.size(), 2u);
    for (const auto& c : result.cases) {
        EXPECT_EQ(c.testCase.timeLimitMs, 200u);
        EXPECT_EQ(c.testCase.totalBytes, 2 * kMiB);
        EXPECT_EQ(c.repetitions.size(), 1u) << "one measured repetition, no warm-up";
    }
    EXPECT_EQ(result.options.repetitions, 1u);
    EXPECT_EQ(result.matrix.overridden.timeLimitsMs, std::vector<std::uint64_t>{200});
    EXPECT_THAT(slurp(json), HasSubstr(R"("text": "size 2 MiB, duration 200 ms, 1 repetition")"))
        << "in words for the app, the PDF and other readers";
    EXPECT_EQ(m_target.entryCount(), 0u) << "nothing left behind";

    // Only what is given is said to be overridden, and without a flag nothing is.
    const auto plain = cli({"run", "--target", m_target.path(), "--matrix", matrix, "--size", "64K",
                            "--quiet", "--no-sampling", "--reps", "1", "--warmups", "0"});
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_THAT(plain.out, HasSubstr("\nOverridden for every case: size 64 KiB, 1 repetition.\n"))
        << "the time limits are the file's own";
    const auto small = m_out / "small.json";
    write(small, R"({"strategies": ["write"], "chunks": ["64K"], "sizes": ["256K"], "repetitions": 1})");
    const auto own = cli({"run", "--target", m_target.path(), "--matrix", small, "--quiet", "--no-sampling",
                          "--warmups", "0"});
    ASSERT_EQ(own.exitCode, 0) << own.err;
    EXPECT_THAT(own.out, Not(HasSubstr("Overridden")));
}

// What the issue saw refused: pg_test_fsync's users shorten it with -s, IOLab's with --duration. The whole
// sync-lab preset at 50 ms a method, in pg_test_fsync's layout: its sections, then the findings and the two
// verdicts, with every method's figures in their section's columns.
TEST_F(CliSyncLab, TheSyncLabPresetTakesDurationRepsAndSizeAndPrintsThePgLayoutThenItsConclusions)
{
    const auto json = m_out / "lab.json";
    const auto r =
        cli({"run", "--target", m_target.path(), "--preset", "sync-lab", "--duration", "50ms", "--reps", "1",
             "--size", "1M", "--warmups", "0", "--no-sampling", "--quiet", "--format", "pg", "--json", json});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out,
                ::testing::StartsWith("50 ms per test; overridden for every case: size 1 MiB, duration "
                                      "50 ms, 1 repetition\n"))
        << r.out;
    for (const char* heading :
         {"\nCompare file sync methods using one 8kB write:\n(in wal_sync_method preference order, except "
          "fdatasync is Linux's default)\n",
          "\nCompare open_sync with different write sizes:\n(This is designed to compare the cost of writing "
          "16kB in different write\nopen_sync sizes.)\n",
          "\nNon-sync'ed 8kB writes:\n",
          "\nIOLab: methods pg_test_fsync does not have, 8kB writes rewriting one "
          "block in place:\n"})
        EXPECT_THAT(r.out, HasSubstr(heading));
    const auto verdicts = r.out.find("\nVerdicts:\n");
    ASSERT_NE(verdicts, std::string::npos) << r.out;
    EXPECT_GT(verdicts, r.out.rfind(" usecs/op")) << "the conclusions come after the layout";
    EXPECT_THAT(r.out.substr(verdicts), AllOf(HasSubstr("The fastest way to make each 8 KiB write durable"),
                                              HasSubstr("etcd's rule")));
    expectAlignedSections(r.out);
    EXPECT_TRUE(test::followsResultSchema(json));
    const RunResult result = resultFromJson(slurp(json), json);
    for (const auto& c : result.cases) {
        EXPECT_EQ(c.testCase.timeLimitMs, 50u) << c.testCase.label();
        EXPECT_EQ(c.testCase.totalBytes, kMiB) << c.testCase.label();
    }
    EXPECT_EQ(m_target.entryCount(), 0u);
}

// With --strategy, a method pg_test_fsync has no name for is named in words, never by its case label.
TEST_F(CliSyncLab, AHandMadeMethodIsNamedInWordsInThePgLayout)
{
    const auto r = cli({"run",
                        "--target",
                        m_target.path(),
                        "--strategy",
                        "write,direct",
                        "--sync",
                        "O_DSYNC",
                        "--chunk",
                        "8K",
                        "--size",
                        "1T",
                        "--duration",
                        "200ms",
                        "--preallocate",
                        "rewrite",
                        "--threads",
                        "1,2",
                        "--reps",
                        "1",
                        "--warmups",
                        "0",
                        "--no-sampling",
                        "--quiet",
                        "--format",
                        "pg"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("        open_datasync  ")) << "direct with O_DSYNC is pg_test_fsync's";
    EXPECT_THAT(r.out, HasSubstr("        8 KiB writes with O_DSYNC  ")) << "buffered O_DSYNC is not";
    EXPECT_THAT(r.out,
                HasSubstr("        8 KiB O_DIRECT writes with O_DSYNC, 2 threads, rewriting one block  "))
        << r.out;
    for (const char* label : {"chunk=", "sync=", "threads=", "size=", "limit=", "prealloc="})
        EXPECT_THAT(r.out, Not(HasSubstr(label))) << r.out;
    expectAlignedSections(r.out);
}

namespace {

// Waits until a run has created the data file of case `number` (1-based) somewhere under `folder`.
bool waitForCaseFile(const std::string& folder, int number)
{
    char name[32];
    std::snprintf(name, sizeof name, "/c%03d-r0-t0.dat", number);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
        std::error_code ec;
        for (auto it = std::filesystem::recursive_directory_iterator(folder, ec);
             !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
            if (it->path().string().ends_with(name))
                return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

} // namespace

// A run stopped in its third of five cases: the pg layout, its findings and the closing tally count the two
// cases that ran, not the five planned; the Summary of a table run says the same.
TEST_F(CliSyncLab, AStoppedRunCountsTheCasesThatRan)
{
    const auto matrix = m_out / "five.json";
    write(matrix, R"({"groups": [
      {"strategies": ["write"], "chunks": ["8K"], "sizes": ["64K"], "syncs": ["fdatasync-every:1"], "preallocate": ["rewrite"]},
      {"strategies": ["direct"], "chunks": ["8K"], "sizes": ["64K"], "syncs": ["O_DSYNC"], "preallocate": ["rewrite"]},
      {"strategies": ["write"], "chunks": ["512"], "sizes": ["1G"], "syncs": ["O_DSYNC"], "timeLimits": ["60s"]},
      {"strategies": ["direct"], "chunks": ["8K"], "sizes": ["64K"], "syncs": ["O_SYNC"], "preallocate": ["rewrite"]},
      {"strategies": ["write"], "chunks": ["8K"], "sizes": ["64K"], "syncs": ["fsync-every:1"], "preallocate": ["rewrite"]}]})");
    for (const char* format : {"pg", "table"}) {
        Process p(IOLAB_CLI_PATH,
                  {"run", "--target", m_target.path(), "--matrix", matrix, "--reps", "1", "--warmups", "0",
                   "--no-sampling", "--quiet", "--format", format},
                  {stateHome(m_state.path())});
        if (!waitForCaseFile(m_target.path(), 3)) {
            p.signal(SIGKILL);
            p.wait();
            FAIL() << "the run never reached its third case";
        }
        p.signal(SIGINT);
        const auto r = p.wait();
        EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
        EXPECT_THAT(r.out,
                    HasSubstr("2 cases ran: 2 ok, 0 failed, 0 refused at run time; 3 more cancelled by "
                              "the stop, not run to their end"));
        if (std::string(format) == "pg") {
            EXPECT_THAT(r.out,
                        HasSubstr("The run was stopped at case 3 of 5: the sync lab covers the 2 cases "
                                  "that ran."));
            EXPECT_THAT(r.out,
                        HasSubstr("The run was stopped at case 3 of 5, so this report covers the 2 cases "
                                  "that ran."));
        } else {
            EXPECT_THAT(r.out, HasSubstr("the answer covers the 2 cases that ran"));
        }
        EXPECT_THAT(r.out, Not(HasSubstr("5 cases"))) << r.out;
        EXPECT_EQ(m_target.entryCount(), 0u);
    }
}
