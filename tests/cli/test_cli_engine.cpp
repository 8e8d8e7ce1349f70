// SPDX-License-Identifier: MIT
// iolab-cli end to end, issue 14 section 4: limits, refusals, output paths, exit codes and what a run says
// about its surroundings.
#include "app/common/concurrent_runs.h"
#include "core/formats/presets.h"
#include "core/formats/result_csv.h"
#include "core/formats/result_json.h"
#include "core/model/matrix.h"
#include "platform/run_beacon.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/mount.h"
#include "tests/support/process.h"
#include "tests/support/result_schema.h"
#include "tests/support/temp_dir.h"

#ifndef _WIN32
#include <linux/magic.h>
#include <sys/vfs.h>
#endif

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

using namespace iolab;
using namespace iolab::test;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

class CliEngine : public ::testing::Test
{
protected:
    ProcessResult cli(std::vector<std::string> args)
    {
        return runProcess(IOLAB_CLI_PATH, args, {stateHome(m_state.path())});
    }

    static void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

    TempDir m_target;
    TempDir m_out;
    TempDir m_state;
};

} // namespace

TEST_F(CliEngine, ATenMillionCaseMatrixIsRefusedAtOnceWithItsCount)
{
    // 1000 chunks x 100 sizes x 100 thread counts: 10,000,000 cases from a file of a few KiB.
    std::string chunks;
    for (int i = 1; i <= 1000; ++i)
        chunks += (i > 1 ? "," : "") + std::to_string(i);
    std::string sizes;
    for (int i = 1; i <= 100; ++i)
        sizes += (i > 1 ? "," : "") + std::string("\"") + std::to_string(i) + "M\"";
    std::string threads;
    for (int i = 1; i <= 100; ++i)
        threads += (i > 1 ? "," : "") + std::to_string(i);
    const auto matrix = m_out / "huge.json";
    write(matrix, R"({"name": "huge", "groups": [{"strategies": ["write"], "chunks": [)" + chunks +
                      R"(], "sizes": [)" + sizes + R"(], "threads": [)" + threads + "]}]}");
    const auto r = cli({"run", "--target", m_target.path(), "--matrix", matrix, "--quiet"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr("10,000,000 cases"));
    EXPECT_THAT(r.err, HasSubstr("over the limit of 100,000 cases"));
    EXPECT_EQ(m_target.entryCount(), 0u);
}

TEST_F(CliEngine, AOneMiBCaseRunsOnAnEightMiBFilesystem)
{
    if (const std::string why = whyNoTmpfs(); !why.empty())
        GTEST_SKIP() << why;
    TmpfsMount small("size=8m");
    ASSERT_TRUE(small.ok());
    const auto r = cli({"run", "--target", small.path(), "--strategy", "write", "--chunk", "64K", "--size",
                        "1M", "--reps", "1", "--warmups", "0", "--quiet"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out, Not(HasSubstr("free space")));
    EXPECT_TRUE(std::filesystem::is_empty(small.path()));
}

#ifndef _WIN32 // Linux's kernel pseudo-filesystems (proc, sysfs, cgroup2)
TEST_F(CliEngine, KernelPseudoFilesystemsAreRefusedAsTargets)
{
    std::vector<std::pair<std::string, std::string>> targets{{"/proc", "proc"}, {"/sys", "sysfs"}};
    struct statfs fs
    {};
    if (::statfs("/sys/fs/cgroup", &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC)
        targets.emplace_back("/sys/fs/cgroup", "cgroup2");
    for (const auto& [path, type] : targets) {
        const auto r = cli({"run", "--target", path, "--strategy", "write", "--chunk", "4K", "--size", "1M",
                            "--reps", "1", "--quiet"});
        EXPECT_EQ(r.exitCode, 2) << path << r.out << r.err;
        EXPECT_THAT(r.err, HasSubstr("target '" + path + "' is on " + type + ", a kernel pseudo-filesystem"));
        EXPECT_THAT(r.out, Not(HasSubstr("0 B free")));
    }
}

#endif

TEST_F(CliEngine, EveryOutputPathIsCheckedBeforeTheRun)
{
    const auto folder = m_out / "a-folder";
    std::filesystem::create_directory(folder);
    const auto csv = m_out / "r.csv";
    std::filesystem::create_directory(summaryCsvPath(csv)); // a folder where the summary CSV goes
    struct Row
    {
        std::string flag;
        std::string path;
        std::string message;
    };
    // A kernel folder: root may write there by its permissions, and learns that no file can be made; a user
    // may not, and is told so (the nonroot pass runs this as nobody).
    const auto kernelFolder = [](const std::string& out, const std::string& kernel) {
        return runningAsRoot()
                   ? "output '" + out + "': no file can be created in folder '" + kernel + "'"
                   : "output '" + out + "': folder '" + kernel + "' is not writable: Permission denied";
    };
    std::vector<Row> rows{
        {"--json", folder, "output '" + folder + "' is a folder"},
        {"--csv", folder, "output '" + folder + "' is a folder"},
        {"--json", m_out / "missing" + kSeparator + "out.json",
         "folder '" + m_out / "missing" + "' does not exist"},
        {"--csv", m_out / "missing" + kSeparator + "out.csv",
         "folder '" + m_out / "missing" + "' does not exist"},
        {"--csv", csv, "output '" + summaryCsvPath(csv) + "' is a folder"},
    };
#ifndef _WIN32 // Linux's kernel folders and devices
    rows.insert(rows.end(), {
                                {"--json", "/proc/out.json", kernelFolder("/proc/out.json", "/proc")},
                                {"--csv", "/proc/out.csv", kernelFolder("/proc/out.csv", "/proc")},
                                {"--json", "/sys/out.json", kernelFolder("/sys/out.json", "/sys")},
                                {"--json", "/dev/null", "output '/dev/null' is not a regular file"},
                            });
#else
    (void)kernelFolder;
#endif
    std::optional<TmpfsMount> readOnly;
    if (runningAsRoot()) {
        readOnly.emplace("size=1m", kMountReadOnly);
        ASSERT_TRUE(readOnly->ok());
        rows.push_back({"--json", readOnly->path() + "/out.json",
                        "folder '" + readOnly->path() + "' is not writable: Read-only file system"});
    }
    for (const auto& row : rows) {
        const auto r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "4K",
                            "--size", "1M", "--reps", "1", "--quiet", row.flag, row.path});
        EXPECT_EQ(r.exitCode, 2) << row.flag << " " << row.path << "\n" << r.out << r.err;
        EXPECT_THAT(r.err, HasSubstr(row.message)) << row.flag << " " << row.path;
        EXPECT_EQ(r.out, "") << "nothing ran";
        EXPECT_EQ(m_target.entryCount(), 0u);
    }
    EXPECT_EQ(m_out.entryCount(), 2u) << "the checks leave no file behind";
}

TEST_F(CliEngine, AnotherLiveRunOnTheTargetIsRefusedUnlessAllowed)
{
    // This test process plays the other run: it is alive and it is not the CLI.
    const auto other = m_target / "iolab-run-20260101-000000-7";
    std::filesystem::create_directory(other);
    write(other + "/.iolab-run", "pid=" + std::to_string(thisProcessId()) + "\n");
    const std::vector<std::string> run{
        "run",    "--target", m_target.path(), "--strategy", "write",     "--chunk", "64K",
        "--size", "1M",       "--reps",        "1",          "--warmups", "0",       "--quiet"};
    auto r = cli(run);
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr("another IOLab run is writing into this target now (process " +
                                 std::to_string(thisProcessId()) + ", run folder " + other + ")"));
    EXPECT_THAT(r.err, HasSubstr("--allow-concurrent"));
    EXPECT_EQ(r.out, "");

    auto allowed = run;
    const auto json = m_out / "r.json";
    allowed.insert(allowed.end(), {"--allow-concurrent", "--json", json});
    r = cli(allowed);
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    // The warning is the shared policy's sentence (app/common), the one the app's result states too.
    const ConcurrentRuns weighed = weighConcurrentRuns(OtherRuns{{{other, thisProcessId()}}, {}}, true);
    ASSERT_EQ(weighed.warnings.size(), 1u);
    EXPECT_THAT(r.err, HasSubstr("warning: " + weighed.warnings.front()));
    EXPECT_THAT(r.out, HasSubstr("About this run:"));
    std::ifstream in(json);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(text, json);
    // Other tests running at the same time elsewhere on this filesystem may add warnings of their own.
    EXPECT_THAT(result.warnings, Contains(weighed.warnings.front()));
    std::filesystem::remove_all(other);
    EXPECT_EQ(m_target.entryCount(), 0u) << "the run's own folder is gone";
}

