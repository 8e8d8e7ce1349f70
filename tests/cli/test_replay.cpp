// SPDX-License-Identifier: MIT
// iolab-cli run --replay against programs nobody here wrote (dd, sqlite3 in both journal modes, tar, gzip):
// recorded, then replayed under strace. What strace sees the replay's threads do to the replay's files must
// be what the recording saw the program do to its own, file for file and call for call; every repetition
// verifies, the result carries the times inside the calls, and nothing is left in the target. The refusals
// of a replay are rows of tests/cli/test_refusals.cpp.
#include "core/engine/replay_script.h"
#include "tests/support/process.h"
#include "tests/support/recorded_programs.h"
#include "tests/support/result_schema.h"
#include "tests/support/temp_dir.h"

#include <nlohmann/json.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

// The replay's counts under the names the program used: each replay file's path in the run folder ends with
// its relative path in the script.
Counts underRecordedNames(const Counts& replay, const ReplayScript& script)
{
    Counts out;
    for (const auto& [key, n] : replay) {
        const auto file = std::find_if(script.files.begin(), script.files.end(), [&](const ReplayFile& f) {
            return key.first.ends_with("/" + f.relativePath);
        });
        out[{file == script.files.end() ? "(not the script's) " + key.first : file->recordedPath,
             key.second}] += n;
    }
    return out;
}

// Files the program wrote through a stdio stream (its standard output when that was a file): how many
// write(2) calls its C library made of them is the library's choice, the same in the replay, but the
// recording holds the stdio calls, not those.
std::set<std::string> streamWritten(const std::string& tracePath)
{
    std::ifstream in(tracePath, std::ios::binary);
    TraceReader reader(in, tracePath);
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::string> descriptors;
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::string> streams;
    std::set<std::string> written;
    reader.forEachEvent([&](const TraceEvent& e) {
        if (e.call == trace::Call::Open && e.result >= 0)
            descriptors[{e.process, static_cast<std::uint64_t>(e.result)}] = e.path;
        else if (e.call == trace::Call::FOpen && e.error == 0)
            streams[{e.process, e.handle}] =
                e.path.empty() ? descriptors[{e.process, static_cast<std::uint64_t>(e.offset)}] : e.path;
        else if (isReplayWrite(e.call) && streams.contains({e.process, e.handle}))
            written.insert(streams[{e.process, e.handle}]);
        return true;
    });
    return written;
}

// The thread that started the log: strace's first line is the program's execve, from its main thread.
long firstTid(const std::string& logPath)
{
    std::ifstream in(logPath);
    long tid = 0;
    in >> tid;
    return tid;
}

// The syncfs calls of thread `tid` on `target` in the strace log (strace -y names the descriptor's path).
int settledBy(const std::string& logPath, long tid, const std::string& target)
{
    std::ifstream in(logPath);
    int calls = 0;
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        long lineTid = 0;
        std::string call;
        fields >> lineTid >> call;
        calls += lineTid == tid && call.starts_with("syncfs(") &&
                         call.find("<" + fs::canonical(target).string() + ">") != std::string::npos
                     ? 1
                     : 0;
    }
    return calls;
}

// Under strace LeakSanitizer cannot run (it needs ptrace itself) and would fail a sanitized iolab-cli's exit:
// the asan pass's leak check is left to every other test. The environment entry that says so.
std::string asanWithoutLeakCheck()
{
    const char* asan = std::getenv("ASAN_OPTIONS");
    return std::string("ASAN_OPTIONS=") +
           (asan != nullptr && *asan != '\0' ? std::string(asan) + ":" : std::string()) + "detect_leaks=0";
}

// dd writing `blocks` of 512 bytes from /dev/zero with conv=fsync, recorded in `dir`: the trace's path, or
// empty when the recording failed.
std::string recordDd(const TempDir& dir, int blocks)
{
    const std::string trace = dir.path() + "/dd.iolab-trace";
    const ProcessResult recorded =
        runProcess(IOLAB_CLI_PATH, {"record", "--quiet", "--output", trace, "--", "dd", "if=/dev/zero",
                                    "of=" + dir.path() + "/out", "bs=512", "count=" + std::to_string(blocks),
                                    "conv=fsync", "status=none"});
    EXPECT_EQ(recorded.exitCode, 0) << recorded.err;
    return recorded.exitCode == 0 ? trace : std::string();
}

class ReplayProgram : public ::testing::TestWithParam<Program>
{};

} // namespace

