// SPDX-License-Identifier: MIT
// The editor's draft against the real strategy list: every preset turns into a draft and back without adding
// or losing a case.
#include "core/analysis/estimate.h"
#include "core/base/error.h"
#include "core/base/units.h"
#include "core/formats/matrix_json.h"
#include "core/formats/presets.h"
#include "core/model/matrix_draft.h"
#include "platform/platform.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

using namespace iolab;
using namespace iolab::test;
using testing::HasSubstr;

namespace {

TargetInfo anyTarget()
{
    TargetInfo t;
    t.path = "/tmp";
    t.capabilitiesProbed = true;
    return t;
}

std::vector<std::string> labels(const std::vector<Case>& cases)
{
    std::vector<std::string> out;
    for (const auto& c : cases)
        out.push_back(c.label());
    std::sort(out.begin(), out.end());
    return out;
}

class PresetDraft : public testing::TestWithParam<std::string>
{};

} // namespace

TEST_P(PresetDraft, RoundTripsWithTheSameCases)
{
    const Matrix preset = *findPreset(GetParam());
    const MatrixDraft draft = MatrixDraft::fromMatrix(preset, builtinRegistry());
    EXPECT_EQ(draft.note, "");
    EXPECT_EQ(draft.problem(), "");
    const Matrix back = draft.toMatrix();
    EXPECT_EQ(back, preset) << "presets are already in the editor's canonical grouping";
    EXPECT_EQ(labels(expand(back, builtinRegistry(), anyTarget()).cases),
              labels(expand(preset, builtinRegistry(), anyTarget()).cases));
    // Through the JSON the GUI saves user presets as.
    const Matrix reread = parseMatrixJson(matrixToJson(back).dump(2), "user preset");
    EXPECT_EQ(MatrixDraft::fromMatrix(reread, builtinRegistry()), draft);
}

INSTANTIATE_TEST_SUITE_P(AllPresets, PresetDraft,
                         testing::Values("quick", "stdio-per-byte", "sync-modes", "bandwidth-4k", "pipe"));

TEST(MatrixDraft, GroupsStrategiesWithEqualAxes)
{
    MatrixDraft draft = MatrixDraft::fresh(builtinRegistry());
    EXPECT_EQ(draft.strategies.size(), builtinRegistry().all().size());
    EXPECT_EQ(draft.problem(), "no strategy has a chunk size ticked");
    insertSorted(draft.find("write")->chunks, std::uint64_t{4096});
    insertSorted(draft.find("write")->chunks, std::uint64_t{1});
    insertSorted(draft.find("stdio")->chunks, std::uint64_t{4096});
    insertSorted(draft.find("direct")->chunks, std::uint64_t{4096});
    insertSorted(draft.find("direct")->syncs, SyncPolicy{SyncMode::OSync, 0});
    const Matrix m = draft.toMatrix();
    ASSERT_EQ(m.groups.size(), 3u);
    EXPECT_EQ(m.groups[0].strategies, std::vector<std::string>{"stdio"});
    EXPECT_EQ(m.groups[1].strategies, std::vector<std::string>{"write"});
    EXPECT_EQ(m.groups[1].chunks, (std::vector<std::uint64_t>{1, 4096}));
    EXPECT_TRUE(m.groups[1].syncs.empty()) << "the default is left implicit";
    EXPECT_EQ(m.groups[2].syncs, (std::vector<SyncPolicy>{{}, {SyncMode::OSync, 0}}));
    EXPECT_EQ(draft.chunksInUse(), (std::vector<std::uint64_t>{1, 4096}));
    EXPECT_EQ(draft.toMatrix(TargetKind::Null).groups[0].targets, std::vector<TargetKind>{TargetKind::Null});
}

