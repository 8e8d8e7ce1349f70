// SPDX-License-Identifier: MIT
// Issue 18: a case as a fio job to rerun elsewhere. Every generated job runs with Debian's fio at a small
// size and moves the bytes it says; `iolab-cli export-job` prints it, refuses what it cannot do and says
// where fio has no equivalent.
#include "core/base/units.h"
#include "core/formats/fio_job.h"
#include "core/formats/result_json.h"
#include "tests/support/job_cases.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// fio from PATH (installer/dev.sh installs Debian's).
std::string fioPath()
{
    std::istringstream path(std::getenv("PATH") != nullptr ? std::getenv("PATH") : "/usr/bin");
    std::string dir;
    while (std::getline(path, dir, ':')) {
        if (std::filesystem::exists(dir + "/fio"))
            return dir + "/fio";
    }
    return {};
}

struct Ran
{
    int exitCode = -1;
    std::string err;
    std::uint64_t bytes = 0; // written or read, over every job
};

[[maybe_unused]] Ran runFio(const TempDir& dir, const Case& c, bool verify = false)
{
    FioJobOptions options;
    options.directory = dir.path();
    options.name = "job";
    options.verify = verify;
    options.title = c.label();
    const auto job = fioJob(c, options);
    EXPECT_TRUE(job.equivalent) << job.text;
    const auto jobFile = dir.path() + "/../" + std::filesystem::path(dir.path()).filename().string() + ".fio";
    std::ofstream(jobFile) << job.text;
    const auto out = dir.path() + "/../" + std::filesystem::path(dir.path()).filename().string() + ".json";
    const auto r = runProcess(fioPath(), {"--output-format=json", "--output=" + out, jobFile});
    Ran ran{r.exitCode, r.err + r.out + "\n" + job.text, 0};
    std::ifstream in(out);
    std::stringstream text;
    text << in.rdbuf();
    std::filesystem::remove(jobFile);
    std::filesystem::remove(out);
    if (r.exitCode != 0)
        return ran;
    const auto json = nlohmann::json::parse(text.str());
    for (const auto& j : json.at("jobs"))
        ran.bytes += j.at("write").at("io_bytes").get<std::uint64_t>() +
                     j.at("read").at("io_bytes").get<std::uint64_t>();
    return ran;
}

} // namespace

