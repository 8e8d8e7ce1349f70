// SPDX-License-Identifier: MIT
// io_uring's own options (--uring, issue 39) through iolab-cli, checked against things IOLab did not write:
// the kernel's locked-memory limit (an explicit fixedbufs is refused with the reason, auto falls back and
// says so), strace's count of io_uring_enter calls (an SQPOLL ring hands its requests over without them),
// and fio on the exported job (its sqthread_poll job runs; its hipri job fails where IOLab refused).
#include "core/base/units.h"
#include "core/formats/fio_job.h"
#include "tests/support/job_cases.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unistd.h>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

nlohmann::json readJson(const std::string& path)
{
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

bool onPath(const std::string& tool)
{
    return runProcess("/bin/sh", {"-c", "command -v " + tool}).exitCode == 0;
}

} // namespace

TEST(UringOptionsCli, EachVariantShowsInTheResultAndTheCsv)
{
    TempDir dir;
    const std::string json = dir.path() + "/r.json";
    const std::string csv = dir.path() + "/r.csv";
    const auto ran = runProcess(IOLAB_CLI_PATH, {"run",
                                                 "--target",
                                                 dir.path(),
                                                 "--strategy",
                                                 "uring-write,write",
                                                 "--chunk",
                                                 "64K",
                                                 "--qd",
                                                 "4",
                                                 "--size",
                                                 "4M",
                                                 "--reps",
                                                 "1",
                                                 "--warmups",
                                                 "0",
                                                 "--quiet",
                                                 "--uring",
                                                 "auto,plain,fixedbufs+registerfiles,sqpoll",
                                                 "--json",
                                                 json,
                                                 "--csv",
                                                 csv});
    ASSERT_EQ(ran.exitCode, 0) << ran.out << ran.err;
    const auto result = readJson(json);
    std::map<std::string, std::string> inEffect;
    for (const auto& c : result.at("cases")) {
        ASSERT_EQ(c.at("status"), "ok") << c.at("reason");
        const std::string strategy = c.at("case").at("strategy");
        if (strategy == "write") {
            EXPECT_EQ(c.at("case").at("uring"), "n/a");
            EXPECT_FALSE(c.contains("uringInEffect"));
            continue;
        }
        const std::string asked = c.at("case").at("uring");
        inEffect[asked] = c.at("uringInEffect");
        EXPECT_EQ(c.at("repetitions").at(0).at("uringInEffect"), c.at("uringInEffect"));
        if (asked != "auto") {
            EXPECT_THAT(c.at("case").at("label").get<std::string>(), HasSubstr("uring=" + asked));
        }
    }
    EXPECT_EQ(inEffect.at("plain"), "plain");
    EXPECT_EQ(inEffect.at("fixedbufs+registerfiles"), "fixedbufs+registerfiles");
    EXPECT_EQ(inEffect.at("sqpoll"), "sqpoll");
    if (::geteuid() == 0) { // no locked-memory limit for root: auto registers both
        EXPECT_EQ(inEffect.at("auto"), "fixedbufs+registerfiles");
    }
    std::ifstream summary(dir.path() + "/r.summary.csv");
    std::string header;
    std::getline(summary, header);
    EXPECT_THAT(header, HasSubstr(",uring,"));
    EXPECT_THAT(header, HasSubstr(",uring_in_effect"));
}

// Below the locked-memory limit an explicit fixedbufs is a refusal with the reason, never a silent fallback,
// and auto runs unregistered and says that only the file was registered.
TEST(UringOptionsCli, FixedbufsBeyondTheLockedMemoryLimitIsRefusedAndAutoSaysWhatItGot)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "running iolab-cli as another user with a lower ulimit -l needs root";
    if (!onPath("setpriv"))
        GTEST_SKIP() << "setpriv (util-linux) is not installed";
    TempDir dir;
    std::filesystem::permissions(dir.path(), std::filesystem::perms::all);
    const auto runAsNobody = [&](const std::string& options) {
        const std::string json = dir.path() + "/" + options + ".json";
        // 32 x 64 KiB = 2 MiB of read slots to register, over a limit of 64 KiB.
        const auto ran = runProcess(
            "/bin/sh", {"-c",
                        "ulimit -l 64 && exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$0\" run "
                        "--target \"$1\" --strategy uring-read-direct --chunk 64K --qd 32 --size 4M --reps 1 "
                        "--warmups 0 --quiet --uring \"$2\" --json \"$3\"",
                        IOLAB_CLI_PATH, dir.path(), options, json});
        return std::pair{ran, readJson(json).at("cases").at(0)};
    };
    const auto [refusedRun, refused] = runAsNobody("fixedbufs");
    EXPECT_NE(refused.at("status"), "ok");
    EXPECT_THAT(refused.at("reason").get<std::string>(), HasSubstr("fixedbufs was asked for and refused"));
    EXPECT_THAT(refused.at("reason").get<std::string>(), HasSubstr("locked-memory limit (65536 bytes"));
    EXPECT_FALSE(refused.contains("uringInEffect"));
    const auto [autoRun, automatic] = runAsNobody("auto");
    EXPECT_EQ(automatic.at("status"), "ok") << automatic.at("reason");
    EXPECT_EQ(automatic.at("uringInEffect"), "registerfiles") << "the buffers were not registered";
}

