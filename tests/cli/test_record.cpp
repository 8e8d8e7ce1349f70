// SPDX-License-Identifier: MIT
// iolab-cli record against programs nobody here wrote: what the recorder saw of each file must be what strace
// saw, call for call (the write-type and sync-type calls on each file the program wrote); and the refusals
// and failures of a recording, each with its message and exit status, leaving nothing behind.
#include "core/analysis/program_profile.h"
#include "core/formats/trace_builder.h"
#include "core/model/trace_reader.h"
#include "tests/support/process.h"
#include "tests/support/recorded_programs.h"
#include "tests/support/temp_dir.h"

#include <nlohmann/json.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

class RecordProgram : public ::testing::TestWithParam<Program>
{};

} // namespace

TEST_P(RecordProgram, SeesEveryWriteAndSyncStraceSeesOnItsFiles)
{
    const Program& program = GetParam();
    TempDir dir;
    const std::string folder = dir.path();
    if (program.prepare)
        program.prepare(folder);
    // The recording first.
    const std::vector<std::string> command = program.command(folder);
    std::vector<std::string> args = {"record", "--quiet", "--output", folder + "/run.iolab-trace", "--"};
    args.insert(args.end(), command.begin(), command.end());
    const ProcessResult recorded = runProcess(IOLAB_CLI_PATH, args);
    ASSERT_EQ(recorded.exitCode, 0) << recorded.err;
    EXPECT_THAT(recorded.err, HasSubstr("exited with status 0"));
    // The same run under strace, from the same starting point.
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("db.sqlite") || name == "out" || name == "big.gz")
            fs::remove_all(entry.path());
    }
    if (program.name == "tar_extract")
        fs::create_directories(folder + "/out");
    std::vector<std::string> straceArgs = {"-f",
                                           "-y",
                                           "-o",
                                           folder + "/strace.log",
                                           "-e",
                                           "trace=write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync,"
                                           "sync_file_range,copy_file_range",
                                           "--"};
    straceArgs.insert(straceArgs.end(), command.begin(), command.end());
    const ProcessResult traced = runProcess("/usr/bin/strace", straceArgs);
    ASSERT_EQ(traced.exitCode, 0) << traced.err;

    const Counts mine = recordedCounts(folder + "/run.iolab-trace", folder);
    const Counts theirs = straceCounts(folder + "/strace.log", folder);
    EXPECT_FALSE(theirs.empty()) << "strace saw no write on the program's files";
    EXPECT_EQ(mine, theirs) << "IOLab recorded:\n"
                            << describe(mine) << "strace counted:\n"
                            << describe(theirs);
}

INSTANTIATE_TEST_SUITE_P(Programs, RecordProgram, ::testing::ValuesIn(kPrograms),
                         [](const ::testing::TestParamInfo<Program>& param) { return param.param.name; });

namespace {

// strace -C's table at the end of its log: calls by system call, for the whole program.
std::map<std::string, std::uint64_t> straceSummary(const std::string& logPath)
{
    std::ifstream in(logPath);
    std::map<std::string, std::uint64_t> calls;
    std::string line;
    bool inTable = false;
    while (std::getline(in, line)) {
        if (line.starts_with("% time")) {
            inTable = true;
            continue;
        }
        if (!inTable || line.starts_with("------"))
            continue;
        std::istringstream fields(line);
        std::vector<std::string> words;
        for (std::string word; fields >> word;)
            words.push_back(word);
        if (words.size() >= 5 && words.back() != "total")
            calls[words.back()] = std::stoull(words[3]);
    }
    return calls;
}

class ImportStrace : public ::testing::TestWithParam<Program>
{};

} // namespace