TEST_F(CliEngine, AnotherLiveRunElsewhereOnTheFilesystemIsStatedNotRefused)
{
    // This test process plays a run writing into another folder of the same filesystem.
    const RunBeacon beacon(m_out.path());
    ASSERT_TRUE(beacon.lit());
    const auto json = m_out / "r.json";
    const auto r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "64K", "--size",
                        "1M", "--reps", "1", "--warmups", "0", "--quiet", "--json", json});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const std::string said = "another IOLab run (process " + std::to_string(thisProcessId()) +
                             ") was writing elsewhere on this target's filesystem";
    EXPECT_THAT(r.err, HasSubstr("warning: " + said));
    std::ifstream in(json);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(test::followsResultSchema(json));
    EXPECT_THAT(resultFromJson(text, json).warnings, Contains(HasSubstr(said)));
    EXPECT_EQ(m_target.entryCount(), 0u);
}

TEST_F(CliEngine, RefusalsAtRunTimeAreCountedAndExitOne)
{
    // 16 TiB does not fit this target: the space check refuses the case when it comes to run.
    auto r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "1M", "--size", "16T",
                  "--reps", "1", "--warmups", "0"});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr("1 case to run (0 refused before running)"));
    EXPECT_THAT(r.out,
                HasSubstr("1 case ran: 0 ok, 0 failed, 1 refused at run time; 0 refused before running."));
    EXPECT_THAT(r.out, HasSubstr("free space"));
    EXPECT_EQ(m_target.entryCount(), 0u);

    // One case ok, one refused before running (a chunk larger than the size): the run is ok.
    r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "64K,4M", "--size", "1M",
             "--reps", "1", "--warmups", "0"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr("1 case to run (1 refused before running)"));
    EXPECT_THAT(r.out,
                HasSubstr("1 case ran: 1 ok, 0 failed, 0 refused at run time; 1 refused before running."));
}