TEST(MatrixDraft, KeepsThePreallocateAxis)
{
    MatrixGroup g;
    g.strategies = {"write", "direct"};
    g.chunks = {1 << 20};
    g.sizes = {256 << 20};
    g.preallocations = {Preallocate::None, Preallocate::Overwrite};
    MatrixGroup plain = g;
    plain.strategies = {"stdio"};
    plain.preallocations.clear();
    const Matrix m{"m", "", {g, plain}};
    const auto back = MatrixDraft::fromMatrix(m, builtinRegistry()).toMatrix();
    EXPECT_EQ(expand(back, builtinRegistry(), anyTarget()).cases.size(),
              expand(m, builtinRegistry(), anyTarget()).cases.size());
    ASSERT_EQ(back.groups.size(), 2u);
    EXPECT_TRUE(back.groups[0].preallocations.empty()) << "stdio: the default is left implicit";
    EXPECT_EQ(back.groups[1].preallocations,
              (std::vector<Preallocate>{Preallocate::None, Preallocate::Overwrite}));
}

TEST(MatrixDraft, NamesEveryEmptyAxis)
{
    MatrixDraft draft = MatrixDraft::fresh(builtinRegistry());
    draft.find("stdio")->chunks = {1};
    draft.find("stdio")->buffers.clear();
    EXPECT_EQ(draft.problem(), "stdio has no stdio buffer ticked");
    draft.find("stdio")->buffers = {{BufferMode::None, 0}};
    draft.find("stdio")->threads.clear();
    EXPECT_EQ(draft.problem(), "stdio has no thread count ticked");
}

TEST(MatrixDraft, MergesAStrategyThatTwoGroupsDescribeDifferently)
{
    Matrix m{"two", "", {}};
    MatrixGroup a;
    a.strategies = {"write"};
    a.chunks = {4096};
    a.sizes = {kMiB};
    MatrixGroup b = a;
    b.chunks = {512};
    b.threads = {2};
    b.targets = {TargetKind::Directory};
    m.groups = {a, b};
    const auto draft = MatrixDraft::fromMatrix(m, builtinRegistry());
    EXPECT_THAT(draft.note, HasSubstr("write appear in several groups"));
    EXPECT_THAT(draft.note, HasSubstr("target picker"));
    EXPECT_EQ(draft.find("write")->chunks, (std::vector<std::uint64_t>{512, 4096}));
    EXPECT_EQ(draft.find("write")->threads, (std::vector<std::uint32_t>{1, 2}));
}

TEST(MatrixDraft, RefusesUnknownStrategies)
{
    Matrix m{"bad", "", {}};
    MatrixGroup g;
    g.strategies = {"teleport"};
    g.chunks = {1};
    g.sizes = {1};
    m.groups = {g};
    EXPECT_THROW(MatrixDraft::fromMatrix(m, builtinRegistry()), InputError);
}

// The estimate's own fixed costs, as core/analysis/estimate.cpp declares them: per case (the plan's
// book-keeping) and per repetition (its files made and removed).
constexpr double kCaseOverhead = 0.02;
constexpr double kRepetitionOverhead = 0.03;

TEST(Estimate, PrefersMeasuredRatesAndScalesWithRepetitions)
{
    Case c;
    c.strategy = "write";
    c.chunkBytes = 4096;
    c.totalBytes = 100 * 1000 * 1000;
    RunOptions options;
    options.repetitions = 3;
    options.warmups = 1;
    const Registry& registry = builtinRegistry();
    const auto guessed = estimateDuration({c}, options, anyTarget(), {}, registry);
    EXPECT_EQ(guessed.guessedCases, 1u);
    EXPECT_GT(guessed.seconds, 4 * kRepetitionOverhead);
    ASSERT_EQ(guessed.caseSeconds.size(), 1u);
    EXPECT_DOUBLE_EQ(guessed.caseSeconds[0], guessed.seconds);

    // An older result with a rate and no wall time: 100 MB at 100 MB/s is 1 s a repetition.
    CaseResult known;
    known.testCase = c;
    known.testCase.totalBytes = 5; // the size does not matter, the rate does
    known.repetitions.resize(4);
    known.durableMBps.count = 3;
    known.durableMBps.median = 100;
    const auto measured = estimateDuration({c}, options, anyTarget(), {known}, registry);
    EXPECT_EQ(measured.measuredCases, 1u);
    EXPECT_NEAR(measured.seconds, kCaseOverhead + 4 * (1 + kRepetitionOverhead), 1e-9);

    options.repetitions = 7;
    EXPECT_NEAR(estimateDuration({c}, options, anyTarget(), {known}, registry).seconds,
                kCaseOverhead + 8 * (1 + kRepetitionOverhead), 1e-9);
    known.status = Status::Failed;
    EXPECT_EQ(estimateDuration({c}, options, anyTarget(), {known}, registry).measuredCases, 0u);
}

