// SPDX-License-Identifier: MIT
// iolab-cli record on Windows (under wine in this suite): a MinGW program (tests/support/
// windows_recorded_program.cpp) does a known number of each call through msvcrt's stdio and kernel32's
// handles, on a second thread and in a child process; the trace must hold each call as the program made it,
// and its byte counts must be what the files on the disk hold. Then the refusals: no such program, a folder,
// a file that is not a program, a 32-bit program.
#include "core/analysis/program_profile.h"
#include "core/engine/replay_script.h"
#include "core/model/trace_reader.h"
#include "tests/support/process.h"
#include "tests/support/result_schema.h"
#include "tests/support/temp_dir.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

// (file name, call) -> calls; and the bytes each file was written with.
struct Seen
{
    std::map<std::pair<std::string, std::string>, std::uint64_t> calls;
    std::map<std::string, std::uint64_t> bytesWritten;
    std::map<std::string, std::set<std::uint32_t>> threads;
    std::map<std::string, std::set<std::uint32_t>> processes;
    std::map<std::string, std::uint32_t> openFlags;
    std::vector<std::pair<std::string, std::string>> renames;
    std::vector<std::string> unlinks;
    std::uint64_t truncatedTo = 0;
};

bool writes(trace::Call call)
{
    using trace::Call;
    return call == Call::Write || call == Call::PWrite || call == Call::FWrite || call == Call::FPutc ||
           call == Call::FPuts || call == Call::FPrintf;
}

Seen seenIn(const std::string& tracePath, std::vector<TraceProcess>& processes)
{
    std::ifstream in(tracePath, std::ios::binary);
    TraceReader reader(in, tracePath);
    processes = reader.processes();
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::string> names; // (process, handle) -> file name
    Seen seen;
    reader.forEachEvent([&](const TraceEvent& event) {
        const std::pair<std::uint32_t, std::uint64_t> key{event.process, event.handle};
        const std::string name = fs::path(event.path).filename().string();
        if ((event.call == trace::Call::Open || event.call == trace::Call::FOpen) && event.error == 0 &&
            !(event.flags & trace::OpenInherited)) {
            names[key] = name;
            seen.openFlags[name] = event.flags;
        }
        if (event.call == trace::Call::Rename)
            seen.renames.emplace_back(name, fs::path(event.path2).filename().string());
        if (event.call == trace::Call::Unlink)
            seen.unlinks.push_back(name);
        const auto file = names.find(key);
        if (file == names.end())
            return true;
        seen.calls[{file->second, callName(event.call)}] += event.count;
        seen.threads[file->second].insert(event.tid);
        seen.processes[file->second].insert(event.process);
        if (writes(event.call) && event.result > 0)
            seen.bytesWritten[file->second] += static_cast<std::uint64_t>(event.result) * event.count;
        if (event.call == trace::Call::Ftruncate)
            seen.truncatedTo = event.bytes;
        if (event.call == trace::Call::Close || event.call == trace::Call::FClose)
            names.erase(file);
        return true;
    });
    return seen;
}

trace::Call parseCallName(const std::string& name)
{
    using trace::Call;
    for (Call call :
         {Call::Write, Call::PWrite, Call::FWrite, Call::FPutc, Call::FPuts, Call::FPrintf, Call::Fsync})
        if (callName(call) == name)
            return call;
    return Call::Open;
}

std::uint64_t calls(const Seen& seen, const std::string& file, const std::string& call)
{
    const auto it = seen.calls.find({file, call});
    return it == seen.calls.end() ? 0 : it->second;
}

class RecordWindows : public ::testing::Test
{
protected:
    ProcessResult record(const std::vector<std::string>& command, const std::string& trace,
                         const std::vector<std::string>& extra = {})
    {
        std::vector<std::string> args = {"record", "--quiet", "--output", trace};
        args.insert(args.end(), extra.begin(), extra.end());
        args.emplace_back("--");
        args.insert(args.end(), command.begin(), command.end());
        return runProcess(IOLAB_CLI_PATH, args);
    }

