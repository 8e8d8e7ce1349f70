// SPDX-License-Identifier: MIT
// strace's log read as a trace: lines written after strace's documented output (-f, -tt/-ttt, -T, -y; calls
// cut by another thread's and resumed; -C's table at the end), by hand, each checked call by call as the
// trace reader gives them back. tests/cli/test_record.cpp imports real strace logs of real programs.
#include "core/base/error.h"
#include "core/formats/strace_import.h"
#include "core/model/trace_reader.h"
#include "tests/support/imported_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <sstream>

using namespace iolab;
using ::testing::HasSubstr;

namespace {

using Imported = test::ImportedTrace<StraceImport>;

Imported import(const std::string& log)
{
    return test::importAndRead(
        log, [](std::istream& in, const std::function<std::ostream&(std::size_t)>& openPart) {
            return importStrace(in, "test.strace", openPart);
        });
}

std::vector<trace::Call> callsOf(const Imported& imported)
{
    std::vector<trace::Call> calls;
    for (const TraceEvent& event : imported.events)
        calls.push_back(event.call);
    return calls;
}

} // namespace

TEST(StraceImport, EachFileCallBecomesTheTracesCallWithItsSizeOffsetFlagsTimeAndResult)
{
    const Imported imported = import(
        R"(4242  10:00:00.000000 execve("/usr/bin/prog", ["prog", "a b"], 0x7ffd /* 3 vars */) = 0 <0.000500>
4242  10:00:00.001000 openat(AT_FDCWD, "data/out.bin", O_WRONLY|O_CREAT|O_TRUNC|O_DSYNC, 0644) = 3</home/u/data/out.bin> <0.000020>
4242  10:00:00.002000 write(3</home/u/data/out.bin>, "\0\0\0\0"..., 4096) = 4096 <0.000100>
4242  10:00:00.003000 write(3</home/u/data/out.bin>, "\0\0\0\0"..., 4096) = 4096 <0.000100>
4242  10:00:00.004000 pwrite64(3</home/u/data/out.bin>, "ab", 2, 8192) = 2 <0.000010>
4242  10:00:00.005000 pwritev2(3</home/u/data/out.bin>, [{iov_base="ab", iov_len=2}, {iov_base="cde", iov_len=3}], 2, 100, RWF_DSYNC) = 5 <0.000030>
4242  10:00:00.006000 fdatasync(3</home/u/data/out.bin>) = 0 <0.002000>
4242  10:00:00.007000 close(3</home/u/data/out.bin>) = 0 <0.000005>
4242  10:00:00.008000 rename("data/out.bin", "data/final.bin") = 0 <0.000040>
4242  10:00:00.009000 openat(AT_FDCWD, "missing", O_RDONLY) = -1 ENOENT (No such file or directory) <0.000008>
4242  10:00:00.010000 exit_group(0)     = ?
4242  10:00:00.010100 +++ exited with 0 +++
)");
    using trace::Call;
    EXPECT_THAT(callsOf(imported),
                ::testing::ElementsAre(Call::Exec, Call::Open, Call::Write, Call::PWrite, Call::PWriteV,
                                       Call::Fdatasync, Call::Close, Call::Rename, Call::Open));
    ASSERT_EQ(imported.processes.size(), 1u);
    EXPECT_EQ(imported.processes[0].pid, 4242u);
    EXPECT_EQ(imported.processes[0].executable, "/usr/bin/prog");
    EXPECT_THAT(imported.processes[0].arguments, ::testing::ElementsAre("prog", "a b"));
    EXPECT_EQ(imported.processes[0].exitStatus, 0);
    const TraceEvent& open = imported.events[1];
    EXPECT_EQ(open.path, "/home/u/data/out.bin");
    EXPECT_EQ(open.handle, 3u);
    EXPECT_EQ(open.flags, trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate | trace::OpenDSync);
    const TraceEvent& writes = imported.events[2];
    EXPECT_EQ(writes.count, 2u) << "two identical writes at the file's position are one run";
    EXPECT_EQ(writes.bytes, 4096u);
    EXPECT_EQ(writes.insideNs, 200'000u);
    EXPECT_EQ(writes.startNs, 2'000'000u);
    EXPECT_EQ(imported.events[3].offset, 8192);
    EXPECT_EQ(imported.events[4].bytes, 5u);
    EXPECT_EQ(imported.events[4].offset, 100);
    EXPECT_EQ(imported.events[4].flags, trace::WriteDSync);
    EXPECT_EQ(imported.events[5].insideNs, 2'000'000u);
    // The rename's relative names, made absolute from what the open showed of the working folder.
    EXPECT_EQ(imported.events[7].path, "/home/u/data/out.bin");
    EXPECT_EQ(imported.events[7].path2, "/home/u/data/final.bin");
    EXPECT_EQ(imported.events[8].error, 2) << "ENOENT, as Linux numbers it";
    EXPECT_EQ(imported.events[8].result, -1);
    EXPECT_EQ(imported.summary.calls, 10u);
    EXPECT_TRUE(imported.summary.warnings.empty());
    ASSERT_EQ(imported.notes.size(), 1u);
    EXPECT_EQ(imported.notes[0].kind, trace::NoteKind::Imported);
}

TEST(StraceImport, ThreadsForksAndCallsCutByAnotherThreadAreFollowed)
{
    const Imported imported = import(
        R"(100   23:59:59.990000 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, child_tid=0x7f, parent_tid=0x7f, exit_signal=0, stack=0x7f, stack_size=0x7ff, tls=0x7f} => {parent_tid=[101]}, 88) = 101 <0.000050>
101   23:59:59.995000 write(1</dev/pts/0>, "hello\n", 6 <unfinished ...>
100   23:59:59.996000 fsync(5</var/log/app.log>) = 0 <0.001000>
101   23:59:59.998000 <... write resumed>) = 6 <0.003000>
100   00:00:00.001000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 200 <0.000300>
200   00:00:00.002000 write(5</var/log/app.log>, "child", 5) = 5 <0.000010>
200   00:00:00.003000 +++ exited with 3 +++
100   00:00:00.004000 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=200, si_status=3} ---
100   00:00:00.005000 +++ killed by SIGKILL +++
)");
    ASSERT_EQ(imported.processes.size(), 2u);
    EXPECT_EQ(imported.processes[0].pid, 100u);
    EXPECT_EQ(imported.processes[1].pid, 200u);
    EXPECT_EQ(imported.processes[1].parentPid, 100u);
    EXPECT_EQ(imported.processes[1].exitStatus, 3);
    EXPECT_FALSE(imported.processes[0].ended) << "killed: no exit";
    std::vector<std::pair<trace::Call, std::uint32_t>> calls; // (call, tid), without the inherited opens
    for (const TraceEvent& event : imported.events) {
        if (!(event.call == trace::Call::Open && (event.flags & trace::OpenInherited)))
            calls.emplace_back(event.call, event.tid);
    }
    using trace::Call;
    EXPECT_THAT(calls, ::testing::ElementsAre(std::pair{Call::Write, 101u}, std::pair{Call::Fsync, 100u},
                                              std::pair{Call::Fork, 100u}, std::pair{Call::Write, 200u}));
    for (const TraceEvent& event : imported.events) {
        if (event.call == Call::Write && event.tid == 101) {
            EXPECT_EQ(event.process, 0u) << "a thread of the first process";
            EXPECT_EQ(event.insideNs, 3'000'000u);
            EXPECT_EQ(event.startNs, 5'000'000u) << "timed from where it started, before it was cut";
        }
        if (event.call == Call::Write && event.tid == 200) {
            EXPECT_EQ(event.startNs, 12'000'000u) << "past midnight: the next day";
            EXPECT_EQ(event.process, 1u);
        }
        if (event.call == Call::Open) {
            EXPECT_TRUE(event.path == "/dev/pts/0" || event.path == "/var/log/app.log") << event.path;
        }
    }
}