TEST_P(ReplayProgram, ReissuesEveryWriteAndSyncOfTheRecordingAndVerifies)
{
    const Program& program = GetParam();
    TempDir dir;
    const std::string folder = dir.path() + "/program";
    const std::string target = dir.path() + "/target";
    fs::create_directories(folder);
    fs::create_directories(target);
    if (program.prepare)
        program.prepare(folder);
    const std::vector<std::string> command = program.command(folder);
    const std::string trace = dir.path() + "/run.iolab-trace";
    std::vector<std::string> args = {"record", "--quiet", "--output", trace, "--"};
    args.insert(args.end(), command.begin(), command.end());
    const ProcessResult recorded = runProcess(IOLAB_CLI_PATH, args);
    ASSERT_EQ(recorded.exitCode, 0) << recorded.err;

    // The replay under strace: the runner's own thread writes the files that existed before and makes the
    // files durable after; the program's calls are the replay's other threads'.
    const std::string json = dir.path() + "/result.json";
    const std::string log = dir.path() + "/replay.strace";
    const std::string asanOptions = asanWithoutLeakCheck();
    const ProcessResult replayed =
        runProcess("/usr/bin/strace",
                   {"-f",
                    "-y",
                    "-o",
                    log,
                    "-e",
                    "trace=execve,write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync,"
                    "sync_file_range,copy_file_range,syncfs",
                    "--",
                    IOLAB_CLI_PATH,
                    "run",
                    "--target",
                    target,
                    "--replay",
                    trace,
                    "--reps",
                    "1",
                    "--warmups",
                    "0",
                    "--verify",
                    "--quiet",
                    "--no-summary",
                    "--json",
                    json},
                   {asanOptions});
    ASSERT_EQ(replayed.exitCode, 0) << replayed.out << replayed.err;
    EXPECT_THAT(replayed.out, HasSubstr("Inside the calls the replay took"));

    // Before each repetition's timed part the runner's own thread wrote back what the target's filesystem
    // held dirty (the last repetition's files removed): the program ran on a settled filesystem too.
    EXPECT_EQ(settledBy(log, firstTid(log), target), 1) << "one syncfs of the target per repetition";

    // Every file the program wrote, its standard output included where that was a file (the test's capture
    // of it): the replay writes those too.
    const ReplayScript script = loadReplayScript(trace);
    const std::set<std::string> throughStreams = streamWritten(trace);
    Counts program_;
    for (const auto& [key, n] : recordedCounts(trace, "/"))
        if (fileKindOf(key.first) == FileKind::Regular && !throughStreams.contains(key.first))
            program_[key] = n;
    Counts replay;
    std::set<std::string> replayStreams;
    for (const auto& [key, n] : underRecordedNames(straceCounts(log, target, firstTid(log)), script)) {
        if (throughStreams.contains(key.first))
            replayStreams.insert(key.first);
        else
            replay[key] = n;
    }
    EXPECT_FALSE(program_.empty());
    EXPECT_EQ(replay, program_) << "the program (as recorded):\n"
                                << describe(program_) << "the replay (as strace saw it):\n"
                                << describe(replay);
    EXPECT_EQ(replayStreams, throughStreams)
        << "the files written through streams were written in the replay too";

    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = nlohmann::json::parse(std::ifstream(json));
    const auto& c = result.at("cases").at(0);
    EXPECT_EQ(c.at("status"), "ok");
    ASSERT_TRUE(c.contains("replay"));
    EXPECT_GT(c.at("replay").at("recordedInsideSeconds").get<double>(), 0.0);
    const auto& rep = c.at("repetitions").at(0);
    EXPECT_TRUE(rep.at("verified").get<bool>()) << "every file the replay left holds what it wrote";
    EXPECT_GT(rep.at("insideSeconds").get<double>(), 0.0);
    EXPECT_EQ(rep.at("replayedCalls").get<std::uint64_t>(), c.at("replay").at("calls").get<std::uint64_t>());
    EXPECT_TRUE(fs::is_empty(target)) << "the replay's run folder is removed with everything in it";

    // What a power cut could lose at worst: the replay's own count equals the profile's of the recording.
    const std::string profileJson = dir.path() + "/profile.json";
    ASSERT_EQ(runProcess(IOLAB_CLI_PATH, {"profile", trace, "--json", profileJson}).exitCode, 0);
    const auto profile = nlohmann::json::parse(std::ifstream(profileJson));
    ASSERT_TRUE(rep.contains("atRisk"));
    EXPECT_EQ(rep.at("atRisk").at("maxBytes"), profile.at("durability").at("maxAtRiskBytes"));
}