    TempDir m_dir;
};

} // namespace

TEST_F(RecordWindows, SeesEachCallTheProgramMadeAndTheBytesTheDiskHolds)
{
    const std::string folder = fs::path(m_dir.path()).make_preferred().string();
    const std::string trace = m_dir.path() + "/run.iolab-trace";
    const ProcessResult recorded =
        record({IOLAB_WINDOWS_RECORDED_PROGRAM, folder}, trace, {"--json", m_dir.path() + "/profile.json"});
    ASSERT_EQ(recorded.exitCode, 0) << recorded.err;
    EXPECT_THAT(recorded.err, HasSubstr("exited with status 0"));
    EXPECT_THAT(recorded.err, HasSubstr("2 processes"));

    std::vector<TraceProcess> processes;
    const Seen seen = seenIn(trace, processes);
    ASSERT_EQ(processes.size(), 2u);
    EXPECT_EQ(processes[0].system, trace::System::Windows);
    EXPECT_THAT(processes[0].executable, HasSubstr("windows_recorded_program"));
    ASSERT_EQ(processes[0].arguments.size(), 2u); // the program and the folder
    EXPECT_EQ(fs::path(processes[0].arguments[1]), fs::path(folder));
    ASSERT_TRUE(processes[0].exitStatus.has_value());
    EXPECT_EQ(*processes[0].exitStatus, 0);
    ASSERT_EQ(processes[1].arguments.size(), 3u);
    EXPECT_EQ(processes[1].arguments[2], "child");

    // msvcrt's stdio, call for call: what the buffer absorbed is counted with what reached the system.
    EXPECT_EQ(calls(seen, "stdio.log", "setvbuf"), 1u);
    EXPECT_EQ(calls(seen, "stdio.log", "fputc"), 1000u);
    EXPECT_EQ(calls(seen, "stdio.log", "fwrite"), 200u);
    EXPECT_EQ(calls(seen, "stdio.log", "fprintf"), 10u);
    EXPECT_EQ(calls(seen, "stdio.log", "fputs"), 1u);
    EXPECT_EQ(calls(seen, "stdio.log", "fflush"), 1u);
    EXPECT_EQ(calls(seen, "stdio.log", "fclose"), 1u);
    // kernel32's handles.
    EXPECT_EQ(calls(seen, "handle.dat", "write"), 64u);
    EXPECT_EQ(calls(seen, "handle.dat", "pwrite"), 1u);
    EXPECT_EQ(calls(seen, "handle.dat", "fsync"), 2u);
    EXPECT_EQ(calls(seen, "handle.dat", "lseek"), 2u);
    EXPECT_EQ(calls(seen, "handle.dat", "read"), 2u);
    EXPECT_EQ(calls(seen, "handle.dat", "ftruncate"), 1u);
    EXPECT_EQ(calls(seen, "handle.dat", "close"), 1u);
    EXPECT_EQ(seen.truncatedTo, 100000u);
    EXPECT_TRUE(seen.openFlags.at("handle.dat") & trace::OpenWriteThrough);
    EXPECT_TRUE(seen.openFlags.at("handle.dat") & trace::OpenTruncate);
    // The atomic replace and the file deleted.
    EXPECT_EQ(calls(seen, "settings.tmp", "fsync"), 1u);
    EXPECT_THAT(seen.renames,
                ::testing::Contains(std::pair<std::string, std::string>("settings.tmp", "settings.ini")));
    EXPECT_THAT(seen.unlinks, ::testing::Contains(std::string("scratch.bin")));
    // The second thread's file, written by that thread; the child's, in the child's part.
    EXPECT_EQ(calls(seen, "thread.dat", "write"), 50u);
    ASSERT_EQ(seen.threads.at("thread.dat").size(), 1u);
    EXPECT_NE(*seen.threads.at("thread.dat").begin(), *seen.threads.at("stdio.log").begin());
    EXPECT_EQ(calls(seen, "child.dat", "fwrite"), 10u);
    EXPECT_EQ(seen.processes.at("child.dat"), std::set<std::uint32_t>{1u});

    // What the disk holds: each file's size is the bytes the trace says were written to it (the handle file
    // cut to the length SetEndOfFile set).
    for (const char* name : {"stdio.log", "thread.dat", "child.dat", "settings.ini"}) {
        const std::string file = name == std::string("settings.ini") ? "settings.tmp" : name;
        EXPECT_EQ(fs::file_size(fs::path(folder) / name), seen.bytesWritten.at(file)) << name;
    }
    EXPECT_EQ(fs::file_size(fs::path(folder) / "handle.dat"), 100000u);
    EXPECT_EQ(seen.bytesWritten.at("handle.dat"), 65u * 4096);

    // The profile reads it as any trace.
    std::ifstream json(m_dir.path() + "/profile.json");
    const auto profile = nlohmann::json::parse(json);
    EXPECT_EQ(profile.at("processes").size(), 2u);
    // Nothing of the recording is left beside the trace (its parts folder went).
    for (const auto& entry : fs::directory_iterator(m_dir.path()))
        EXPECT_FALSE(entry.path().filename().string().ends_with(".parts")) << entry.path();
}

