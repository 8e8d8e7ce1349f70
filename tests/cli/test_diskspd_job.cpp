// SPDX-License-Identifier: MIT
// Issue 18: a case as a DiskSpd command line to rerun on Windows. The flags DiskSpd has are used, every
// difference is a REM line a cmd user can paste, and a case DiskSpd cannot run says so instead of inventing a
// command.
#include "core/base/units.h"
#include "core/formats/diskspd_job.h"
#include "tests/support/job_cases.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

DiskspdJobOptions windowsOptions()
{
    DiskspdJobOptions options;
    options.directory = "D:\\bench";
    options.fileStem = "iolab-case-3";
    options.seconds = 4.2;
    options.title = "IOLab 0.5.0: case 3 of the run started 2026-11-27T05:00:00Z: the case";
    options.ranOn = "Windows 10.0 (build 19045)";
    return options;
}

// The command line itself: the one line that is not a REM.
std::string commandOf(const std::string& text)
{
    std::istringstream lines(text);
    std::string line;
    std::string command;
    while (std::getline(lines, line)) {
        if (line.rfind("REM ", 0) != 0) {
            EXPECT_TRUE(command.empty()) << "one command line:\n" << text;
            command = line;
        }
    }
    return command;
}

} // namespace

TEST(DiskspdJob, TheCaseIsOneCommandLineWithItsFlags)
{
    const auto direct = diskspdJob(writeCase("direct", kMiB, 64 * kMiB), windowsOptions());
    EXPECT_TRUE(direct.equivalent);
    EXPECT_EQ(commandOf(direct.text),
              "diskspd -b1M -c64M -d5 -W0 -o1 -t1 -s -w100 -Su -Zr -L \"D:\\bench\\iolab-case-3.dat\"");
    EXPECT_THAT(direct.text,
                HasSubstr("REM IOLab 0.5.0: case 3 of the run started 2026-11-27T05:00:00Z: the case\n"));
    EXPECT_THAT(direct.text,
                HasSubstr("REM differs: DiskSpd runs for a time, not a size: -d5 is IOLab's time for the "
                          "case, rounded up"));
    EXPECT_THAT(direct.text, HasSubstr("REM differs: DiskSpd never flushes the file"));
    EXPECT_THAT(direct.text, HasSubstr("REM DiskSpd leaves its files behind; remove them afterwards: del "
                                       "\"D:\\bench\\iolab-case-3.dat\"\n"));

    // Threads write a file each: one target per thread, a thread each.
    Case threads = writeCase("write", 64 * kKiB, 256 * kMiB);
    threads.threads = 2;
    threads.sync = {SyncMode::ODsync, 0};
    EXPECT_EQ(commandOf(diskspdJob(threads, windowsOptions()).text),
              "diskspd -b64K -c128M -d5 -W0 -o1 -t1 -s -w100 -Sbw -Zr -L \"D:\\bench\\iolab-case-3-1.dat\" "
              "\"D:\\bench\\iolab-case-3-2.dat\"");
    threads.strategy = "direct";
    EXPECT_THAT(commandOf(diskspdJob(threads, windowsOptions()).text), HasSubstr(" -Sh -Zr -L "));

    // Random readers share one file: one target, all the threads on it.
    Case random = readCase("read-random", 4 * kKiB, kGiB);
    random.threads = 4;
    random.hint = ReadHint::Random;
    EXPECT_EQ(commandOf(diskspdJob(random, windowsOptions()).text),
              "diskspd -b4K -c1G -d5 -W0 -o1 -t4 -r -w0 -Sb -fr -L \"D:\\bench\\iolab-case-3.dat\"");
    EXPECT_THAT(diskspdJob(random, windowsOptions()).text,
                HasSubstr("IOLab evicted the file from the page cache"));

    // Queued I/O: DiskSpd's own overlapped I/O states nothing; io_uring states what stands for it.
    Case overlapped = readCase("overlapped-random-read-direct", 4 * kKiB, kGiB);
    overlapped.queueDepth = 32;
    const auto windowsQueue = diskspdJob(overlapped, windowsOptions());
    EXPECT_THAT(commandOf(windowsQueue.text), HasSubstr(" -o32 -t1 -r -w0 -Su -L "));
    EXPECT_THAT(windowsQueue.text, Not(HasSubstr("io_uring")));
    overlapped.strategy = "uring-random-read-direct";
    EXPECT_THAT(diskspdJob(overlapped, windowsOptions()).text,
                HasSubstr("IOLab kept 32 requests in flight with io_uring"));

    // The mappings are DiskSpd's memory-mapped I/O; stdio is the block its buffer hands the OS.
    EXPECT_THAT(commandOf(diskspdJob(readCase("mmap-read", kMiB, kGiB), windowsOptions()).text),
                HasSubstr(" -w0 -Sm -L "));
    Case stdio = writeCase("stdio", 1, 64 * kMiB);
    stdio.buffer = {BufferMode::Bytes, 64 * kKiB};
    const auto buffered = diskspdJob(stdio, windowsOptions());
    EXPECT_THAT(commandOf(buffered.text), HasSubstr("diskspd -b64K "));
    EXPECT_THAT(buffered.text, HasSubstr("REM differs: DiskSpd has no stdio (fwrite); closest: -b64K"));

    // A sync after every write is write-through; one every N writes has no DiskSpd form and says so.
    Case synced = writeCase("write", 8 * kKiB, 64 * kMiB);
    synced.sync = {SyncMode::FdatasyncEvery, 1};
    EXPECT_THAT(commandOf(diskspdJob(synced, windowsOptions()).text), HasSubstr(" -Sbw "));
    synced.sync = {SyncMode::FsyncEvery, 8};
    const auto everyEight = diskspdJob(synced, windowsOptions());
    EXPECT_THAT(commandOf(everyEight.text), HasSubstr(" -Sb "));
    EXPECT_THAT(everyEight.text,
                HasSubstr("IOLab called fsync after every 8 writes; DiskSpd has no flush calls"));

    // A time limit and the rewrite of one block: -d is the limit, -c one block.
    Case rewrite = writeCase("write", 8 * kKiB, kGiB);
    rewrite.preallocate = Preallocate::Rewrite;
    rewrite.sync = {SyncMode::FdatasyncEvery, 1};
    rewrite.timeLimitMs = 2500;
    EXPECT_THAT(commandOf(diskspdJob(rewrite, windowsOptions()).text), HasSubstr("diskspd -b8K -c8K -d3 "));
}