INSTANTIATE_TEST_SUITE_P(Programs, ReplayProgram, ::testing::ValuesIn(kPrograms),
                         [](const ::testing::TestParamInfo<Program>& param) { return param.param.name; });

TEST(Replay, AsRecordedKeepsTheProgramsPauses)
{
    TempDir dir;
    const std::string target = dir.path() + "/target";
    fs::create_directories(target);
    const std::string trace = dir.path() + "/sleepy.iolab-trace";
    // A shell that writes a line, sleeps 0.3 s, and writes another: 0.3 s of think time between two writes.
    const ProcessResult recorded = runProcess(
        IOLAB_CLI_PATH, {"record", "--quiet", "--output", trace, "--", "/bin/sh", "-c",
                         "echo one > " + dir.path() + "/out; sleep 0.3; echo two >> " + dir.path() + "/out"});
    ASSERT_EQ(recorded.exitCode, 0) << recorded.err;
    const auto run = [&](const std::string& timing) {
        const std::string json = dir.path() + "/" + timing + ".json";
        const ProcessResult r = runProcess(
            IOLAB_CLI_PATH, {"run", "--target", target, "--replay", trace, "--replay-timing", timing,
                             "--reps", "1", "--warmups", "0", "--quiet", "--no-summary", "--json", json});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        EXPECT_TRUE(test::followsResultSchema(json));
        return nlohmann::json::parse(std::ifstream(json))
            .at("cases")
            .at(0)
            .at("repetitions")
            .at(0)
            .at("returnSeconds")
            .get<double>();
    };
    EXPECT_LT(run("back-to-back"), 0.25) << "the pause is left out";
    EXPECT_GT(run("as-recorded"), 0.28) << "the pause is kept";
}

// The program's calls made other ways (the replay-variant matrix key, what iolab-cli advise measures): dd's
// 512-byte writes and its one fsync at the end (conv=fsync), replayed as recorded and coalesced into large
// writes. Both leave the same verified file; the coalesced one makes far fewer write calls and keeps the
// sync. A variant that changes nothing in this program (it has one sync: nothing to move to the end) is
// refused before running, with the reason.
TEST(Replay, AVariantMakesTheSameBytesWithTheProgramsSyncsAndIsVerified)
{
    TempDir dir;
    const std::string target = dir.path() + "/target";
    fs::create_directories(target);
    const std::string trace = recordDd(dir, 2000);
    ASSERT_FALSE(trace.empty());
    const std::string matrix = dir.path() + "/variants.json";
    std::ofstream(matrix) << nlohmann::json{
        {"name", "dd made other ways"},
        {"groups",
         {{{"strategies", {"replay"}},
           {"replay", {trace}},
           {"replay-variant", {"recorded", "coalesce", "sync-at-close"}}}}}};
    const std::string json = dir.path() + "/result.json";
    const ProcessResult r =
        runProcess(IOLAB_CLI_PATH, {"run", "--target", target, "--matrix", matrix, "--reps", "1", "--warmups",
                                    "0", "--verify", "--json", json});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out + r.err, HasSubstr("as sync-at-close: the variant sync-at-close changes nothing"));
    EXPECT_THAT(r.out, HasSubstr("Made as coalesce (the same bytes, the program's durability points)"));
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = nlohmann::json::parse(std::ifstream(json));
    const auto& cases = result.at("cases");
    ASSERT_EQ(cases.size(), 2u) << "the refused variant is said, not run";
    std::map<std::string, nlohmann::json> byVariant;
    for (const auto& c : cases)
        byVariant[c.at("case").at("replay_variant").get<std::string>()] = c;
    ASSERT_TRUE(byVariant.contains("recorded") && byVariant.contains("coalesce")) << cases.dump();
    for (const char* variant : {"recorded", "coalesce"}) {
        const auto& c = byVariant[variant];
        EXPECT_EQ(c.at("status"), "ok") << variant;
        EXPECT_TRUE(c.at("repetitions").at(0).at("verified").get<bool>()) << variant;
        EXPECT_EQ(c.at("replay").at("bytesWritten"), 2000u * 512u) << variant;
        EXPECT_EQ(c.at("replay").at("syncCalls"), 1u) << variant;
    }
    EXPECT_EQ(byVariant["recorded"].at("replay").at("writeCalls"), 2000u);
    EXPECT_LE(byVariant["coalesce"].at("replay").at("writeCalls"), 2u) << "1 MiB at most per call";
    EXPECT_TRUE(fs::is_empty(target));
}