// A program nobody here wrote: wine's own cmd.exe (in the system folder, where the recorder patches the
// program itself and none of the system's libraries), writing a line into a file with echo.
TEST_F(RecordWindows, CmdExesEchoIntoAFileIsWhatTheFileHolds)
{
    const std::string folder = fs::path(m_dir.path()).make_preferred().string();
    const std::string trace = m_dir.path() + "/cmd.iolab-trace";
    const std::string file = folder + "\\hello.txt";
    const ProcessResult recorded = record({"cmd.exe", "/c", "echo hello from cmd>" + file}, trace);
    ASSERT_EQ(recorded.exitCode, 0) << recorded.err;
    ASSERT_TRUE(fs::exists(file));
    std::vector<TraceProcess> processes;
    const Seen seen = seenIn(trace, processes);
    ASSERT_EQ(processes.size(), 1u);
    EXPECT_THAT(processes[0].executable, HasSubstr("cmd.exe"));
    EXPECT_GE(calls(seen, "hello.txt", "write"), 1u);
    EXPECT_EQ(seen.bytesWritten.at("hello.txt"), fs::file_size(file));
    EXPECT_EQ(fs::file_size(file), std::string("hello from cmd\r\n").size());
    EXPECT_TRUE(seen.openFlags.at("hello.txt") & trace::OpenWrite);
}

