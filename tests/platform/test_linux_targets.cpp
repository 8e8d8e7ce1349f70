// SPDX-License-Identifier: MIT
// Target facts that only Linux has: mounts, tmpfs, bind mounts, permission bits.
#include "core/base/error.h"
#include "core/engine/pattern.h"
#include "core/model/matrix.h"
#include "platform/platform.h"
#include "tests/support/capabilities.h"
#include "tests/support/input_error.h"
#include "tests/support/mount.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace iolab;
using namespace iolab::test;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(Target, UnwritableFolderIsRefused)
{
    if (runningAsRoot()) {
        // Root writes through permissions, so use what stops root too: a read-only filesystem.
        TmpfsMount readOnly("size=1m", MS_RDONLY);
        ASSERT_TRUE(readOnly.ok()) << "mounting a tmpfs as root failed";
        EXPECT_THAT(inputError([&] { inspectTarget(readOnly.path()); }), HasSubstr("read-only filesystem"));
    } else {
        TempDir dir;
        ::chmod(dir.path().c_str(), 0500);
        EXPECT_THAT(inputError([&] { inspectTarget(dir.path()); }), HasSubstr("not writable"));
        ::chmod(dir.path().c_str(), 0700);
    }
}

TEST(Target, TmpfsHasNoDeviceToWatch)
{
    if (!runningAsRoot())
        GTEST_SKIP() << "mounting a tmpfs needs root";
    TmpfsMount tmpfs("size=4m");
    ASSERT_TRUE(tmpfs.ok());
    const auto info = inspectTarget(tmpfs.path());
    EXPECT_EQ(info.fsType, "tmpfs");
    EXPECT_EQ(info.device, "");
}