TEST_F(CliEngine, PresetsCountTheCasesThatRun)
{
    const auto r = cli({"presets"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const TargetInfo anyTarget;
    for (const auto& preset : builtinPresets()) {
        const auto runs = expand(preset, builtinRegistry(), anyTarget).cases.size();
        ASSERT_GT(runs, 0u) << preset.name;
        const auto line = r.out.find(preset.name + " ");
        ASSERT_NE(line, std::string::npos) << preset.name;
        const std::string text = r.out.substr(line, r.out.find('\n', line) - line);
        EXPECT_THAT(text, HasSubstr(" " + std::to_string(runs) + " cases")) << text;
    }
    // The two the issue saw wrong: a file-set preset ("0") and one with hint and cache axes (15 of 31).
    EXPECT_THAT(r.out, Not(HasSubstr("  0 cases")));
    EXPECT_GT(expand(*findPreset("read-seq"), builtinRegistry(), anyTarget).cases.size(), 15u);
}

TEST_F(CliEngine, AnUnknownSubcommandIsNamedWithTheList)
{
    auto r = cli({"frobnicate"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("unknown subcommand 'frobnicate' (the subcommands are: strategies, presets, "
                                 "targets, export-job, show, clean, record, profile, import, run, advise)"));
    EXPECT_THAT(r.err, Not(HasSubstr("A subcommand is required")));
    r = cli({"--log-level", "debug", "rnu"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("unknown subcommand 'rnu'"));
    r = cli({});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err,
                HasSubstr("a subcommand is required: strategies, presets, targets, export-job, show, clean, "
                          "record, profile, import, run"));
    EXPECT_EQ(cli({"presets"}).exitCode, 0);
    EXPECT_EQ(cli({"--log-level", "warn", "presets"}).exitCode, 0);
}

TEST_F(CliEngine, AKilledRunsFolderIsMentionedOnce)
{
    const std::vector<std::string> run{
        "run",    "--target", m_target.path(), "--strategy", "write",     "--chunk", "64K",
        "--size", "1M",       "--reps",        "1",          "--warmups", "0",       "--quiet"};
    auto r = cli(run);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("killed run")));

    const auto stale = m_target / "iolab-run-20260101-000000-1";
    std::filesystem::create_directory(stale);
    write(stale + "/.iolab-run", "pid=999999999\n");
    write(stale + "/c001-r0-t0.dat", "x");
    r = cli(run);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const std::string note = "note: a run folder from a killed run is here: " + stale +
                             "; `iolab-cli clean " + m_target.path() + "` removes it";
    EXPECT_THAT(r.err, HasSubstr(note));
    EXPECT_EQ(r.err.find("killed run"), r.err.rfind("killed run")) << "said once";
    EXPECT_TRUE(std::filesystem::exists(stale + "/c001-r0-t0.dat")) << "mentioned, not removed";
    EXPECT_EQ(cli({"clean", m_target.path()}).exitCode, 0);
    EXPECT_EQ(m_target.entryCount(), 0u);
}

TEST_F(CliEngine, PreallocateIsAnAxisStatedInTheResult)
{
    const auto json = m_out / "p.json";
    auto r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "64K", "--size", "1M",
                  "--preallocate", "none,fallocate,overwrite", "--reps", "1", "--warmups", "0", "--quiet",
                  "--json", json});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out,
                HasSubstr("Writes to files: new, empty files (preallocate none); files whose space was "
                          "reserved first (preallocate fallocate); files written whole first, then "
                          "overwritten (preallocate overwrite); the preparation is not timed."));
    EXPECT_THAT(r.out, Not(HasSubstr("Pipes:"))) << "no pipe, no reader to place";
    std::ifstream in(json);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(text, json);
    ASSERT_EQ(result.cases.size(), 3u);
    EXPECT_EQ(result.cases[0].testCase.preallocate, Preallocate::None);
    EXPECT_EQ(result.cases[1].testCase.preallocate, Preallocate::Fallocate);
    EXPECT_EQ(result.cases[2].testCase.preallocate, Preallocate::Overwrite);
    EXPECT_THAT(text, HasSubstr(R"("preallocate": "overwrite")"));
    EXPECT_EQ(m_target.entryCount(), 0u);

    r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "64K", "--size", "1M",
             "--preallocate", "zeroes"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err,
                HasSubstr("unknown preallocation 'zeroes' (use none, fallocate, overwrite or rewrite)"));
    r = cli({"run", "--target", m_target.path(), "--strategy", "pipe-write", "--chunk", "64K", "--size", "1M",
             "--preallocate", "fallocate"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err,
                HasSubstr("preallocate fallocate needs a file; a pipe target has nothing to preallocate"));
}

TEST_F(CliEngine, ReaderCpuIsAnAxisStatedInTheResult)
{
    const auto json = m_out / "r.json";
    auto r =
        cli({"run", "--target", m_target.path(), "--strategy", "pipe-write", "--chunk", "64K", "--size", "1M",
             "--reader-cpu", "any,same", "--reps", "1", "--warmups", "0", "--quiet", "--json", json});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out,
                HasSubstr("Pipes: the reader thread ran where the scheduler put it (reader any); on the "
                          "writer's CPU, the two taking turns (reader same)."));
    EXPECT_THAT(r.out, Not(HasSubstr("Writes to files:"))) << "no file, nothing preallocated";
    std::ifstream in(json);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(text, json);
    ASSERT_EQ(result.cases.size(), 2u);
    EXPECT_EQ(result.cases[1].testCase.readerCpu, ReaderCpu::Same);
    EXPECT_THAT(text, HasSubstr(R"("readerCpu": "same")"));

    r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "64K", "--size", "1M",
             "--reader-cpu", "same"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err,
                HasSubstr("reader CPU same places a pipe's reader thread; a directory target has none"));
    EXPECT_EQ(m_target.entryCount(), 0u);
}