// The recording replays on Windows: every repetition verified, the run folder removed, and what the replay
// did to each file (seen by the recorder itself, which the test above holds against the program and the disk)
// is what the program did to the file it stands for, call for call.
TEST_F(RecordWindows, TheReplayMakesTheProgramsCallsOnEachFile)
{
    const std::string folder = fs::path(m_dir.path()).make_preferred().string();
    const std::string trace = m_dir.path() + "/program.iolab-trace";
    ASSERT_EQ(record({IOLAB_WINDOWS_RECORDED_PROGRAM, folder}, trace).exitCode, 0);
    const std::string target = m_dir.path() + "/target";
    fs::create_directories(target);
    const std::string json = m_dir.path() + "/result.json";
    const std::string witness = m_dir.path() + "/replay.iolab-trace";
    const ProcessResult replayed =
        record({IOLAB_CLI_PATH, "run", "--target", target, "--replay", trace, "--reps", "1", "--warmups", "0",
                "--verify", "--quiet", "--no-summary", "--json", json},
               witness);
    ASSERT_EQ(replayed.exitCode, 0) << replayed.out << replayed.err;
    EXPECT_THAT(replayed.out, HasSubstr("Inside the calls the replay took"));
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = nlohmann::json::parse(std::ifstream(json));
    const auto& c = result.at("cases").at(0);
    EXPECT_EQ(c.at("status"), "ok");
    const auto& rep = c.at("repetitions").at(0);
    EXPECT_TRUE(rep.at("verified").get<bool>()) << "every file the replay left holds what it wrote";
    EXPECT_EQ(rep.at("replayedCalls").get<std::uint64_t>(), c.at("replay").at("calls").get<std::uint64_t>());
    EXPECT_TRUE(fs::is_empty(target)) << "the replay's run folder is removed with everything in it";

    // The program's calls by file, against the replay's by the file standing for it. The replay's threads are
    // those that wrote a replayed file; the runner's own (which makes the files durable and checks them after
    // the timed part, and writes none of them here: the program read no file it found) is not the program.
    std::vector<TraceProcess> processes;
    const Seen program = seenIn(trace, processes);
    const ReplayScript script = loadReplayScript(trace);
    std::map<std::string, std::string> recordedName; // "f000001.dat" -> "stdio.log"
    for (const ReplayFile& file : script.files)
        recordedName[fs::path(file.relativePath).filename().string()] =
            fs::path(file.recordedPath).filename().string();
    struct Call
    {
        std::uint32_t tid;
        std::string file;
        trace::Call call;
        std::uint32_t count;
    };
    std::vector<Call> seenCalls;
    std::set<std::uint32_t> replayThreads;
    std::string opens; // each open and close the witness holds, to show when the files are mixed up
    {
        std::ifstream in(witness, std::ios::binary);
        TraceReader reader(in, witness);
        std::map<std::pair<std::uint32_t, std::uint64_t>, std::string> names; // (process, handle) -> name
        reader.forEachEvent([&](const TraceEvent& event) {
            const std::string name = fs::path(event.path).filename().string();
            const std::pair<std::uint32_t, std::uint64_t> key{event.process, event.handle};
            if ((event.call == trace::Call::Open || event.call == trace::Call::FOpen) && event.error == 0)
                names[key] = recordedName.contains(name) ? recordedName[name] : std::string();
            const auto file = names.find(key);
            if (event.call == trace::Call::Open || event.call == trace::Call::FOpen ||
                event.call == trace::Call::Close || event.call == trace::Call::FClose || writes(event.call))
                opens += fmt::format("{} ns, process {} thread {}: {} x{} handle {:#x} {}\n", event.startNs,
                                     event.process, event.tid, callName(event.call), event.count,
                                     event.handle, file == names.end() ? "?" : file->second);
            if (file == names.end())
                return true;
            if (!file->second.empty() && writes(event.call))
                replayThreads.insert(event.tid);
            if (!file->second.empty() && (writes(event.call) || event.call == trace::Call::Fsync))
                seenCalls.push_back({event.tid, file->second, event.call, event.count});
            if (event.call == trace::Call::Close || event.call == trace::Call::FClose)
                names.erase(file); // the handle's value may be another file's next
            return true;
        });
    }
    std::map<std::pair<std::string, std::string>, std::uint64_t> theirs;
    std::map<std::pair<std::string, std::string>, std::uint64_t> ours;
    for (const Call& call : seenCalls)
        if (replayThreads.contains(call.tid))
            ours[{call.file, callName(call.call)}] += call.count;
    for (const auto& [key, n] : program.calls)
        if (writes(parseCallName(key.second)) || key.second == "fsync")
            theirs[key] = n;
    EXPECT_FALSE(theirs.empty());
    EXPECT_EQ(ours, theirs) << "the replay's opens and closes:\n" << opens;
}

