// SPDX-License-Identifier: MIT
#include "core/base/error.h"
#include "core/base/units.h"
#include "core/engine/pattern.h"
#include "core/engine/replay_script.h"
#include "core/engine/runner.h"
#include "platform/platform.h"
#include "tests/support/capabilities.h"
#include "tests/support/input_error.h"
#include "tests/support/temp_dir.h"

#include <fmt/chrono.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

TEST(Target, DescribesARealFolder)
{
    TempDir dir;
    const auto info = inspectTarget(dir.path());
    EXPECT_TRUE(std::filesystem::equivalent(info.path, dir.path())) << info.path;
    EXPECT_TRUE(std::filesystem::path(info.path).is_absolute()) << info.path;
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

TEST(Target, CapabilityProbeLeavesNothingBehind)
{
    TempDir dir;
    auto info = inspectTarget(dir.path());
    probeCapabilities(info);
    EXPECT_TRUE(info.capabilitiesProbed);
    EXPECT_EQ(dir.entryCount(), 0u);
#ifndef _WIN32
    // The probe against the test's own trial in the same folder, both ways: what works is not called missing,
    // and what fails is not called supported.
    const std::string fs = fileSystemOf(dir.path());
    const std::string direct = directIoTrial(dir.path());
    EXPECT_EQ(info.directIoProblem.empty(), direct.empty())
        << fs << " (statfs); the test's own O_DIRECT write: " << (direct.empty() ? "worked" : direct)
        << "; the probe: " << info.directIoProblem;
    const std::string reserve = fallocateTrial(dir.path());
    EXPECT_EQ(info.fallocateProblem.empty(), reserve.empty())
        << fs << " (statfs); the test's own fallocate: " << (reserve.empty() ? "worked" : reserve)
        << "; the probe: " << info.fallocateProblem;
    if (alwaysTakesDirectIoAndFallocate(fs)) {
        EXPECT_EQ(direct, "") << fs << " takes O_DIRECT";
        EXPECT_EQ(reserve, "") << fs << " takes fallocate";
    }
#endif
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
    EXPECT_THAT(folder, HasSubstr(std::string(1, kSeparator) + "iolab-run-"));
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(folder) / ".iolab-run"));
    std::ofstream(path) << "data";
    EXPECT_TRUE(workspace->makeDurable(path).ok());
    workspace->close();
    EXPECT_FALSE(std::filesystem::exists(folder));
    EXPECT_EQ(dir.entryCount(), 0u);
}

TEST(Workspace, AKilledRunsFolderWithThisRunsNameIsLeftAloneAndTheRunTakesTheNextName)
{
    // Windows gives a killed process's id to the next process at once: the killed run's folder can carry the
    // very name this run would make, stamp and id alike.
    TempDir dir;
    const long self = thisProcessId();
    std::set<std::string> leftovers;
    const std::time_t now = std::time(nullptr);
    for (std::time_t second = now; second <= now + 3; ++second) {
        const auto name =
            runfolder::folderName(fmt::format("{:%Y%m%d-%H%M%S}", fmt::localtime(second)), self);
        std::filesystem::create_directories(dir / name);
        std::ofstream(std::filesystem::path(dir / name) / "c001-r0-t0.dat") << "the killed run's";
        leftovers.insert(dir / name);
    }
    auto workspace = makeWorkspace(inspectTarget(dir.path()));
    Outcome outcome;
    workspace->pathFor("c001-r0-t0.dat", outcome);
    ASSERT_TRUE(outcome.ok()) << outcome.message;
    const auto folder = workspace->folder();
    EXPECT_FALSE(leftovers.contains(folder)) << folder;
    EXPECT_THAT(std::filesystem::path(folder).filename().string(), ::testing::StartsWith("iolab-run-"));
    EXPECT_THAT(folder, ::testing::EndsWith("-1"));
    workspace->close();
    EXPECT_FALSE(std::filesystem::exists(folder));
    for (const auto& leftover : leftovers)
        EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(leftover) / "c001-r0-t0.dat")) << leftover;
}