#ifndef _WIN32 // the Linux machine's fio runs the job: the Windows tests cannot start it on their paths
TEST(FioJob, EveryKindOfCaseRunsWithFioAndMovesItsBytes)
{
    ASSERT_FALSE(fioPath().empty()) << "fio is not installed (installer/dev.sh installs it)";
    constexpr std::uint64_t kSize = 2 * kMiB;
    std::vector<Case> cases{writeCase("stdio", 4 * kKiB, kSize),
                            writeCase("write", 64 * kKiB, kSize),
                            writeCase("direct", 64 * kKiB, kSize),
                            writeCase("direct-random", 4 * kKiB, kSize),
                            writeCase("mmap-window", 64 * kKiB, kSize),
                            writeCase("pwritev2-dsync", 8 * kKiB, kSize),
                            writeCase("sync-file-range", 8 * kKiB, kSize),
                            readCase("read", 64 * kKiB, kSize),
                            readCase("read-random-direct", 4 * kKiB, kSize),
                            readCase("mmap-read", 64 * kKiB, kSize)};
    auto queued = writeCase("uring-random-write-direct", 4 * kKiB, kSize);
    queued.queueDepth = 8;
    cases.push_back(queued);
    // Queued reads register iodepth x bs of buffers (fixedbufs=1): 32 KiB, under any locked-memory limit.
    auto queuedRead = readCase("uring-read-direct", 8 * kKiB, kSize);
    queuedRead.queueDepth = 4;
    cases.push_back(queuedRead);
    auto queuedRandom = readCase("uring-random-read-direct", 4 * kKiB, kSize);
    queuedRandom.queueDepth = 8;
    cases.push_back(queuedRandom);
    auto sharedRandom = readCase("read-random-direct", 4 * kKiB, kSize);
    sharedRandom.threads = 2;
    cases.push_back(sharedRandom);
    auto linked = writeCase("uring-linked-sync", 8 * kKiB, 512 * kKiB);
    linked.sync = {SyncMode::FdatasyncEvery, 1};
    cases.push_back(linked);
    for (SyncPolicy sync : {SyncPolicy{SyncMode::FsyncEnd, 0}, SyncPolicy{SyncMode::FdatasyncEnd, 0},
                            SyncPolicy{SyncMode::FsyncEvery, 4}, SyncPolicy{SyncMode::FdatasyncEvery, 4},
                            SyncPolicy{SyncMode::OSync, 0}, SyncPolicy{SyncMode::ODsync, 0}}) {
        auto synced = writeCase("write", 16 * kKiB, kSize);
        synced.sync = sync;
        cases.push_back(synced);
    }
    auto threads = writeCase("write", 64 * kKiB, kSize);
    threads.threads = 2;
    cases.push_back(threads);
    auto fallocated = writeCase("write", 64 * kKiB, kSize);
    fallocated.preallocate = Preallocate::Fallocate;
    cases.push_back(fallocated);
    auto overwritten = writeCase("direct", 64 * kKiB, kSize);
    overwritten.preallocate = Preallocate::Overwrite;
    cases.push_back(overwritten);
    auto files = readCase("files-pool", 64 * kKiB, 20 * 10 * kKiB);
    files.threads = 4;
    files.fileSet.files = 20;
    files.fileSet.name = "20x10K";
    cases.push_back(files);

    for (const auto& c : cases) {
        TempDir dir;
        const auto ran = runFio(dir, c);
        ASSERT_EQ(ran.exitCode, 0) << c.label() << "\n" << ran.err;
        EXPECT_EQ(ran.bytes, c.totalBytes) << c.label() << "\n" << ran.err;
        if (c.strategy == "read-random-direct") {
            // IOLab's random readers share one file of the case's size: so do fio's jobs.
            std::vector<std::filesystem::path> created;
            for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
                created.push_back(entry.path());
            ASSERT_EQ(created.size(), 1u) << ran.err;
            EXPECT_EQ(std::filesystem::file_size(created[0]), c.totalBytes);
        }
    }

    // Bounded by time, rewriting one block as pg_test_fsync does: fio writes that block again and again.
    TempDir dir;
    auto rewrite = writeCase("write", 8 * kKiB, kGiB);
    rewrite.sync = {SyncMode::FdatasyncEvery, 1};
    rewrite.preallocate = Preallocate::Rewrite;
    rewrite.timeLimitMs = 300;
    const auto ran = runFio(dir, rewrite);
    ASSERT_EQ(ran.exitCode, 0) << ran.err;
    EXPECT_GT(ran.bytes, 8 * kKiB) << "the block is written more than once";
    EXPECT_LT(ran.bytes, kGiB);
    for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
        EXPECT_EQ(std::filesystem::file_size(entry.path()), 8 * kKiB) << "the file stays one block long";

    // Verified as IOLab verified.
    // fio keeps no verify state in the folder it was started from (the test's working folder, the build's):
    // by default it would leave local-job-0-verify.state there.
    const std::filesystem::path state = std::filesystem::current_path() / "local-job-0-verify.state";
    std::filesystem::remove(state); // one an older build's run left
    TempDir verified;
    const auto checked = runFio(verified, writeCase("write", 64 * kKiB, kSize), true);
    ASSERT_EQ(checked.exitCode, 0) << checked.err;
    EXPECT_THAT(checked.err, HasSubstr("verify=crc32c"));
    EXPECT_FALSE(std::filesystem::exists(state)) << "fio left its verify state in " << state.parent_path();
}
#endif