// Issue 39: the reader's kind, its way of waiting and the writer's pages are axes that reach the result's
// JSON (valid against the schema) and CSV; a spinning reader on the writer's CPU is refused with the reason.
TEST_F(CliEngine, ThePipeReaderAxesReachTheResult)
{
    const auto json = m_out / "reader.json";
    const auto csv = m_out / "reader.csv";
#ifdef _WIN32
    // Windows has no fork and no non-blocking read on an anonymous pipe: both are refused with the reason.
    auto refused = cli({"run", "--target", m_target.path(), "--strategy", "pipe-write", "--chunk", "64K",
                        "--size", "8M", "--reader", "process", "--reps", "1", "--warmups", "0", "--quiet"});
    EXPECT_NE(refused.exitCode, 0);
    EXPECT_THAT(refused.out + refused.err,
                HasSubstr("reader process: the Windows backend runs a pipe's reader as "
                          "a thread only"));
    refused = cli({"run", "--target", m_target.path(), "--strategy", "pipe-write", "--chunk", "64K", "--size",
                   "8M", "--reader-wait", "spin", "--reps", "1", "--warmups", "0", "--quiet"});
    EXPECT_NE(refused.exitCode, 0);
    EXPECT_THAT(refused.out + refused.err, HasSubstr("no non-blocking read to spin on"));
    return;
#endif
    auto r = cli({"run",
                  "--target",
                  m_target.path(),
                  "--strategy",
                  "vmsplice",
                  "--chunk",
                  "64K",
                  "--size",
                  "8M",
                  "--reader",
                  "thread,process",
                  "--reader-cpu",
                  "other",
                  "--reader-wait",
                  "spin",
                  "--reps",
                  "1",
                  "--warmups",
                  "0",
                  "--quiet",
                  "--json",
                  json,
                  "--csv",
                  csv});
    if (r.exitCode == 2 && r.err.find("two CPUs") != std::string::npos)
        GTEST_SKIP() << "reader CPU other needs two CPUs: " << r.err;
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("Pipes: the reader (thread or process) ran on a CPU of its own"));
    std::ifstream in(json);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(text, json);
    ASSERT_EQ(result.cases.size(), 2u);
    EXPECT_EQ(result.cases[0].testCase.extraAxes.at("readerKinds"), "thread");
    EXPECT_EQ(result.cases[1].testCase.extraAxes.at("readerKinds"), "process");
    for (const auto& c : result.cases) {
        EXPECT_EQ(c.status, Status::Ok) << c.reason;
        EXPECT_EQ(c.testCase.extraAxes.at("readerWaits"), "spin");
        EXPECT_EQ(c.testCase.extraAxes.at("pipePages"), "normal");
    }
    EXPECT_THAT(text, HasSubstr(R"("readerKind": "process")"));
    EXPECT_THAT(text, HasSubstr(R"("readerWait": "spin")"));
    std::ifstream csvIn(csv);
    std::string header;
    std::getline(csvIn, header);
    EXPECT_THAT(header, HasSubstr("reader_kind,reader_wait,pipe_pages"));
    const std::string rows((std::istreambuf_iterator<char>(csvIn)), std::istreambuf_iterator<char>());
    EXPECT_THAT(rows, HasSubstr(",process,spin,normal,"));

    r = cli({"run", "--target", m_target.path(), "--strategy", "pipe-write", "--chunk", "64K", "--size", "1M",
             "--reader-cpu", "same", "--reader-wait", "spin"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("reader wait spin busy-polls a CPU: on the writer's CPU (reader CPU same)"));
    r = cli({"run", "--target", m_target.path(), "--strategy", "pipe-write", "--chunk", "64K", "--size", "1M",
             "--reader", "fork"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("unknown reader kind 'fork' (use thread, process)"));
    r = cli({"run", "--target", m_target.path(), "--strategy", "pipe-write", "--chunk", "64K", "--size", "1M",
             "--pipe-pages", "thp"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("pipe-write takes no pipe pages (thp)"));
}

// Issue 18: the data pattern reaches the files. Writes of every pattern and reads of files written with one
// run verified (every byte read back against the case's own pattern), and the files hold the bytes named.
TEST_F(CliEngine, ThePatternAxisWritesAndReadsTheBytesItNames)
{
    const auto json = m_out / "p.json";
    auto r = cli({"run", "--target", m_target.path(), "--strategy", "write,direct,read,mmap-read", "--chunk",
                  "64K", "--size", "2M", "--pattern", "zeros,random,compressible:50%", "--reps", "1",
                  "--warmups", "0", "--verify", "--json", json});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out, AllOf(HasSubstr("\n1   write zeros "), HasSubstr("\n6   direct c50% ")))
        << "the table names each case's pattern beside its strategy";
    std::ifstream in(json);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(text, json);
    ASSERT_EQ(result.cases.size(), 12u);
    for (const auto& c : result.cases)
        EXPECT_EQ(c.status, Status::Ok) << c.testCase.label() << ": " << c.reason;
    EXPECT_EQ(result.cases[0].testCase.pattern.kind, PatternKind::Zeros);
    EXPECT_THAT(text, HasSubstr(R"("pattern": "compressible:50%")"));
    EXPECT_EQ(m_target.entryCount(), 0u);

    // A pipe takes no pattern but IOLab's own, and says why.
    r = cli({"run", "--target", m_target.path(), "--strategy", "pipe-write", "--chunk", "64K", "--size", "1M",
             "--pattern", "zeros"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("the bytes pipe-write writes into a pipe reach no filesystem or device"));
    r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "64K", "--size", "1M",
             "--pattern", "compressible:100%"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("a compressible share is 1 to 99 per cent"));
    EXPECT_EQ(m_target.entryCount(), 0u);
}

TEST_F(CliEngine, APresetsOwnRepetitionsApplyUnlessRepsIsGiven)
{
    const auto readResult = [](const std::string& path) {
        std::ifstream in(path);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_TRUE(test::followsResultSchema(path));
        return resultFromJson(text, path);
    };
    // quick asks for five measured repetitions; 256 KiB per case keeps the test short.
    const auto own = m_out / "own.json";
    auto r = cli({"run", "--target", m_target.path(), "--preset", "quick", "--size", "256K", "--quiet",
                  "--no-sampling", "--json", own});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto ownResult = readResult(own);
    EXPECT_EQ(ownResult.options.repetitions, 5u);
    ASSERT_FALSE(ownResult.cases.empty());
    EXPECT_EQ(ownResult.cases[0].apparentMBps.count, 5u);

    const auto given = m_out / "given.json";
    r = cli({"run", "--target", m_target.path(), "--preset", "quick", "--size", "256K", "--reps", "2",
             "--quiet", "--no-sampling", "--json", given});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_EQ(readResult(given).options.repetitions, 2u) << "--reps wins over the preset";

    // A matrix file that says nothing: the default of three.
    const auto matrix = m_out / "m.json";
    write(matrix, R"({"strategies": ["write"], "chunks": "64K", "sizes": "256K"})");
    const auto plain = m_out / "plain.json";
    r = cli({"run", "--target", m_target.path(), "--matrix", matrix, "--quiet", "--no-sampling", "--json",
             plain});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_EQ(readResult(plain).options.repetitions, kDefaultRepetitions);
    EXPECT_EQ(m_target.entryCount(), 0u) << "nothing left behind";
}

TEST_F(CliEngine, TheKillProbeSaysWhetherACaseSurvivesAndRecordsItsSeed)
{
    const auto json = m_out / "probe.json";
    const auto r = cli({"run",
                        "--target",
                        m_target.path(),
                        "--strategy",
                        "write",
                        "--chunk",
                        "64K",
                        "--size",
                        "64M",
                        "--reps",
                        "1",
                        "--warmups",
                        "0",
                        "--crash-probe",
                        "3",
                        "--crash-probe-seed",
                        "7",
                        "--json",
                        json,
                        "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("kill -9 probe: 3 kills per write case, each right after the call whose "
                                 "acknowledgement crossed a byte count drawn from seed 7"));
    EXPECT_THAT(r.out, HasSubstr("A process crash is not a power cut"));
    // The answer is the Summary's, after the table's per-kill detail (its lines wrapped: read as one text).
    const auto summary = r.out.find("\nSummary\n");
    ASSERT_NE(summary, std::string::npos) << r.out;
    const auto flat = [](const std::string& text) { // the Summary's wrapped lines as one line
        std::string out;
        for (char ch : text) {
            ch = ch == '\n' ? ' ' : ch;
            if (!(ch == ' ' && !out.empty() && out.back() == ' '))
                out += ch;
        }
        return out;
    };
    const std::string summaryText = flat(r.out.substr(summary));
    EXPECT_THAT(summaryText, HasSubstr("survives kill -9: 3 kills right after a call returned, nothing "
                                       "acknowledged was lost"));
    EXPECT_EQ(r.out.rfind("survives kill -9", summary), std::string::npos) << "no answer above the Summary";
    // Read and closed: the run below replaces the file, which Windows refuses while it is open.
    const std::string text = [&] {
        std::ifstream in(json);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }();
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(text, json);
    ASSERT_TRUE(result.cases.at(0).crashProbe.has_value());
    EXPECT_EQ(result.cases[0].crashProbe->seed, 7u);
    EXPECT_EQ(result.cases[0].crashProbe->kills.size(), 3u);
    EXPECT_EQ(result.cases[0].crashProbe->at, CrashProbeAt::Ack);
    EXPECT_EQ(m_target.entryCount(), 0u) << "every probe file and link removed";

    // Kills at moments, on request.
    const auto timed = cli({"run",
                            "--target",
                            m_target.path(),
                            "--strategy",
                            "stdio",
                            "--chunk",
                            "4K",
                            "--buffer",
                            "1M",
                            "--size",
                            "64M",
                            "--reps",
                            "1",
                            "--warmups",
                            "0",
                            "--crash-probe",
                            "3",
                            "--crash-probe-at",
                            "time",
                            "--json",
                            json,
                            "--quiet"});
    ASSERT_EQ(timed.exitCode, 0) << timed.out << timed.err;
    EXPECT_THAT(timed.out, HasSubstr("3 kills per write case, each at a random moment of its writes"));
    EXPECT_THAT(flat(timed.out), HasSubstr("does not survive kill -9"));
    EXPECT_THAT(flat(timed.out), HasSubstr("can lose up to 1 MiB, its 1 MiB stdio buffer"));
    std::ifstream again(json);
    const std::string timedText((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(test::followsResultSchema(json));
    EXPECT_EQ(resultFromJson(timedText, json).options.crashProbeAt, CrashProbeAt::Time);
    EXPECT_EQ(m_target.entryCount(), 0u);
}

TEST_F(CliEngine, TheKillProbeRefusesAReadCaseAndAnOutOfRangeCount)
{
    auto r = cli({"run", "--target", m_target.path(), "--strategy", "read", "--chunk", "64K", "--size", "1M",
                  "--reps", "1", "--crash-probe", "2", "--quiet"});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_THAT(r.out + r.err, HasSubstr("a read case writes nothing a crash could lose"));
    r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "64K", "--size", "1M",
             "--crash-probe", "101", "--quiet"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("--crash-probe: give 0 to 100 kills per write case"));
    r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "64K", "--size", "1M",
             "--crash-probe", "2", "--crash-probe-at", "sometimes", "--quiet"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("--crash-probe-at: unknown kill -9 probe placement 'sometimes' (use ack"));
    r = cli({"run", "--target", m_target.path(), "--strategy", "write", "--chunk", "64K", "--size", "1M",
             "--crash-probe-at", "time", "--quiet"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err,
                HasSubstr("--crash-probe-at time places the kill -9 probe's kills, but this run has no "
                          "probe: add --crash-probe N"));
    EXPECT_EQ(m_target.entryCount(), 0u);
}

namespace {

// The pids of live case children writing under `folder` (their link file's path is their third argument).
std::vector<int> caseChildrenUnder(const std::string& folder)
{
    std::vector<int> pids;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        // A process that ends while it is read fails the read (ESRCH): it is no child of the run any more.
        std::string text;
        std::string statText;
        try {
            std::ifstream cmdline(entry.path() / "cmdline");
            text.assign(std::istreambuf_iterator<char>(cmdline), std::istreambuf_iterator<char>());
            if (text.find("__case-child") == std::string::npos || text.find(folder) == std::string::npos)
                continue;
            std::ifstream stat(entry.path() / "stat");
            statText.assign(std::istreambuf_iterator<char>(stat), std::istreambuf_iterator<char>());
        } catch (const std::ios_base::failure&) {
            continue;
        }
        const auto close = statText.rfind(')');
        if (close != std::string::npos && close + 2 < statText.size() && statText[close + 2] == 'Z')
            continue; // a zombie has stopped writing
        pids.push_back(std::stoi(name));
    }
    return pids;
}

} // namespace

TEST_F(CliEngine, ARunKilledMidProbeTakesItsChildWithItAndLeavesItsFolderForClean)
{
    // A 2 s measured repetition, so the probe's child writes for 0.2 to 1.8 s before its own kill; O_DSYNC
    // keeps what it writes small.
    Process p(IOLAB_CLI_PATH, {"run",        "--target", m_target.path(),
                               "--strategy", "write",    "--chunk",
                               "4K",         "--size",   "1G",
                               "--sync",     "O_DSYNC",  "--duration",
                               "2s",         "--reps",   "1",
                               "--warmups",  "0",        "--crash-probe",
                               "1",          "--quiet"},
              {stateHome(m_state.path())});
    std::vector<int> children;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (children.empty() && std::chrono::steady_clock::now() < deadline) {
        children = caseChildrenUnder(m_target.path());
        if (children.empty())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_FALSE(children.empty()) << "the probe's child never started";
    p.signal(SIGKILL);
    p.wait();
    const auto gone = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!caseChildrenUnder(m_target.path()).empty() && std::chrono::steady_clock::now() < gone)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_TRUE(caseChildrenUnder(m_target.path()).empty()) << "PR_SET_PDEATHSIG killed the child";
    EXPECT_EQ(m_target.entryCount(), 1u) << "the marked run folder is left";
    const auto clean = cli({"clean", m_target.path()});
    EXPECT_EQ(clean.exitCode, 0) << clean.out << clean.err;
    EXPECT_EQ(m_target.entryCount(), 0u) << "clean removes the folder, the probe's files and its link";
}

// Issue 18: the health-check preset covers the support engineer's first question on this OS: sequential and
// random reads and writes at one request in flight and at depth, the sync latency, small files and the
// baselines, each repetition bounded by 1 s (three of them: issue 34); and it runs (here at a tiny size) to a
// Summary that leads with the health verdict, a line per dimension, and speaks of the machine.
TEST_F(CliEngine, TheHealthCheckCoversEveryPartAndEndsOnTheMachine)
{
    const auto preset = *findPreset("health-check");
    const auto expanded = expand(preset, builtinRegistry(), TargetInfo{});
    std::set<std::string> parts;
    for (const auto& c : expanded.cases) {
        if (c.fileSet.empty()) {
            EXPECT_EQ(c.timeLimitMs, 1000u) << c.label();
        }
        std::string part = c.strategy;
        if (c.queueDepth > 0)
            part += " qd" + std::to_string(c.queueDepth);
        if (c.sync.mode != SyncMode::None)
            part += " synced";
        if (c.pattern != DataPattern{})
            part += " " + toString(c.pattern);
        parts.insert(part);
    }
    for (const char* part :
         {"uring-write-direct qd1", "uring-write-direct qd8", "uring-random-write-direct qd1",
          "uring-random-write-direct qd32", "uring-read-direct qd1", "uring-read-direct qd8",
          "uring-random-read-direct qd1", "uring-random-read-direct qd32", "write synced", "files-serial",
          "files-pool", "stdio", "read", "direct zeros", "direct random"})
        EXPECT_THAT(parts, Contains(std::string(part)));
    EXPECT_EQ(expanded.cases.size(), 18u);

    const auto json = m_out / "health.json";
    const auto r = cli({"run", "--target", m_target.path(), "--preset", "health-check", "--size", "4M",
                        "--warmups", "0", "--json", json});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    // The Summary opens with what the --size override changed, then the health verdict, before any ranking.
    EXPECT_THAT(r.out, HasSubstr("Summary\nOverridden for every case: size 4 MiB"));
    const auto health =
        r.out.find("\nHealth check: is this storage as fast as its kind of device should be?\n");
    ASSERT_NE(health, std::string::npos) << r.out;
    EXPECT_LT(r.out.find("Summary\n"), health);
    EXPECT_LT(health, r.out.find("Ways of doing the I/O, compared:"));
    for (const char* line :
         {"Sequential reads (1 MiB", "Sequential writes (1 MiB", "Random 4 KiB reads, one at a time",
          "Random 4 KiB reads, many in flight", "Random 4 KiB writes, one at a time",
          "Random 4 KiB writes, many in flight", "Sync latency (4 KiB writes, fsync-every:1)",
          "Small files (1000 files", "Overall: ", "Ways of doing the I/O, compared:"})
        EXPECT_THAT(r.out, HasSubstr(line));
    EXPECT_THAT(r.out, AllOf(HasSubstr("What IOLab could not check:"), HasSubstr("18 cases ran: 18 ok")));
    EXPECT_LT(r.out.find("Overall: "), r.out.find("Ways of doing the I/O, compared:"));
    std::ifstream in(json);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = resultFromJson(text, json);
    EXPECT_TRUE(result.system.gathered);
    EXPECT_EQ(m_target.entryCount(), 0u);
}

namespace {
std::string fileText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
} // namespace

// Issue 39, part 1: until steady and the share of free space from the command line: the plan says what the
// sustained preset will write, a write until steady records where its rate settled, and a pipe is refused
// with the reason.
TEST_F(CliEngine, UntilSteadyAndTheSustainedPresetsPlan)
{
    auto r = cli({"run", "--preset", "sustained", "--target", m_target.path(), "--plan"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("steady=past-cache:10s"));
    EXPECT_THAT(r.out, HasSubstr("(sized at 25% of the "));
    EXPECT_THAT(r.out, HasSubstr("without a warm-up: a write past a fast cache"));

    // Whether this machine's disk settles within the window is the disk's business (a kernel throttle makes
    // it certain: cli.sustained_throttle; a scripted rate:
    // RunnerTest.UntilSteadyEndsARepetitionOnceItsRateIsFlat). Here: the axis reaches the result, and the
    // answer is the sustained one whichever way the write ended.
    const std::string json = m_out / "steady.json";
    r = cli({"run", "--strategy", "write", "--chunk", "64K", "--size", "256M", "--duration", "3s",
             "--until-steady", "1s", "--reps", "1", "--warmups", "0", "--target", m_target.path(), "--json",
             json});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("Sustained write, case 1 (write 64 KiB)"));
    const RunResult result = resultFromJson(fileText(json), json);
    ASSERT_EQ(result.cases.size(), 1U);
    EXPECT_EQ(result.cases[0].testCase.steady, parseSteadyRule("1s"));
    const auto& rep = result.cases[0].repetitions.front();
    EXPECT_TRUE(rep.outcome.ok()) << rep.outcome.message;
    if (rep.steady) {
        EXPECT_FALSE(rep.timeLimitReached);
        EXPECT_GT(rep.steady->mbps, 0);
    }
    EXPECT_TRUE(followsResultSchema(json));

    r = cli({"run", "--strategy", "pipe-write", "--chunk", "64K", "--size", "16M", "--until-steady", "on",
             "--target", m_target.path()});
    EXPECT_THAT(r.out + r.err, HasSubstr("until steady watches the rate of writes to files"));
    r = cli({"run", "--strategy", "write", "--chunk", "64K", "--size", "16M", "--until-steady", "sometimes",
             "--target", m_target.path()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_THAT(r.err, HasSubstr("unknown until-steady setting 'sometimes'"));
    r = cli({"run", "--strategy", "write", "--chunk", "64K", "--size", "16M", "--free-share", "80%",
             "--target", m_target.path()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_THAT(r.err, HasSubstr("never all of it"));
}

// A read/write mix with a hot spot, on this OS's threaded and queued random readers: every request counted
// one way or the other, both ways in every file, the data still the pattern's (--verify checks every read),
// and a write strategy told where a mix goes. (strace, fio and a loop device check the calls themselves:
// tests/cli/mix_against_tools.py.)
TEST_F(CliEngine, AMixReportsReadsAndWritesApart)
{
#ifdef _WIN32
    const std::string queued = "overlapped-random-read";
#else
    const std::string queued = "uring-random-read";
#endif
    const std::string json = m_out / "mix.json";
    const std::string csv = m_out / "mix.csv";
    auto r = cli({"run",
                  "--strategy",
                  "read-random," + queued,
                  "--chunk",
                  "4K",
                  "--size",
                  "8M",
                  "--threads",
                  "2",
                  "--read-percent",
                  "70",
                  "--random-dist",
                  "pareto:0.9",
                  "--latency",
                  "on",
                  "--reps",
                  "1",
                  "--warmups",
                  "0",
                  "--verify",
                  "--target",
                  m_target.path(),
                  "--json",
                  json,
                  "--csv",
                  csv});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out,
                HasSubstr("Mix, case 1 (read-random 4 KiB, 2 threads, 70% reads, pareto:0.9): reads "));
    EXPECT_THAT(r.out,
                HasSubstr("To read 70% and write 30% of the requests to a file from a cold cache over a"));
    EXPECT_THAT(r.out,
                HasSubstr("Which way is fastest to read and write 4 KiB chunks from a cold cache with a "
                          "hot spot"));
    const RunResult result = resultFromJson(fileText(json), json);
    ASSERT_EQ(result.cases.size(), 2U);
    for (const CaseResult& c : result.cases) {
        ASSERT_EQ(c.status, Status::Ok) << c.reason;
        const RepetitionResult& rep = c.repetitions.front();
        EXPECT_TRUE(rep.verified) << c.testCase.strategy;
        ASSERT_TRUE(rep.mix) << c.testCase.strategy;
        EXPECT_EQ(rep.mix->reads.ops + rep.mix->writes.ops, 2048U) << "8 MiB in 4 KiB requests";
        EXPECT_EQ(rep.mix->reads.bytes + rep.mix->writes.bytes, rep.bytes);
        EXPECT_NEAR(static_cast<double>(rep.mix->writes.ops) / 2048.0, 0.30, 0.05) << c.testCase.strategy;
        ASSERT_TRUE(rep.mix->reads.latency && rep.mix->writes.latency);
        EXPECT_EQ(rep.mix->reads.latency->count, rep.mix->reads.ops);
        EXPECT_EQ(rep.mix->writes.latency->count, rep.mix->writes.ops);
        ASSERT_TRUE(rep.callLatency);
        EXPECT_EQ(rep.callLatency->count, 2048U) << "the call latency holds both ways";
        ASSERT_TRUE(c.mix);
        EXPECT_GT(c.mix->writeMBps.median, 0);
        EXPECT_GT(rep.durableSeconds, 0);
        EXPECT_GE(rep.durableSeconds, rep.returnSeconds) << "the mix's writes are made durable after it";
    }
    EXPECT_TRUE(followsResultSchema(json));
    EXPECT_THAT(fileText(csv), HasSubstr("read_MBps"));

    r = cli({"run", "--strategy", "write-random", "--chunk", "4K", "--size", "8M", "--read-percent", "70",
             "--target", m_target.path()});
    EXPECT_THAT(r.out + r.err, HasSubstr("write-random writes every chunk of a new file once"));
    r = cli({"run", "--strategy", "read-random", "--chunk", "4K", "--size", "8M", "--random-dist", "gauss",
             "--target", m_target.path()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_THAT(r.err, HasSubstr("unknown random distribution 'gauss'"));
}

// Issue 39, part 2: a latency target sweeps the queue depth of a queued strategy given without --qd and
// answers first; a matrix without a queued strategy, or a target that does not read, is refused.
TEST_F(CliEngine, ALatencyTargetSweepsTheQueueDepthAndAnswersFirst)
{
#ifdef _WIN32
    const std::string queued = "overlapped-random-write-direct";
#else
    const std::string queued = "uring-random-write-direct";
#endif
    const std::string json = m_out / "target.json";
    auto r = cli({"run", "--strategy", queued, "--chunk", "4K", "--size", "8M", "--latency-target",
                  "50ms@p99", "--reps", "1", "--warmups", "0", "--target", m_target.path(), "--json", json});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("What is the most load whose p99 call latency stays under 50 ms?"));
    EXPECT_THAT(r.out, HasSubstr("Latency target, `" + queued + "` with 4 KiB chunks"));
    const RunResult result = resultFromJson(fileText(json), json);
    EXPECT_EQ(result.cases.size(), 8U) << "queue depths 1 to 128";
    ASSERT_TRUE(result.matrix.latencyTarget);
    EXPECT_EQ(toString(*result.matrix.latencyTarget), "50ms@p99");
    EXPECT_TRUE(followsResultSchema(json));

    r = cli({"run", "--strategy", "write", "--chunk", "4K", "--size", "8M", "--latency-target", "1ms",
             "--target", m_target.path()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_THAT(r.err, HasSubstr("none is in the matrix"));
    r = cli({"run", "--strategy", queued, "--chunk", "4K", "--size", "8M", "--latency-target", "soon",
             "--target", m_target.path()});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_THAT(r.err, HasSubstr("--latency-target: 'soon' is not a latency target"));
}