// Issue 17: the queue's FUA flag is read beside its write cache, as the kernel states it for the disk under
// the target (a partition's queue is its disk's); unknown where the kernel has no such file.
TEST(Target, ReadsTheQueuesFuaFlag)
{
    TempDir dir;
    const auto info = inspectTarget(dir.path());
    struct stat st
    {};
    ASSERT_EQ(::stat(dir.path().c_str(), &st), 0);
    if (major(st.st_dev) == 0 || info.device.empty())
        GTEST_SKIP() << "the temporary folder is on " << info.fsType << ", with no single block device";
    std::error_code ec;
    auto disk = std::filesystem::canonical(
        "/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev)), ec);
    ASSERT_FALSE(ec) << ec.message();
    if (std::filesystem::exists(disk / "partition"))
        disk = disk.parent_path();
    std::ifstream in(disk / "queue" / "fua");
    std::string flag;
    if (!(in >> flag)) {
        EXPECT_FALSE(info.fua.has_value()) << "no " << (disk / "queue" / "fua") << ": unknown";
        return;
    }
    ASSERT_TRUE(info.fua.has_value()) << info.device;
    EXPECT_EQ(*info.fua, flag == "1") << info.device << " says " << flag;
}

TEST(Targets, ListsWritableFilesystemsOnceAndNoPseudoOnes)
{
    const auto targets = listWritableTargets();
    std::set<std::string> paths;
    for (const auto& t : targets) {
        EXPECT_TRUE(paths.insert(t.path).second) << "listed twice: " << t.path;
        EXPECT_FALSE(t.path.rfind("/proc", 0) == 0 || t.path.rfind("/sys", 0) == 0) << t.path;
        EXPECT_NE(t.fsType, "proc");
        EXPECT_GT(t.totalBytes, 0u) << t.path;
    }
    TempDir dir;
    const auto mountPoint = inspectTarget(dir.path()).mountPoint;
    if (::access(mountPoint.c_str(), W_OK | X_OK) == 0) {
        EXPECT_TRUE(paths.contains(mountPoint)) << mountPoint << " is writable but not listed";
    }
}

TEST(Targets, FoldsBindMountsAndSkipsReadOnlyOnes)
{
    if (!runningAsRoot())
        GTEST_SKIP() << "mounting needs root";
    TmpfsMount writable("size=2m");
    TmpfsMount readOnly("size=2m", MS_RDONLY);
    ASSERT_TRUE(writable.ok() && readOnly.ok());
    TempDir bindPoint;
    ASSERT_EQ(::mount(writable.path().c_str(), bindPoint.path().c_str(), nullptr, MS_BIND, nullptr), 0);
    const auto targets = listWritableTargets();
    ::umount2(bindPoint.path().c_str(), MNT_DETACH);
    int writableSeen = 0;
    for (const auto& t : targets) {
        EXPECT_NE(t.path, readOnly.path()) << "a read-only mount was listed";
        if (t.path == writable.path() || t.path == bindPoint.path())
            ++writableSeen;
    }
    EXPECT_EQ(writableSeen, 1) << "the tmpfs and its bind mount are one target";
}

TEST(Target, KernelPseudoFilesystemsAreRefusedWithTheirType)
{
    EXPECT_THAT(inputError([] { inspectTarget("/proc"); }),
                HasSubstr("target '/proc' is on proc, a kernel pseudo-filesystem"));
    EXPECT_THAT(inputError([] { inspectTarget("/sys"); }),
                HasSubstr("target '/sys' is on sysfs, a kernel pseudo-filesystem"));
    // A tmpfs stores files: it stays a target.
    if (runningAsRoot()) {
        TmpfsMount small("size=1m");
        ASSERT_TRUE(small.ok());
        EXPECT_EQ(inspectTarget(small.path()).fsType, "tmpfs");
    }
}

TEST(Output, ErrorsNameTheUsersPathNotTheTemporaryFile)
{
    const Outcome outcome = writeFileAtomically("/proc/iolab-out.json", "{}\n");
    ASSERT_FALSE(outcome.ok());
    EXPECT_THAT(outcome.message, HasSubstr("/proc/iolab-out.json"));
    EXPECT_THAT(outcome.message, ::testing::Not(HasSubstr(".tmp-")));

    TempDir dir;
    std::filesystem::create_directory(dir / "taken.json"); // a folder where the file should go
    const Outcome renamed = writeFileAtomically(dir / "taken.json", "{}\n");
    ASSERT_FALSE(renamed.ok());
    EXPECT_THAT(renamed.message, HasSubstr(dir / "taken.json"));
    EXPECT_THAT(renamed.message, ::testing::Not(HasSubstr(".tmp-")));
    EXPECT_EQ(dir.entryCount(), 1u) << "the temporary file was removed";
}

TEST(Output, PathProblemsAreFoundBeforeWriting)
{
    TempDir dir;
    EXPECT_EQ(outputPathProblem(dir / "ok.json"), "");
    EXPECT_EQ(dir.entryCount(), 0u) << "the check leaves nothing behind";
    EXPECT_THAT(outputPathProblem("/proc/out.json"), HasSubstr("no file can be created in folder '/proc'"));
    EXPECT_THAT(outputPathProblem("/dev/null"), HasSubstr("not a regular file"));
    EXPECT_THAT(outputPathProblem(dir.path()), HasSubstr("is a folder"));
    EXPECT_THAT(outputPathProblem(dir / "missing/x.json"), HasSubstr("does not exist"));
}

TEST(LiveRuns, ARunElsewhereOnTheFilesystemIsSeenByItsBeacon)
{
    TempDir dir;
    const auto mine = dir / "mine";
    const auto theirs = dir / "theirs";
    std::filesystem::create_directories(mine);
    std::filesystem::create_directories(theirs);
    // A child process stands in for another IOLab run: it opens a run folder in `theirs`, then waits.
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(ready[0]);
        auto workspace = makeWorkspace(inspectTarget(theirs));
        Outcome outcome;
        workspace->pathFor("c001-r0-t0.dat", outcome);
        const char byte = outcome.ok() ? 'y' : 'n';
        (void)!::write(ready[1], &byte, 1);
        ::pause();
        ::_exit(0);
    }
    ::close(ready[1]);
    char byte = 0;
    ASSERT_EQ(::read(ready[0], &byte, 1), 1);
    ::close(ready[0]);
    ASSERT_EQ(byte, 'y') << "the child's run folder";
    const auto others = otherRunsFor(mine);
    const auto inTheirs = otherRunsFor(theirs);
    // /dev/shm is a tmpfs of its own on Linux: another filesystem.
    struct stat shm
    {};
    struct stat here
    {};
    const bool shmElsewhere =
        ::stat("/dev/shm", &shm) == 0 && ::stat(mine.c_str(), &here) == 0 && shm.st_dev != here.st_dev;
    const auto onShm = shmElsewhere ? runsOnFilesystemOf("/dev/shm") : std::vector<long>{};
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    EXPECT_TRUE(others.inTarget.empty()) << "its run folder is not in mine";
    EXPECT_THAT(others.elsewhereOnFilesystem, Contains(static_cast<long>(child)));
    ASSERT_EQ(inTheirs.inTarget.size(), 1u);
    EXPECT_EQ(inTheirs.inTarget[0].pid, child);
    EXPECT_THAT(inTheirs.elsewhereOnFilesystem, Not(Contains(static_cast<long>(child))))
        << "a run in the target is listed once, as in the target";
    EXPECT_THAT(onShm, Not(Contains(static_cast<long>(child)))) << "another filesystem does not see it";
    EXPECT_THAT(runsOnFilesystemOf(mine), Not(Contains(static_cast<long>(child))))
        << "a killed run's beacon goes with it";
    std::filesystem::remove_all(theirs); // the killed child's run folder
}