TEST(Workspace, ARunFolderLightsABeaconOnItsFilesystemUntilClosed)
{
    TempDir dir;
    const auto target = dir / "target";
    const auto sibling = dir / "sibling"; // another folder of the same filesystem
    std::filesystem::create_directories(target);
    std::filesystem::create_directories(sibling);
    const long self = thisProcessId();
    auto workspace = makeWorkspace(inspectTarget(target));
    EXPECT_FALSE(beaconLit(sibling, self)) << "no beacon before the run folder exists";
    Outcome outcome;
    workspace->pathFor("c001-r0-t0.dat", outcome);
    ASSERT_TRUE(outcome.ok()) << outcome.message;
    EXPECT_TRUE(beaconLit(target, self));
    EXPECT_TRUE(beaconLit(sibling, self)) << "the beacon marks the filesystem, not the folder";
    EXPECT_FALSE(beaconLit(sibling, self + 1000000)) << "nor any other process";
    EXPECT_THAT(runsOnFilesystemOf(sibling), ::testing::Not(::testing::Contains(self)))
        << "a run does not count itself";
    EXPECT_TRUE(otherRunsFor(sibling).inTarget.empty());
    workspace->close();
    EXPECT_FALSE(beaconLit(sibling, self)) << "closing the run folder puts the beacon out";
    EXPECT_FALSE(beaconLit(dir / "missing", self));
}