// The ways with calls of their own on Windows, each replayed on a journal of 1,000-byte records synced every
// 16 (the program's journal mode) and verified, what the replay did watched by the recorder itself:
//  - direct-batch and mmap-batch: the file opened NO_BUFFERING | WRITE_THROUGH, one WriteFile at each sync
//    point (none of the program's FlushFileBuffers left), each of whole 4 KiB blocks at a 4 KiB offset (wine
//    does not check; the recorder sees what Windows would have refused), the padding cut at the end and
//    flushed; mmap-batch gathers in a mapped file of its own, gone with the run folder;
//  - overlapped: the file opened FILE_FLAG_OVERLAPPED, the program's 128 writes each at its offset, and its
//    8 FlushFileBuffers.
// advise offers these three on a Windows recording, and not io-uring.
TEST_F(RecordWindows, TheWindowsWaysMakeTheirOwnCallsAndKeepTheBytes)
{
    const std::string folder = fs::path(m_dir.path()).make_preferred().string();
    const std::string trace = m_dir.path() + "/journal.iolab-trace";
    ASSERT_EQ(record({IOLAB_WINDOWS_RECORDED_PROGRAM, folder, "journal"}, trace).exitCode, 0);
    const ReplayScript script = loadReplayScript(trace);
    std::string journal; // the replay's file standing for journal.dat
    for (const ReplayFile& file : script.files)
        if (fs::path(file.recordedPath).filename() == "journal.dat")
            journal = fs::path(file.relativePath).filename().string();
    ASSERT_FALSE(journal.empty());
    const std::string target = m_dir.path() + "/target";
    fs::create_directories(target);

    struct Write
    {
        trace::Call call;
        std::int64_t offset;
        std::uint64_t bytes;
    };
    for (const std::string way : {"direct-batch", "mmap-batch", "overlapped"}) {
        SCOPED_TRACE(way);
        const std::string matrix = m_dir.path() + "/" + way + ".json";
        std::ofstream(matrix) << nlohmann::json{{"groups",
                                                 {{{"strategies", {"replay"}},
                                                   {"replay", {trace}},
                                                   {"replay-variant", {way}}}}}}
                                     .dump();
        const std::string json = m_dir.path() + "/" + way + "-result.json";
        const std::string witness = m_dir.path() + "/" + way + ".iolab-trace";
        const ProcessResult replayed =
            record({IOLAB_CLI_PATH, "run", "--matrix", matrix, "--target", target, "--reps", "1", "--warmups",
                    "0", "--verify", "--quiet", "--no-summary", "--json", json},
                   witness);
        ASSERT_EQ(replayed.exitCode, 0) << replayed.out << replayed.err;
        EXPECT_TRUE(test::followsResultSchema(json));
        const auto result = nlohmann::json::parse(std::ifstream(json));
        const auto& c = result.at("cases").at(0);
        ASSERT_EQ(c.at("status"), "ok") << c.dump();
        EXPECT_TRUE(c.at("repetitions").at(0).at("verified").get<bool>()) << "every byte where it belongs";
        EXPECT_TRUE(fs::is_empty(target)) << "the run folder, the mapped batch too, removed";

        std::vector<std::uint32_t> writeOpens; // the flags of each open of the journal for writing
        std::vector<Write> writes;
        std::uint64_t flushes = 0;
        std::vector<std::uint64_t> ends;
        bool batchFileMapped = false;
        std::ifstream in(witness, std::ios::binary);
        TraceReader reader(in, witness);
        // The replay's thread is the one that opens the journal first; the runner's own open after the timed
        // part (which makes the file durable) is not the program's.
        std::optional<std::uint32_t> replayThread;
        std::map<std::pair<std::uint32_t, std::uint64_t>, bool> isJournal;
        reader.forEachEvent([&](const TraceEvent& event) {
            const std::pair<std::uint32_t, std::uint64_t> key{event.process, event.handle};
            const std::string name = fs::path(event.path).filename().string();
            if (event.call == trace::Call::Open && event.error == 0) {
                if (name == journal && !replayThread)
                    replayThread = event.tid;
                isJournal[key] = name == journal && event.tid == *replayThread;
                if (isJournal[key] && (event.flags & trace::OpenWrite) != 0)
                    writeOpens.push_back(event.flags);
                batchFileMapped = batchFileMapped || name == "batch-1.map";
                return true;
            }
            if (!isJournal[key])
                return true;
            if (event.call == trace::Call::Write || event.call == trace::Call::PWrite)
                for (std::uint32_t k = 0; k < event.count; ++k) // a run's offsets follow on
                    writes.push_back({event.call,
                                      event.offset < 0
                                          ? event.offset
                                          : event.offset + static_cast<std::int64_t>(k * event.bytes),
                                      event.bytes});
            else if (event.call == trace::Call::Fsync)
                flushes += event.count;
            else if (event.call == trace::Call::Ftruncate)
                ends.push_back(event.bytes);
            if (event.call == trace::Call::Close)
                isJournal.erase(key);
            return true;
        });
        ASSERT_EQ(writeOpens.size(), 1u);
        if (way == "overlapped") {
            EXPECT_NE(writeOpens[0] & trace::OpenOverlapped, 0u);
            ASSERT_EQ(writes.size(), 128u) << "the program's writes";
            for (std::size_t k = 0; k < writes.size(); ++k) {
                EXPECT_EQ(writes[k].call, trace::Call::PWrite);
                EXPECT_EQ(writes[k].offset, static_cast<std::int64_t>(k * 1000)) << k;
                EXPECT_EQ(writes[k].bytes, 1000u);
            }
            EXPECT_EQ(flushes, 8u) << "the program's syncs";
            EXPECT_TRUE(ends.empty());
            continue;
        }
        EXPECT_EQ(writeOpens[0] & (trace::OpenDirect | trace::OpenWriteThrough),
                  trace::OpenDirect | trace::OpenWriteThrough);
        ASSERT_EQ(writes.size(), 8u) << "one WriteFile per sync point";
        std::uint64_t last = 0;
        for (const Write& w : writes) {
            EXPECT_EQ(w.call, trace::Call::PWrite);
            EXPECT_EQ(w.offset % 4096, 0) << w.offset;
            EXPECT_EQ(w.bytes % 4096, 0u) << w.bytes;
            last = static_cast<std::uint64_t>(w.offset) + w.bytes;
        }
        EXPECT_EQ(last, 128000u / 4096 * 4096 + 4096) << "through the last block";
        EXPECT_THAT(ends, ::testing::ElementsAre(128000u)) << "the padding cut at the end";
        EXPECT_EQ(flushes, 1u) << "only the new end's";
        EXPECT_EQ(batchFileMapped, way == "mmap-batch");
    }

    const ProcessResult advised = runProcess(
        IOLAB_CLI_PATH, {"advise", trace, "--target", target, "--reps", "1", "--warmups", "0", "--quiet"});
    ASSERT_EQ(advised.exitCode, 0) << advised.out << advised.err;
    for (const char* way : {"- direct-batch: ", "- mmap-batch: ", "- overlapped: "})
        EXPECT_THAT(advised.out, HasSubstr(way));
    EXPECT_THAT(advised.out, ::testing::Not(HasSubstr("io-uring")));
}

