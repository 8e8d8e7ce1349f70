// SPDX-License-Identifier: MIT
// The bad-input catalogue of iolab-cli: every input it refuses or survives, one row each, with its exit code,
// the key words of its message, and what must be left on disk (nothing but what the test itself made). The
// tables of `iolab report` and of the app's launch options are in tests/gui/test_refusals.cpp.
#include "tests/support/refusal_table.h"
#include "tests/support/synthetic_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

using namespace iolab::test;
using namespace iolab::test::refusals;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

// Waits until a run has created the first case's data file somewhere under `folder` (the target probe's own
// file comes before: the run is only under way once this one is there).
bool waitForRunFile(const std::string& folder)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
        for (const auto& name : entries(folder))
            if (name.ends_with(kSeparator + std::string("c001-r0-t0.dat")))
                return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

// Writes into `path` until the filesystem has no byte left (a tmpfs has no blocks kept for root).
void fillUp(const std::string& path)
{
    std::ofstream out(path, std::ios::binary);
    const std::string block(4096, 'x');
    while (out.write(block.data(), static_cast<std::streamsize>(block.size())) && out.flush()) {
    }
}

const std::vector<std::string> kSlowRun = {"run",     "--target", "{T}",    "--strategy", "write",
                                           "--chunk", "512",      "--sync", "O_DSYNC",    "--size",
                                           "1G",      "--reps",   "1",      "--warmups",  "0"};

ProcessResult interruptMidRun(Scene& s, const std::vector<std::string>& args, int signal)
{
    Process p(IOLAB_CLI_PATH, args, s.environment());
    if (!waitForRunFile(s.target.path())) {
        p.signal(SIGKILL);
        const ProcessResult said = p.wait();
        return {-1, "", "the run never created its file; it said:\n" + said.out + said.err};
    }
    p.signal(signal);
    auto r = p.wait();
    if (signal == SIGKILL) {
        // A killed run cannot clean up: `clean` removes what it left, and says so.
        auto clean = runProcess(IOLAB_CLI_PATH, {"clean", s.target.path()}, s.environment());
        clean.err = r.err + clean.err;
        if (clean.out.find("kept ") != std::string::npos) // "kept ...: could not be removed" is no removal
            clean.exitCode = -1;
        return clean;
    }
    return r;
}

class CliRefusal : public ::testing::TestWithParam<Row>
{};

TEST_P(CliRefusal, ExitCodeMessageAndNothingLeftOnDisk)
{
    checkRow(GetParam(), IOLAB_CLI_PATH, {}, [](const ProcessResult& r) {
        if (r.exitCode == 2) { // a refusal up front is headed with the program's name
            EXPECT_THAT(r.err, ::testing::StartsWith("iolab-cli: ")) << r.err;
        }
    });
}

Row sizeRow(const char* name, const char* size, int exitCode, std::vector<std::string> keywords)
{
    return {name,
            {"run", "--target", "{T}", "--strategy", "write", "--chunk", "4K", std::string("--size=") + size},
            exitCode,
            std::move(keywords)};
}

Row linuxOnly(Row row)
{
    row.needs = Needs::Linux;
    return row;
}

Row windowsOnly(Row row)
{
    row.needs = Needs::Windows;
    return row;
}

// `iolab-cli record` of a program it cannot record: refused before anything starts, no trace written.
Row recordRow(const char* name, std::string program, std::vector<std::string> keywords,
              std::function<void(Scene&)> setup = {})
{
    return {name,
            {"record", "--output", "{O}/t.iolab-trace", "--", std::move(program)},
            2,
            std::move(keywords),
            std::move(setup)};
}

// The first bytes of a 32-bit Windows program: all the recorder reads of it before it refuses.
std::string image32()
{
    std::string image(512, '\0');
    image[0] = 'M';
    image[1] = 'Z';
    image[0x3c] = static_cast<char>(0x80);
    image.replace(0x80, 6, std::string("PE\0\0\x4c\x01", 6));
    return image;
}

