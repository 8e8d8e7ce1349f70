// SPDX-License-Identifier: MIT
// Each strategy writes exactly the expected bytes: size and every byte are checked here by reading the file
// back independently of the engine's own verification.
#include "core/base/units.h"
#include "core/engine/pattern.h"
#include "core/model/matrix.h"
#include "platform/common/one_os_strategies.h"
#include "platform/platform.h"
#include "tests/support/capabilities.h"
#include "tests/support/pattern_file.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

#ifdef _WIN32
constexpr int kNotFoundCode = 3; // ERROR_PATH_NOT_FOUND
constexpr const char* kNotFoundName = "ERROR_PATH_NOT_FOUND";
constexpr int kExistsCode = 80; // ERROR_FILE_EXISTS
#else
constexpr int kNotFoundCode = ENOENT;
constexpr const char* kNotFoundName = "ENOENT";
constexpr int kExistsCode = EEXIST;
#endif

struct StrategyRow
{
    const char* name;
    const char* strategy;
    std::uint64_t chunk;
    std::uint64_t bytes;
    StdioBuffer buffer;
    SyncPolicy sync;
    TargetKind target = TargetKind::Directory;
};

class StrategyWrites : public ::testing::TestWithParam<StrategyRow>
{
protected:
    void SetUp() override
    {
        registerBuiltinStrategies(m_registry);
        m_target = inspectTarget(m_dir.path());
    }

    Registry m_registry;
    TempDir m_dir;
    TargetInfo m_target;
};

} // namespace

TEST_P(StrategyWrites, ExactBytes)
{
    const auto& row = GetParam();
    const Strategy* strategy = m_registry.find(row.strategy);
    ASSERT_NE(strategy, nullptr);
    Case c{row.strategy, Direction::Write, row.chunk, row.bytes, row.buffer, row.sync, 1, row.target};
    ASSERT_EQ(refusalReason(c, m_registry, m_target), "");

    const Pattern pattern(c.chunkBytes);
    JobSpec spec;
    spec.testCase = c;
    spec.bytes = row.bytes;
    spec.path = row.target == TargetKind::Directory ? m_dir / "data.dat" : "";
    spec.auxPath = m_dir / "data.batch";
    spec.pattern = &pattern;
    spec.verifyStream = true;
    spec.target = m_target;
    // Every write strategy times its calls when asked (issue 16): one entry per chunk, and one per sync call
    // the policy makes (fsync-every's, and the sync after the loop).
    const auto latency = std::make_unique<CallLatency>();
    spec.latency = latency.get();

    Outcome outcome;
    auto job = strategy->prepare(spec, outcome);
    if (!job && outcome.status == Status::Unsupported) {
        // What a folder or kernel may lack: O_DIRECT, or io_uring; a skip only where the machine lacks it
        // too.
        TargetInfo said = m_target;
        said.directIoProblem = outcome.message;
        const bool lacking = outcome.message.find("io_uring") != std::string::npos
                                 ? mayLackUring(outcome.message)
                                 : strategy->info().needsDirectIo && mayLackDirectIo(said);
        if (lacking)
            GTEST_SKIP() << outcome.message;
    }
    ASSERT_TRUE(job) << outcome.message;
    std::atomic<bool> stop{false};
    Progress progress;
    progress.stop = &stop;
    const auto executed = job->execute(progress);
    ASSERT_TRUE(executed.ok()) << executed.message;
    const auto finished = job->finish();
    ASSERT_TRUE(finished.ok()) << finished.message;
    job.reset();
    EXPECT_EQ(progress.bytes.load(), row.bytes);
    EXPECT_EQ(latency->calls.count(), (row.bytes + row.chunk - 1) / row.chunk);
    if (row.sync.mode == SyncMode::FsyncEnd || row.sync.mode == SyncMode::FdatasyncEnd) {
        EXPECT_EQ(latency->syncs.count(), 1u);
    } else if (std::string_view(row.strategy) == "uring-linked-sync") {
        EXPECT_EQ(latency->syncs.count(), 1u) << "its syncs are inside the timed write calls; one after them";
    } else if (syncsEveryN(row.sync.mode)) {
        // Every N writes; the writers to a descriptor also sync the remainder after the loop, stdio does not.
        const std::uint64_t every = row.bytes / row.chunk / row.sync.everyWrites;
        EXPECT_GE(latency->syncs.count(), every);
        EXPECT_LE(latency->syncs.count(), every + 1);
    } else {
        EXPECT_EQ(latency->syncs.count(), 0u) << toString(row.sync);
    }

    if (row.target != TargetKind::Directory)
        return; // the pipe reader checked every byte (finish() above)
    const auto data = readFileBytes(spec.path);
    ASSERT_EQ(data.size(), row.bytes);
    for (std::size_t i = 0; i < data.size(); ++i)
        ASSERT_EQ(data[i], Pattern::expected(i)) << "byte " << i;
}