// direct-batch and mmap-batch on dd's 512-byte writes, under strace: the replay's file is opened O_DIRECT |
// O_DSYNC, written in whole 4 KiB blocks of at most 1 MiB at aligned offsets, never fsynced (each batch is
// durable when it returns), its padding cut by one ftruncate made durable, and it verifies; mmap-batch
// gathers each batch in a mapped file it unlinks at once.
class DirectBatchReplay : public ::testing::TestWithParam<std::string>
{};

TEST_P(DirectBatchReplay, WritesWholeAlignedBlocksAndIsVerified)
{
    const std::string variant = GetParam();
    TempDir dir;
    const std::string target = dir.path() + "/target";
    fs::create_directories(target);
    const std::string trace = recordDd(dir, 3001);
    ASSERT_FALSE(trace.empty());
    const std::string matrix = dir.path() + "/direct.json";
    std::ofstream(matrix) << nlohmann::json{
        {"groups", {{{"strategies", {"replay"}}, {"replay", {trace}}, {"replay-variant", {variant}}}}}};
    const std::string json = dir.path() + "/result.json";
    const std::string log = dir.path() + "/replay.strace";
    const std::string asanOptions = asanWithoutLeakCheck();
    const ProcessResult r = runProcess(
        "/usr/bin/strace", {"-f",      "-y",
                            "-o",      log,
                            "-e",      "trace=openat,unlink,write,pwrite64,fsync,fdatasync,ftruncate",
                            "--",      IOLAB_CLI_PATH,
                            "run",     "--target",
                            target,    "--matrix",
                            matrix,    "--reps",
                            "1",       "--warmups",
                            "0",       "--verify",
                            "--quiet", "--no-summary",
                            "--json",  json},
        {asanOptions});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = nlohmann::json::parse(std::ifstream(json));
    const auto& c = result.at("cases").at(0);
    if (c.at("status") == "unsupported")
        GTEST_SKIP() << "O_DIRECT is refused here: " << c.at("reason");
    ASSERT_EQ(c.at("status"), "ok") << c.dump().substr(0, 2000);
    EXPECT_TRUE(c.at("repetitions").at(0).at("verified").get<bool>());
    EXPECT_EQ(c.at("replay").at("bytesWritten"), 3001u * 512u);

    // The replay's file is the one it opens O_DIRECT | O_DSYNC (dd's output; the others stand for the
    // test's capture of its standard streams).
    std::ifstream in(log);
    std::string line;
    std::string file;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> pwrites; // (bytes, offset)
    int syncs = 0;
    int truncations = 0;
    int batchFiles = 0; // the mmap-batch's mapped file, made and unlinked at once
    const std::regex opened(R"re(openat\([^"]*"([^"]*/d\d+/f\d+\.dat)", [A-Z_|]*O_DSYNC\|O_DIRECT)re");
    const std::regex pwrite(R"re(pwrite64\(\d+<([^>]*)>, "[^"]*"\.*, (\d+), (\d+)(\) = \d+| <unfinished))re");
    while (std::getline(in, line)) {
        std::smatch m;
        if (line.find("batch-1.map") != std::string::npos)
            batchFiles += line.find("unlink(") != std::string::npos ? 1 : 0;
        else if (file.empty() && std::regex_search(line, m, opened))
            file = m[1];
        else if (file.empty() || line.find(file) == std::string::npos)
            continue;
        else if (std::regex_search(line, m, pwrite))
            pwrites.emplace_back(std::stoull(m[2]), std::stoull(m[3]));
        else if (line.find("fsync(") != std::string::npos || line.find("fdatasync(") != std::string::npos)
            ++syncs;
        // strace -f splits a call another thread interrupts ("ftruncate(5</d1/f1.dat>, 1536512 <unfinished
        // ...>"): the call's line is counted, finished or not (its "resumed" line names no file).
        else if (line.find("ftruncate(") != std::string::npos && line.find(", 1536512") != std::string::npos)
            ++truncations;
    }
    ASSERT_FALSE(file.empty()) << "no file opened O_DIRECT | O_DSYNC";
    // dd's 3,001 writes are recorded as runs: a batch is written as a run fills 1 MiB, the rest at the sync.
    ASSERT_GE(pwrites.size(), 2u);
    std::uint64_t next = 0;
    for (const auto& [bytes, offset] : pwrites) {
        EXPECT_EQ(bytes % 4096, 0u) << bytes;
        EXPECT_EQ(offset % 4096, 0u) << offset;
        EXPECT_LE(bytes, (1u << 20) + 4096);
        EXPECT_EQ(offset, next / 4096 * 4096) << "each batch from the block the last one ended in";
        next = offset + bytes;
    }
    EXPECT_EQ(next, 1540096u) << "the last block padded: 1,536,512 rounded up to a whole block";
    EXPECT_EQ(syncs, 2) << "the fdatasync after the truncation, and the runner's own after the timed part";
    EXPECT_EQ(truncations, 1);
    EXPECT_EQ(batchFiles, variant == "mmap-batch" ? 1 : 0);
    EXPECT_TRUE(fs::is_empty(target));
}

