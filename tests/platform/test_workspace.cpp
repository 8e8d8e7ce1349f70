// SPDX-License-Identifier: MIT
#include "core/error.h"
#include "core/pattern.h"
#include "core/runner.h"
#include "core/units.h"
#include "platform/platform.h"
#include "tests/support/mount.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sys/stat.h>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

std::string inputError(const std::function<void()>& f)
{
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(Target, DescribesARealFolder)
{
    TempDir dir;
    const auto info = inspectTarget(dir.path());
    EXPECT_EQ(info.path, std::filesystem::canonical(dir.path()).string());
    EXPECT_FALSE(info.fsType.empty());
    EXPECT_FALSE(info.mountPoint.empty());
    EXPECT_GT(info.totalBytes, 0u);
    EXPECT_GT(info.freeBytes, 0u);
    EXPECT_GE(info.logicalBlockBytes, 512u);
    EXPECT_EQ(info.logicalBlockBytes & (info.logicalBlockBytes - 1), 0u);
}

TEST(Target, BadTargetsGiveOneClearLine)
{
    TempDir dir;
    EXPECT_THAT(inputError([&] { inspectTarget(dir / "nope"); }), HasSubstr("does not exist"));
    std::ofstream(dir / "file") << "x";
    EXPECT_THAT(inputError([&] { inspectTarget(dir / "file"); }), HasSubstr("is not a folder"));
    EXPECT_THAT(inputError([&] { inspectTarget(""); }), HasSubstr("no target"));
}

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

TEST(Target, CapabilityProbeLeavesNothingBehind)
{
    TempDir dir;
    auto info = inspectTarget(dir.path());
    probeCapabilities(info);
    EXPECT_TRUE(info.capabilitiesProbed);
    EXPECT_EQ(dir.entryCount(), 0u);
    if (info.fsType == "ext4" || info.fsType == "xfs" || info.fsType == "btrfs") {
        EXPECT_EQ(info.directIoProblem, "") << info.fsType << " takes O_DIRECT";
        EXPECT_EQ(info.fallocateProblem, "") << info.fsType << " takes fallocate";
    }
}

TEST(Workspace, MarkedFolderIsCreatedOnUseAndRemovedWithItsFiles)
{
    TempDir dir;
    auto workspace = makeWorkspace(inspectTarget(dir.path()));
    EXPECT_EQ(workspace->folder(), "");
    EXPECT_EQ(dir.entryCount(), 0u);
    Outcome outcome;
    const auto path = workspace->pathFor("c001-r0-t0.dat", outcome);
    ASSERT_TRUE(outcome.ok());
    const auto folder = workspace->folder();
    EXPECT_THAT(folder, HasSubstr("/iolab-run-"));
    EXPECT_TRUE(std::filesystem::exists(folder + "/.iolab-run"));
    std::ofstream(path) << "data";
    EXPECT_TRUE(workspace->makeDurable(path).ok());
    workspace->close();
    EXPECT_FALSE(std::filesystem::exists(folder));
    EXPECT_EQ(dir.entryCount(), 0u);
}

TEST(Workspace, VerifyCatchesShortAndWrongFiles)
{
    TempDir dir;
    auto workspace = makeWorkspace(inspectTarget(dir.path()));
    const Pattern pattern(4096);
    Outcome outcome;
    const auto path = workspace->pathFor("c001-r0-t0.dat", outcome);
    {
        std::ofstream out(path, std::ios::binary);
        for (std::uint64_t i = 0; i < 10000; ++i)
            out.put(static_cast<char>(Pattern::expected(i)));
    }
    EXPECT_TRUE(workspace->verify(path, 10000, pattern).ok());
    EXPECT_THAT(workspace->verify(path, 10001, pattern).message, HasSubstr("expected 10001"));
    {
        std::fstream out(path, std::ios::binary | std::ios::in | std::ios::out);
        out.seekp(4321);
        out.put(static_cast<char>(~static_cast<unsigned char>(Pattern::expected(4321))));
    }
    EXPECT_THAT(workspace->verify(path, 10000, pattern).message, HasSubstr("byte 4321 differs"));
}

TEST(Clean, RemovesOnlyStaleMarkedFolders)
{
    TempDir dir;
    auto makeRun = [&](const std::string& name, long pid, bool marker, const std::string& extra) {
        const auto folder = dir / name;
        std::filesystem::create_directory(folder);
        if (marker)
            std::ofstream(folder + "/.iolab-run") << "IOLab run folder\npid=" << pid << "\n";
        std::ofstream(folder + "/c001-r0-t0.dat") << "data";
        std::ofstream(folder + "/c001-r0-t0.batch") << "batch";
        if (!extra.empty())
            std::ofstream(folder + "/" + extra) << "someone else's";
        return folder;
    };
    const auto stale = makeRun("iolab-run-20260101-000000-1", 999999999, true, "");
    const auto live = makeRun("iolab-run-20260101-000000-2", ::getpid(), true, "");
    const auto unmarked = makeRun("iolab-run-20260101-000000-3", 0, false, "");
    const auto foreign = makeRun("iolab-run-20260101-000000-4", 999999999, true, "thesis.docx");
    std::filesystem::create_directory(dir / "unrelated");

    const auto listed = cleanStaleRuns(dir.path(), CleanMode::ListOnly);
    EXPECT_EQ(listed.removed, std::vector<std::string>{stale});
    EXPECT_GT(listed.removedBytes, 0u);
    EXPECT_TRUE(std::filesystem::exists(stale + "/c001-r0-t0.dat")) << "listing must touch nothing";

    const auto report = cleanStaleRuns(dir.path());
    EXPECT_EQ(report.removed, std::vector<std::string>{stale});
    EXPECT_FALSE(std::filesystem::exists(stale));
    EXPECT_TRUE(std::filesystem::exists(live + "/c001-r0-t0.dat"));
    EXPECT_TRUE(std::filesystem::exists(unmarked + "/c001-r0-t0.dat"));
    EXPECT_TRUE(std::filesystem::exists(foreign + "/thesis.docx"));
    EXPECT_TRUE(std::filesystem::exists(foreign + "/c001-r0-t0.dat"));
    EXPECT_TRUE(std::filesystem::exists(dir / "unrelated"));
    EXPECT_EQ(report.kept.size(), 3u);
}

TEST(Probe, ReadsThisProcessAndTheSystem)
{
    auto probe = makeSystemProbe();
    const auto process = probe->process();
    EXPECT_GT(process.rssBytes, 1u << 20);
    const auto host = probe->host();
    EXPECT_FALSE(host.kernel.empty());
    EXPECT_GT(host.ramBytes, 0u);
    EXPECT_GT(host.logicalCpus, 0u);
    TempDir dir;
    const auto target = inspectTarget(dir.path());
    if (target.device.empty())
        GTEST_SKIP() << "the temp folder is on " << target.fsType << ", which has no block device";
    EXPECT_TRUE(probe->device(target.device).has_value()) << target.device;
    EXPECT_FALSE(probe->device("no-such-device").has_value());
}

TEST(RunnerOnLinux, RunsEveryStrategyVerifiedAndLeavesNothing)
{
    TempDir dir;
    Registry registry;
    registerBuiltinStrategies(registry);
    const auto target = inspectTarget(dir.path());
    Matrix m{"t", "", {}};
    MatrixGroup stdio;
    stdio.strategies = {"stdio", "stdio-unlocked"};
    stdio.chunks = {1, 4096};
    stdio.buffers = {{BufferMode::None, 0}, {BufferMode::Bytes, 4 * kKiB}};
    stdio.sizes = {256 * kKiB};
    MatrixGroup others;
    others.strategies = {"write", "direct", "mmap-window", "mmap-batch-direct", "pipe-write", "vmsplice"};
    others.chunks = {4096};
    others.sizes = {3 * kMiB}; // three threads get 1 MiB each, block aligned for O_DIRECT
    others.threads = {1, 3};
    m.groups = {stdio, others};
    const auto expanded = expand(m, registry, target);
    EXPECT_EQ(expanded.cases.size(), 8u + 12u);
    for (const auto& r : expanded.refused)
        ADD_FAILURE() << r.testCase.label() << ": " << r.reason;

    RunOptions options;
    options.repetitions = 2;
    options.verifyFiles = true;
    options.sampleIntervalMs = 10;
    auto probe = makeSystemProbe();
    auto workspace = makeWorkspace(target);
    Runner runner(registry, *workspace, *probe);
    const auto result = runner.run(m, expanded, options, {});
    for (const auto& c : result.cases) {
        EXPECT_EQ(c.status, Status::Ok) << c.testCase.label() << ": " << c.reason;
        for (const auto& rep : c.repetitions) {
            EXPECT_TRUE(rep.verified) << c.testCase.label();
            EXPECT_EQ(rep.bytes, c.testCase.totalBytes);
        }
    }
    EXPECT_EQ(dir.entryCount(), 0u) << "the run left files behind";
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