// A case timed before with its wall time (every result since issue 34): that time per repetition, scaled by
// the size unless a time limit bounded it.
TEST(Estimate, AMeasuredWallTimeIsTakenAsItIs)
{
    Case c;
    c.strategy = "write";
    c.chunkBytes = 4096;
    c.totalBytes = 100 * 1000 * 1000;
    RunOptions options;
    options.repetitions = 3;
    options.warmups = 1;
    CaseResult known;
    known.testCase = c;
    known.repetitions.resize(4);
    known.wallSeconds = 8.0; // 2 s a repetition
    const Registry& registry = builtinRegistry();
    EXPECT_NEAR(estimateDuration({c}, options, anyTarget(), {known}, registry).seconds,
                kCaseOverhead + 4 * 2.0, 1e-9);
    known.testCase.totalBytes = c.totalBytes * 2; // twice the bytes in that time: half of it here
    EXPECT_NEAR(estimateDuration({c}, options, anyTarget(), {known}, registry).seconds,
                kCaseOverhead + 4 * 1.0, 1e-9);
    // Bounded by a time limit: the size says nothing.
    c.timeLimitMs = 1500;
    known.testCase = c;
    known.testCase.totalBytes = c.totalBytes * 2;
    for (auto& r : known.repetitions)
        r.timeLimitReached = true;
    EXPECT_NEAR(estimateDuration({c}, options, anyTarget(), {known}, registry).seconds,
                kCaseOverhead + 4 * 2.0, 1e-9);
}

// The kill -9 probe's runs count: each kill comes at half a repetition on average, then reads the files
// back; a case the probe refuses (a pipe) adds nothing.
TEST(Estimate, CountsTheKill9ProbesRuns)
{
    Case c;
    c.strategy = "write";
    c.chunkBytes = 4096;
    c.totalBytes = 100 * 1000 * 1000;
    CaseResult known;
    known.testCase = c;
    known.repetitions.resize(4);
    known.durableMBps.count = 3;
    known.durableMBps.median = 100; // 1 s per repetition, 1.03 with its overhead
    RunOptions options;
    options.repetitions = 3;
    options.warmups = 1;
    options.crashProbe = 5;
    const Registry& registry = builtinRegistry();
    const double one = 1 + kRepetitionOverhead;
    EXPECT_NEAR(estimateDuration({c}, options, anyTarget(), {known}, registry).seconds,
                kCaseOverhead + 4 * one + 5 * (one / 2 + 0.1), 1e-9);
    Case pipe = c;
    pipe.target = TargetKind::Pipe;
    known.testCase = pipe;
    EXPECT_NEAR(estimateDuration({pipe}, options, anyTarget(), {known}, registry).seconds,
                kCaseOverhead + 4 * one, 1e-9);
}

TEST(Estimate, SyncOnEveryWriteCostsMoreThanSyncAtTheEnd)
{
    Case c;
    c.strategy = "write";
    c.chunkBytes = 512;
    c.totalBytes = 512 * 10000;
    const StrategyInfo& write = builtinRegistry().find("write")->info();
    const double plain = guessRepetitionSeconds(c, write, anyTarget());
    c.sync = {SyncMode::ODsync, 0};
    EXPECT_GT(guessRepetitionSeconds(c, write, anyTarget()), 10 * plain);
}