TEST(FioJob, DifferencesAreStatedAndNothingIsInvented)
{
    FioJobOptions options{"/data", "job", false, "the case"};
    auto stdio = fioJob(writeCase("stdio", 1, 64 * kMiB), options);
    EXPECT_TRUE(stdio.equivalent);
    EXPECT_THAT(stdio.text,
                HasSubstr("; differs: fio has no stdio (fwrite) engine; closest: ioengine=psync with "
                          "bs=4k"));
    EXPECT_THAT(stdio.text, HasSubstr("directory=/data\n"));
    auto pipe = writeCase("vmsplice", 64 * kKiB, 64 * kMiB);
    pipe.target = TargetKind::Pipe;
    const auto none = fioJob(pipe, options);
    EXPECT_FALSE(none.equivalent);
    EXPECT_THAT(none.text, HasSubstr("fio has no equivalent"));
    EXPECT_THAT(none.text, Not(HasSubstr("ioengine")));
    EXPECT_FALSE(fioJob(writeCase("group-commit", 8 * kKiB, 64 * kMiB), options).equivalent);
    options.directory = "C:\\data";
    EXPECT_THAT(fioJob(writeCase("write", 4 * kKiB, kMiB), options).text,
                HasSubstr("directory=C\\:\\data\n"));
    auto limited = writeCase("write", 4 * kKiB, 64 * kMiB);
    limited.memoryLimitBytes = 16 * kMiB;
    EXPECT_THAT(fioJob(limited, options).text, HasSubstr("systemd-run --user --scope -p MemoryMax=16777216"));
}

// Issue 34: the queued io_uring strategies register the file and their buffers and draw random reads with
// replacement, as the job now asks fio to; what fio cannot copy (how requests reach the kernel, the ring's
// set-up flags) is stated with what it was measured to move.
TEST(FioJob, TheQueuedIoUringJobMatchesIOLabWhereFioCanAndSaysWhereNot)
{
    FioJobOptions options{"/data", "job", false, "the case"};
    auto rnd = readCase("uring-random-read-direct", 4 * kKiB, 128 * kMiB);
    rnd.queueDepth = 32;
    const std::string text = fioJob(rnd, options).text;
    EXPECT_THAT(text, HasSubstr("\nrw=randread\nbs=4k\niodepth=32\ndirect=1\nsize=128m\nnorandommap=1\n"));
    EXPECT_THAT(text, HasSubstr("\nregisterfiles=1\nfixedbufs=1\n"));
    // Each request on its own from a depth of 4, as fio (issue 39): no difference to state.
    EXPECT_THAT(text, Not(HasSubstr("at a time")));
    EXPECT_THAT(text, Not(HasSubstr("io_uring_enter")));
    EXPECT_THAT(text, HasSubstr("; differs: recent fio sets up its ring with COOP_TASKRUN, SINGLE_ISSUER and "
                                "DEFER_TASKRUN"));
    EXPECT_THAT(text, HasSubstr("; note: fixedbufs=1 registers iodepth x bs (128 KiB) of buffers"));
    // Comments come before the job: fio reads every line after them as an option.
    EXPECT_LT(text.find("; note:"), text.find("[global]"));

    auto one = rnd;
    one.queueDepth = 1;
    EXPECT_THAT(
        fioJob(one, options).text,
        HasSubstr("; differs: IOLab hands its requests to the kernel in the io_uring_enter that waits for a "
                  "completion; fio makes one to submit each request and another to wait"));
    auto seq = writeCase("uring-write-direct", kMiB, kGiB);
    seq.queueDepth = 8;
    const std::string write = fioJob(seq, options).text;
    EXPECT_THAT(write, Not(HasSubstr("at a time")));
    auto polled = rnd;
    polled.uring = parseUringOptions("registerfiles+sqpoll");
    EXPECT_THAT(
        fioJob(polled, options).text,
        HasSubstr("; differs: IOLab hands its requests to the polling thread 8 at a time (a quarter of "
                  "the queue); fio hands each over as it is prepared"));
    EXPECT_THAT(write, HasSubstr("(8 MiB) of buffers"));
    EXPECT_THAT(write, Not(HasSubstr("norandommap"))) << "sequential";

    // Random writers write every chunk once, as fio's random map does: no norandommap. Nor do the strategies
    // that register nothing (uring-linked-sync) or that are not io_uring (windowsaio) get registerfiles.
    auto randomWrite = writeCase("uring-random-write-direct", 4 * kKiB, 64 * kMiB);
    randomWrite.queueDepth = 32;
    EXPECT_THAT(fioJob(randomWrite, options).text, Not(HasSubstr("norandommap")));
    auto linked = writeCase("uring-linked-sync", 8 * kKiB, 64 * kMiB);
    linked.sync = {SyncMode::FdatasyncEvery, 1};
    EXPECT_THAT(fioJob(linked, options).text, Not(HasSubstr("registerfiles")));
    auto overlapped = readCase("overlapped-random-read-direct", 4 * kKiB, 64 * kMiB);
    overlapped.queueDepth = 32;
    const std::string windows = fioJob(overlapped, options).text;
    EXPECT_THAT(windows, HasSubstr("ioengine=windowsaio"));
    EXPECT_THAT(windows, HasSubstr("norandommap=1"));
    EXPECT_THAT(windows, Not(HasSubstr("registerfiles")));
    EXPECT_THAT(windows, Not(HasSubstr("io_uring_enter")));

    // IOLab's random readers share one file of the case's size; each fio job reads its share of all of it.
    auto shared = readCase("read-random-direct", 4 * kKiB, 64 * kMiB);
    shared.threads = 4;
    EXPECT_THAT(fioJob(shared, options).text,
                HasSubstr("\nnumjobs=4\nthread=1\nfilename=job.dat\nsize=64m\nio_size=16m\nnorandommap=1\n"));
    auto sequential = readCase("read", 64 * kKiB, 64 * kMiB);
    sequential.threads = 4;
    EXPECT_THAT(fioJob(sequential, options).text, HasSubstr("\nsize=16m\n")) << "one file per thread";
    EXPECT_THAT(fioJob(sequential, options).text, Not(HasSubstr("filename=")));
}

