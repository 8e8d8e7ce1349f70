// SPDX-License-Identifier: MIT
// iolab-cli end to end: the real binary, its exit codes, its files, and what it leaves behind (nothing).
#include "core/analysis/warnings.h"
#include "core/formats/csv.h"
#include "core/formats/presets.h"
#include "core/formats/result_json.h"
#include "core/version.h"
#include "platform/platform.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/mount.h"
#include "tests/support/process.h"
#include "tests/support/result_schema.h"
#include "tests/support/temp_dir.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <thread>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// The cases of a preset this OS and build run on `target` (unavailable strategies are refused).
std::size_t runnableCases(const std::string& preset, const std::string& target)
{
    return expand(*findPreset(preset), builtinRegistry(), inspectTarget(target)).cases.size();
}

class Cli : public ::testing::Test
{
protected:
    ProcessResult cli(std::vector<std::string> args)
    {
        return runProcess(IOLAB_CLI_PATH, args, environment());
    }
    std::vector<std::string> environment() const { return {stateHome(m_state.path())}; }

    static std::string slurp(const std::string& path)
    {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }

    TempDir m_target;
    TempDir m_out;
    TempDir m_state;
};

} // namespace

TEST_F(Cli, VersionStrategiesAndPresets)
{
    auto r = cli({"--version"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_EQ(r.out, "iolab-cli " IOLAB_VERSION "\n"); // project()'s version, as the packages are named
    r = cli({"strategies", "--target", m_target.path()});
    EXPECT_EQ(r.exitCode, 0);
    for (const char* id : {"stdio", "stdio-unlocked", "write", "direct", "mmap-window", "mmap-batch-direct",
                           "pipe-write", "vmsplice"})
        EXPECT_THAT(r.out, HasSubstr(id));
    EXPECT_THAT(r.out, HasSubstr("logical"));
    r = cli({"targets"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_THAT(r.out, HasSubstr("mount point"));
    r = cli({"presets"});
    EXPECT_EQ(r.exitCode, 0);
    for (const char* name : {"quick", "stdio-per-byte", "sync-modes", "bandwidth-4k", "pipe"})
        EXPECT_THAT(r.out, HasSubstr(name));
}

// Issue 18: `targets --details FOLDER` prints the folder's storage stack and every system fact, an unknown
// one with why; a run's JSON carries the same facts. A folder without --details, or a missing one, is
// refused.
TEST_F(Cli, TargetDetailsPrintTheSystemFactsThatARunRecords)
{
    auto r = cli({"targets", "--details", m_target.path()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto facts = gatherSystemFacts(inspectTarget(m_target.path()));
    EXPECT_THAT(r.out, HasSubstr(m_target.path()));
    EXPECT_THAT(r.out, HasSubstr("Device class: " + describe(facts.deviceClass)));
    ASSERT_FALSE(facts.sections.empty());
    for (const auto& section : facts.sections)
        EXPECT_THAT(r.out, HasSubstr("\n  " + section.title + "\n"));
    EXPECT_THAT(r.out, HasSubstr(describeStack(facts)));
#ifndef _WIN32
    EXPECT_THAT(r.out, HasSubstr("Dirty data written back after")); // Linux's writeback setting
#endif

    r = cli({"targets", m_target.path()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("needs --details"));
    r = cli({"targets", "--details", m_target.path() + "/missing"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("does not exist"));

    const auto json = m_out.path() + "/r.json";
    r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "64K", "--size", "1M",
             "--reps", "1", "--warmups", "0", "--quiet", "--json", json});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(slurp(json), json);
    ASSERT_TRUE(result.system.gathered);
    EXPECT_EQ(describeStack(result.system), describeStack(facts));
    EXPECT_EQ(result.system.deviceClass, facts.deviceClass);
    EXPECT_EQ(result.system.valueOf("queue.scheduler"), facts.valueOf("queue.scheduler"));
}

TEST_F(Cli, QuickRunWritesValidJsonAndCsvAndLeavesNothing)
{
    const auto json = m_out / "result.json";
    const auto csv = m_out / "result.csv";
    const auto r = cli({"run", "--target", m_target.path(), "--preset", "quick", "--size", "2M", "--reps",
                        "2", "--warmups", "0", "--verify", "--json", json, "--csv", csv});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("MB/s"));
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(slurp(json), json);
    // 8 on Linux; the Windows mingw build has neither stdio-unlocked nor vmsplice.
    const std::size_t cases = runnableCases("quick", m_target.path());
    ASSERT_EQ(result.cases.size(), cases);
    for (const auto& c : result.cases) {
        EXPECT_EQ(c.status, Status::Ok) << c.testCase.label();
        EXPECT_EQ(c.repetitions.size(), 2u);
        EXPECT_TRUE(c.repetitions.back().verified);
    }
    EXPECT_EQ(result.target.path, std::filesystem::canonical(m_target.path()).string());
    const auto rows = parseCsv(slurp(csv));
    EXPECT_EQ(rows.size(), 1u + cases * 2u);
    EXPECT_EQ(rows[0][0], "case");
    const auto summary = parseCsv(slurp(m_out / "result.summary.csv"));
    ASSERT_GE(summary.size(), 2u);
    EXPECT_EQ(summary[0][34], "median_MBps"); // after the case's columns, the last being the pipe's pages
    EXPECT_EQ(summary[0][13], "preallocate");
    EXPECT_EQ(summary[0][14], "reader_cpu");
    EXPECT_EQ(summary[0][15], "queue_depth");
    EXPECT_EQ(summary[0][16], "latency");
    EXPECT_EQ(summary[0][17], "pattern");
    EXPECT_EQ(summary[0][18], "time_limit");
    EXPECT_EQ(summary[0][19], "memory_limit");
    EXPECT_EQ(summary[0][20], "until_steady");
    EXPECT_EQ(summary[0][21], "free_space_share");
    EXPECT_EQ(summary[0][22], "read_percent");
    EXPECT_EQ(summary[0][23], "random_dist");
    EXPECT_EQ(summary[0][24], "uring");
    EXPECT_EQ(summary[0][25], "replay");
    EXPECT_EQ(summary[0][26], "replay_timing");
    EXPECT_EQ(summary[0][27], "replay_variant");
    EXPECT_EQ(summary[0][28], "reader_kind");
    EXPECT_EQ(summary[0][29], "reader_wait");
    EXPECT_EQ(summary[0][30], "pipe_pages");
    // Power-loss exposure, then the memory budget (issue 17), then the drive's heat (issue 39), io_uring's
    // options in effect and a read/write mix's two ways, last: the quick preset's writes to files have an
    // exposure, its pipes none; none of its cases has a memory limit or a mix, and this VM's disk no
    // temperature sensor.
    EXPECT_EQ(summary[0].back(), "write_p99_us");
    EXPECT_EQ(summary[0][summary[0].size() - 6], "read_MBps");
    EXPECT_EQ(summary[0][summary[0].size() - 7], "uring_in_effect");
    EXPECT_EQ(summary[0][summary[0].size() - 8], "throttle_s");
    EXPECT_EQ(summary[0][summary[0].size() - 12], "memory_peak_dirty_bytes");
    EXPECT_EQ(summary[0][summary[0].size() - 15], "at_risk_basis");
    EXPECT_EQ(summary[1][summary[0].size() - 12], "") << "no memory limit, no memory figures";
    EXPECT_EQ(summary[1][summary[0].size() - 6], "") << "no mix, no mix figures";
    const auto column = [&](const char* name) {
        return static_cast<std::size_t>(std::find(summary[0].begin(), summary[0].end(), name) -
                                        summary[0].begin());
    };
    const std::size_t atRisk = column("at_risk_max_bytes");
    const std::size_t target = column("target");
    const std::size_t status = column("status");
    ASSERT_LT(atRisk, summary[0].size());
    ASSERT_LT(target, summary[0].size());
    ASSERT_LT(status, summary[0].size());
    for (std::size_t row = 1; row < summary.size(); ++row) {
        if (summary[row][status] != "ok")
            continue; // a refused case (on Windows: stdio-unlocked, vmsplice) has no figures at all
        EXPECT_EQ(summary[row][atRisk].empty(), summary[row][target] != "directory") << summary[row][1];
    }
    const auto samples = parseCsv(slurp(m_out / "result.samples.csv"));
    ASSERT_GE(samples.size(), 1u);
    EXPECT_EQ(samples[0][4], "bytes_done");
    EXPECT_EQ(m_target.entryCount(), 0u);
    EXPECT_EQ(m_out.entryCount(), 4u); // JSON and three CSVs; no temporary files left beside them
    const auto log = slurp(m_state / "iolab/iolab.log");
    EXPECT_THAT(log, HasSubstr("[core] info: run started: " + std::to_string(cases) + " cases"));
    EXPECT_THAT(log, HasSubstr("[platform] info: run folder"));
}

// run --redact: the JSON and the CSV written carry neither this host's name nor the target's path, the
// figures are the run's.
TEST_F(Cli, ARunRedactedForSharingWritesNoNameInItsFiles)
{
    const auto json = m_out / "shared.json";
    const auto csv = m_out / "shared.csv";
    const auto r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "64K", "--size",
                        "1M", "--reps", "1", "--warmups", "0", "--json", json, "--csv", csv, "--redact"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const std::string host = makeSystemProbe()->host().hostname;
    const std::string target = std::filesystem::canonical(m_target.path()).string();
    ASSERT_FALSE(host.empty());
    for (const auto& file : {json, csv, m_out / "shared.summary.csv"}) {
        const std::string text = slurp(file);
        EXPECT_EQ(text.find(target), std::string::npos) << file;
        // std::regex, not gtest's: on Windows gtest has only its simple regular expressions.
        EXPECT_FALSE(
            std::regex_search(text, std::regex("(^|[^A-Za-z0-9_.-])" + host + "($|[^A-Za-z0-9_.-])")))
            << host << " in " << file;
    }
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(slurp(json), json);
    EXPECT_TRUE(result.redacted);
    EXPECT_EQ(result.host.hostname, "host-1");
    EXPECT_EQ(result.target.path, "path-1");
    ASSERT_EQ(result.cases.size(), 1u);
    EXPECT_EQ(result.cases[0].status, Status::Ok);
    EXPECT_GT(result.cases[0].durableMBps.median, 0.0);
}

// A saved result printed again (a support engineer reads a customer's file): the same table, grid and Summary
// its run printed, word for word; --redact prints it without the target's path; a missing or broken file is
// named with what is wrong.
TEST_F(Cli, ShowPrintsASavedResultAsItsRunDid)
{
    const auto json = m_out / "saved.json";
    const auto r = cli({"run", "--target", m_target.path(), "--strategy", "write,stdio", "--chunk", "64K",
                        "--size", "2M", "--reps", "5", "--warmups", "0", "--json", json, "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    // The table's CV% is the spread the warnings and the PDF quote: of the middle three of five repetitions.
    const RunResult saved = resultFromJson(slurp(json), json);
    std::istringstream table(r.out.substr(r.out.find("\n1 ") + 1));
    const std::vector<std::string> cells{std::istream_iterator<std::string>(table),
                                         std::istream_iterator<std::string>()};
    ASSERT_GT(cells.size(), 13u) << r.out;
    EXPECT_EQ(cells[13], fmt::format("{:.1f}", repetitionSpread(saved.cases[0]).cv * 100)) << r.out;
    const auto shown = cli({"show", json});
    ASSERT_EQ(shown.exitCode, 0) << shown.err;
    EXPECT_THAT(shown.out, HasSubstr(json + ": IOLab "));
    // Every line the run printed from its table on is printed again.
    const std::string fromTable = r.out.substr(r.out.find("#   strategy"));
    EXPECT_THAT(shown.out, HasSubstr(fromTable));
    EXPECT_THAT(shown.out, HasSubstr("Summary"));

    const std::string target = std::filesystem::canonical(m_target.path()).string();
    EXPECT_THAT(shown.out, HasSubstr(target));
    const auto redacted = cli({"show", json, "--redact"});
    ASSERT_EQ(redacted.exitCode, 0) << redacted.err;
    EXPECT_THAT(redacted.out, Not(HasSubstr(target)));
    EXPECT_THAT(redacted.out, HasSubstr("path-1"));

    const auto missing = cli({"show", m_out / "missing.json"});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_THAT(missing.err, HasSubstr("cannot read " + (m_out / "missing.json")));
    std::ofstream(m_out / "cut.json") << slurp(json).substr(0, 200);
    const auto cut = cli({"show", m_out / "cut.json"});
    EXPECT_EQ(cut.exitCode, 2);
    EXPECT_THAT(cut.err, HasSubstr("cut short"));
    const auto rank = cli({"show", json, "--rank", "fastest"});
    EXPECT_EQ(rank.exitCode, 2);
    EXPECT_THAT(rank.err, HasSubstr("--rank"));
}

// A flag that some of the strategies listed with it do not take refuses their cases, with the reason and what
// to do: leave it out, or a matrix file with a group per strategy. A single strategy needs no such hint.
TEST_F(Cli, AFlagSomeStrategiesDoNotTakeSaysHowToGiveItToOneAlone)
{
    const auto plan = cli({"run", "--target", m_target.path(), "--strategy", "write,read-random", "--chunk",
                           "4K", "--size", "1M", "--read-percent", "70", "--plan"});
    ASSERT_EQ(plan.exitCode, 0) << plan.err;
    EXPECT_THAT(plan.out, HasSubstr("Refused before running (1)"));
    EXPECT_THAT(plan.out, HasSubstr("A flag applies to every strategy listed with it"));
    EXPECT_THAT(plan.out, HasSubstr("a matrix file (--matrix) with a group per strategy"));
    const auto none = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "4K",
                           "--size", "1M", "--read-percent", "70"});
    EXPECT_EQ(none.exitCode, 2);
    EXPECT_THAT(none.err, HasSubstr("nothing to run"));
    EXPECT_THAT(none.err, Not(HasSubstr("A flag applies to every strategy")));
}

TEST_F(Cli, AxisFlagsBuildTheMatrix)
{
    const auto json = m_out / "r.json";
    const auto r =
        cli({"run", "--target", m_target.path(), "--strategy", "stdio,stdio-unlocked", "--chunk", "1",
             "--buffer", "none,4K", "--size", "64K", "--reps", "1", "--json", json, "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(slurp(json), json);
    const StrategyInfo* unlocked = builtinRegistry().findInfo("stdio-unlocked");
    ASSERT_NE(unlocked, nullptr);
    // Two strategies by two buffers; stdio's two alone where stdio-unlocked is unavailable (Windows, mingw).
    EXPECT_EQ(result.cases.size(), unlocked->unavailable ? 2u : 4u);
    EXPECT_EQ(result.cases[1].testCase.buffer.bytes, 4096u);
}

TEST_F(Cli, ReadsShowTheirCacheMethodFilesPerSecondAndLeaveNothing)
{
    const auto json = m_out / "reads.json";
    const auto r = cli({"run", "--target", m_target.path(), "--strategy", "files-serial,files-pool",
                        "--chunk", "16K", "--threads", "1,8", "--files", "300x1-8K", "--reps", "2",
                        "--verify", "--json", json, "--quiet"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("file-set reader"));
    EXPECT_THAT(r.out, HasSubstr("300x1-8K"));
    EXPECT_THAT(r.out, HasSubstr("normal, cold"));
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(slurp(json), "reads.json");
    ASSERT_FALSE(result.cases.empty());
    EXPECT_THAT(r.out, HasSubstr("Reads, " + result.cases.front().cacheMethod + "."));
#ifdef _WIN32
    EXPECT_THAT(r.out, HasSubstr("Reads, cold: FlushFileBuffers, then a non-cached open of every file"));
#else
    EXPECT_THAT(r.out, HasSubstr("Reads, cold: fdatasync + posix_fadvise(DONTNEED) on every file"));
#endif
    ASSERT_EQ(result.cases.size(), 3u) << "files-serial runs once, in one thread";
    for (const auto& c : result.cases) {
        EXPECT_EQ(c.status, Status::Ok) << c.reason;
        EXPECT_EQ(c.repetitions.back().files, 300u);
        EXPECT_TRUE(c.repetitions.back().verified);
    }
    EXPECT_EQ(m_target.entryCount(), 0u) << "the data set went with the run folder";
}

TEST_F(Cli, AFileSetLargerThanTheFreeSpaceIsRefusedBeforeWriting)
{
    // 1000 files of 1 GiB: about 1 TiB, more than this disk holds.
    const auto r = cli({"run", "--target", m_target.path(), "--strategy", "files-serial", "--chunk", "64K",
                        "--files", "1000x1G", "--reps", "1", "--quiet"});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_THAT(r.out, HasSubstr("of free space with its margin, but the target has"));
    EXPECT_THAT(r.out, HasSubstr("nothing was written"));
    EXPECT_EQ(m_target.entryCount(), 0u);
}

TEST_F(Cli, DropCachesNeedsRoot)
{
    const auto r = cli({"run", "--target", m_target.path(), "--strategy", "read", "--chunk", "64K", "--size",
                        "1M", "--reps", "1", "--drop-caches", "--quiet"});
    if (runningAsRoot()) {
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_THAT(r.out, HasSubstr("drop_caches (as root)"));
    } else {
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_THAT(r.err, HasSubstr("--drop-caches needs root"));
    }
    EXPECT_EQ(m_target.entryCount(), 0u);
}

TEST_F(Cli, RefusedCasesAreListedWithReasons)
{
    const auto r = cli({"run", "--target", m_target.path(), "--strategy", "write,direct", "--chunk",
                        "1000,4K", "--size", "64K", "--reps", "1", "--quiet"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("Refused before running (1)"));
    EXPECT_THAT(r.out, HasSubstr("logical block size"));
}

TEST_F(Cli, CancelRemovesTheRunFilesAndExitsOne)
{
    // Slow on purpose (512-byte O_DSYNC writes) so the run is surely in progress when it is interrupted.
    Process p(IOLAB_CLI_PATH,
              {"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "512", "--sync",
               "O_DSYNC", "--size", "1G"},
              environment());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    bool started = false;
    while (!started && std::chrono::steady_clock::now() < deadline) {
        for (const auto& entry : std::filesystem::directory_iterator(m_target.path()))
            started = started || std::filesystem::exists(entry.path() / "c001-r0-t0.dat");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_TRUE(started) << "the run never created its file";
    const auto interrupted = std::chrono::steady_clock::now();
    p.signal(SIGINT);
    const auto r = p.wait();
    const auto took = std::chrono::steady_clock::now() - interrupted;
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("cancelling"));
    EXPECT_THAT(r.out, HasSubstr("cancelled"));
    EXPECT_LT(took, std::chrono::seconds(5));
    EXPECT_EQ(m_target.entryCount(), 0u);
}

TEST_F(Cli, DiskFullFailsTheCaseKeepsGoingAndCleansUp)
{
    if (const std::string why = whyNoTmpfs(); !why.empty())
        GTEST_SKIP() << why;
    TmpfsMount small("size=16m");
    ASSERT_TRUE(small.ok());
    const auto json = m_out / "full.json";
    auto r = cli({"run", "--target", small.path(), "--strategy", "write,stdio", "--chunk", "64K", "--size",
                  "64M", "--reps", "1", "--warmups", "0", "--no-space-check", "--json", json, "--quiet"});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("ENOSPC"));
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(slurp(json), json);
    ASSERT_EQ(result.cases.size(), 2u);
    for (const auto& c : result.cases) {
        EXPECT_EQ(c.status, Status::Failed);
        EXPECT_THAT(c.reason, HasSubstr("No space left on device"));
    }
    EXPECT_TRUE(std::filesystem::is_empty(small.path()));

    // Without --no-space-check the case is refused before a byte is written.
    r = cli({"run", "--target", small.path(), "--strategy", "write", "--chunk", "64K", "--size", "64M",
             "--reps", "1", "--quiet"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_THAT(r.out, HasSubstr("free space"));
    EXPECT_TRUE(std::filesystem::is_empty(small.path()));
}

TEST_F(Cli, CleanRemovesAStaleRunFolder)
{
    const auto folder = m_target / "iolab-run-20260101-000000-1";
    std::filesystem::create_directory(folder);
    std::ofstream(folder + "/.iolab-run") << "pid=999999999\n";
    std::ofstream(folder + "/c001-r0-t0.dat") << "x";
    const auto r = cli({"clean", m_target.path()});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_THAT(r.out, HasSubstr("removed"));
    EXPECT_EQ(m_target.entryCount(), 0u);
    EXPECT_EQ(cli({"clean", m_target / "missing"}).exitCode, 2);
}