TEST(DiskspdJob, DifferencesAreStatedAndNothingIsInvented)
{
    DiskspdJobOptions options = windowsOptions();
    for (Case c : {writeCase("pipe-write", 64 * kKiB, kGiB), writeCase("vmsplice", 64 * kKiB, kGiB)}) {
        c.target = TargetKind::Pipe;
        const auto none = diskspdJob(c, options);
        EXPECT_FALSE(none.equivalent) << c.strategy;
        EXPECT_THAT(none.text, HasSubstr("DiskSpd has no equivalent: it reads and writes files"));
        EXPECT_TRUE(commandOf(none.text).empty()) << none.text;
    }
    Case group = writeCase("group-commit", 8 * kKiB, kGiB);
    group.sync = {SyncMode::FdatasyncEvery, 1};
    EXPECT_FALSE(diskspdJob(group, options).equivalent);
    for (const char* perByte : {"putc", "putc-unlocked", "fputc"}) {
        const auto none = diskspdJob(writeCase(perByte, 1, kMiB), options);
        EXPECT_FALSE(none.equivalent) << perByte;
        EXPECT_THAT(none.text, HasSubstr("a C library call per byte"));
    }
    Case files = readCase("files-pool", 64 * kKiB, 2000 * 10 * kKiB);
    files.fileSet = {2000, SizeMix::Fixed, 10 * kKiB, 10 * kKiB, 0, {}};
    EXPECT_FALSE(diskspdJob(files, options).equivalent);
    Case null = writeCase("write", 64 * kKiB, kGiB);
    null.target = TargetKind::Null;
    EXPECT_FALSE(diskspdJob(null, options).equivalent);
    EXPECT_FALSE(diskspdJob(writeCase("sync-file-range", 1000, kMiB), options).equivalent)
        << "unbuffered writes need sector-aligned blocks";
    EXPECT_TRUE(diskspdJob(writeCase("sync-file-range", 8 * kKiB, kMiB), options).equivalent);

    // A Linux run: the path is the run's, and the line says where DiskSpd runs.
    options.directory = "/srv/data";
    options.ranOn = "Debian GNU/Linux 12 (bookworm)";
    options.seconds = 0;
    options.verify = true;
    Case limited = writeCase("write", 4 * kKiB, 64 * kMiB);
    limited.memoryLimitBytes = 16 * kMiB;
    const auto fromLinux = diskspdJob(limited, options);
    EXPECT_THAT(commandOf(fromLinux.text), HasSubstr(" -d10 "));
    EXPECT_THAT(commandOf(fromLinux.text), HasSubstr("\"/srv/data/iolab-case-3.dat\""));
    EXPECT_THAT(fromLinux.text, HasSubstr("DiskSpd's default (IOLab has no measured time for this case)"));
    EXPECT_THAT(fromLinux.text,
                HasSubstr("IOLab ran on Debian GNU/Linux 12 (bookworm); DiskSpd runs on Windows"));
    EXPECT_THAT(fromLinux.text, HasSubstr("DiskSpd checks nothing"));
    EXPECT_THAT(fromLinux.text, HasSubstr("memory cgroup capped at 16 MiB"));
    EXPECT_THAT(fromLinux.text, HasSubstr("IOLab's file grew as it was written"));
}