#ifndef _WIN32 // fio and RLIMIT_MEMLOCK are Linux's
// The note's promise, checked against fio itself: run as a user whose locked-memory limit is below what
// fixedbufs=1 registers, fio refuses the job with "Cannot allocate memory", and without the line it runs.
TEST(FioJob, TheFixedbufsNoteHoldsForAUserBelowTheLockedMemoryLimit)
{
    ASSERT_FALSE(fioPath().empty()) << "fio is not installed (installer/dev.sh installs it)";
    if (!runningAsRoot())
        GTEST_SKIP() << "running fio as another user with a lower ulimit -l needs root";
    TempDir dir;
    std::filesystem::permissions(dir.path(), std::filesystem::perms::all);
    auto c = readCase("uring-random-read-direct", 64 * kKiB, 2 * kMiB);
    c.queueDepth = 4; // 256 KiB registered
    FioJobOptions options{dir.path(), "job", false, "the case"};
    const std::string text = fioJob(c, options).text;
    ASSERT_THAT(text, HasSubstr("\nfixedbufs=1\n"));
    const std::string jobFile = dir.path() + "/job.fio";
    const auto runAsNobody = [&](const std::string& job) {
        std::ofstream(jobFile) << job;
        std::filesystem::permissions(jobFile, std::filesystem::perms::all);
        return runProcess("/bin/sh", {"-c",
                                      "ulimit -l 64 && exec setpriv --reuid=65534 --regid=65534 "
                                      "--clear-groups \"$0\" --output-format=terse \"$1\"",
                                      fioPath(), jobFile});
    };
    const auto refused = runAsNobody(text);
    EXPECT_NE(refused.exitCode, 0) << refused.out;
    EXPECT_THAT(refused.out + refused.err, HasSubstr("Cannot allocate memory"));
    std::string withoutLine = text;
    withoutLine.erase(withoutLine.find("fixedbufs=1\n"), std::string("fixedbufs=1\n").size());
    const auto ran = runAsNobody(withoutLine);
    EXPECT_EQ(ran.exitCode, 0) << ran.out << ran.err;
}
#endif