// Without a calibration, a disk that says it is rotational is priced as a hard disk, except a virtual
// machine's disk: virtio says rotational whatever the host keeps it on (this VM's vda does), and pricing it
// at 8 ms a random read made the quick preset "about 11 min" for a run of 56 s.
TEST(Estimate, AVirtualDisksRotationalFlagDoesNotMakeItAHardDisk)
{
    Case c;
    c.strategy = "read-random-direct";
    c.direction = Direction::Read;
    c.cache = CacheState::Cold;
    c.chunkBytes = 4096;
    c.totalBytes = 64 * kMiB;
    const StrategyInfo& info = builtinRegistry().find("read-random-direct")->info();
    TargetInfo ssd = anyTarget();
    ssd.device = "sda";
    ssd.rotational = false;
    TargetInfo hdd = ssd;
    hdd.rotational = true;
    TargetInfo virtio = hdd;
    virtio.device = "vda";
    const double onSsd = guessRepetitionSeconds(c, info, ssd);
    EXPECT_GT(guessRepetitionSeconds(c, info, hdd), 20 * onSsd);
    EXPECT_DOUBLE_EQ(guessRepetitionSeconds(c, info, virtio), onSsd);
    // A calibration, where there is one, decides either way.
    virtio.calibration = DeviceCalibration{.directReadSeconds = 8e-3};
    EXPECT_GT(guessRepetitionSeconds(c, info, virtio), 20 * onSsd);
}

// The model stands on the target's calibration: a device ten times slower makes a direct write's estimate
// about ten times longer, a slower sync a synced write's; a time limit caps either.
TEST(Estimate, FollowsTheTargetsCalibration)
{
    Case c;
    c.strategy = "direct";
    c.chunkBytes = 1 << 20;
    c.totalBytes = 1ULL << 30;
    const StrategyInfo& direct = builtinRegistry().find("direct")->info();
    TargetInfo fast = anyTarget();
    fast.calibration = DeviceCalibration{.pageCacheWriteBytesPerSecond = 3e9,
                                         .bufferedDurableBytesPerSecond = 1e9,
                                         .deviceWriteBytesPerSecond = 1e9,
                                         .deviceReadBytesPerSecond = 1e9,
                                         .syncSeconds = 1e-3,
                                         .directWriteSeconds = 100e-6,
                                         .directReadSeconds = 100e-6};
    TargetInfo slow = fast;
    slow.calibration->deviceWriteBytesPerSecond = 1e8;
    const double onFast = guessRepetitionSeconds(c, direct, fast);
    const double onSlow = guessRepetitionSeconds(c, direct, slow);
    EXPECT_NEAR(onFast, 1.07 + kRepetitionOverhead, 0.05); // 1 GiB at 1 GB/s
    EXPECT_NEAR(onSlow / onFast, 10, 1.0);
    c.timeLimitMs = 2000;
    EXPECT_NEAR(guessRepetitionSeconds(c, direct, slow), 2.0 + kRepetitionOverhead, 1e-9);

    Case synced;
    synced.strategy = "write";
    synced.chunkBytes = 4096;
    synced.totalBytes = 4096 * 1000;
    synced.sync = {SyncMode::FdatasyncEvery, 1};
    const StrategyInfo& write = builtinRegistry().find("write")->info();
    TargetInfo slowSync = fast;
    slowSync.calibration->syncSeconds = 10e-3;
    EXPECT_NEAR(guessRepetitionSeconds(synced, write, fast), 1000 * 1e-3, 0.05);
    EXPECT_NEAR(guessRepetitionSeconds(synced, write, slowSync), 1000 * 10e-3, 0.1);
    EXPECT_TRUE(estimateDuration({c}, RunOptions{}, fast, {}, builtinRegistry()).calibrated);
    EXPECT_FALSE(estimateDuration({c}, RunOptions{}, anyTarget(), {}, builtinRegistry()).calibrated);
}