INSTANTIATE_TEST_SUITE_P(Ways, DirectBatchReplay, ::testing::Values("direct-batch", "mmap-batch"),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                             return param.param == "direct-batch" ? std::string("DirectBatch")
                                                                  : std::string("MmapBatch");
                         });

// io-uring on dd's 512-byte writes, under strace: the replay's file gets no write(2) and no fsync of its own;
// its 3,001 writes and its sync go through io_uring_enter, a call per ring's worth (64 in flight), and it
// verifies.
TEST(Replay, IoUringQueuesTheWritesAndTheSyncAndIsVerified)
{
    TempDir dir;
    const std::string target = dir.path() + "/target";
    fs::create_directories(target);
    const std::string trace = recordDd(dir, 3001);
    ASSERT_FALSE(trace.empty());
    const std::string matrix = dir.path() + "/uring.json";
    std::ofstream(matrix) << nlohmann::json{
        {"groups", {{{"strategies", {"replay"}}, {"replay", {trace}}, {"replay-variant", {"io-uring"}}}}}};
    const std::string json = dir.path() + "/result.json";
    const std::string log = dir.path() + "/replay.strace";
    const ProcessResult r =
        runProcess("/usr/bin/strace", {"-f",      "-y",
                                       "-o",      log,
                                       "-e",      "trace=write,pwrite64,fsync,fdatasync,io_uring_enter",
                                       "--",      IOLAB_CLI_PATH,
                                       "run",     "--target",
                                       target,    "--matrix",
                                       matrix,    "--reps",
                                       "1",       "--warmups",
                                       "0",       "--verify",
                                       "--quiet", "--no-summary",
                                       "--json",  json},
                   {asanWithoutLeakCheck()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = nlohmann::json::parse(std::ifstream(json));
    const auto& c = result.at("cases").at(0);
    if (c.at("status") == "unsupported")
        GTEST_SKIP() << "io_uring is refused here: " << c.at("reason");
    ASSERT_EQ(c.at("status"), "ok") << c.dump().substr(0, 2000);
    EXPECT_TRUE(c.at("repetitions").at(0).at("verified").get<bool>());
    EXPECT_EQ(c.at("replay").at("writeCalls"), 3001u);

    // dd's output in the replay's folder (the others stand for the test's capture of its standard streams).
    const ReplayScript script = loadReplayScript(trace);
    const auto out = std::find_if(script.files.begin(), script.files.end(),
                                  [](const ReplayFile& f) { return f.recordedPath.ends_with("/out"); });
    ASSERT_NE(out, script.files.end());
    const std::string replayFile = "/" + out->relativePath + ">";
    std::ifstream in(log);
    std::string line;
    int writes = 0;
    int syncs = 0;
    int enters = 0;
    while (std::getline(in, line)) {
        if (line.find("io_uring_enter(") != std::string::npos)
            ++enters;
        else if (line.find(replayFile) == std::string::npos)
            continue;
        else if (line.find("write") != std::string::npos)
            ++writes;
        else if (line.find("sync(") != std::string::npos)
            ++syncs;
    }
    EXPECT_EQ(writes, 0) << "every write of the replay's file through the ring";
    EXPECT_EQ(syncs, 1) << "the runner's own fsync after the timed part: the program's went through the ring";
    EXPECT_GE(enters, 3002 / 64) << "at most 64 requests in flight";
    EXPECT_LE(enters, 3002 / 32);
    EXPECT_TRUE(fs::is_empty(target));
}