TEST(FioJob, ExportJobPrintsACaseOfAResultAndRefusesWhatItCannotDo)
{
    TempDir dir;
    RunResult result;
    result.toolVersion = "0.5.0";
    result.startedAt = "2026-11-27T05:00:00Z";
    result.matrix.name = "quick";
    result.target.path = "/srv/data";
    result.options.verifyFiles = true;
    CaseResult write;
    write.index = 0;
    write.testCase = writeCase("write", 64 * kKiB, kGiB);
    result.cases.push_back(write);
    CaseResult pipe;
    pipe.index = 1;
    pipe.testCase = writeCase("pipe-write", 64 * kKiB, kGiB);
    pipe.testCase.target = TargetKind::Pipe;
    result.cases.push_back(pipe);
    const auto path = dir.path() + "/r.json";
    std::ofstream(path) << resultToJson(result).dump();

    auto r = runProcess(IOLAB_CLI_PATH, {"export-job", path, "--case", "1", "--as", "fio"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out,
                HasSubstr("; IOLab 0.5.0: case 1 of the run started 2026-11-27T05:00:00Z: write chunk=64K"));
    EXPECT_THAT(r.out,
                HasSubstr("directory=/srv/data\n\n[iolab-case-1]\nioengine=psync\nrw=write\nbs=64k\n"));
    EXPECT_THAT(r.out, HasSubstr("verify=crc32c"));
    r = runProcess(IOLAB_CLI_PATH, {"export-job", path, "--case", "2"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_THAT(r.out, HasSubstr("fio has no equivalent"));
    r = runProcess(IOLAB_CLI_PATH, {"export-job", path, "--case", "3"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("has 2 cases: --case takes 1 to 2"));
    r = runProcess(IOLAB_CLI_PATH, {"export-job", path, "--case", "1", "--as", "diskspd"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(
        r.out, HasSubstr("REM IOLab 0.5.0: case 1 of the run started 2026-11-27T05:00:00Z: write chunk=64K"));
    EXPECT_THAT(
        r.out,
        HasSubstr(
            "diskspd -b64K -c1G -d10 -W0 -o1 -t1 -s -w100 -Sb -Zr -L \"/srv/data/iolab-case-1.dat\"\n"));
    EXPECT_THAT(r.out, HasSubstr("REM differs: IOLab read every byte back"));
    r = runProcess(IOLAB_CLI_PATH, {"export-job", path, "--case", "2", "--as", "diskspd"});
    EXPECT_EQ(r.exitCode, 1) << "DiskSpd has no pipes";
    EXPECT_THAT(r.out, HasSubstr("DiskSpd has no equivalent"));
    r = runProcess(IOLAB_CLI_PATH, {"export-job", path, "--case", "1", "--as", "c"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(
        r.out,
        HasSubstr("/*\n * Generated by IOLab 0.5.0 from case 1 of the run started 2026-11-27T05:00:00Z"));
    EXPECT_THAT(r.out, HasSubstr("#define DEFAULT_PATH \"/srv/data/iolab-case-1.dat\""));
    EXPECT_THAT(r.out, HasSubstr("int main(int argc, char **argv)"));
    r = runProcess(IOLAB_CLI_PATH, {"export-job", path, "--case", "2", "--as", "c"});
    EXPECT_EQ(r.exitCode, 0) << "a pipe has a C program";
    EXPECT_THAT(r.out, HasSubstr("pipe2("));
    r = runProcess(IOLAB_CLI_PATH, {"export-job", path, "--case", "1", "--as", "xml"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("--as xml: export-job writes a fio job (--as fio), a DiskSpd command line "
                                 "(--as diskspd) or a C program (--as c)"));
    r = runProcess(IOLAB_CLI_PATH, {"export-job", dir.path() + "/missing.json", "--case", "1"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("cannot read"));
}

// The case's bytes in the job: zeros are zero_buffers, a compressible pattern fio's own compressible buffers;
// fio's default random buffers stand for IOLab's pattern and for random bytes.
TEST(FioJob, ThePatternIsTheJobsBuffers)
{
    FioJobOptions options;
    options.name = "case";
    options.title = "a case";
    Case c = writeCase("direct", kMiB, 64 * kMiB);
    EXPECT_THAT(fioJob(c, options).text, Not(HasSubstr("buffer")));
    c.pattern = DataPattern{PatternKind::Zeros};
    EXPECT_THAT(fioJob(c, options).text, HasSubstr("\nzero_buffers=1\n"));
    c.pattern = DataPattern{PatternKind::Compressible, 50};
    EXPECT_THAT(fioJob(c, options).text,
                HasSubstr("\nbuffer_compress_percentage=50\nbuffer_compress_chunk=4k\nrefill_buffers=1\n"));
    c.pattern = DataPattern{PatternKind::Random};
    EXPECT_THAT(fioJob(c, options).text, Not(HasSubstr("buffer")));
}