// A direct write's calls return before its final fsync has flushed the device's cache (a virtual disk's host
// page cache): a time-limited repetition pays that flush for what it wrote by the limit. On this project's VM
// 1 GiB of 1 MiB direct writes returned in 0.8-0.9 s and was durable after 1.5-1.7 s.
TEST(Estimate, ATimeLimitedDirectWritePaysItsFinalFlush)
{
    Case c;
    c.strategy = "direct";
    c.chunkBytes = 1 << 20;
    c.totalBytes = 1ULL << 30;
    c.timeLimitMs = 1000;
    const StrategyInfo& direct = builtinRegistry().find("direct")->info();
    TargetInfo target = anyTarget();
    target.calibration = DeviceCalibration{.pageCacheWriteBytesPerSecond = 3e9,
                                           .bufferedDurableBytesPerSecond = 800e6,
                                           .deviceWriteBytesPerSecond = 400e6,
                                           .directReturnedBytesPerSecond = 800e6,
                                           .deviceReadBytesPerSecond = 1e9};
    // 800 MB by the limit, stored at 400 MB/s: 2 s.
    EXPECT_NEAR(guessRepetitionSeconds(c, direct, target), 2.0 + kRepetitionOverhead, 0.02);
    // A calibration stored before the returned rate was measured prices it as before: the limit.
    target.calibration->directReturnedBytesPerSecond = 0;
    EXPECT_NEAR(guessRepetitionSeconds(c, direct, target), 1.0 + kRepetitionOverhead, 0.02);
}

// On a filesystem mounted with online discard, removing a repetition's file waits for a discard of every
// extent it frees: 0.45 s for 1 GiB written in order on this project's VM, over a second for a sparse file
// after a second of random 4 KiB writes. Without `discard` (or with `nodiscard`) the removal is in the
// overhead.
TEST(Estimate, RemovingAFileCostsItsDiscardsOnlyOnADiscardMount)
{
    const Registry& registry = builtinRegistry();
    Case sequential;
    sequential.strategy = "direct";
    sequential.chunkBytes = 1 << 20;
    sequential.totalBytes = 1ULL << 30;
    Case scattered;
    scattered.strategy = "direct-random";
    scattered.chunkBytes = 4096;
    scattered.totalBytes = 256ULL << 20;
    scattered.timeLimitMs = 1000;
    TargetInfo plain = anyTarget();
    plain.mountOptions = "rw,relatime";
    TargetInfo discarding = plain;
    discarding.mountOptions = "rw,relatime,discard";
    TargetInfo notDiscarding = plain;
    notDiscarding.mountOptions = "rw,nodiscard";
    const auto cost = [&](const Case& c, const TargetInfo& t) {
        return guessRepetitionSeconds(c, registry.find(c.strategy)->info(), t);
    };
    EXPECT_NEAR(cost(sequential, discarding) - cost(sequential, plain), 1.07e9 / 2.4e9, 0.01);
    EXPECT_DOUBLE_EQ(cost(sequential, notDiscarding), cost(sequential, plain));
    // Typical figures: 100 us a random 4 KiB write, so about 10,000 by the limit, nearly all apart.
    const double scatteredCost = cost(scattered, discarding) - cost(scattered, plain);
    EXPECT_GT(scatteredCost, 1.0);
    EXPECT_LT(scatteredCost, 2.0);
    // Preallocated by writing it whole, the file is one extent again: its bytes' discard only.
    scattered.preallocate = Preallocate::Overwrite;
    EXPECT_NEAR(cost(scattered, discarding) - cost(scattered, plain), 256.0 * (1 << 20) / 2.4e9, 0.01);
}

// Data sets are written once per run: two reads of one set pay for it once, in the first case's estimate.
TEST(Estimate, AReadsDataSetIsWrittenOncePerRun)
{
    Case read;
    read.strategy = "read";
    read.direction = Direction::Read;
    read.cache = CacheState::Cold;
    read.chunkBytes = 1 << 20;
    read.totalBytes = 1ULL << 30;
    Case mapped = read;
    mapped.strategy = "mmap-read";
    RunOptions options;
    options.repetitions = 1;
    options.warmups = 0;
    const auto both = estimateDuration({read, mapped}, options, anyTarget(), {}, builtinRegistry());
    const auto alone = estimateDuration({mapped}, options, anyTarget(), {}, builtinRegistry());
    ASSERT_EQ(both.caseSeconds.size(), 2u);
    EXPECT_LT(both.caseSeconds[1], alone.seconds) << "the second read's set was written by the first";
}