// strace -f -c counts the io_uring_enter calls: with SQPOLL the kernel's thread takes the requests from the
// ring, so the thread enters only to wait; without it each group of requests is handed over with a call.
TEST(UringOptionsCli, SqpollHandsRequestsOverWithFarFewerSystemCalls)
{
    if (!onPath("strace"))
        GTEST_SKIP() << "strace is not installed";
    TempDir dir;
    // Under strace LeakSanitizer cannot run (it needs ptrace itself): a sanitized iolab-cli's leak check is
    // left to every other test.
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string noLeakCheck =
        std::string("ASAN_OPTIONS=") +
        (asan != nullptr && *asan != '\0' ? std::string(asan) + ":" : std::string()) + "detect_leaks=0";
    const auto enters = [&](const std::string& options) {
        const std::string out = dir.path() + "/strace-" + options + ".txt";
        const auto ran = runProcess(hostTool("strace"), {"-E",           noLeakCheck,
                                                         "-f",           "-c",
                                                         "-e",           "trace=io_uring_enter",
                                                         "-o",           out,
                                                         IOLAB_CLI_PATH, "run",
                                                         "--target",     dir.path(),
                                                         "--strategy",   "uring-write",
                                                         "--chunk",      "4K",
                                                         "--qd",         "32",
                                                         "--size",       "16M",
                                                         "--reps",       "1",
                                                         "--warmups",    "0",
                                                         "--quiet",      "--no-sampling",
                                                         "--uring",      options});
        EXPECT_EQ(ran.exitCode, 0) << ran.err;
        std::ifstream in(out);
        std::stringstream text;
        text << in.rdbuf();
        // strace -c's rows: "% time, seconds, usecs/call, calls, [errors,] syscall": the fourth is the count.
        std::string line;
        while (std::getline(text, line)) {
            std::istringstream fields(line);
            std::vector<std::string> f{std::istream_iterator<std::string>(fields), {}};
            if (f.size() >= 5 && f.back() == "io_uring_enter")
                return std::stoull(f[3]);
        }
        return 0ULL; // strace -c lists only the calls made: none
    };
    const auto plain = enters("plain");
    const auto sqpoll = enters("sqpoll");
    // 4096 requests of 4 KiB: without SQPOLL at least one call per group of 8 handed over.
    EXPECT_GE(plain, 4096u / 8);
    EXPECT_LT(sqpoll * 4, plain) << "SQPOLL: " << sqpoll << " io_uring_enter calls, plain: " << plain;
}

TEST(UringOptionsCli, TheExportedFioJobNamesEachOptionAndFioRunsIt)
{
    FioJobOptions options{"/data", "job", false, "the case"};
    auto c = readCase("uring-random-read-direct", 4 * kKiB, 64 * kMiB);
    c.queueDepth = 8;
    c.uring = parseUringOptions("plain");
    std::string text = fioJob(c, options).text;
    EXPECT_THAT(text, Not(HasSubstr("registerfiles")));
    EXPECT_THAT(text, Not(HasSubstr("fixedbufs")));
    c.uring = parseUringOptions("fixedbufs");
    EXPECT_THAT(fioJob(c, options).text, HasSubstr("\nfixedbufs=1\n"));
    EXPECT_THAT(fioJob(c, options).text, Not(HasSubstr("registerfiles=1")));
    c.uring = parseUringOptions("sqpoll");
    text = fioJob(c, options).text;
    EXPECT_THAT(text, HasSubstr("\nregisterfiles=1\nsqthread_poll=1\n"));
    EXPECT_THAT(text, HasSubstr("fio's sqthread_poll always registers the file too"));
    c.uring = parseUringOptions("auto");
    EXPECT_THAT(fioJob(c, options).text, HasSubstr("\nregisterfiles=1\nfixedbufs=1\n"));
    EXPECT_THAT(fioJob(c, options).text, HasSubstr("auto: it registers the file and the buffers where"));

    // fio runs the exported SQPOLL job; its hipri job fails on a device without poll queues, as IOLab
    // refuses the case before it runs.
    if (!onPath("fio"))
        GTEST_SKIP() << "fio is not installed";
    TempDir dir;
    const auto runJob = [&](const std::string& uring) {
        auto k = readCase("uring-random-read-direct", 4 * kKiB, 8 * kMiB);
        k.queueDepth = 8;
        k.uring = parseUringOptions(uring);
        const std::string job = dir.path() + "/" + uring + ".fio";
        std::ofstream(job) << fioJob(k, {dir.path(), "job", false, "the case"}).text;
        return runProcess(hostTool("fio"), {"--output-format=terse", job});
    };
    const auto sqpoll = runJob("fixedbufs+registerfiles+sqpoll");
    EXPECT_EQ(sqpoll.exitCode, 0) << sqpoll.out << sqpoll.err;
    const auto iopoll = runJob("iopoll");
    const auto refused = runProcess(IOLAB_CLI_PATH, {"run", "--target", dir.path(), "--strategy",
                                                     "uring-random-read-direct", "--chunk", "4K", "--qd", "8",
                                                     "--size", "8M", "--quiet", "--uring", "iopoll"});
    if (refused.out.find("has no poll queues") == std::string::npos &&
        refused.err.find("has no poll queues") == std::string::npos)
        GTEST_SKIP() << "this machine's disk has poll queues: both run IOPOLL";
    EXPECT_THAT(iopoll.out + iopoll.err, HasSubstr("Operation not supported"));
}
