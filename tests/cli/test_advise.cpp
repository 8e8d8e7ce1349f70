// SPDX-License-Identifier: MIT
// iolab-cli advise on programs with the write patterns people have (tests/perf/advice_programs.c): the
// program's calls replayed as recorded and in each way that keeps its durability, the answer leading with
// the program's own figures, a named way only with its change and snippet, the weaker way apart and never
// the answer; then what it says of a program that wrote nothing, and of a trace that is not there.
#include "tests/support/process.h"
#include "tests/support/result_schema.h"
#include "tests/support/temp_dir.h"

#include <nlohmann/json.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

using namespace iolab::test;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

class Advise : public ::testing::Test
{
protected:
    // Records `pattern` of the advice programs as written; the trace's path.
    std::string record(const std::string& pattern)
    {
        const std::string files = m_dir.path() + "/" + pattern + "-files";
        fs::create_directories(files);
        const std::string trace = m_dir.path() + "/" + pattern + ".iolab-trace";
        const ProcessResult r = runProcess(IOLAB_CLI_PATH, {"record", "--quiet", "--output", trace, "--",
                                                            IOLAB_ADVICE_PROGRAMS, pattern, "as-is", files});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return trace;
    }

    ProcessResult advise(const std::string& trace, const std::string& json)
    {
        return runProcess(IOLAB_CLI_PATH, {"advise", trace, "--target", m_target, "--reps", "3", "--warmups",
                                           "0", "--verify", "--quiet", "--json", json});
    }

    TempDir m_dir;
    std::string m_target = m_dir.path() + "/target";
    void SetUp() override { fs::create_directories(m_target); }
};

} // namespace

namespace {

// The cases' variants; every case ok, every repetition verified, the same bytes written by each.
std::set<std::string> waysRun(const std::string& json)
{
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = nlohmann::json::parse(std::ifstream(json));
    std::set<std::string> variants;
    for (const auto& c : result.at("cases")) {
        variants.insert(c.at("case").at("replay_variant").get<std::string>());
        EXPECT_EQ(c.at("status"), "ok") << c.at("case").at("label") << ": " << c.dump().substr(0, 2000);
        for (const auto& rep : c.at("repetitions"))
            EXPECT_TRUE(rep.at("verified").get<bool>()) << c.at("case").at("label");
        EXPECT_EQ(c.at("replay").at("bytesWritten"),
                  result.at("cases").at(0).at("replay").at("bytesWritten"));
    }
    return variants;
}

// The answer's sentences unwrapped.
std::string unwrapped(std::string said)
{
    for (std::size_t at; (at = said.find("\n  ")) != std::string::npos;)
        said.replace(at, 3, " ");
    return said;
}

} // namespace

TEST_F(Advise, ALoggerIsToldWhatKeepsItsSyncsAndWhatWouldNot)
{
    const std::string json = m_dir.path() + "/logger.json";
    const ProcessResult r = advise(record("logger"), json);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const std::string answer = unwrapped(r.out.substr(r.out.find("\nYour program\n")));
    EXPECT_THAT(answer, HasSubstr("Your program spent"));
    EXPECT_THAT(answer, HasSubstr("20,000 write calls to files"));
    EXPECT_THAT(answer, HasSubstr("400 fsync"));
    // Either a way is named, with its change and its C, or the answer says that none helps and why.
    if (answer.find("None of the") != std::string::npos) {
        EXPECT_THAT(answer, HasSubstr("keep writing as it does"));
        EXPECT_THAT(answer, HasSubstr("Every way needs the 400 syncs"));
    } else {
        EXPECT_THAT(answer, HasSubstr("The same bytes with the same 400 durability points take"));
        EXPECT_THAT(answer, HasSubstr("The change: "));
        EXPECT_THAT(answer, HasSubstr("Elsewhere: "));
        EXPECT_THAT(answer, HasSubstr("Besides speed: "));
    }
    // The weaker way is measured and set apart, with where it breaks the program's contract.
    const std::size_t weaker =
        answer.find("Faster only by keeping fewer durability points (never the answer):");
    ASSERT_NE(weaker, std::string::npos) << answer;
    EXPECT_THAT(answer.substr(weaker), HasSubstr("sync-at-close"));
    EXPECT_THAT(answer.substr(weaker), HasSubstr("its 1st sync point"));
    EXPECT_EQ(answer.substr(0, weaker).find("sync-at-close"), std::string::npos) << "never the answer";

    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = nlohmann::json::parse(std::ifstream(json));
    EXPECT_TRUE(result.at("options").at("alternate").get<bool>()) << "the ways took turns";
    std::set<std::string> variants;
    for (const auto& c : result.at("cases")) {
        variants.insert(c.at("case").at("replay_variant").get<std::string>());
        EXPECT_EQ(c.at("status"), "ok") << c.at("case").at("label");
        for (const auto& rep : c.at("repetitions"))
            EXPECT_TRUE(rep.at("verified").get<bool>()) << c.at("case").at("label");
        EXPECT_EQ(c.at("replay").at("bytesWritten"), result.at("cases").at(0).at("replay").at("bytesWritten"))
            << "every way writes the same bytes";
    }
    EXPECT_EQ(variants, (std::set<std::string>{"recorded", "stdio-buffer-64K", "stdio-buffer-1M",
                                               "stdio-unlocked", "prealloc-fdatasync", "rewrite-segment",
                                               "flush-at-sync", "sync-at-close"}));
    EXPECT_TRUE(fs::is_empty(m_target));
}