TEST(LiveRuns, FindsOtherLiveRunsOnlyInTheTarget)
{
    TempDir target;
    const auto live = target / "iolab-run-20260101-000000-1";
    const auto dead = target / "iolab-run-20260101-000000-2";
    const auto unmarked = target / "iolab-run-20260101-000000-3";
    for (const auto& folder : {live, dead, unmarked})
        std::filesystem::create_directory(folder);
    // A child process stands in for another IOLab run.
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::pause();
        ::_exit(0);
    }
    std::ofstream(live + "/.iolab-run") << "pid=" << child << "\n";
    std::ofstream(dead + "/.iolab-run") << "pid=999999999\n";
    const auto runs = liveRunsIn(target.path());
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].folder, live);
    EXPECT_EQ(runs[0].pid, child);
    EXPECT_TRUE(liveRunsIn(target.path()).empty()) << "its process has ended";
    std::ofstream(live + "/.iolab-run") << "pid=" << ::getpid() << "\n";
    EXPECT_TRUE(liveRunsIn(target.path()).empty()) << "a run does not count its own folder";
    EXPECT_TRUE(liveRunsIn(target / "missing").empty());
}

// A symlink named like a run folder is never one, even when it leads to a live run's folder, and neither is
// a folder whose marker is a symlink: IOLab's run folders are real folders it made (the one rule for
// liveRunsIn and clean).
TEST(LiveRuns, ALinkIsNeverARunFolder)
{
    TempDir target;
    TempDir elsewhere;
    const std::string name = "iolab-run-20260101-000000-1";
    const auto real = elsewhere / name;
    std::filesystem::create_directory(real);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::pause();
        ::_exit(0);
    }
    std::ofstream(real + "/.iolab-run") << "pid=" << child << "\n";
    std::filesystem::create_directory_symlink(real, target / name);
    const auto markerLinked = target / "iolab-run-20260101-000000-2";
    std::filesystem::create_directory(markerLinked);
    std::filesystem::create_symlink(real + "/.iolab-run", markerLinked + "/.iolab-run");
    const auto atTheFolder = liveRunsIn(elsewhere.path());
    const auto inTarget = liveRunsIn(target.path());
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    ASSERT_EQ(atTheFolder.size(), 1u) << "the real folder is a live run";
    EXPECT_EQ(atTheFolder[0].pid, child);
    EXPECT_TRUE(inTarget.empty()) << "listed "
                                  << (inTarget.empty() ? std::string() : inTarget.front().folder);
    // With the run gone, clean removes the real folder from its own target only, never through the link.
    const auto report = cleanStaleRuns(target.path());
    EXPECT_TRUE(report.removed.empty());
    ASSERT_EQ(report.kept.size(), 1u);
    EXPECT_EQ(report.kept[0], std::make_pair(markerLinked, std::string("no IOLab marker inside: not ours")));
    EXPECT_TRUE(std::filesystem::exists(real + "/.iolab-run"));
    EXPECT_EQ(cleanStaleRuns(elsewhere.path()).removed, std::vector<std::string>{real});
}

