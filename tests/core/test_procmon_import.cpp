// SPDX-License-Identifier: MIT
// Process Monitor's CSV read as a trace. No Process Monitor runs here (it is a Windows kernel driver), so the
// files are written by hand after the layout Process Monitor documents and exports: its default columns
// ("Time of Day","Process Name","PID","Operation","Path","Result","Detail") with TID and Duration added,
// every field quoted, Detail's "Key: value, Key: value" with numbers in the machine's language ("4,096"), the
// time of day with 100 ns digits. tests/data/procmon/writer.csv is a whole capture of that layout;
// tests/cli/test_procmon_cli.cpp imports it with iolab-cli.
#include "core/analysis/program_profile.h"
#include "core/base/error.h"
#include "core/formats/procmon_import.h"
#include "core/model/trace_reader.h"
#include "tests/support/imported_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <sstream>

using namespace iolab;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

using PmImported = test::ImportedTrace<ProcmonImport>;

PmImported importCsv(const std::string& csv)
{
    return test::importAndRead(
        csv, [](std::istream& in, const std::function<std::ostream&(std::size_t)>& openPart) {
            return importProcmonCsv(in, "capture.csv", openPart);
        });
}

std::string fixture()
{
    std::ifstream in(std::string(IOLAB_SOURCE_DIR) + "/tests/data/procmon/writer.csv", std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const char* const kPmHeader =
    R"("Time of Day","Process Name","PID","Operation","Path","Result","Detail","TID","Duration")";

std::string pmThrowsWith(const std::string& csv)
{
    try {
        importCsv(csv);
    } catch (const InputError& error) {
        return error.what();
    }
    return "(no error)";
}

} // namespace

TEST(ProcmonImport, EveryFileRowBecomesACallWithItsSizeOffsetFlagsThreadTimeAndResult)
{
    const PmImported imported = importCsv(fixture());
    using trace::Call;
    std::vector<Call> calls;
    for (const TraceEvent& event : imported.events)
        calls.push_back(event.call);
    // 24 rows: the process's start and exit, a registry call, a query and the cache manager's write are not
    // the program's calls on files; the two reads of input.bin are two records (the second is short).
    // Two writes on one thread, each where the last ended, are one record of 2 as the recorders keep them.
    EXPECT_THAT(calls,
                ElementsAre(Call::Open, Call::PWrite, Call::PWrite, Call::Fsync, Call::Ftruncate, Call::Close,
                            Call::Open, Call::Fallocate, Call::PWrite, Call::Rename, Call::Fsync, Call::Close,
                            Call::Open, Call::PRead, Call::PRead, Call::Close, Call::Open, Call::Unlink));
    // 24 rows: the process's start and exit, a registry call, a query and the cache manager's write are not
    // the program's calls on files; the two reads of input.bin stay two records (the second is short).
    EXPECT_EQ(imported.summary.rows, 24u);
    EXPECT_EQ(imported.summary.calls, 19u);
    EXPECT_EQ(imported.summary.pagingWrites, 1u);
    EXPECT_TRUE(imported.summary.timed);
    EXPECT_TRUE(imported.summary.threaded);
    // its one warning is the paging write: every file it used it saw opened, none twice at once
    EXPECT_THAT(imported.summary.warnings, ElementsAre(HasSubstr("1 paging write was left out")));
    ASSERT_EQ(imported.processes.size(), 1u);
    const TraceProcess& process = imported.processes[0];
    EXPECT_EQ(process.pid, 4242u);
    EXPECT_EQ(process.system, trace::System::Windows);
    EXPECT_EQ(process.executable, "writer.exe");
    ASSERT_TRUE(process.exitStatus.has_value());
    EXPECT_EQ(*process.exitStatus, 0);

    const TraceEvent& open = imported.events[0];
    EXPECT_EQ(open.path, R"(C:\data\log.txt)");
    EXPECT_EQ(open.flags &
                  (trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate | trace::OpenWriteThrough),
              trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate | trace::OpenWriteThrough);
    EXPECT_EQ(open.flags & (trace::OpenDirect | trace::OpenOverlapped | trace::OpenExclusive), 0u);
    EXPECT_EQ(open.insideNs, 150'000u);
    // "Offset: 0, Length: 4,096" and "Offset: 4,096, Length: 4,096" on thread 4300, then one on thread 4301
    const TraceEvent& writes = imported.events[1];
    EXPECT_EQ(writes.count, 2u);
    EXPECT_EQ(writes.offset, 0);
    EXPECT_EQ(writes.bytes, 4096u);
    EXPECT_EQ(writes.result, 4096);
    EXPECT_EQ(writes.insideNs, 400'000u);
    EXPECT_EQ(writes.handle, open.handle);
    EXPECT_EQ(writes.startNs - open.startNs, 10'000'000u); // 9:15:02.1300000 AM, 10 ms after the open
    EXPECT_EQ(imported.events[2].tid, 4301u);
    EXPECT_EQ(imported.events[2].offset, 8192);
    EXPECT_EQ(imported.events[3].insideNs, 4'000'000u); // the flush: 0.0040000 s
    EXPECT_EQ(imported.events[4].bytes, 12288u);        // EndOfFile: 12,288
    // the atomic replace: a new file (Create: CREATE_NEW), unbuffered, renamed over settings.ini; the flush
    // after the rename reaches it through the same handle
    const TraceEvent& temporary = imported.events[6];
    EXPECT_EQ(temporary.flags & (trace::OpenExclusive | trace::OpenDirect | trace::OpenRead),
              trace::OpenExclusive | trace::OpenDirect | trace::OpenRead);
    EXPECT_EQ(imported.events[7].bytes, 1048576u);
    EXPECT_EQ(imported.events[9].path2, R"(C:\data\settings.ini)");
    EXPECT_EQ(imported.events[10].handle, temporary.handle);
    // a read at the end of the file returns 0 bytes and is no failure
    EXPECT_EQ(imported.events[13].result, 65536);
    EXPECT_EQ(imported.events[14].result, 0);
    EXPECT_EQ(imported.events[14].error, 0);
    // a failed open keeps Windows' error (ERROR_FILE_NOT_FOUND)
    EXPECT_EQ(imported.events[16].result, -1);
    EXPECT_EQ(imported.events[16].error, 2);
    EXPECT_EQ(imported.events[17].path, R"(C:\data\old.log)");
    ASSERT_FALSE(imported.notes.empty());
    EXPECT_EQ(imported.notes.back().kind, trace::NoteKind::Imported);
    EXPECT_EQ(imported.notes.back().text, "procmon");
}

TEST(ProcmonImport, TheProfileNamesWindowsCallsAndSaysWhatProcessMonitorCannotShow)
{
    const PmImported imported = importCsv(fixture());
    ProgramProfiler profiler;
    for (const TraceEvent& event : imported.events)
        profiler.add(event);
    const ProgramProfile profile = profiler.finish(imported.processes, imported.notes);
    EXPECT_EQ(profile.bytesWritten, 3u * 4096 + 512);
    EXPECT_EQ(profile.bytesRead, 65536u);
    EXPECT_EQ(profile.syncs, 2u);
    EXPECT_EQ(profile.durableWrites, 3u); // the write-through handle's
    const std::string words = fmt::format("{}", fmt::join(describeProgramProfile(profile), "\n"));
    EXPECT_THAT(words, HasSubstr("2 FlushFileBuffers"));
    EXPECT_THAT(words, HasSubstr("3 writes returned durable (a write-through handle)"));
    EXPECT_THAT(words, HasSubstr("opened NO_BUFFERING and CREATE_NEW"));
    EXPECT_THAT(words, HasSubstr("read from Process Monitor's CSV"));
    EXPECT_THAT(words, HasSubstr("paging I/O"));
    EXPECT_THAT(words, ::testing::Not(HasSubstr("fsync")));
    EXPECT_THAT(words, ::testing::Not(HasSubstr("strace")));
}

TEST(ProcmonImport, ColumnsAreFoundByNameInAnyOrderAndWhatIsAbsentIsSaid)
{
    // No TID, no Duration, the columns in another order, numbers with dots for thousands, a 24-hour clock
    // that passes midnight, no byte-order mark, CRLF line ends.
    const PmImported imported = importCsv(
        "\"Operation\",\"Path\",\"PID\",\"Process Name\",\"Time of Day\",\"Result\",\"Detail\"\r\n"
        "\"CreateFile\",\"D:\\x.bin\",\"7\",\"a.exe\",\"23:59:59.9990000\",\"SUCCESS\",\"Desired Access: "
        "Generic "
        "Write, Disposition: Create, Options: Non-Directory File, Attributes: N, ShareMode: None, "
        "AllocationSize: 0, OpenResult: Created\"\r\n"
        "\"WriteFile\",\"D:\\x.bin\",\"7\",\"a.exe\",\"0:00:00.0010000\",\"SUCCESS\",\"Offset: 1.048.576, "
        "Length: 65.536, Priority: Normal\"\r\n");
    ASSERT_EQ(imported.events.size(), 2u);
    EXPECT_EQ(imported.events[1].offset, 1048576);
    EXPECT_EQ(imported.events[1].bytes, 65536u);
    EXPECT_EQ(imported.events[1].startNs - imported.events[0].startNs, 2'000'000u); // across midnight
    EXPECT_EQ(imported.events[1].tid, 7u);                           // the process's one thread
    EXPECT_NE(imported.events[0].flags & trace::OpenOverlapped, 0u); // no "Synchronous IO": overlapped
    EXPECT_FALSE(imported.summary.timed);
    EXPECT_FALSE(imported.summary.threaded);
    const std::string warnings = fmt::format("{}", fmt::join(imported.summary.warnings, "\n"));
    EXPECT_THAT(warnings, HasSubstr("no Duration column"));
    EXPECT_THAT(warnings, HasSubstr("no TID column"));
    // and nothing it did not see: no paging write, no file used before its open, no file open twice
    EXPECT_THAT(warnings, ::testing::Not(HasSubstr("paging")));
    EXPECT_THAT(warnings, ::testing::Not(HasSubstr("before the capture")));
    EXPECT_THAT(warnings, ::testing::Not(HasSubstr("already had open")));
}

TEST(ProcmonImport, AFileOpenBeforeTheCaptureAndTwelveHourTimesAreRead)
{
    const PmImported imported =
        importCsv(std::string(kPmHeader) +
                  "\n\"12:00:00.5000000 "
                  "PM\",\"b.exe\",\"9\",\"WriteFile\",\"C:\\l.txt\",\"SUCCESS\",\"Offset: 0, Length: 10, "
                  "Priority: Normal\",\"11\",\"0,0000200\"\n"
                  "\"12:00:01.0000000 "
                  "PM\",\"b.exe\",\"9\",\"CloseFile\",\"C:\\l.txt\",\"SUCCESS\",\"\",\"11\",\"0.0000010\"\n");
    using trace::Call;
    ASSERT_EQ(imported.events.size(), 3u);
    EXPECT_EQ(imported.events[0].call, Call::Open);
    EXPECT_NE(imported.events[0].flags & trace::OpenInherited, 0u);
    EXPECT_EQ(imported.events[1].insideNs, 20'000u); // a decimal comma
    EXPECT_EQ(imported.events[2].startNs - imported.events[1].startNs, 500'000'000u);
    EXPECT_EQ(imported.events[2].handle, imported.events[1].handle);
    EXPECT_THAT(fmt::format("{}", fmt::join(imported.summary.warnings, "\n")),
                HasSubstr("1 file was used before the capture saw it opened"));
}

TEST(ProcmonImport, ABadFileIsRefusedWithWhatToDo)
{
    // a default column missing
    EXPECT_THAT(
        pmThrowsWith("\"Time of Day\",\"Process Name\",\"PID\",\"Operation\",\"Result\"\n"),
        ::testing::AllOf(HasSubstr("lacks the columns Path, Detail"), HasSubstr("Options > Select Columns")));
    // re-saved by a spreadsheet that separates with semicolons
    EXPECT_THAT(
        pmThrowsWith(
            "\"Time of Day\";\"Process Name\";\"PID\";\"Operation\";\"Path\";\"Result\";\"Detail\"\n"),
        HasSubstr("separated by semicolons"));
    EXPECT_THAT(pmThrowsWith("Time of Day;Process Name;PID;Operation;Path;Result;Detail\n"),
                HasSubstr("separated by semicolons"));
    // column names in another language
    EXPECT_THAT(
        pmThrowsWith("\"Uhrzeit\",\"Prozessname\",\"PID\",\"Vorgang\",\"Pfad\",\"Ergebnis\",\"Detail\"\n"),
        ::testing::AllOf(HasSubstr("lacks the columns Time of Day, Process Name, Operation, Path, Result"),
                         HasSubstr("Options > Select Columns")));
    EXPECT_THAT(pmThrowsWith("\"Zeit\",\"Vorgang\"\n"), HasSubstr("names none of Process Monitor's columns"));
    // nothing about files: a capture filtered on the registry
    EXPECT_THAT(pmThrowsWith(std::string(kPmHeader) +
                             "\n\"9:00:00.0000000\",\"c.exe\",\"3\",\"RegQueryValue\","
                             "\"HKCU\\x\",\"SUCCESS\",\"\",\"3\",\"0\"\n"),
                ::testing::AllOf(HasSubstr("none of the 1 rows"), HasSubstr("Filter > Process Name")));
    EXPECT_THAT(pmThrowsWith(""), HasSubstr("is empty"));
}

TEST(ProcmonImport, OnlyAProcessMonitorHeaderIsTakenForOne)
{
    EXPECT_TRUE(looksLikeProcmonCsv("\xEF\xBB\xBF\"Time of Day\",\"Process Name\",\"PID\",\"Operation\""));
    EXPECT_TRUE(looksLikeProcmonCsv("\"Time of Day\";\"Process Name\";\"PID\""));
    EXPECT_TRUE(looksLikeProcmonCsv("Time of Day;Process Name;PID;Operation"));
    EXPECT_TRUE(looksLikeProcmonCsv("Time of Day,Process Name,PID,Operation,Path,Result,Detail"));
    EXPECT_TRUE(looksLikeProcmonCsv("\"Uhrzeit\",\"Prozessname\",\"PID\",\"Vorgang\""));
    EXPECT_FALSE(looksLikeProcmonCsv("a,b,c"));
    EXPECT_FALSE(
        looksLikeProcmonCsv("4242  10:00:00.000000 execve(\"/usr/bin/prog\", [\"prog\"], 0x7ffd) = 0"));
    EXPECT_FALSE(looksLikeProcmonCsv("execve(\"/bin/true\", [\"true\"], 0x7ffd /* 3 vars */) = 0"));
    EXPECT_FALSE(looksLikeProcmonCsv(""));
}