TEST_F(Advise, SmallFilesSyncedAndRenamedAreWrittenFirstThenSyncedOnceOrFromAPool)
{
    // Each file's one sync before its rename is its contract: syncfs-batch keeps it (every file durable
    // before its rename) with one sync, writer-pool with the files shared out over threads, direct-batch (and
    // mmap-batch) with each file written durable by one O_DIRECT | O_DSYNC call, io-uring with its write and
    // sync submitted together. Any one is named with its change (whichever holds against the noise of 3
    // repetitions), or the answer says why none helps.
    const std::string json = m_dir.path() + "/small.json";
    const ProcessResult r = advise(record("smallfiles"), json);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const std::string answer = unwrapped(r.out.substr(r.out.find("\nYour program\n")));
    EXPECT_THAT(answer, HasSubstr("200 fsync"));
    if (answer.find("(syncfs-batch): ") != std::string::npos) {
        EXPECT_THAT(answer, HasSubstr("syncfs(fd);"));
    } else if (answer.find("(writer-pool): ") != std::string::npos) {
        EXPECT_THAT(answer, HasSubstr("for (i = first; i < n; i += 4) {"));
    } else if (answer.find("(direct-batch): ") != std::string::npos) {
        EXPECT_THAT(answer, HasSubstr("O_DIRECT | O_DSYNC"));
    } else if (answer.find("(mmap-batch): ") != std::string::npos) {
        EXPECT_THAT(answer, HasSubstr("MAP_SHARED"));
    } else if (answer.find("(io-uring): ") != std::string::npos) {
        EXPECT_THAT(answer, HasSubstr("IOSQE_IO_DRAIN"));
    } else {
        EXPECT_THAT(answer, HasSubstr("None of the 5 ways IOLab measured"));
        // syncfs-batch makes one sync for the 200 points: no floor of 200 syncs is claimed.
        EXPECT_THAT(answer, HasSubstr("Its 200 syncs took"));
    }
    EXPECT_EQ(waysRun(json), (std::set<std::string>{"recorded", "syncfs-batch", "writer-pool", "direct-batch",
                                                    "mmap-batch", "io-uring"}))
        << "one sync per file: nothing to sync at close only";
    EXPECT_TRUE(fs::is_empty(m_target));
}

TEST_F(Advise, ThreadsSyncingOneFileAreOfferedAGroupCommit)
{
    const std::string json = m_dir.path() + "/appender.json";
    const ProcessResult r = advise(record("appender"), json);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const std::string answer = unwrapped(r.out.substr(r.out.find("\nYour program\n")));
    EXPECT_THAT(answer, HasSubstr("summed over its 5 threads"));
    EXPECT_THAT(answer, HasSubstr("1,000 fdatasync"));
    EXPECT_THAT(answer, HasSubstr("group-commit"));
    // The records' order in the file is the program's (O_APPEND): each way's file verified byte by byte.
    EXPECT_EQ(waysRun(json), (std::set<std::string>{"recorded", "group-commit", "sync-at-close"}));
    EXPECT_TRUE(fs::is_empty(m_target));
}

TEST_F(Advise, AProgramThatWroteNothingHasNothingToAdviseOn)
{
    const std::string trace = m_dir.path() + "/reader.iolab-trace";
    const std::string input = m_dir.path() + "/input.txt";
    std::ofstream(input) << "a line to read\n";
    // What it reads goes to /dev/null: a device, not a file.
    ASSERT_EQ(runProcess(IOLAB_CLI_PATH, {"record", "--quiet", "--output", trace, "--", "/bin/sh", "-c",
                                          "cat " + input + " >/dev/null"})
                  .exitCode,
              0);
    const ProcessResult r = advise(trace, m_dir.path() + "/reader.json");
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(unwrapped(r.out),
                HasSubstr("wrote nothing to a file the recorder saw: there is nothing to advise on"));
    EXPECT_TRUE(fs::is_empty(m_target));
}

TEST_F(Advise, AMissingTraceIsRefusedAndNothingIsWritten)
{
    const ProcessResult r = advise(m_dir.path() + "/none.iolab-trace", m_dir.path() + "/none.json");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("the trace " + m_dir.path() + "/none.iolab-trace: no such file"));
    EXPECT_FALSE(fs::exists(m_dir.path() + "/none.json"));
    EXPECT_TRUE(fs::is_empty(m_target));
}