Row writeRow(const char* name, std::vector<std::string> extra, int exitCode,
             std::vector<std::string> keywords)
{
    std::vector<std::string> args = {"run",     "--target", "{T}",    "--strategy", "write",
                                     "--chunk", "4K",       "--size", "1M",         "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    return {name, args, exitCode, std::move(keywords)};
}

// `iolab-cli import` of a capture another tool made (strace's log, Process Monitor's CSV) that it cannot
// read.
Row importRow(const char* name, std::string content, std::vector<std::string> keywords)
{
    return {name,
            {"import", "{O}/capture.csv"},
            2,
            std::move(keywords),
            [content = std::move(content)](Scene& s) {
                write(s.out / "capture.csv", content);
            }};
}

// A small real trace: a file created, written, synced and closed.
std::string goodTrace()
{
    SyntheticTrace t;
    t.open(10, 10, "/data/out", trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate, 3);
    t.transfer(10, 10, trace::Call::Write, 3, 4096, -1, 4);
    t.call(10, 10, trace::Call::Fsync, 3);
    t.call(10, 10, trace::Call::Close, 3);
    return t.bytes();
}

std::string truncatedTrace()
{
    const std::string bytes = goodTrace();
    return bytes.substr(0, bytes.size() - 40);
}

std::string corruptTrace()
{
    std::string bytes = goodTrace();
    // The first chunk's header, just after the part's 72-byte header: its magic spoilt.
    for (std::size_t i = 72; i < 76; ++i)
        bytes[i] = 'X';
    return bytes;
}

std::string futureTrace()
{
    std::string bytes = goodTrace();
    bytes[8] = 99; // the part header's version
    return bytes;
}

std::string noFileIoTrace()
{
    SyntheticTrace t;
    t.open(10, 10, "/dev/null", trace::OpenWrite, 3);
    t.transfer(10, 10, trace::Call::Write, 3, 64, -1, 10);
    return t.bytes();
}

// A program that wrote a byte 64 TiB into a file: more than any test machine's free space.
std::string hugeFileTrace()
{
    SyntheticTrace t;
    t.open(10, 10, "/data/sparse", trace::OpenWrite | trace::OpenCreate, 3);
    t.transfer(10, 10, trace::Call::PWrite, 3, 1, std::int64_t{64} << 40);
    return t.bytes();
}

Row replayRow(const char* name, std::string content, std::vector<std::string> keywords)
{
    return {name,
            {"run", "--target", "{T}", "--replay", "{O}/t.iolab-trace"},
            2,
            std::move(keywords),
            [content = std::move(content)](Scene& s) {
                write(s.out / "t.iolab-trace", content);
            }};
}

// `iolab-cli profile` of a trace that cannot be read.
Row profileRow(const char* name, std::string content, std::vector<std::string> keywords)
{
    return {name,
            {"profile", "{O}/t.iolab-trace"},
            2,
            std::move(keywords),
            [content = std::move(content)](Scene& s) {
                write(s.out / "t.iolab-trace", content);
            }};
}

// `iolab-cli advise` of a trace written by the row.
Row adviseRow(const char* name, std::string content, int exitCode, std::vector<std::string> keywords)
{
    return {name,
            {"advise", "{O}/t.iolab-trace", "--target", "{T}", "--reps", "1", "--warmups", "0", "--quiet"},
            exitCode,
            std::move(keywords),
            [content = std::move(content)](Scene& s) {
                write(s.out / "t.iolab-trace", content);
            }};
}

// A program that only read a file it found.
std::string readerTrace()
{
    SyntheticTrace t;
    t.open(10, 10, "/data/input", trace::OpenRead, 3);
    t.transfer(10, 10, trace::Call::Read, 3, 4096, -1, 4);
    t.call(10, 10, trace::Call::Close, 3);
    return t.bytes();
}

// A program that wrote a file and synced it, and also wrote to a descriptor the recorder never saw opened
// (one it was handed, or opened before the recorder started).
std::string partlySeenTrace()
{
    SyntheticTrace t;
    t.open(10, 10, "/data/out", trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate, 3);
    t.transfer(10, 10, trace::Call::Write, 3, 4096, -1, 4);
    t.call(10, 10, trace::Call::Fsync, 3);
    t.transfer(10, 10, trace::Call::Write, 7, 512, -1, 3);
    t.call(10, 10, trace::Call::Close, 3);
    return t.bytes();
}

#ifndef _WIN32
// Three small files, each written, fsynced, closed and renamed into place: syncfs-batch applies.
std::string smallFilesTrace()
{
    SyntheticTrace t;
    for (int i = 0; i < 3; ++i) {
        const std::string name = "/data/file" + std::to_string(i);
        t.open(10, 10, name + ".tmp", trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate, 3);
        t.transfer(10, 10, trace::Call::Write, 3, 2048);
        t.call(10, 10, trace::Call::Fsync, 3);
        t.call(10, 10, trace::Call::Close, 3);
        auto& rename = t.call(10, 10, trace::Call::Rename);
        rename.path = name + ".tmp";
        rename.path2 = name;
    }
    return t.bytes();
}

// Runs iolab-cli with a library preloaded whose syncfs fails with EIO: a way that fails at run time.
ProcessResult withFailingSyncfs(Scene& s, const std::vector<std::string>& args)
{
    auto environment = s.environment();
    environment.push_back(std::string("LD_PRELOAD=") + IOLAB_FAILING_SYNCFS);
    return runProcess(IOLAB_CLI_PATH, args, environment);
}
#endif

Row matrixRow(const char* name, std::string content, std::vector<std::string> keywords)
{
    return {name,
            {"run", "--target", "{T}", "--matrix", "{O}/matrix.json"},
            2,
            std::move(keywords),
            [content = std::move(content)](Scene& s) {
                write(s.out / "matrix.json", content);
            }};
}

std::string deeplyNested(std::size_t depth)
{
    return "{\"strategies\": " + std::string(depth, '[') + std::string(depth, ']') + "}";
}

std::string tenMillionCases()
{
    // 100 chunks x 100 sizes x 1000 thread counts.
    std::string chunks;
    std::string threads;
    for (int i = 1; i <= 100; ++i)
        chunks += (i > 1 ? "," : "") + std::to_string(i * 512);
    for (int i = 1; i <= 1000; ++i)
        threads += (i > 1 ? "," : "") + std::to_string(i);
    return "{\"strategies\": [\"write\"], \"chunks\": [" + chunks + "], \"sizes\": [" + chunks +
           "], \"threads\": [" + threads + "]}";
}

const std::string kOutput = "--json";

// clang-format off
const Row kCliRows[] = {
    // Sizes, chunks, threads and repetitions
    sizeRow("SizeZero", "0", 2, {"0 bytes"}),
    sizeRow("SizeNegative", "-1", 2, {"negative"}),
    sizeRow("SizeExponent", "1e99", 2, {"--size", "1e99"}),
    sizeRow("SizeZettabytes", "10ZB", 2, {"--size", "10ZB"}),
    sizeRow("SizeWords", "abc", 2, {"--size", "not a size"}),
    sizeRow("SizeOverTheLimit", "100T", 2, {"limit"}),
    {"ChunkZero", {"run", "--target", "{T}", "--strategy", "write", "--chunk", "0", "--size", "1M"}, 2, {"chunk of 0"}},
    {"ChunkLargerThanSize", {"run", "--target", "{T}", "--strategy", "write", "--chunk", "8M", "--size", "1M"}, 2, {"larger than", "every case was refused"}},
    writeRow("ThreadsZero", {"--threads", "0"}, 2, {"--threads", "1 to 1024"}),
    writeRow("ThreadsHundredThousand", {"--threads", "100000"}, 2, {"--threads", "1 to 1024"}),
    writeRow("ThreadsWords", {"--threads", "2,abc"}, 2, {"--threads", "'abc' is not a whole number"}),
    writeRow("RepsZero", {"--reps", "0"}, 2, {"--reps", "1 to 1000"}),
    // Every numeric flag says its range in one kind of sentence, whatever the text (issue 34: "Could not
    // convert" was CLI11's own word for "1e6" and "-1").
    writeRow("RepsMillionExponent", {"--reps", "1e6"}, 2, {"--reps: give 1 to 1000 measured repetitions", "'1e6' is not a whole number"}),
    writeRow("CrashProbeNegative", {"--crash-probe", "-1"}, 2, {"--crash-probe: give 0 to 100 kills per write case", "'-1' is not a whole number"}),
    writeRow("CrashProbeTooMany", {"--crash-probe", "101"}, 2, {"--crash-probe: give 0 to 100", "101 is out of range"}),
    writeRow("WarmupsWords", {"--warmups", "two"}, 2, {"--warmups: give 0 to 100 warm-up repetitions", "'two'"}),
    writeRow("CrashProbeSeedNegative", {"--crash-probe-seed", "-5"}, 2, {"--crash-probe-seed", "'-5' is not a whole number"}),
    {"ExportJobCaseWords", {"export-job", "{O}/result.json", "--case", "first"}, 2, {"--case", "'first' is not a whole number"}},
    writeRow("RepsMillion", {"--reps", "1000000"}, 2, {"--reps", "1 to 1000"}),
    // Captures to import
    importRow("ImportProcmonMissingColumn", "\"Time of Day\",\"Process Name\",\"PID\",\"Operation\",\"Path\",\"Result\"\r\n",
              {"capture.csv", "lacks the column Detail", "Options > Select Columns"}),
    importRow("ImportProcmonOtherLanguage", "\"Uhrzeit\",\"Prozessname\",\"PID\",\"Vorgang\",\"Pfad\",\"Ergebnis\",\"Detail\"\r\n",
              {"lacks the columns Time of Day, Process Name, Operation, Path, Result", "English names"}),
    importRow("ImportProcmonSemicolons", "Time of Day;Process Name;PID;Operation;Path;Result;Detail\r\n", {"separated by semicolons"}),
    importRow("ImportNeitherStraceNorProcmon", "shopping list\n", {"is not strace's output", "strace -f -tt -T -y"}),
    importRow("ImportEmpty", "", {"capture.csv is empty", "strace -f -tt -T -y", "Process Monitor"}),
    // Programs to record
    recordRow("RecordNoSuchProgram", "no-such-program-iolab", {"no-such-program-iolab: no such program on PATH"}),
    recordRow("RecordNoSuchFile", "{O}/nothing", {"nothing: no such file"}),
    recordRow("RecordAFolder", "{O}/folder.exe", {"is a folder, not a program"},
              [](Scene& s) { fs::create_directories(s.out / "folder.exe"); }),
    linuxOnly(recordRow("RecordNotExecutable", "{O}/notes.exe", {"notes.exe is not executable"},
                        [](Scene& s) { write(s.out / "notes.exe", "not a program\n"); })),
    windowsOnly(recordRow("RecordNotAWindowsProgram", "{O}/notes.exe", {"is not a Windows program"},
                          [](Scene& s) { write(s.out / "notes.exe", "not a program\n"); })),
#ifndef _WIN32
    recordRow("RecordStaticProgram", IOLAB_STATIC_PROGRAM, {"is statically linked", "strace -f -tt -T -y"}),
#endif
    windowsOnly(recordRow("Record32BitProgram", "{O}/old32.exe", {"is a 32-bit program", "Process Monitor"},
                          [](Scene& s) { write(s.out / "old32.exe", image32()); })),
    {"RecordOverAnExistingTrace", {"record", "--output", "{O}/t.iolab-trace", "--", IOLAB_CLI_PATH, "--version"}, 2, {"t.iolab-trace already exists"},
     [](Scene& s) { write(s.out / "t.iolab-trace", goodTrace()); }},
    // Traces to profile
    {"ProfileMissing", {"profile", "{O}/none.iolab-trace"}, 2, {"none.iolab-trace", "cannot open"}},
    profileRow("ProfileNotATrace", "shopping list\n", {"is not an IOLab trace"}),
    profileRow("ProfileEmptyTrace", "", {"t.iolab-trace is empty"}),
    profileRow("ProfileTruncatedTrace", truncatedTrace(), {"is truncated"}),
    profileRow("ProfileCorruptTrace", corruptTrace(), {"is corrupt at byte"}),
    profileRow("ProfileFutureTrace", futureTrace(), {"written by a newer IOLab", "update IOLab"}),
    // Traces to replay (each a trace written call by call, then spoiled as the row says)
    {"ReplayMissing", {"run", "--target", "{T}", "--replay", "{O}/none.iolab-trace"}, 2, {"--replay", "none.iolab-trace", "no such file", "iolab-cli record"}},
    {"ReplayFolder", {"run", "--target", "{T}", "--replay", "{O}"}, 2, {"--replay", "is not a file"}},
    replayRow("ReplayNotATrace", "shopping list\n", {"every case was refused", "is not an IOLab trace"}),
    replayRow("ReplayEmptyTrace", "", {"every case was refused", "is empty"}),
    replayRow("ReplayTruncatedTrace", truncatedTrace(), {"every case was refused", "is truncated"}),
    replayRow("ReplayCorruptTrace", corruptTrace(), {"every case was refused", "is corrupt at byte"}),
    replayRow("ReplayFutureTrace", futureTrace(), {"every case was refused", "written by a newer IOLab", "update IOLab"}),
    replayRow("ReplayNoFileIo", noFileIoTrace(), {"every case was refused", "holds no call on a file", "iolab-cli profile"}),
    {"ReplayWithChunk", {"run", "--target", "{T}", "--replay", "{O}/t.iolab-trace", "--chunk", "4K"}, 2, {"--replay", "the --chunk flag does not apply"},
     [](Scene& s) { write(s.out / "t.iolab-trace", goodTrace()); }},
    {"ReplayTimingWords", {"run", "--target", "{T}", "--replay", "{O}/t.iolab-trace", "--replay-timing", "sometimes"}, 2, {"replay timing 'sometimes'", "as-recorded"},
     [](Scene& s) { write(s.out / "t.iolab-trace", goodTrace()); }},
    {"ReplayWithStrategy", {"run", "--target", "{T}", "--replay", "{O}/t.iolab-trace", "--strategy", "write"}, 2, {"alternatives"},
     [](Scene& s) { write(s.out / "t.iolab-trace", goodTrace()); }},
    linuxOnly({"ReplayLargerThanTheFreeSpace", {"run", "--target", "{T}", "--replay", "{O}/t.iolab-trace", "--reps", "1", "--quiet"}, 1, {"the replay's files need", "free space", "1 refused"},
     [](Scene& s) { write(s.out / "t.iolab-trace", hugeFileTrace()); }}),
    // Traces to advise on
    {"AdviseMissing", {"advise", "{O}/none.iolab-trace", "--target", "{T}"}, 2, {"the trace", "none.iolab-trace", "no such file", "iolab-cli record"}},
    {"AdviseWithoutTarget", {"advise", "{O}/t.iolab-trace"}, 2, {"--target is required"},
     [](Scene& s) { write(s.out / "t.iolab-trace", goodTrace()); }},
    adviseRow("AdviseNotATrace", "shopping list\n", 2, {"is not an IOLab trace"}),
    adviseRow("AdviseTruncatedTrace", truncatedTrace(), 2, {"is truncated"}),
    adviseRow("AdviseNoFileIo", noFileIoTrace(), 2, {"holds no call on a file", "iolab-cli profile"}),
    // The traces written call by call are Linux recordings: Windows replays only its own.
    linuxOnly(adviseRow("AdviseNoWrites", readerTrace(), 0, {"wrote nothing to a file the recorder saw: there is nothing to advise on"})),
    linuxOnly(adviseRow("AdvisePartlySeen", partlySeenTrace(), 0, {"The advice covers only what the replay makes: it leaves out", "3 writes to descriptors it never saw opened"})),
    linuxOnly({"AdviseLargerThanTheFreeSpace", {"advise", "{O}/t.iolab-trace", "--target", "{T}", "--reps", "1", "--quiet"}, 1, {"the replay's files need", "free space", "Its own calls could not be replayed here"},
     [](Scene& s) { write(s.out / "t.iolab-trace", hugeFileTrace()); }}),
#ifndef _WIN32
    {"AdviseAWayFailsAtRunTime", {"advise", "{O}/t.iolab-trace", "--target", "{T}", "--reps", "1", "--warmups", "0", "--quiet"}, 1, {"syncfs-batch: failed (syncfs", "Input/output error", "1 failed", "- direct-batch: "},
     [](Scene& s) { write(s.out / "t.iolab-trace", smallFilesTrace()); }, Needs::Linux, withFailingSyncfs},
#endif
    // Matrix files
    matrixRow("MatrixTruncated", "{\"strategies\": [\"write\"], \"chunks\": [4096", {"matrix.json", "line 1, column 42", "cut short"}),
    matrixRow("MatrixEmpty", "", {"matrix.json", "the file is empty"}),
    matrixRow("MatrixBinary", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), {"matrix.json", "line 1, column 1", "0x89"}),
    matrixRow("MatrixNested100000Deep", deeplyNested(100000), {"matrix.json", "nested deeper than 64 levels"}),
    matrixRow("MatrixTenMillionCases", tenMillionCases(), {"10,000,000 cases", "limit of 100,000"}),
    matrixRow("MatrixNotAnObject", "[1, 2, 3]", {"must be a JSON object"}),
    matrixRow("MatrixAlternateWords", R"({"alternate": "yes", "strategies": ["write"], "chunks": ["4K"], "sizes": ["1M"]})", {"\"alternate\" must be true (the cases take turns", "found \"yes\""}),
    {"MatrixIsAFolder", {"run", "--target", "{T}", "--matrix", "{O}"}, 2, {"is a folder"}},
    {"MatrixMissing", {"run", "--target", "{T}", "--matrix", "{O}/none.json"}, 2, {"none.json", "cannot be opened"}},
    // Flags over a preset or a matrix file: --size, --duration and --reps set how much and how long every case
    // runs; a flag that would change what the cases do is refused with why and what to do instead.
    {"PresetWithSync", {"run", "--target", "{T}", "--preset", "sync-lab", "--sync", "fsync-every:1"}, 2, {"--sync fsync-every:1", "would change the sync policy", "preset 'sync-lab'", "only --size, --duration and --reps apply"}},
    {"PresetWithChunks", {"run", "--target", "{T}", "--preset", "quick", "--chunk", "4K", "--chunk", "1M"}, 2, {"--chunk 4K,1M", "chunk size", "preset 'quick'", "--strategy"}},
    {"PresetWithPreallocate", {"run", "--target", "{T}", "--preset", "sync-lab", "--preallocate", "none"}, 2, {"--preallocate none", "preallocation"}},
    {"PresetWithLatency", {"run", "--target", "{T}", "--preset", "sync-lab", "--latency", "off"}, 2, {"--latency off", "latency recording"}},
    {"MatrixWithThreads", {"run", "--target", "{T}", "--matrix", "{O}/matrix.json", "--threads", "4"}, 2, {"--threads 4", "thread count", "matrix file '", "matrix.json'"},
     [](Scene& s) { write(s.out / "matrix.json", R"({"strategies": ["write"], "chunks": ["4K"], "sizes": ["1M"]})"); }},
    {"PresetDurationWords", {"run", "--target", "{T}", "--preset", "sync-lab", "--duration", "soon"}, 2, {"--duration", "'soon' is not a time limit"}},
    {"PresetDurationZero", {"run", "--target", "{T}", "--preset", "sync-lab", "--duration", "0s"}, 2, {"--duration", "'0s'", "1ms to 24h"}},
    {"PresetRepsZero", {"run", "--target", "{T}", "--preset", "sync-lab", "--reps", "0"}, 2, {"--reps", "1 to 1000"}},
    {"PresetSizeWords", {"run", "--target", "{T}", "--preset", "sync-lab", "--size", "big"}, 2, {"--size", "big"}},
    // Targets
    {"TargetMissing", {"run", "--target", "{T}/nope", "--preset", "quick"}, 2, {"nope", "does not exist"}},
    {"TargetIsAFile", {"run", "--target", "{O}/file", "--preset", "quick"}, 2, {"is not a folder"},
     [](Scene& s) { write(s.out / "file", "x"); }},
    {"TargetProc", {"run", "--target", "/proc", "--strategy", "write", "--chunk", "4K", "--size", "1M"}, 2, {"/proc", "proc", "pseudo"}, {}, Needs::Linux},
    {"TargetSys", {"run", "--target", "/sys", "--strategy", "write", "--chunk", "4K", "--size", "1M"}, 2, {"/sys", "sysfs"}, {}, Needs::Linux},
    {"TargetPath4060Characters", {"run", "--target", "{P}", "--strategy", "write", "--chunk", "4K", "--size", "1M"}, 2, {"too long", "4060 characters", "under 3968"},
     [](Scene& s) { s.special = nestedPath(s.target.path(), 4060); makeFolders(s.special); }, Needs::Linux},
    {"TargetPath4300Characters", {"run", "--target", "{P}", "--strategy", "write", "--chunk", "4K", "--size", "1M"}, 2, {"too long", "4300 characters"},
     [](Scene& s) { s.special = nestedPath(s.target.path(), 4300); }, Needs::Linux},
    {"TargetReadOnlyMount", {"run", "--target", "{P}", "--strategy", "write", "--chunk", "4K", "--size", "1M"}, 2, {"read-only"},
     [](Scene& s) { s.mount.emplace("size=8m", kMountReadOnly); s.special = s.mount->path(); }, Needs::Root},
    {"TargetNotWritable", {"run", "--target", "{P}", "--strategy", "write", "--chunk", "4K", "--size", "1M"}, 2, {"not writable"},
     [](Scene& s) { s.special = s.target / "locked"; makeFolderWithMode(s.special, 0555); }, Needs::NotRoot},
    {"TargetSymlinked", {"run", "--target", "{P}", "--strategy", "write", "--chunk", "64K", "--size", "1M", "--reps", "1", "--warmups", "0", "--quiet"}, 0, {"MB/s"},
     [](Scene& s) { fs::create_directory(s.target / "real"); fs::create_directory_symlink(s.target / "real", s.out / "link"); s.special = s.out / "link"; }, Needs::Symlink},
    {"TargetNonAscii", {"run", "--target", "{P}", "--strategy", "write", "--chunk", "64K", "--size", "1M", "--reps", "1", "--warmups", "0"}, 0, {"données-データ"},
     [](Scene& s) { s.special = s.target / "données-データ"; fs::create_directory(fsPath(s.special)); }},
    // Mid-run failures and interruptions
    {"DiskFullMidRun", {"run", "--target", "{P}", "--strategy", "write", "--chunk", "64K", "--size", "64M", "--reps", "1", "--warmups", "0", "--no-space-check", "--quiet"}, 1, {"No space left on device"},
     [](Scene& s) { s.mount.emplace("size=16m"); s.special = s.mount->path(); }, Needs::Root},
    {"NotEnoughFreeSpace", {"run", "--target", "{P}", "--strategy", "write", "--chunk", "64K", "--size", "64M", "--reps", "1", "--quiet"}, 1, {"free space", "1 refused"},
     [](Scene& s) { s.mount.emplace("size=16m"); s.special = s.mount->path(); }, Needs::Root},
    // A target with no free space at all: refused before anything is written, not run into one refusal per
    // case at run time and an empty Summary.
    {"TargetWithNoFreeSpace", {"run", "--target", "{P}", "--preset", "quick"}, 2, {"has no free space", "--no-space-check"},
     [](Scene& s) {
         s.mount.emplace("size=1m");
         s.special = s.mount->path() + "/target";
         fs::create_directory(s.special);
         fillUp(s.mount->path() + "/filler");
     }, Needs::Root,
     [](Scene& s, const std::vector<std::string>& a) {
         auto r = runProcess(IOLAB_CLI_PATH, a, s.environment());
         // The test's own filler and folder go; anything else on the mount is IOLab's, and the table's check
         // of the mount then finds it.
         if (!fs::is_empty(s.special))
             r.err += "\nfiles were left in the full target";
         std::error_code ec;
         fs::remove(s.mount->path() + "/filler", ec);
         fs::remove(s.special, ec); // kept, and so found, when not empty
         return r;
     }},
    // --plan: what Run would do, and nothing run.
    {"PlanPrintsThePlanAndRunsNothing", {"run", "--target", "{T}", "--strategy", "write,direct", "--chunk", "64K", "--size", "8M", "--plan"}, 0, {"Plan:", "2 cases to run", "Estimate: about"}},
    {"RedactWithoutFiles", {"run", "--target", "{T}", "--strategy", "write", "--chunk", "64K", "--size", "1M", "--redact"}, 2, {"--redact makes the files written fit to share", "add --json FILE", "iolab report RESULT.json --redact"}},
    {"PlanSaysTheCasesTakeTurns", {"run", "--target", "{T}", "--strategy", "write,direct", "--chunk", "64K", "--size", "8M", "--alternate", "--plan"}, 0, {"2 cases to run", "taking turns (a round of one repetition of each case"}},
    {"SmallFilesystemSmallCase", {"run", "--target", "{P}", "--strategy", "write", "--chunk", "64K", "--size", "1M", "--reps", "1", "--warmups", "0", "--quiet"}, 0, {"MB/s"},
     [](Scene& s) { s.mount.emplace("size=8m"); s.special = s.mount->path(); }, Needs::Root},
    {"SigintMidRun", kSlowRun, 1, {"cancelled"}, {}, Needs::Nothing,
     [](Scene& s, const std::vector<std::string>& a) { return interruptMidRun(s, a, SIGINT); }},
    {"SigkillMidRunThenClean", kSlowRun, 0, {"removed", "iolab-run-"}, {}, Needs::Nothing,
     [](Scene& s, const std::vector<std::string>& a) { return interruptMidRun(s, a, SIGKILL); }},
    {"KilledRunLeftoversAreMentioned", {"run", "--target", "{T}", "--strategy", "write", "--chunk", "64K", "--size", "1M", "--reps", "1", "--warmups", "0", "--quiet"}, 0, {"killed run", "iolab-cli clean"},
     [](Scene& s) {
         const auto folder = s.out / "iolab-run-20260101-000000-1";
         fs::create_directory(folder);
         write(folder + "/.iolab-run", "pid=999999999\n");
         write(folder + "/c001-r0-t0.dat", "x");
         // The stale folder sits in the output folder, which stands in for the target: run there.
     }, Needs::Nothing,
     [](Scene& s, const std::vector<std::string>& a) {
         auto args = a;
         args[2] = s.out.path();
         return runProcess(IOLAB_CLI_PATH, args, s.environment());
     }},
    {"ForeignFileInARunFolder", {"clean", "{O}"}, 0, {"did not write", "left alone"},
     [](Scene& s) {
         const auto folder = s.out / "iolab-run-20260101-000000-1";
         fs::create_directory(folder);
         write(folder + "/.iolab-run", "pid=999999999\n");
         write(folder + "/notes.txt", "the user's own file");
     }},
    {"TwoConcurrentRuns", kSlowRun, 2, {"another IOLab run", "--allow-concurrent"}, {}, Needs::Nothing,
     [](Scene& s, const std::vector<std::string>& a) {
         Process first(IOLAB_CLI_PATH, a, s.environment());
         if (!waitForRunFile(s.target.path())) {
             first.signal(SIGKILL);
             const ProcessResult said = first.wait();
             return ProcessResult{-1, "", "the first run never created its file; it said:\n" + said.out + said.err};
         }
         auto second = runProcess(IOLAB_CLI_PATH, {"run", "--target", s.target.path(), "--strategy", "write",
                                                   "--chunk", "64K", "--size", "1M", "--reps", "1", "--quiet"},
                                  s.environment());
         first.signal(SIGINT);
         first.wait();
         return second;
     }},
    // Output files, checked before the run
    linuxOnly(writeRow("JsonInProc", {kOutput, "/proc/out.json"}, 2, {"/proc/out.json"})),
    writeRow("JsonIsAFolder", {kOutput, "{O}"}, 2, {"is a folder"}),
    writeRow("JsonFolderMissing", {kOutput, "{O}/no/such/r.json"}, 2, {"r.json", "does not exist"}),
    {"JsonUnderAFile", {"run", "--target", "{T}", "--strategy", "write", "--chunk", "4K", "--size", "1M", "--json", "{O}/file/r.json"}, 2, {"is not a folder"},
     [](Scene& s) { write(s.out / "file", "x"); }},
    linuxOnly(writeRow("CsvInProc", {"--csv", "/proc/out.csv"}, 2, {"/proc/out.csv"})),
    writeRow("CsvFolderMissing", {"--csv", "{O}/no/such/r.csv"}, 2, {"r.csv", "does not exist"}),
    {"JsonOnReadOnlyMount", {"run", "--target", "{T}", "--strategy", "write", "--chunk", "4K", "--size", "1M", "--json", "{P}/r.json"}, 2, {"r.json", "Read-only file system"},
     [](Scene& s) { s.mount.emplace("size=8m", kMountReadOnly); s.special = s.mount->path(); }, Needs::Root},
    {"CsvInUnwritableFolder", {"run", "--target", "{T}", "--strategy", "write", "--chunk", "4K", "--size", "1M", "--csv", "{P}/r.csv"}, 2, {"r.csv", "not writable"},
     [](Scene& s) { s.special = s.out / "locked"; makeFolderWithMode(s.special, 0555); }, Needs::NotRoot},
    // The command line itself
    {"UnknownStrategy", {"run", "--target", "{T}", "--strategy", "warp", "--chunk", "4K", "--size", "1M"}, 2, {"unknown strategy 'warp'"}},
    {"UnknownPreset", {"run", "--target", "{T}", "--preset", "fastest"}, 2, {"unknown preset"}},
    {"TwoSources", {"run", "--target", "{T}", "--preset", "quick", "--strategy", "write"}, 2, {"alternatives"}},
    {"NoSource", {"run", "--target", "{T}"}, 2, {"say what to run"}},
    {"EverythingRefused", {"run", "--target", "{T}", "--strategy", "direct", "--chunk", "1000", "--size", "1M"}, 2, {"every case was refused"}},
    {"UnknownFlag", {"run", "--target", "{T}", "--turbo"}, 2, {"turbo"}},
    {"UnknownSubcommand", {"bogus"}, 2, {"bogus", "run"}},
    {"NoSubcommand", {}, 2, {"run"}},
    {"GarbageFileSet", {"run", "--target", "{T}", "--strategy", "files-pool", "--chunk", "4K", "--files", "lots"}, 2, {"COUNTxSIZE"}},
    {"UnknownFileMix", {"run", "--target", "{T}", "--strategy", "files-pool", "--chunk", "4K", "--files", "10xarticle-9"}, 2, {"article-2b"}},
    {"FileSetWithoutFiles", {"run", "--target", "{T}", "--strategy", "files-pool", "--chunk", "4K", "--size", "1M"}, 2, {"no file set given"}},
    {"UnknownReadHint", {"run", "--target", "{T}", "--strategy", "read", "--chunk", "4K", "--size", "1M", "--hint", "fast"}, 2, {"unknown read hint"}},
    {"UnknownCache", {"run", "--target", "{T}", "--strategy", "read", "--chunk", "4K", "--size", "1M", "--cache", "hot"}, 2, {"cold or warm"}},
    {"UnknownSync", {"run", "--target", "{T}", "--strategy", "write", "--chunk", "4K", "--size", "1M", "--sync", "sometimes"}, 2, {"sometimes"}},
    {"UnknownLogLevel", {"--log-level", "loud", "presets"}, 2, {"loud"}},
    {"CleanMissingFolder", {"clean", "{T}/missing"}, 2, {"missing"}},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Catalogue, CliRefusal, ::testing::ValuesIn(kCliRows),
                         [](const auto& row) { return std::string(row.param.name); });

} // namespace