TEST(Target, MountOptionsAreListedOnce)
{
    TempDir dir;
    const auto info = inspectTarget(dir.path());
    ASSERT_FALSE(info.mountOptions.empty());
    std::set<std::string> seen;
    std::istringstream in(info.mountOptions);
    std::string option;
    while (std::getline(in, option, ','))
        EXPECT_TRUE(seen.insert(option).second) << option << " twice in " << info.mountOptions;
    EXPECT_TRUE(seen.contains("rw")) << info.mountOptions;
}

namespace {

struct Prepared
{
    std::uint64_t blocksBytes = 0; // st_blocks * 512 after prepare, before the timed part
    std::uint64_t sizeBytes = 0;
    bool ran = false;
    std::string problem;
};

// Prepares one write case (the untimed part), looks at the file, then runs it and checks every byte.
Prepared prepareAndRun(const std::string& strategyId, Preallocate preallocate, const TargetInfo& target,
                       const std::string& path, std::uint64_t chunk = 64 * 1024, SyncPolicy sync = {})
{
    Registry registry;
    registerBuiltinStrategies(registry);
    Case c{strategyId, Direction::Write, chunk, 4 << 20};
    c.buffer = registry.find(strategyId)->info().usesStdioBuffer ? StdioBuffer{BufferMode::Default, 0}
                                                                 : StdioBuffer{};
    c.preallocate = preallocate;
    c.sync = sync;
    Prepared out;
    if (auto reason = refusalReason(c, registry, target); !reason.empty()) {
        out.problem = reason;
        return out;
    }
    const Pattern pattern(chunk);
    JobSpec spec;
    spec.testCase = c;
    spec.bytes = c.totalBytes;
    spec.path = path;
    spec.auxPath = path + ".batch";
    spec.pattern = &pattern;
    spec.target = target;
    Outcome outcome;
    auto job = registry.find(strategyId)->prepare(spec, outcome);
    if (!job) {
        out.problem = outcome.message;
        return out;
    }
    struct stat st
    {};
    ::stat(path.c_str(), &st);
    out.blocksBytes = static_cast<std::uint64_t>(st.st_blocks) * 512;
    out.sizeBytes = static_cast<std::uint64_t>(st.st_size);
    std::atomic<bool> stop{false};
    Progress progress;
    progress.stop = &stop;
    const auto executed = job->execute(progress);
    const auto finished = job->finish();
    job.reset();
    out.ran = executed.ok() && finished.ok() && progress.bytes.load() == c.totalBytes;
    std::ifstream in(path, std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (data.size() != bytesInFile(preallocate, chunk, c.totalBytes))
        out.ran = false;
    for (std::size_t i = 0; out.ran && i < data.size(); ++i)
        out.ran = static_cast<std::byte>(data[i]) == Pattern::expected(i);
    ::unlink(path.c_str());
    ::unlink(spec.auxPath.c_str());
    return out;
}

} // namespace

TEST(Preallocate, FallocateAndOverwriteAllocateTheFileBeforeTheTimedPart)
{
    TempDir dir;
    TargetInfo target = inspectTarget(dir.path());
    probeCapabilities(target);
    if (mayLackFallocate(target))
        GTEST_SKIP() << target.fallocateProblem;
    const std::uint64_t bytes = 4 << 20;
    for (const char* id : {"write", "stdio", "stdio-unlocked", "direct", "mmap-batch-direct"}) {
        if (std::string_view(id).find("direct") != std::string_view::npos && mayLackDirectIo(target))
            continue; // O_DIRECT is tested where the filesystem takes it
        const auto none = prepareAndRun(id, Preallocate::None, target, dir / "f.dat");
        ASSERT_EQ(none.problem, "") << id;
        EXPECT_TRUE(none.ran) << id;
        if (std::string_view(id) != "mmap-batch-direct") {
            EXPECT_EQ(none.blocksBytes, 0u) << id << ": a new file, nothing allocated";
        }

        const auto reserved = prepareAndRun(id, Preallocate::Fallocate, target, dir / "f.dat");
        if (std::string_view(id) == "mmap-batch-direct") {
            EXPECT_THAT(reserved.problem, HasSubstr("always reserves its file's space"));
        } else {
            ASSERT_EQ(reserved.problem, "") << id;
            EXPECT_GE(reserved.blocksBytes, bytes) << id;
            EXPECT_TRUE(reserved.ran) << id;
        }

        const auto written = prepareAndRun(id, Preallocate::Overwrite, target, dir / "f.dat");
        ASSERT_EQ(written.problem, "") << id;
        EXPECT_GE(written.blocksBytes, bytes) << id;
        EXPECT_EQ(written.sizeBytes, bytes) << id << ": the whole file is there before the timed part";
        EXPECT_TRUE(written.ran) << id << ": the timed part overwrote every byte";
    }
    EXPECT_EQ(dir.entryCount(), 0u);
}

// pg_test_fsync's shape: one chunk written beforehand, then every write of the timed part lands on it again.
// The writers whose every call picks its place take it; the file stays one chunk long, holds the pattern
// (the bytes written beforehand were unlike it), and the loop counts every write.
TEST(Preallocate, RewriteWritesTheFirstChunkAgainAndAgain)
{
    TempDir dir;
    TargetInfo target = inspectTarget(dir.path());
    probeCapabilities(target);
    constexpr std::uint64_t kChunk = 8 * 1024;
    const std::vector<std::pair<std::string, SyncPolicy>> writers{
        {"write", SyncPolicy{SyncMode::FdatasyncEvery, 1}},
        {"write", SyncPolicy{}},
        {"direct", SyncPolicy{SyncMode::ODsync, 0}},
        {"pwritev2-dsync", SyncPolicy{}},
        {"sync-file-range", SyncPolicy{}},
        {"uring-linked-sync", SyncPolicy{SyncMode::FsyncEvery, 1}}};
    for (const auto& [id, sync] : writers) {
        if (id == "direct" && mayLackDirectIo(target))
            continue; // O_DIRECT is tested where the filesystem takes it
        const auto rewritten = prepareAndRun(id, Preallocate::Rewrite, target, dir / "f.dat", kChunk, sync);
        if (id == "uring-linked-sync" && rewritten.problem.find("io_uring") != std::string::npos &&
            mayLackUring(rewritten.problem))
            continue; // io_uring is off in this kernel or sandbox: tested where it runs
        ASSERT_EQ(rewritten.problem, "") << id;
        EXPECT_EQ(rewritten.sizeBytes, kChunk) << id << ": one chunk written before the timed part";
        EXPECT_TRUE(rewritten.ran) << id << ": 512 writes of one chunk, the file one chunk of the pattern";
    }
    for (const char* id : {"stdio", "mmap-window", "mmap-batch-direct", "write-random"}) {
        const auto refused = prepareAndRun(id, Preallocate::Rewrite, target, dir / "f.dat", kChunk);
        EXPECT_THAT(refused.problem, HasSubstr("does not take preallocate rewrite")) << id;
    }
    EXPECT_EQ(dir.entryCount(), 0u);
}