// A rename and a delete made through the file's handle (SetFileInformationByHandle's FileRenameInfo and
// FileDispositionInfo) are recorded as MoveFileEx and DeleteFile are, by the file's path: the trace says what
// the disk shows, and the replay makes them again and is verified.
TEST_F(RecordWindows, ARenameAndADeleteThroughAHandleAreRecordedByName)
{
    const std::string folder = fs::path(m_dir.path()).make_preferred().string();
    const std::string trace = m_dir.path() + "/byhandle.iolab-trace";
    const ProcessResult recorded = record({IOLAB_WINDOWS_RECORDED_PROGRAM, folder, "byhandle"}, trace);
    ASSERT_EQ(recorded.exitCode, 0) << recorded.err;
    EXPECT_TRUE(fs::exists(fs::path(folder) / "renamed.dat"));
    EXPECT_FALSE(fs::exists(fs::path(folder) / "renamed.tmp"));
    EXPECT_FALSE(fs::exists(fs::path(folder) / "deleted.tmp"));
    std::vector<TraceProcess> processes;
    const Seen seen = seenIn(trace, processes);
    EXPECT_THAT(seen.renames,
                ::testing::ElementsAre(std::pair<std::string, std::string>("renamed.tmp", "renamed.dat")));
    EXPECT_THAT(seen.unlinks, ::testing::ElementsAre("deleted.tmp"));
    EXPECT_EQ(calls(seen, "renamed.tmp", "fsync"), 1u);

    const std::string target = m_dir.path() + "/target";
    fs::create_directories(target);
    const std::string json = m_dir.path() + "/result.json";
    const ProcessResult replayed =
        runProcess(IOLAB_CLI_PATH, {"run", "--target", target, "--replay", trace, "--reps", "1", "--warmups",
                                    "0", "--verify", "--quiet", "--no-summary", "--json", json});
    ASSERT_EQ(replayed.exitCode, 0) << replayed.out << replayed.err;
    EXPECT_TRUE(test::followsResultSchema(json));
    const auto result = nlohmann::json::parse(std::ifstream(json));
    const auto& c = result.at("cases").at(0);
    ASSERT_EQ(c.at("status"), "ok") << c.dump();
    EXPECT_TRUE(c.at("repetitions").at(0).at("verified").get<bool>());
}