TEST(DiskspdJob, TheDurationIsTheMedianOfTheMeasuredRepetitions)
{
    RunResult result;
    result.toolVersion = "0.5.0";
    result.startedAt = "2026-11-27T05:00:00Z";
    result.target.path = "C:\\data";
    result.host.os = "Windows 10.0 (build 19045)";
    CaseResult c;
    c.index = 6;
    c.testCase = writeCase("overlapped-write-direct", kMiB, kGiB);
    c.testCase.queueDepth = 8;
    for (const auto& [warmup, seconds] :
         {std::pair{true, 30.0}, std::pair{false, 2.5}, std::pair{false, 7.1}, std::pair{false, 3.2}}) {
        RepetitionResult rep;
        rep.warmup = warmup;
        rep.returnSeconds = seconds;
        c.repetitions.push_back(rep);
    }
    result.cases.push_back(c);
    const auto job = diskspdJobOf(result, 0);
    EXPECT_EQ(commandOf(job.text),
              "diskspd -b1M -c1G -d4 -W0 -o8 -t1 -s -w100 -Su -Zr -L \"C:\\data\\iolab-case-7.dat\"");
    EXPECT_THAT(job.text, HasSubstr("REM IOLab 0.5.0: case 7 of the run started 2026-11-27T05:00:00Z: "
                                    "overlapped-write-direct"));
}

// The bytes: DiskSpd's own buffer repeats 0 to 255 and compresses well, so writes take a random source
// (-Zr), zeros take -Z, and a compressible pattern, which DiskSpd has no flag for, says so.
TEST(DiskspdJob, WritesTakeTheCasesBytes)
{
    Case c;
    c.strategy = "direct";
    c.chunkBytes = kMiB;
    c.totalBytes = 64 * kMiB;
    c.pattern = DataPattern{PatternKind::Zeros};
    EXPECT_THAT(commandOf(diskspdJob(c, windowsOptions()).text), HasSubstr(" -Su -Z -L "));
    c.pattern = DataPattern{PatternKind::Random};
    EXPECT_THAT(commandOf(diskspdJob(c, windowsOptions()).text), HasSubstr(" -Su -Zr -L "));
    c.pattern = DataPattern{PatternKind::Compressible, 50};
    const auto job = diskspdJob(c, windowsOptions());
    EXPECT_THAT(job.text,
                HasSubstr("REM differs: DiskSpd has no compressible buffer; closest: -Z<size>,<file> "
                          "with a file of such bytes (50% of each 4 KiB block zeros)"));
}