// The same programs under strace -f -C -tt -T -y, its log imported: per file, the write and sync calls are
// the ones strace's lines show; for the whole program, each kind's count is strace's own count (-C's table).
TEST_P(ImportStrace, TheTraceHoldsEveryWriteAndSyncStraceCounted)
{
    const Program& program = GetParam();
    TempDir dir;
    const std::string folder = dir.path();
    if (program.prepare)
        program.prepare(folder);
    const std::vector<std::string> command = program.command(folder);
    std::vector<std::string> straceArgs = {"-f", "-C", "-tt", "-T", "-y", "-o", folder + "/run.strace", "--"};
    straceArgs.insert(straceArgs.end(), command.begin(), command.end());
    const ProcessResult traced = runProcess("/usr/bin/strace", straceArgs);
    ASSERT_EQ(traced.exitCode, 0) << traced.err;

    const ProcessResult imported = runProcess(
        IOLAB_CLI_PATH, {"import", folder + "/run.strace", "--output", folder + "/run.iolab-trace"});
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    EXPECT_THAT(imported.out, HasSubstr("read from strace's log"));
    EXPECT_THAT(imported.err, ::testing::Not(HasSubstr("note:"))) << "nothing missing from a -tt -T -y log";
    EXPECT_FALSE(fs::exists(folder + "/run.strace.iolab-trace"));

    const Counts mine = recordedCounts(folder + "/run.iolab-trace", folder);
    const Counts theirs = straceCounts(folder + "/run.strace", folder);
    EXPECT_FALSE(theirs.empty());
    EXPECT_EQ(mine, theirs) << "imported:\n" << describe(mine) << "strace's lines:\n" << describe(theirs);

    // Every write-type and sync-type call of the program, on any descriptor, against strace's table.
    std::map<std::string, std::uint64_t> totals;
    std::ifstream in(folder + "/run.iolab-trace", std::ios::binary);
    TraceReader reader(in, "imported");
    reader.forEachEvent([&](const TraceEvent& event) {
        if (counted(event.call))
            totals[callName(event.call)] += event.count;
        return true;
    });
    std::map<std::string, std::uint64_t> table;
    for (const auto& [name, calls] : straceSummary(folder + "/run.strace")) {
        if (const auto kind = kStraceNames.find(name); kind != kStraceNames.end())
            table[kind->second] += calls;
    }
    EXPECT_FALSE(table.empty()) << "strace -C printed no table";
    EXPECT_EQ(totals, table);
}

INSTANTIATE_TEST_SUITE_P(Programs, ImportStrace, ::testing::ValuesIn(kPrograms),
                         [](const ::testing::TestParamInfo<Program>& param) { return param.param.name; });