// The estimate prices a call by what the strategy declares, not by its name (into the null device, where
// nothing but the calls costs).
TEST(Estimate, FollowsTheStrategysDeclaredCallCost)
{
    Case c;
    c.strategy = "write";
    c.target = TargetKind::Null;
    c.chunkBytes = 4096;
    c.totalBytes = 64 * 1000 * 1000;
    StrategyInfo declared;
    declared.callCost = CallCost::Syscall;
    const double syscall = guessRepetitionSeconds(c, declared, anyTarget());
    declared.callCost = CallCost::Copy;
    EXPECT_LT(guessRepetitionSeconds(c, declared, anyTarget()), syscall);
    declared.callCost = CallCost::BufferedStdio;
    c.chunkBytes = 64; // a buffer pays off for calls smaller than itself
    c.buffer = {BufferMode::None, 0};
    const double unbuffered = guessRepetitionSeconds(c, declared, anyTarget());
    c.buffer = {BufferMode::Default, 0};
    EXPECT_GT(unbuffered, guessRepetitionSeconds(c, declared, anyTarget()));
    declared.lockFreeVariant = "stdio-unlocked"; // a locked stdio call costs more than an unlocked one
    EXPECT_GT(guessRepetitionSeconds(c, declared, anyTarget()),
              guessRepetitionSeconds(c, StrategyInfo{.callCost = CallCost::BufferedStdio}, anyTarget()));
    declared.callCost = CallCost::MappedWindow;
    declared.windowBytes = 16 * 1024;
    const double smallWindows = guessRepetitionSeconds(c, declared, anyTarget());
    declared.windowBytes = 1024 * 1024;
    EXPECT_GT(smallWindows, guessRepetitionSeconds(c, declared, anyTarget()));
    // To a file, a strategy that declares O_DIRECT waits for the device on every call.
    c.target = TargetKind::Directory;
    c.chunkBytes = 4096;
    StrategyInfo buffered{.callCost = CallCost::Syscall};
    StrategyInfo direct{.needsDirectIo = true, .callCost = CallCost::DirectWrite};
    EXPECT_GT(guessRepetitionSeconds(c, direct, anyTarget()),
              guessRepetitionSeconds(c, buffered, anyTarget()));
}

// Every built-in strategy on this OS is estimated from what it declares, found through the registry; no
// strategy is priced by its name: one more repetition adds exactly the model's repetition.
TEST(Estimate, EveryStrategyIsPricedByItsDeclaration)
{
    const Registry& registry = builtinRegistry();
    for (const auto& strategy : registry.all()) {
        for (const BufferMode buffer : {BufferMode::None, BufferMode::Default}) {
            for (const SyncMode sync : {SyncMode::None, SyncMode::ODsync}) {
                Case c;
                c.strategy = strategy->info().id;
                c.chunkBytes = 4096;
                c.totalBytes = 8 * 1000 * 1000;
                c.buffer = {buffer, 0};
                c.sync = {sync, 0};
                RunOptions one;
                one.repetitions = 1;
                one.warmups = 0;
                RunOptions two = one;
                two.repetitions = 2;
                EXPECT_NEAR(estimateDuration({c}, two, anyTarget(), {}, registry).seconds -
                                estimateDuration({c}, one, anyTarget(), {}, registry).seconds,
                            guessRepetitionSeconds(c, strategy->info(), anyTarget()), 1e-9)
                    << c.strategy;
            }
        }
    }
    EXPECT_EQ(registry.find("stdio")->info().callCost, CallCost::BufferedStdio);
    EXPECT_EQ(registry.find("stdio-unlocked")->info().callCost, CallCost::BufferedStdio);
    EXPECT_EQ(registry.find("write")->info().callCost, CallCost::Syscall);
    EXPECT_EQ(registry.find("mmap-batch-direct")->info().callCost, CallCost::Copy);
    EXPECT_EQ(registry.find("direct")->info().callCost, CallCost::DirectWrite);
    EXPECT_EQ(registry.find("mmap-window")->info().windowBytes, 16u * 1024);
}