TEST_F(RecordWindows, AProgramThatFailsKeepsItsTraceAndItsExitStatus)
{
    const std::string folder = fs::path(m_dir.path()).make_preferred().string();
    const std::string trace = m_dir.path() + "/run.iolab-trace";
    const ProcessResult recorded = record({IOLAB_WINDOWS_RECORDED_PROGRAM, folder, "exit3"}, trace);
    EXPECT_EQ(recorded.exitCode, 3) << recorded.err;
    EXPECT_THAT(recorded.err, HasSubstr("exited with status 3"));
    std::vector<TraceProcess> processes;
    const Seen seen = seenIn(trace, processes);
    ASSERT_EQ(processes.size(), 1u);
    ASSERT_TRUE(processes[0].exitStatus.has_value());
    EXPECT_EQ(*processes[0].exitStatus, 3);
    EXPECT_EQ(calls(seen, "stdio.log", "fwrite"), 200u);
}

TEST_F(RecordWindows, WhatCannotBeRecordedIsRefusedAndNothingIsWritten)
{
    // A 32-bit program: the image's header is all the recorder reads before it refuses.
    std::string image(512, '\0');
    image[0] = 'M';
    image[1] = 'Z';
    image[0x3c] = static_cast<char>(0x80);
    image.replace(0x80, 6, std::string("PE\0\0\x4c\x01", 6));
    {
        std::ofstream(m_dir.path() + "/old32.exe", std::ios::binary) << image;
        std::ofstream(m_dir.path() + "/notes.exe") << "not a program\n";
    }
    fs::create_directories(m_dir.path() + "/folder.exe");
    struct Row
    {
        std::string program;
        std::vector<std::string> said;
    };
    const Row rows[] = {
        {m_dir.path() + "/none.exe", {"no such file"}},
        {"no-such-program-here", {"no such program on PATH"}},
        {m_dir.path() + "/folder.exe", {"is a folder"}},
        {m_dir.path() + "/notes.exe", {"not a Windows program"}},
        {m_dir.path() + "/old32.exe", {"32-bit program", "Process Monitor"}},
    };
    for (const Row& row : rows) {
        const std::string trace = m_dir.path() + "/refused.iolab-trace";
        const ProcessResult refused = record({row.program}, trace);
        EXPECT_EQ(refused.exitCode, 2) << row.program << ": " << refused.err;
        for (const std::string& part : row.said)
            EXPECT_THAT(refused.err, HasSubstr(part)) << row.program;
        EXPECT_FALSE(fs::exists(trace)) << row.program;
    }
    std::set<std::string> left;
    for (const auto& entry : fs::directory_iterator(m_dir.path()))
        left.insert(entry.path().filename().string());
    EXPECT_EQ(left, (std::set<std::string>{"old32.exe", "notes.exe", "folder.exe"}));
}