TEST(StraceImport, TheOtherLayoutsOfItsLinesAreRead)
{
    // strace without -o (its [pid N] prefix), -ttt, no -T, no -y, mmap/msync/munmap of a file, -C's table.
    const Imported imported = import(
        R"(1700000000.000000 openat(AT_FDCWD, "/tmp/m", O_RDWR|O_CREAT, 0600) = 3
1700000000.000100 ftruncate(3, 65536) = 0
1700000000.000200 mmap(NULL, 65536, PROT_READ|PROT_WRITE, MAP_SHARED, 3, 0) = 0x7f0000000000
1700000000.000300 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f1000000000
[pid  77] 1700000000.000400 msync(0x7f0000000000, 65536, MS_SYNC) = 0
[pid  77] 1700000000.000500 munmap(0x7f1000000000, 8192) = 0
[pid  77] 1700000000.000600 munmap(0x7f0000000000, 65536) = 0
% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 50.00    0.000010          10         1           msync
)");
    using trace::Call;
    EXPECT_THAT(callsOf(imported),
                ::testing::ElementsAre(Call::Open, Call::Ftruncate, Call::Mmap, Call::Msync, Call::Munmap));
    EXPECT_EQ(imported.events[2].flags, trace::MapShared | trace::MapWrite | trace::MapRead);
    EXPECT_EQ(imported.events[3].flags, trace::MapSyncWait);
    EXPECT_EQ(imported.events[1].bytes, 65536u);
    EXPECT_EQ(imported.processes[0].startRealtimeNs, 1'700'000'000'000'000'000u) << "-ttt gives the date";
    ASSERT_EQ(imported.processes.size(), 1u) << "the lines without a number are pid 77's";
    EXPECT_EQ(imported.processes[0].pid, 77u);
    EXPECT_FALSE(imported.summary.timed);
    EXPECT_THAT(imported.summary.warnings, ::testing::Contains(HasSubstr("without -T")));
    EXPECT_EQ(imported.summary.unreadLines, 0u) << "the summary is strace's, not garbage";
}

TEST(StraceImport, ALogThatIsNotStracesIsRefusedWithTheCommandThatMakesOne)
{
    for (const char* log :
         {"", "hello world\nnot a call\n", "Time of Day,Process Name,PID,Operation,Path\n"}) {
        try {
            import(log);
            ADD_FAILURE() << "accepted: " << log;
        } catch (const InputError& e) {
            EXPECT_THAT(e.what(), HasSubstr("test.strace is not strace's output"));
            EXPECT_THAT(e.what(), HasSubstr(kStraceCommand));
        }
    }
}