// clang-format off
#ifdef _WIN32
INSTANTIATE_TEST_SUITE_P(Windows, StrategyWrites, ::testing::Values(
    StrategyRow{"GroupCommitOneWriter", "group-commit", 4096, 64 * 4096 + 5, {}, {SyncMode::FsyncEvery, 1}},
    StrategyRow{"StdioOneByteDefault", "stdio", 1, 100'000, {BufferMode::Default, 0}, {}},
    StrategyRow{"StdioUnbuffered", "stdio", 7, 7'001, {BufferMode::None, 0}, {}},
    StrategyRow{"StdioOwnBufferFsyncEvery", "stdio", 4096, 1 << 20, {BufferMode::Bytes, 64 * kKiB}, {SyncMode::FsyncEvery, 50}},
    StrategyRow{"StdioWriteThrough", "stdio", 65536, 1 << 20, {BufferMode::Default, 0}, {SyncMode::ODsync, 0}},
    StrategyRow{"StdioFsyncEnd", "stdio", 1000, 1'000'000, {BufferMode::Bytes, 1024}, {SyncMode::FsyncEnd, 0}},
    StrategyRow{"WriteOddChunkWithTail", "write", 3000, 1'000'000, {}, {}},
    StrategyRow{"WriteWriteThrough", "write", 4096, 256 * kKiB, {}, {SyncMode::ODsync, 0}},
    StrategyRow{"WriteFsyncEnd", "write", 1 << 20, 3 << 20, {}, {SyncMode::FsyncEnd, 0}},
    StrategyRow{"Direct4K", "direct", 4096, 1 << 20, {}, {}},
    StrategyRow{"Direct512WriteThrough", "direct", 512, 64 * kKiB, {}, {SyncMode::ODsync, 0}},
    StrategyRow{"Direct1MLargerThanPeriod", "direct", 1 << 20, 4 << 20, {}, {SyncMode::FsyncEnd, 0}},
    StrategyRow{"MmapWindow4K", "mmap-window", 4096, 1 << 20, {}, {}},
    StrategyRow{"MmapWindowStraddling", "mmap-window", 10'000, 1'000'000, {}, {SyncMode::FsyncEnd, 0}},
    StrategyRow{"MmapWindowBigChunk", "mmap-window", 100'000, 1'000'000, {}, {}},
    StrategyRow{"MmapWindowShortLastWindow", "mmap-window", 4096, 70'000, {}, {}},
    StrategyRow{"MmapBatch4K", "mmap-batch-direct", 4096, 1 << 20, {}, {}},
    StrategyRow{"MmapBatchOddChunk", "mmap-batch-direct", 3000, 3000 * 512, {}, {SyncMode::ODsync, 0}},
    StrategyRow{"MmapBatchTailBatch", "mmap-batch-direct", 4096, 20 * 4096, {}, {SyncMode::FsyncEnd, 0}},
    StrategyRow{"PipeWrite", "pipe-write", 65536, 64 << 20, {}, {}, TargetKind::Pipe},
    StrategyRow{"PipeWriteOddChunk", "pipe-write", 1000, 10'000'000, {}, {}, TargetKind::Pipe},
    StrategyRow{"StdioToNull", "stdio", 1, 1 << 20, {BufferMode::Default, 0}, {}, TargetKind::Null},
    StrategyRow{"WriteToNull", "write", 4096, 1 << 20, {}, {}, TargetKind::Null},
    StrategyRow{"PutcDefault", "putc", 1, 100'000, {BufferMode::Default, 0}, {}},
    StrategyRow{"PutcUnbuffered", "putc", 1, 3'001, {BufferMode::None, 0}, {}},
    StrategyRow{"PutcUnlockedOwnBuffer", "putc-unlocked", 1, 300'000, {BufferMode::Bytes, 1024}, {SyncMode::FsyncEnd, 0}},
    StrategyRow{"PutcUnlockedUnbuffered", "putc-unlocked", 1, 3'001, {BufferMode::None, 0}, {}},
    StrategyRow{"FputcDefault", "fputc", 1, 100'000, {BufferMode::Default, 0}, {}},
    StrategyRow{"PutcUnlockedToNull", "putc-unlocked", 1, 1 << 20, {BufferMode::Default, 0}, {}, TargetKind::Null}),
    [](const auto& row) { return std::string(row.param.name); });
#else
INSTANTIATE_TEST_SUITE_P(Linux, StrategyWrites, ::testing::Values(
    StrategyRow{"WriteFdatasyncEveryWrite", "write", 8192, 64 * 8192, {}, {SyncMode::FdatasyncEvery, 1}},
    StrategyRow{"Pwritev2Dsync", "pwritev2-dsync", 8192, 64 * 8192 + 100, {}, {}},
    StrategyRow{"SyncFileRange", "sync-file-range", 8192, 64 * 8192 + 100, {}, {}},
    StrategyRow{"UringLinkedFdatasync", "uring-linked-sync", 4096, 100 * 4096 + 7, {}, {SyncMode::FdatasyncEvery, 1}},
    StrategyRow{"UringLinkedFsyncEvery4OddChunk", "uring-linked-sync", 3000, 100'001, {}, {SyncMode::FsyncEvery, 4}},
    StrategyRow{"StdioFdatasyncEvery", "stdio", 4096, 1 << 20, {BufferMode::Bytes, 16 * kKiB}, {SyncMode::FdatasyncEvery, 32}},
    StrategyRow{"GroupCommitOneWriter", "group-commit", 4096, 64 * 4096 + 5, {}, {SyncMode::FdatasyncEvery, 1}},
    StrategyRow{"StdioOneByteDefault", "stdio", 1, 100'000, {BufferMode::Default, 0}, {}},
    StrategyRow{"StdioUnbuffered", "stdio", 7, 7'001, {BufferMode::None, 0}, {}},
    StrategyRow{"StdioOwnBufferFsyncEvery", "stdio", 4096, 1 << 20, {BufferMode::Bytes, 64 * kKiB}, {SyncMode::FsyncEvery, 50}},
    StrategyRow{"StdioOSync", "stdio", 65536, 1 << 20, {BufferMode::Default, 0}, {SyncMode::OSync, 0}},
    StrategyRow{"UnlockedOneByte1K", "stdio-unlocked", 1, 300'000, {BufferMode::Bytes, 1024}, {}},
    StrategyRow{"UnlockedFdatasync", "stdio-unlocked", 1000, 1'000'000, {BufferMode::Default, 0}, {SyncMode::FdatasyncEnd, 0}},
    StrategyRow{"WriteOddChunkWithTail", "write", 3000, 1'000'000, {}, {}},
    StrategyRow{"WriteODsync", "write", 4096, 256 * kKiB, {}, {SyncMode::ODsync, 0}},
    StrategyRow{"WriteFsyncEnd", "write", 1 << 20, 3 << 20, {}, {SyncMode::FsyncEnd, 0}},
    StrategyRow{"Direct4K", "direct", 4096, 1 << 20, {}, {}},
    StrategyRow{"Direct512ODsync", "direct", 512, 64 * kKiB, {}, {SyncMode::ODsync, 0}},
    StrategyRow{"Direct1MLargerThanPeriod", "direct", 1 << 20, 4 << 20, {}, {SyncMode::FdatasyncEnd, 0}},
    StrategyRow{"MmapWindow4K", "mmap-window", 4096, 1 << 20, {}, {}},
    StrategyRow{"MmapWindowStraddling", "mmap-window", 10'000, 1'000'000, {}, {SyncMode::FsyncEnd, 0}},
    StrategyRow{"MmapWindowBigChunk", "mmap-window", 100'000, 1'000'000, {}, {}},
    StrategyRow{"MmapBatch4K", "mmap-batch-direct", 4096, 1 << 20, {}, {}},
    StrategyRow{"MmapBatchOddChunk", "mmap-batch-direct", 3000, 3000 * 512, {}, {SyncMode::ODsync, 0}},
    StrategyRow{"MmapBatchTailBatch", "mmap-batch-direct", 4096, 20 * 4096, {}, {}},
    StrategyRow{"PipeWrite", "pipe-write", 65536, 64 << 20, {}, {}, TargetKind::Pipe},
    StrategyRow{"PipeWriteOddChunk", "pipe-write", 1000, 10'000'000, {}, {}, TargetKind::Pipe},
    StrategyRow{"Vmsplice", "vmsplice", 65536, 64 << 20, {}, {}, TargetKind::Pipe},
    StrategyRow{"VmspliceOddChunk", "vmsplice", 5000, 10'000'000, {}, {}, TargetKind::Pipe},
    StrategyRow{"StdioToNull", "stdio", 1, 1 << 20, {BufferMode::Default, 0}, {}, TargetKind::Null},
    StrategyRow{"WriteToNull", "write", 4096, 1 << 20, {}, {}, TargetKind::Null},
    // stdio-unlocked at 1 to 8 bytes runs the loop compiled for the constant size (putc_unlocked per byte),
    // above 8 the library call; the tail after the last full chunk is always the call.
    StrategyRow{"UnlockedThreeBytesWithTail", "stdio-unlocked", 3, 100'001, {BufferMode::Bytes, 1000}, {}},
    StrategyRow{"UnlockedEightBytesUnbufferedTail", "stdio-unlocked", 8, 8'005, {BufferMode::None, 0}, {}},
    StrategyRow{"UnlockedOneByteFsyncEvery", "stdio-unlocked", 1, 20'000, {BufferMode::Bytes, 512}, {SyncMode::FsyncEvery, 5000}},
    StrategyRow{"UnlockedNineBytesIsACall", "stdio-unlocked", 9, 90'004, {BufferMode::Default, 0}, {}},
    StrategyRow{"UnlockedCallOneByte", "stdio-unlocked-call", 1, 100'000, {BufferMode::Default, 0}, {}},
    StrategyRow{"UnlockedCallOddChunk", "stdio-unlocked-call", 7, 7'003, {BufferMode::None, 0}, {SyncMode::FdatasyncEnd, 0}},
    StrategyRow{"PutcDefault", "putc", 1, 100'000, {BufferMode::Default, 0}, {}},
    StrategyRow{"PutcUnbuffered", "putc", 1, 3'001, {BufferMode::None, 0}, {}},
    StrategyRow{"PutcUnlockedOwnBuffer", "putc-unlocked", 1, 300'000, {BufferMode::Bytes, 1024}, {SyncMode::FdatasyncEnd, 0}},
    StrategyRow{"PutcUnlockedUnbuffered", "putc-unlocked", 1, 3'001, {BufferMode::None, 0}, {}},
    StrategyRow{"FputcDefault", "fputc", 1, 100'000, {BufferMode::Default, 0}, {}},
    StrategyRow{"PutcUnlockedToNull", "putc-unlocked", 1, 1 << 20, {BufferMode::Default, 0}, {}, TargetKind::Null}),
    [](const auto& row) { return std::string(row.param.name); });
#endif
// clang-format on

TEST(StrategyRefusals, AreReportedNotCrashed)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    TempDir dir;
    const auto target = inspectTarget(dir.path());
    auto reason = [&](const char* strategy, std::uint64_t chunk, SyncPolicy sync, TargetKind kind) {
        Case c{strategy, Direction::Write, chunk, 1 << 20, {}, sync, 1, kind};
        return refusalReason(c, registry, target);
    };
    EXPECT_THAT(reason("direct", 1000, {}, TargetKind::Directory), HasSubstr("logical block size"));
#ifdef _WIN32
    EXPECT_THAT(reason("mmap-window", 4096, {SyncMode::ODsync, 0}, TargetKind::Directory),
                HasSubstr("bypass WriteFile"));
    EXPECT_THAT(reason("vmsplice", 4096, {}, TargetKind::Pipe), HasSubstr("Linux-only"));
    EXPECT_THAT(reason("write", 4096, {SyncMode::FdatasyncEnd, 0}, TargetKind::Directory),
                HasSubstr("fdatasync-end has no Windows meaning"));
    EXPECT_THAT(reason("direct", 4096, {SyncMode::OSync, 0}, TargetKind::Directory),
                HasSubstr("o_sync has no Windows meaning"));
#else
    EXPECT_THAT(reason("mmap-window", 4096, {SyncMode::OSync, 0}, TargetKind::Directory),
                HasSubstr("bypass write(2)"));
    EXPECT_THAT(reason("vmsplice", 4096, {}, TargetKind::Directory), HasSubstr("pipe target"));
#endif
    EXPECT_THAT(reason("mmap-batch-direct", 4096, {SyncMode::FsyncEvery, 4}, TargetKind::Directory),
                HasSubstr("fsync-every"));
    EXPECT_THAT(reason("direct", 4096, {}, TargetKind::Null), HasSubstr("not to null"));
    EXPECT_THAT(reason("pipe-write", 4096, {SyncMode::FsyncEnd, 0}, TargetKind::Pipe),
                HasSubstr("nothing to sync"));
}

TEST(StrategyRefusals, PerCharacterWritersTakeOnlyOneByteChunks)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    TempDir dir;
    const auto target = inspectTarget(dir.path());
    for (const char* id : {"putc", "putc-unlocked", "fputc"}) {
        Case c{id, Direction::Write, 1, 1 << 20, {BufferMode::Default, 0}, {}, 1, TargetKind::Directory};
        EXPECT_EQ(refusalReason(c, registry, target), "") << id;
        c.chunkBytes = 4096;
        const auto reason = refusalReason(c, registry, target);
        EXPECT_THAT(reason, HasSubstr(std::string(id) + " writes one byte per call")) << id;
        EXPECT_THAT(reason, HasSubstr("4 KiB")) << id;
        c.chunkBytes = 2;
        EXPECT_THAT(refusalReason(c, registry, target), HasSubstr("not 2 B")) << id;
    }
}

TEST(StrategyInfo, TheLibraryCallVariantRunsWhereStdioUnlockedRuns)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    const auto& unlocked = registry.find("stdio-unlocked")->info();
    const auto& called = registry.find("stdio-unlocked-call")->info();
    EXPECT_EQ(called.unavailable.has_value(), unlocked.unavailable.has_value());
    EXPECT_EQ(called.syncModes, unlocked.syncModes);
    EXPECT_EQ(called.targets, unlocked.targets);
    EXPECT_TRUE(called.usesStdioBuffer);
    for (const char* id : {"putc", "putc-unlocked", "fputc"}) {
        ASSERT_NE(registry.find(id), nullptr) << id;
        EXPECT_FALSE(registry.find(id)->info().unavailable.has_value()) << id; // every C runtime has them
        EXPECT_TRUE(registry.find(id)->info().usesStdioBuffer) << id;
    }
}

TEST(StrategyFailures, OpenErrorsCarryErrnoCallAndPath)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    TempDir dir;
    const Pattern pattern(4096);
    for (const char* id : {"stdio", "putc", "write", "direct", "mmap-window", "mmap-batch-direct"}) {
        JobSpec spec;
        spec.testCase = Case{id, Direction::Write, 4096, 1 << 20, {}, {}, 1, TargetKind::Directory};
        if (registry.find(id)->info().usesStdioBuffer)
            spec.testCase.buffer = {BufferMode::Default, 0};
        spec.bytes = 1 << 20;
        spec.path = dir / "missing-folder/data.dat";
        spec.auxPath = dir / "missing-folder/data.batch";
        spec.pattern = &pattern;
        spec.target = inspectTarget(dir.path());
        Outcome outcome;
        EXPECT_EQ(registry.find(id)->prepare(spec, outcome), nullptr) << id;
        EXPECT_EQ(outcome.status, Status::Failed) << id;
        EXPECT_EQ(outcome.errorCode, kNotFoundCode) << id;
        EXPECT_THAT(outcome.message, HasSubstr("missing-folder/data.dat")) << id;
        EXPECT_THAT(outcome.message, HasSubstr(kNotFoundName)) << id;
    }
}

TEST(StrategyFailures, NeverOverwritesAnExistingFile)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    TempDir dir;
    const std::string path = dir / "precious.dat";
    std::ofstream(path) << "keep me";
    const Pattern pattern(4096);
    JobSpec spec;
    spec.testCase = Case{"write", Direction::Write, 4096, 8192, {}, {}, 1, TargetKind::Directory};
    spec.bytes = 8192;
    spec.path = path;
    spec.pattern = &pattern;
    Outcome outcome;
    EXPECT_EQ(registry.find("write")->prepare(spec, outcome), nullptr);
    EXPECT_EQ(outcome.errorCode, kExistsCode);
    std::ifstream in(path);
    std::string text;
    std::getline(in, text);
    EXPECT_EQ(text, "keep me");
}

// A direct writer checks that its source buffer is aligned to the target's block before it opens anything:
// the kernel would fail a misaligned O_DIRECT write on one filesystem and copy it silently on another, and
// wine does not check FILE_FLAG_NO_BUFFERING's alignment at all. A block size no page-aligned buffer meets (a
// prime near 4 GiB) makes every buffer misaligned.
TEST(StrategyFailures, DirectWritersRefuseASourceBufferNotAlignedToTheBlock)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    TempDir dir;
    const Pattern pattern(4096);
    for (const char* id : {"direct", "direct-random"}) {
        JobSpec spec;
        spec.testCase = Case{id, Direction::Write, 4096, 1 << 20, {}, {}, 1, TargetKind::Directory};
        spec.bytes = 1 << 20;
        spec.path = dir / "data.dat";
        spec.pattern = &pattern;
        spec.target = inspectTarget(dir.path());
        spec.target.logicalBlockBytes = 4294967291U;
        Outcome outcome;
        EXPECT_EQ(registry.find(id)->prepare(spec, outcome), nullptr) << id;
        EXPECT_NE(outcome.status, Status::Ok) << id;
        EXPECT_EQ(outcome.operation, "align") << id;
        EXPECT_FALSE(std::filesystem::exists(spec.path)) << id << ": nothing is opened before the check";
    }
}

// The built-in strategies are one list for every OS, in the order the front ends show them; a strategy an
// OS does not have keeps its place, unavailable.
TEST(BuiltinStrategies, OneListInOneOrderOnEveryOs)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    std::vector<std::string> ids;
    for (const auto& strategy : registry.all())
        ids.push_back(strategy->info().id);
    EXPECT_EQ(ids, (std::vector<std::string>{"stdio",
                                             "stdio-unlocked",
                                             "stdio-unlocked-call",
                                             "putc",
                                             "putc-unlocked",
                                             "fputc",
                                             "write",
                                             "direct",
                                             "write-random",
                                             "direct-random",
                                             "mmap-window",
                                             "mmap-batch-direct",
                                             "group-commit",
                                             "pipe-write",
                                             "vmsplice",
                                             "pwritev2-dsync",
                                             "sync-file-range",
                                             "uring-linked-sync",
                                             "read",
                                             "fread",
                                             "fread-unlocked",
                                             "read-direct",
                                             "mmap-read",
                                             "read-random",
                                             "read-random-direct",
                                             "files-serial",
                                             "files-pool",
                                             "files-per-thread",
                                             "uring-write",
                                             "uring-write-direct",
                                             "uring-random-write",
                                             "uring-random-write-direct",
                                             "uring-read",
                                             "uring-read-direct",
                                             "uring-random-read",
                                             "uring-random-read-direct",
                                             "overlapped-write",
                                             "overlapped-write-direct",
                                             "overlapped-random-write",
                                             "overlapped-random-write-direct",
                                             "overlapped-read",
                                             "overlapped-read-direct",
                                             "overlapped-random-read",
                                             "overlapped-random-read-direct"}));
}

// A strategy one OS has is declared once: the backend that has it registers that declaration, the other lists
// the same declaration, unavailable with the reason, and refuses to prepare a job.
TEST(OneOsStrategies, DeclaredOnceAndListedUnavailableElsewhere)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    for (const OneOsStrategy* linuxOnly :
         {&pwritev2DsyncDeclaration(), &syncFileRangeDeclaration(), &uringLinkedSyncDeclaration()}) {
        const Strategy* listed = registry.find(linuxOnly->info.id);
        ASSERT_NE(listed, nullptr) << linuxOnly->info.id;
        EXPECT_EQ(listed->info().description, linuxOnly->info.description);
#ifdef _WIN32
        EXPECT_EQ(listed->info().unavailable, linuxOnly->elsewhere);
#else
        EXPECT_FALSE(listed->info().unavailable.has_value()) << linuxOnly->info.id;
#endif
        EXPECT_THAT(linuxOnly->elsewhere, HasSubstr("Linux-only")) << linuxOnly->info.id;
    }
    const OneOsStrategy& vmsplice = vmspliceDeclaration();
    const Strategy* registered = registry.find("vmsplice");
    ASSERT_NE(registered, nullptr);
    EXPECT_EQ(registered->info().description, vmsplice.info.description);
    EXPECT_EQ(registered->info().targets, vmsplice.info.targets);
#ifdef _WIN32
    EXPECT_EQ(registered->info().unavailable, vmsplice.elsewhere);
#else
    EXPECT_FALSE(registered->info().unavailable.has_value());
#endif

    const auto unavailable = makeUnavailableStrategy(vmsplice);
    EXPECT_EQ(unavailable->info().id, "vmsplice");
    EXPECT_EQ(unavailable->info().unavailable, vmsplice.elsewhere);
    EXPECT_THAT(vmsplice.elsewhere, HasSubstr("Linux-only"));
    Outcome outcome;
    EXPECT_EQ(unavailable->prepare(JobSpec{}, outcome), nullptr);
    EXPECT_EQ(outcome.status, Status::Unsupported);
    EXPECT_EQ(outcome.message, vmsplice.elsewhere);
}