TEST(Workspace, BeaconsMoveAndPutOutOnce)
{
    TempDir dir;
    const long self = thisProcessId();
    RunBeacon first(dir.path());
    ASSERT_TRUE(first.lit());
    RunBeacon second(std::move(first));
    EXPECT_FALSE(first.lit()); // NOLINT(bugprone-use-after-move): the moved-from state is what is tested
    EXPECT_TRUE(second.lit());
    EXPECT_TRUE(beaconLit(dir.path(), self));
    second = RunBeacon();
    EXPECT_FALSE(beaconLit(dir.path(), self));
    EXPECT_FALSE(RunBeacon(dir / "missing").lit()) << "an unknown folder lights none, and does not throw";
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

// Reading a file back and writing a data set's file are one skeleton over each OS's calls: a failure names
// the OS's call and what it was for, a data set's file never replaces an existing one (the failure is the
// new file's open, as every writer's), and a stop ends the writing Cancelled.
TEST(Workspace, DataFilesAndVerifyNameTheFailingCall)
{
#ifdef _WIN32
    const std::string open = "CreateFile";
#else
    const std::string open = "open";
#endif
    TempDir dir;
    auto workspace = makeWorkspace(inspectTarget(dir.path()));
    const Pattern pattern(kMiB);
    std::atomic<bool> stop{false};
    Outcome outcome;
    const std::string path = workspace->pathFor("f000000.dat", outcome);
    ASSERT_TRUE(outcome.ok()) << outcome.message;

    const Outcome missing = workspace->verify(path, 10, pattern);
    EXPECT_FALSE(missing.ok());
    EXPECT_EQ(missing.operation, open + " (verify)") << missing.message;
    EXPECT_THAT(missing.message, HasSubstr(path));

    const std::uint64_t bytes = 3 * kMiB + 5; // more than one piece of the pattern, and a short last one
    ASSERT_TRUE(workspace->writeDataFile(path, bytes, 7, pattern, stop, 0).ok());
    EXPECT_EQ(std::filesystem::file_size(path), bytes);
    EXPECT_TRUE(workspace->verify(path, bytes, pattern, 7).ok());
    EXPECT_THAT(workspace->verify(path, bytes, pattern, 8).message, HasSubstr("differs"));
    // Gathered into larger writes than the pattern's chunk (a replay's files, staged in 64 KiB writes), the
    // same bytes.
    const Pattern small(4096);
    const std::string gathered = path + ".gathered";
    ASSERT_TRUE(workspace->writeDataFile(gathered, bytes, 7, small, stop, kStagedWriteBytes).ok());
    EXPECT_EQ(std::filesystem::file_size(gathered), bytes);
    EXPECT_TRUE(workspace->verify(gathered, bytes, small, 7).ok());
    EXPECT_THAT(workspace->verify(gathered, bytes, small, 8).message, HasSubstr("differs"));
    // ... and cut into smaller ones than the pattern's 1 MiB chunk.
    const std::string cut = path + ".cut";
    ASSERT_TRUE(workspace->writeDataFile(cut, bytes, 7, pattern, stop, kStagedWriteBytes).ok());
    EXPECT_EQ(std::filesystem::file_size(cut), bytes);
    EXPECT_TRUE(workspace->verify(cut, bytes, pattern, 7).ok());

    const Outcome again = workspace->writeDataFile(path, 10, 0, pattern, stop, 0);
    EXPECT_FALSE(again.ok());
    EXPECT_EQ(again.operation, open) << again.message;
    EXPECT_TRUE(workspace->verify(path, bytes, pattern, 7).ok()) << "the existing file is untouched";

    stop = true;
    const std::string stopped = workspace->pathFor("f000001.dat", outcome);
    EXPECT_EQ(workspace->writeDataFile(stopped, bytes, 0, pattern, stop, 0).status, Status::Cancelled);
}

TEST(Clean, RemovesOnlyStaleMarkedFolders)
{
    TempDir dir;
    auto makeRun = [&](const std::string& name, long pid, bool marker, const std::string& extra) {
        const auto folder = dir / name;
        std::filesystem::create_directory(folder);
        const auto in = [&](const std::string& file) {
            return folder + kSeparator + file;
        };
        if (marker)
            std::ofstream(in(".iolab-run")) << "IOLab run folder\npid=" << pid << "\n";
        std::ofstream(in("c001-r0-t0.dat")) << "data";
        std::ofstream(in("c001-r0-t0.batch")) << "batch";
        if (!extra.empty())
            std::ofstream(in(extra)) << "someone else's";
        return folder;
    };
    const auto stale = makeRun("iolab-run-20260101-000000-1", 999999999, true, "");
    const auto live = makeRun("iolab-run-20260101-000000-2", thisProcessId(), true, "");
    const auto unmarked = makeRun("iolab-run-20260101-000000-3", 0, false, "");
    const auto foreign = makeRun("iolab-run-20260101-000000-4", 999999999, true, "thesis.docx");
    std::filesystem::create_directory(dir / "unrelated");

    const auto listed = cleanStaleRuns(dir.path(), CleanMode::ListOnly);
    EXPECT_EQ(listed.removed, std::vector<std::string>{stale});
    EXPECT_GT(listed.removedBytes, 0u);
    EXPECT_TRUE(std::filesystem::exists(stale + kSeparator + "c001-r0-t0.dat"))
        << "listing must touch nothing";

    const auto report = cleanStaleRuns(dir.path());
    EXPECT_EQ(report.removed, std::vector<std::string>{stale});
    EXPECT_FALSE(std::filesystem::exists(stale));
    EXPECT_TRUE(std::filesystem::exists(live + kSeparator + "c001-r0-t0.dat"));
    EXPECT_TRUE(std::filesystem::exists(unmarked + kSeparator + "c001-r0-t0.dat"));
    EXPECT_TRUE(std::filesystem::exists(foreign + kSeparator + "thesis.docx"));
    EXPECT_TRUE(std::filesystem::exists(foreign + kSeparator + "c001-r0-t0.dat"));
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
        GTEST_SKIP() << "the temp folder is on " << target.fsType
                     << " with no device counters to watch (tmpfs; wine)";
    EXPECT_TRUE(probe->device(target.device).has_value()) << target.device;
    EXPECT_FALSE(probe->device("no-such-device").has_value());
}

TEST(Runner, RunsEveryStrategyVerifiedAndLeavesNothing)
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
#ifdef _WIN32
    // vmsplice is Linux-only, and this build's C runtime has no _fwrite_nolock: both are refused (tested in
    // test_windows_backend.cpp), so they are not part of this run.
    stdio.strategies = {"stdio"};
    others.strategies = {"write", "direct", "mmap-window", "mmap-batch-direct", "pipe-write"};
    const std::size_t expectedCases = 4u + 10u;
#else
    others.strategies = {"write", "direct", "mmap-window", "mmap-batch-direct", "pipe-write", "vmsplice"};
    const std::size_t expectedCases = 8u + 12u;
#endif
    others.chunks = {4096};
    others.sizes = {3 * kMiB}; // three threads get 1 MiB each, block aligned for O_DIRECT
    others.threads = {1, 3};
    m.groups = {stdio, others};
    const auto expanded = expand(m, registry, target);
    EXPECT_EQ(expanded.cases.size(), expectedCases);
    for (const auto& r : expanded.refused)
        ADD_FAILURE() << r.testCase.label() << ": " << r.reason;

    RunOptions options;
    options.repetitions = 2;
    options.verifyFiles = true;
    options.sampleIntervalMs = 10;
    auto probe = makeSystemProbe();
    auto workspace = makeWorkspace(target);
    Runner runner(registry, *workspace, *probe);
    const auto result = runner.run(RunPlan{m, target, expanded}, options, {});
    ASSERT_EQ(result.cases.size(), expanded.cases.size());
    for (const auto& c : result.cases) {
        EXPECT_EQ(c.status, Status::Ok) << c.testCase.label() << ": " << c.reason;
        EXPECT_EQ(c.repetitions.size(), 3u) << "a warm-up and two measured";
        for (const auto& rep : c.repetitions) {
            EXPECT_TRUE(rep.verified) << c.testCase.label();
            EXPECT_EQ(rep.bytes, c.testCase.totalBytes);
        }
    }
    EXPECT_EQ(dir.entryCount(), 0u) << "the run left files behind";
}