namespace {

class Record : public ::testing::Test
{
protected:
    ProcessResult record(std::vector<std::string> command)
    {
        std::vector<std::string> args = {"record", "--output", m_dir.path() + "/t.iolab-trace", "--"};
        args.insert(args.end(), command.begin(), command.end());
        return runProcess(IOLAB_CLI_PATH, args);
    }
    // Only what the test put there, and the trace when one is expected.
    std::vector<std::string> leftovers() const
    {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(m_dir.path()))
            names.push_back(entry.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
    TempDir m_dir;
};

} // namespace

// A trace of ten million calls is read, not loaded: `iolab-cli profile` of an 88 MB trace (a million records
// of ten calls each, written and pwritten alternately, so that no two records are one run) counts every call
// and its largest resident size stays far below the file's.
TEST_F(Record, ATraceOfTenMillionCallsIsProfiledInBoundedMemory)
{
    const std::string trace = m_dir.path() + "/big.iolab-trace";
    {
        std::ofstream out(trace, std::ios::binary);
        TracePartBuilder builder(out, trace::System::Linux, 100, 0, 1'700'000'000'000'000'000ull, 0);
        builder.program(100, "/usr/bin/big", {"big"}, "/work");
        TraceEvent open;
        open.call = trace::Call::Open;
        open.tid = 100;
        open.handle = 3;
        open.result = 3;
        open.flags = trace::OpenWrite | trace::OpenCreate;
        open.path = "/work/big.dat";
        open.startNs = 10;
        open.endNs = 20;
        open.insideNs = 10;
        builder.add(open);
        std::uint64_t at = 100;
        for (std::uint64_t i = 0; i < 1'000'000; ++i) {
            TraceEvent e;
            e.call = i % 2 == 0 ? trace::Call::Write : trace::Call::PWrite;
            e.tid = 100;
            e.handle = 3;
            e.count = 10;
            e.bytes = 512;
            e.result = 512;
            e.offset = i % 2 == 0 ? -1 : static_cast<std::int64_t>(i * 5120);
            e.startNs = at;
            e.endNs = at += 10 * 1000;
            e.insideNs = 10 * 900;
            builder.add(e);
        }
        builder.exit(100, 0, at + 10);
        builder.finish();
    }
    const auto traceBytes = fs::file_size(trace);
    ASSERT_GT(traceBytes, 80'000'000u);
    const std::string json = m_dir.path() + "/big.json";
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const int quiet = ::open("/dev/null", O_WRONLY);
        ::dup2(quiet, 1);
        ::execl(IOLAB_CLI_PATH, IOLAB_CLI_PATH, "profile", trace.c_str(), "--json", json.c_str(),
                static_cast<char*>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    rusage usage{};
    ASSERT_EQ(::wait4(child, &status, 0, &usage), child);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    const auto profile = nlohmann::json::parse(std::ifstream(json));
    EXPECT_EQ(profile.at("calls").get<std::uint64_t>(), 10'000'001u);
    EXPECT_EQ(profile.at("files").at(0).at("bytesWritten").get<std::uint64_t>(),
              std::uint64_t{10'000'000} * 512);
    // ru_maxrss is in KiB.
    const std::uint64_t residentBytes = static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
    RecordProperty("maxResidentKiB", static_cast<int>(usage.ru_maxrss));
    RecordProperty("traceKiB", static_cast<int>(traceBytes / 1024));
    EXPECT_LT(residentBytes, traceBytes / 2) << "the profile held the trace in memory";
}

TEST_F(Record, AProgramThatDoesNotExistIsRefusedAndNothingIsWritten)
{
    const ProcessResult missing = record({"no-such-program-iolab"});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_THAT(missing.err, HasSubstr("no-such-program-iolab: no such program on PATH"));
    const ProcessResult missingPath = record({m_dir.path() + "/nothing"});
    EXPECT_EQ(missingPath.exitCode, 2);
    EXPECT_THAT(missingPath.err, HasSubstr("/nothing: no such file"));
    EXPECT_TRUE(leftovers().empty());
}

TEST_F(Record, AFileThatIsNotAProgramIsRefused)
{
    writeFile(m_dir.path() + "/notes.txt", "hello");
    const ProcessResult notExecutable = record({m_dir.path() + "/notes.txt"});
    EXPECT_EQ(notExecutable.exitCode, 2);
    EXPECT_THAT(notExecutable.err, HasSubstr("notes.txt is not executable"));
    const ProcessResult folder = record({m_dir.path()});
    EXPECT_EQ(folder.exitCode, 2);
    EXPECT_THAT(folder.err, HasSubstr("is a folder, not a program"));
    EXPECT_EQ(leftovers(), std::vector<std::string>{"notes.txt"});
}

TEST_F(Record, AStaticProgramIsRefusedWithTheStraceCommandThatRecordsIt)
{
    const ProcessResult result = record({IOLAB_STATIC_PROGRAM, "an argument"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_THAT(result.err, HasSubstr("is statically linked"));
    EXPECT_THAT(result.err, HasSubstr(std::string("strace -f -tt -T -y -o trace.strace -- ") +
                                      IOLAB_STATIC_PROGRAM + " 'an argument'"));
    EXPECT_TRUE(leftovers().empty());
}

TEST_F(Record, AProgramThatFailsKeepsItsTraceAndItsExitStatus)
{
    const ProcessResult result = record({"/bin/sh", "-c", "echo partial > " + m_dir.path() + "/f; exit 7"});
    EXPECT_EQ(result.exitCode, 7);
    EXPECT_THAT(result.err, HasSubstr("exited with status 7"));
    EXPECT_EQ(leftovers(), (std::vector<std::string>{"f", "t.iolab-trace"}));
    const ProcessResult profile = runProcess(IOLAB_CLI_PATH, {"profile", m_dir.path() + "/t.iolab-trace"});
    EXPECT_EQ(profile.exitCode, 0) << profile.err;
    EXPECT_THAT(profile.out, HasSubstr(m_dir.path() + "/f: wrote 8 B"));
    EXPECT_THAT(profile.out, ::testing::Not(HasSubstr("strace"))) << "recorded, not imported";
}

TEST_F(Record, AProgramThatDoesNoFileIoIsSaidPlainly)
{
    const ProcessResult result = record({"/bin/true"});
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, HasSubstr("true made no call on a file that the recorder saw."));
}

TEST_F(Record, AProgramKilledMidRunLeavesATraceOfWhatItDidSoFar)
{
    // The shell writes, then kills itself: its part was never closed.
    const ProcessResult result =
        record({"/bin/sh", "-c", "echo before > " + m_dir.path() + "/f; kill -9 $$"});
    EXPECT_EQ(result.exitCode, 128 + 9);
    EXPECT_THAT(result.err, HasSubstr("was ended by signal 9"));
    const ProcessResult profile = runProcess(IOLAB_CLI_PATH, {"profile", m_dir.path() + "/t.iolab-trace"});
    EXPECT_EQ(profile.exitCode, 0) << profile.err;
    EXPECT_THAT(profile.out, HasSubstr(m_dir.path() + "/f: wrote 7 B"));
}

TEST_F(Record, AnExistingTraceIsNotOverwritten)
{
    writeFile(m_dir.path() + "/t.iolab-trace", "mine");
    const ProcessResult result = record({"/bin/true"});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_THAT(result.err, HasSubstr("t.iolab-trace already exists"));
    std::ifstream in(m_dir.path() + "/t.iolab-trace");
    std::string text;
    std::getline(in, text);
    EXPECT_EQ(text, "mine");
    EXPECT_EQ(leftovers(), std::vector<std::string>{"t.iolab-trace"});
}

TEST_F(Record, ABadTraceIsRefusedByProfileWithItsReason)
{
    writeFile(m_dir.path() + "/empty.iolab-trace", "");
    writeFile(m_dir.path() + "/text.iolab-trace", "not a trace at all, just words");
    const ProcessResult empty = runProcess(IOLAB_CLI_PATH, {"profile", m_dir.path() + "/empty.iolab-trace"});
    EXPECT_EQ(empty.exitCode, 2);
    EXPECT_THAT(empty.err, HasSubstr("empty.iolab-trace is empty"));
    const ProcessResult text = runProcess(IOLAB_CLI_PATH, {"profile", m_dir.path() + "/text.iolab-trace"});
    EXPECT_EQ(text.exitCode, 2);
    EXPECT_THAT(text.err, HasSubstr("is not an IOLab trace"));
    const ProcessResult missing = runProcess(IOLAB_CLI_PATH, {"profile", m_dir.path() + "/none.iolab-trace"});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_THAT(missing.err, HasSubstr("cannot open"));
}

TEST_F(Record, ALogThatIsNotStracesIsRefusedAndNothingIsWritten)
{
    const std::string log = m_dir.path() + "/notes.txt";
    writeFile(log, "Things to do:\n- write the report\n");
    const ProcessResult result = runProcess(IOLAB_CLI_PATH, {"import", log});
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_THAT(result.err, HasSubstr("is not strace's output"));
    EXPECT_THAT(result.err, HasSubstr("strace -f -tt -T -y -o trace.strace"));
    EXPECT_THAT(leftovers(), ::testing::ElementsAre("notes.txt"));

    const ProcessResult missing = runProcess(IOLAB_CLI_PATH, {"import", m_dir.path() + "/nothing.strace"});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_THAT(missing.err, HasSubstr("cannot open " + m_dir.path() + "/nothing.strace"));
    EXPECT_THAT(leftovers(), ::testing::ElementsAre("notes.txt"));
}

// The profile's JSON against its published schema (python3-jsonschema, a validator nobody here wrote), and
// its figures against what dd oflag=dsync is known to do: 300 writes of 4 KiB, each returning durable.
TEST_F(Record, TheProfilesJsonFollowsItsSchemaAndCountsWhatTheProgramDid)
{
    const std::string json = m_dir.path() + "/profile.json";
    const ProcessResult recorded = runProcess(
        IOLAB_CLI_PATH, {"record", "--quiet", "--json", json, "--output", m_dir.path() + "/t.iolab-trace",
                         "--", "/usr/bin/dd", "if=/dev/zero", "of=" + m_dir.path() + "/out", "bs=4k",
                         "count=300", "oflag=dsync", "status=none"});
    ASSERT_EQ(recorded.exitCode, 0) << recorded.err;
    const std::string schema = std::string(IOLAB_SOURCE_DIR) + "/resources/schemas/iolab-profile.schema.json";
    const ProcessResult valid =
        runProcess("/usr/bin/python3",
                   {"-c",
                    "import json, sys, jsonschema\n"
                    "schema = json.load(open(sys.argv[1]))\n"
                    "jsonschema.Draft202012Validator.check_schema(schema)\n"
                    "jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2])))\n",
                    schema, json});
    EXPECT_EQ(valid.exitCode, 0) << valid.err;

    const auto profile = nlohmann::json::parse(std::ifstream(json));
    EXPECT_EQ(profile.at("schema"), "iolab-profile/1");
    const auto& files = profile.at("files");
    const auto out = std::find_if(files.begin(), files.end(),
                                  [&](const auto& f) { return f.at("path") == m_dir.path() + "/out"; });
    ASSERT_NE(out, files.end());
    EXPECT_EQ(out->at("calls").at("write"), 300);
    EXPECT_EQ(out->at("bytesWritten"), 300 * 4096);
    EXPECT_EQ(profile.at("durability").at("durableWrites"), 300);
    EXPECT_EQ(profile.at("durability").at("maxAtRiskBytes"), 0);
    EXPECT_THAT(out->at("openFlags"), ::testing::Contains("dsync"));

    // The same JSON from profile, and a --json that cannot be written refused before anything is read.
    const ProcessResult again = runProcess(
        IOLAB_CLI_PATH, {"profile", m_dir.path() + "/t.iolab-trace", "--json", m_dir.path() + "/p2.json"});
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_EQ(nlohmann::json::parse(std::ifstream(m_dir.path() + "/p2.json")), profile);
    const ProcessResult refused = runProcess(IOLAB_CLI_PATH, {"profile", m_dir.path() + "/t.iolab-trace",
                                                              "--json", m_dir.path() + "/none/p.json"});
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_THAT(refused.err, HasSubstr("--json " + m_dir.path() + "/none/p.json"));
}

// --anonymise: the trace holds none of the program's file or folder names, and profiles as the plain one
// does.
TEST_F(Record, AnAnonymisedTraceHoldsNoNameAndProfilesTheSame)
{
    const std::string secret = m_dir.path() + "/customer-ledger";
    fs::create_directories(secret);
    const auto recordTo = [&](const std::string& trace, bool anonymise) {
        fs::remove(secret + "/books.db");
        std::vector<std::string> args = {"record", "--quiet", "--output", trace};
        if (anonymise)
            args.push_back("--anonymise");
        for (const char* word :
             {"--", "/usr/bin/dd", "if=/dev/zero", "bs=4k", "count=20", "oflag=dsync", "status=none"})
            args.emplace_back(word);
        args.push_back("of=" + secret + "/books.db");
        const ProcessResult r = runProcess(IOLAB_CLI_PATH, args);
        EXPECT_EQ(r.exitCode, 0) << r.err;
    };
    recordTo(m_dir.path() + "/plain.iolab-trace", false);
    recordTo(m_dir.path() + "/anonymous.iolab-trace", true);
    std::ifstream in(m_dir.path() + "/anonymous.iolab-trace", std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(bytes.find("customer-ledger"), std::string::npos);
    EXPECT_EQ(bytes.find("books"), std::string::npos);
    EXPECT_NE(bytes.find(".db"), std::string::npos) << "the extension stays";

    const ProcessResult plain = runProcess(IOLAB_CLI_PATH, {"profile", m_dir.path() + "/plain.iolab-trace"});
    const ProcessResult anonymous =
        runProcess(IOLAB_CLI_PATH, {"profile", m_dir.path() + "/anonymous.iolab-trace"});
    ASSERT_EQ(anonymous.exitCode, 0) << anonymous.err;
    EXPECT_THAT(anonymous.out, HasSubstr("20 writes returned durable"));
    EXPECT_THAT(plain.out, HasSubstr("20 writes returned durable"));
    EXPECT_THAT(anonymous.out, HasSubstr("/d1/f"));
    EXPECT_THAT(leftovers(),
                ::testing::ElementsAre("anonymous.iolab-trace", "customer-ledger", "plain.iolab-trace"))
        << "the parts and the plain merge are gone";
}