TEST(Runner, StopMidCaseEndsSoonAndLeavesNothing)
{
    TempDir dir;
    Registry registry;
    registerBuiltinStrategies(registry);
    const auto target = inspectTarget(dir.path());
    Matrix m{"t", "", {}};
    MatrixGroup group;
    // Unbuffered 1-byte writes: a system call per byte, so the 300 ms before the stop write a few MiB of the
    // 8 GiB, whatever the disk, and the space check is off so that a small disk still runs the case.
    group.strategies = {"stdio"};
    group.chunks = {1};
    group.buffers = {{BufferMode::None, 0}};
    group.sizes = {8 * kGiB};
    group.threads = {2};
    m.groups = {group};
    const auto expanded = expand(m, registry, target);
    ASSERT_EQ(expanded.cases.size(), 1u);
    RunOptions options;
    options.repetitions = 1;
    options.warmups = 0;
    options.spaceCheck = false;
    auto probe = makeSystemProbe();
    auto workspace = makeWorkspace(target);
    Runner runner(registry, *workspace, *probe);
    std::stop_source stop;
    std::atomic<std::chrono::steady_clock::time_point> stopped{};
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        stopped = std::chrono::steady_clock::now();
        stop.request_stop();
    });
    const auto result = runner.run(RunPlan{m, target, expanded}, options, stop.get_token());
    const auto took = std::chrono::steady_clock::now() - stopped.load();
    stopper.join();
    EXPECT_TRUE(result.cancelled);
    // The README: a stop lands within ~20 ms of writes, and a stopped run ends within a second, its files
    // removed. From the stop to the run's end here: the two threads' loops end at their next batch, then the
    // files go. Under a loaded 2-CPU machine that took up to BOUND_NOTE; the bound is the README's second.
    EXPECT_LT(took, std::chrono::seconds(1)) << "the stop must land within a batch, not at the end of 8 GiB";
    ASSERT_FALSE(result.cases.empty());
    EXPECT_EQ(result.cases.front().status, Status::Cancelled) << result.cases.front().reason;
    EXPECT_EQ(dir.entryCount(), 0u) << "a stopped run left files behind";
}

// A run's data-set folders go with it; a stranger's file inside one keeps the whole run folder, named by
// its path below the run folder, and every kept folder says why.
TEST(Clean, RemovesDataSetFoldersAndNamesAStrangerInside)
{
    TempDir dir;
    auto makeRun = [&](const std::string& name, const std::string& stranger) {
        const auto folder = dir / name;
        std::filesystem::create_directories(folder + kSeparator + "set-1" + kSeparator + "d000");
        std::ofstream(folder + kSeparator + ".iolab-run") << "IOLab run folder\npid=999999999\n";
        const auto inner = folder + kSeparator + "set-1" + kSeparator + "d000" + kSeparator;
        std::ofstream(inner + "f000000.dat") << "data";
        if (!stranger.empty())
            std::ofstream(inner + stranger) << "someone else's";
        return folder;
    };
    const auto stale = makeRun("iolab-run-20260101-000000-1", "");
    const auto foreign = makeRun("iolab-run-20260101-000000-2", "notes.txt");
    const auto unmarked = dir / "iolab-run-20260101-000000-3";
    std::filesystem::create_directory(unmarked);
    std::ofstream(dir / "iolab-run-20260101-000000-4") << "a file, not a run folder";

    const auto report = cleanStaleRuns(dir.path());
    EXPECT_EQ(report.removed, std::vector<std::string>{stale});
    EXPECT_GT(report.removedBytes, 0u);
    EXPECT_FALSE(std::filesystem::exists(stale));
    EXPECT_TRUE(std::filesystem::exists(foreign + kSeparator + "set-1" + kSeparator + "d000" + kSeparator +
                                        "f000000.dat"));
    ASSERT_EQ(report.kept.size(), 2u);
    std::map<std::string, std::string> why(report.kept.begin(), report.kept.end());
    EXPECT_THAT(why[foreign],
                HasSubstr("iolab-run-20260101-000000-2" + std::string(1, kSeparator) + "set-1" + kSeparator +
                          "d000" + kSeparator + "notes.txt', which IOLab did not write"));
    EXPECT_EQ(why[unmarked], "no IOLab marker inside: not ours");
    EXPECT_THROW(cleanStaleRuns(dir / "missing"), InputError);
    EXPECT_THROW(cleanStaleRuns(dir / "iolab-run-20260101-000000-4"), InputError);
}
