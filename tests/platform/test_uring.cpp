// SPDX-License-Identifier: MIT
// The io_uring strategies (uring-*) and the synchronous random writers (write-random, direct-random), run as
// the runner runs a job, in a temp folder: every byte written is read back and checked, reads verify every
// byte, latency counts one entry per request and per fsync, a stop with 128 requests in flight ends at once
// and leaves nothing in flight, and a ring the kernel refuses is Unsupported with the cause named.
#include "core/base/units.h"
#include "core/engine/pattern.h"
#include "core/model/matrix.h"
#include "platform/builtin_strategies.h"
#include "platform/linux/uring_queue.h"
#include "platform/linux/uring_setup.h"
#include "platform/platform.h"
#include "tests/support/capabilities.h"
#include "tests/support/mount.h"
#include "tests/support/pattern_file.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

// Every built-in strategy plus the random writers, which the lead registers later.
class UringFixture
{
protected:
    UringFixture() : m_target(inspectTarget(m_dir.path()))
    {
        registerBuiltinStrategies(m_registry);
        probeCapabilities(m_target);
    }

    const Strategy& strategy(const std::string& id)
    {
        const Strategy* found = m_registry.find(id);
        EXPECT_NE(found, nullptr) << id;
        return *found;
    }

    JobSpec writeSpec(const Case& c, const Pattern& pattern)
    {
        JobSpec spec;
        spec.testCase = c;
        spec.bytes = c.totalBytes;
        spec.path = m_dir / "data.dat";
        spec.pattern = &pattern;
        spec.target = m_target;
        return spec;
    }

    Registry m_registry;
    TempDir m_dir;
    TargetInfo m_target;
};

Case writeCase(const std::string& id, std::uint64_t chunk, std::uint64_t bytes, std::uint32_t depth,
               SyncPolicy sync = {})
{
    Case c{id, Direction::Write, chunk, bytes, {}, sync, 1, TargetKind::Directory};
    c.queueDepth = depth;
    return c;
}

bool queued(const std::string& id)
{
    return id.rfind("uring-", 0) == 0;
}

// A queue's view of a file written in order from the pattern, for the tests that drive a UringQueue directly.
linux_backend::QueueIo writeQueueIo(int fd, const Pattern& pattern, const std::string& path)
{
    linux_backend::QueueIo io;
    io.fd = fd;
    io.pattern = pattern.view();
    io.call = "io_uring write";
    io.path = path;
    return io;
}

// Request i goes to offset i x chunk; writes need no completion check.
constexpr auto kInOrder = [](std::uint64_t offset, std::uint64_t size) {
    return linux_backend::Extent{offset, size};
};
constexpr auto kNoCheck = [](std::uint64_t, const std::byte*, std::uint64_t) {
    return Outcome::success();
};

struct WriteRow
{
    const char* name;
    const char* strategy;
    std::uint64_t chunk;
    std::uint64_t bytes;
    std::uint32_t depth; // 0 for the synchronous writers
    SyncPolicy sync;
};

class UringWrites : public UringFixture, public ::testing::TestWithParam<WriteRow>
{};

} // namespace

TEST_P(UringWrites, EveryByteIsWrittenOnce)
{
    const auto& row = GetParam();
    const Case c = writeCase(row.strategy, row.chunk, row.bytes, row.depth, row.sync);
    const std::string refused = refusalReason(c, m_registry, m_target);
    if (strategy(row.strategy).info().needsDirectIo && mayLackDirectIo(m_target))
        GTEST_SKIP() << m_target.directIoProblem;
    ASSERT_EQ(refused, "");
    const Pattern pattern(c.chunkBytes);
    JobSpec spec = writeSpec(c, pattern);
    CallLatency latency;
    spec.latency = &latency;
    Outcome outcome;
    auto job = strategy(row.strategy).prepare(spec, outcome);
    ASSERT_TRUE(job) << outcome.message;
    std::atomic<bool> stop{false};
    Progress progress;
    progress.stop = &stop;
    const auto executed = job->execute(progress);
    ASSERT_TRUE(executed.ok()) << executed.message;
    job.reset();
    EXPECT_EQ(progress.bytes.load(), row.bytes);
    // One call per chunk, and every byte in place: each chunk was written, and written once.
    EXPECT_EQ(latency.calls.count(), (row.bytes + row.chunk - 1) / row.chunk);

    const auto data = readFileBytes(spec.path);
    ASSERT_EQ(data.size(), row.bytes);
    for (std::size_t i = 0; i < data.size(); ++i)
        ASSERT_EQ(data[i], Pattern::expected(i)) << "byte " << i;
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Linux, UringWrites, ::testing::Values(
    WriteRow{"WriteQd1Tail", "uring-write", 4096, kMiB + 1000, 1, {}},
    WriteRow{"WriteQd8Tail", "uring-write", 4096, kMiB + 1000, 8, {}},
    WriteRow{"WriteQd128Tail", "uring-write", 4096, kMiB + 1000, 128, {}},
    WriteRow{"WriteBigChunkTail", "uring-write", kMiB, 3 * kMiB + 5, 8, {SyncMode::FsyncEnd, 0}},
    WriteRow{"WriteOddChunkFsyncEvery", "uring-write", 3000, 300'001, 8, {SyncMode::FsyncEvery, 7}},
    WriteRow{"WriteFdatasyncEnd", "uring-write", 8192, kMiB, 32, {SyncMode::FdatasyncEnd, 0}},
    WriteRow{"WriteODsync", "uring-write", 4096, 256 * kKiB, 8, {SyncMode::ODsync, 0}},
    WriteRow{"WriteOSync", "uring-write", 4096, 256 * kKiB, 8, {SyncMode::OSync, 0}},
    WriteRow{"DirectQd1", "uring-write-direct", 4096, kMiB, 1, {}},
    WriteRow{"DirectQd8", "uring-write-direct", 4096, kMiB, 8, {SyncMode::FdatasyncEnd, 0}},
    WriteRow{"DirectQd128", "uring-write-direct", 4096, kMiB, 128, {}},
    WriteRow{"DirectBigChunk", "uring-write-direct", 256 * kKiB, 2 * kMiB, 8, {SyncMode::FsyncEvery, 2}},
    WriteRow{"RandomQd1Tail", "uring-random-write", 4096, kMiB + 1000, 1, {}},
    WriteRow{"RandomQd8Tail", "uring-random-write", 4096, kMiB + 1000, 8, {SyncMode::FsyncEvery, 16}},
    WriteRow{"RandomQd128Tail", "uring-random-write", 4096, kMiB + 1000, 128, {}},
    WriteRow{"RandomOddChunkTail", "uring-random-write", 5000, 1'000'003, 32, {SyncMode::FsyncEnd, 0}},
    WriteRow{"RandomDirectQd1", "uring-random-write-direct", 4096, kMiB, 1, {}},
    WriteRow{"RandomDirectQd8", "uring-random-write-direct", 4096, kMiB + 4096, 8, {SyncMode::FsyncEnd, 0}},
    WriteRow{"RandomDirectQd128", "uring-random-write-direct", 4096, kMiB, 128, {}},
    WriteRow{"SyncRandomTail", "write-random", 4096, kMiB + 1000, 0, {}},
    WriteRow{"SyncRandomOddChunkFsyncEvery", "write-random", 5000, 1'000'003, 0, {SyncMode::FsyncEvery, 20}},
    WriteRow{"SyncRandomDirect", "direct-random", 4096, kMiB, 0, {}},
    WriteRow{"SyncRandomDirectODsync", "direct-random", 512, 64 * kKiB, 0, {SyncMode::ODsync, 0}}),
    [](const auto& row) { return std::string(row.param.name); });
// clang-format on

namespace {

struct ReadRow
{
    const char* name;
    const char* strategy;
    std::uint64_t chunk;
    std::uint64_t fileBytes;
    std::uint64_t readBytes;
    std::uint32_t depth;
};

class UringReads : public UringFixture, public ::testing::TestWithParam<ReadRow>
{
protected:
    Case readCase(const ReadRow& row)
    {
        Case c{row.strategy, Direction::Read, row.chunk, row.fileBytes, {}, {}, 1, TargetKind::Directory};
        c.queueDepth = row.depth;
        if (strategy(row.strategy).info().needsDirectIo)
            c.hint = ReadHint::NotApplicable;
        else
            c.hint = std::string(row.strategy).find("random") != std::string::npos ? ReadHint::Random
                                                                                   : ReadHint::Sequential;
        return c;
    }

    // Reads the data file the way the runner hands it over; the outcome of execute().
    Outcome read(const ReadRow& row, CallLatency* latency, Progress& progress)
    {
        const Case c = readCase(row);
        const Pattern pattern(c.chunkBytes);
        JobSpec spec;
        spec.testCase = c;
        spec.bytes = row.readBytes;
        spec.path = m_dir / "set.dat";
        spec.pattern = &pattern;
        spec.target = m_target;
        spec.verifyData = true;
        spec.latency = latency;
        Outcome outcome;
        auto job = strategy(row.strategy).prepare(spec, outcome);
        if (!job)
            return outcome;
        return job->execute(progress);
    }
};

} // namespace

TEST_P(UringReads, VerifyEveryByte)
{
    const auto& row = GetParam();
    if (strategy(row.strategy).info().needsDirectIo && mayLackDirectIo(m_target))
        GTEST_SKIP() << m_target.directIoProblem;
    writePatternFile(m_dir / "set.dat", row.fileBytes);
    CallLatency latency;
    Progress progress;
    const Outcome executed = read(row, &latency, progress);
    ASSERT_TRUE(executed.ok()) << executed.message;
    EXPECT_EQ(progress.bytes.load(), row.readBytes);
    EXPECT_EQ(latency.calls.count(), (row.readBytes + row.chunk - 1) / row.chunk);
    EXPECT_EQ(latency.syncs.count(), 0u);

    // A damaged byte fails the read with the file and the offset.
    {
        std::fstream f(m_dir / "set.dat", std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(5000);
        f.put('\0'); // the pattern never holds a zero byte
    }
    Progress again;
    const Outcome damaged = read(row, nullptr, again);
    if (std::string(row.strategy).find("random") == std::string::npos) {
        EXPECT_EQ(damaged.status, Status::Failed);
        EXPECT_THAT(damaged.message, HasSubstr("set.dat: byte 5000 differs from what was written"));
    }
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Linux, UringReads, ::testing::Values(
    ReadRow{"ReadQd1Tail", "uring-read", 4096, kMiB + 100, kMiB + 100, 1},
    ReadRow{"ReadQd32Tail", "uring-read", 4096, kMiB + 100, kMiB + 100, 32},
    ReadRow{"ReadBigChunkQd32", "uring-read", 256 * kKiB, 2 * kMiB + 7, 2 * kMiB + 7, 32},
    ReadRow{"ReadDirectQd1", "uring-read-direct", 4096, kMiB, kMiB, 1},
    ReadRow{"ReadDirectQd32", "uring-read-direct", 4096, kMiB, kMiB, 32},
    ReadRow{"RandomQd1", "uring-random-read", 4096, kMiB, kMiB / 2, 1},
    ReadRow{"RandomQd32", "uring-random-read", 4096, kMiB, kMiB / 2, 32},
    ReadRow{"RandomDirectQd1", "uring-random-read-direct", 4096, kMiB, kMiB / 2, 1},
    ReadRow{"RandomDirectQd32", "uring-random-read-direct", 8192, kMiB, kMiB, 32}),
    [](const auto& row) { return std::string(row.param.name); });
// clang-format on

namespace {

class Uring : public UringFixture, public ::testing::Test
{};

} // namespace

TEST_F(Uring, LatencyCountsOneEntryPerRequestAndPerFsync)
{
    struct Row
    {
        SyncPolicy sync;
        std::uint64_t syncs;
    };
    // 64 requests; fsync-every:16 syncs four times in the loop and once at the end, as write does.
    for (const Row& row : {Row{{}, 0}, Row{{SyncMode::FsyncEvery, 16}, 5},
                           Row{{SyncMode::FdatasyncEvery, 16}, 5}, Row{{SyncMode::FdatasyncEnd, 0}, 1},
                           Row{{SyncMode::FsyncEnd, 0}, 1}, Row{{SyncMode::ODsync, 0}, 0}}) {
        for (const bool timed : {true, false}) {
            std::filesystem::remove(m_dir / "data.dat");
            const Case c = writeCase("uring-write", 4096, 256 * kKiB, 8, row.sync);
            const Pattern pattern(c.chunkBytes);
            JobSpec spec = writeSpec(c, pattern);
            CallLatency latency;
            spec.latency = timed ? &latency : nullptr;
            Outcome outcome;
            auto job = strategy("uring-write").prepare(spec, outcome);
            ASSERT_TRUE(job) << outcome.message;
            Progress progress;
            ASSERT_TRUE(job->execute(progress).ok());
            EXPECT_EQ(latency.calls.count(), timed ? 64u : 0u) << toString(row.sync);
            EXPECT_EQ(latency.syncs.count(), timed ? row.syncs : 0u) << toString(row.sync);
        }
    }
}

// fsync-every on a queue: the fsync goes in line behind the writes before it (IOSQE_IO_DRAIN), while the loop
// keeps the queue full, instead of the loop draining the queue for a blocking fsync. Each sync must complete
// after every write submitted before it; one that came back earlier would be sent again and counted.
TEST_F(Uring, QueuedFsyncsCompleteAfterEveryWriteBeforeThem)
{
    for (const bool direct : {false, true}) {
        if (direct && mayLackDirectIo(m_target))
            continue;
        SCOPED_TRACE(direct ? "O_DIRECT" : "buffered");
        const std::string path = m_dir / "queued-sync.dat";
        std::filesystem::remove(path);
        constexpr std::uint64_t kChunk = 4096;
        constexpr std::uint64_t kBytes = 256 * kChunk + 100; // 256 full writes and a tail
        const Pattern pattern(kChunk);
        linux_backend::Ring ring;
        Outcome outcome;
        ASSERT_TRUE(ring.init(32, outcome)) << outcome.message;
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | (direct ? O_DIRECT : 0), 0644);
        ASSERT_GE(fd, 0) << std::strerror(errno);
        const linux_backend::QueueIo io = writeQueueIo(fd, pattern, path);
        // The tail is 100 bytes: under O_DIRECT it would be refused, so the direct file ends at the last
        // chunk.
        const std::uint64_t bytes = direct ? 256 * kChunk : kBytes;
        CallLatency latency;
        Outcome error;
        std::uint64_t sentAgain = 0;
        LoopEnd end{};
        {
            linux_backend::UringQueue queue(ring, io, 32, CallTimer{&latency.calls, &latency.syncs}, kInOrder,
                                            kNoCheck, error);
            Progress progress;
            end = runQueuedChunks(bytes, kChunk, 32, 4, progress, queue);
            sentAgain = queue.syncsSentAgain();
            EXPECT_EQ(progress.bytes.load(), bytes);
        }
        ::close(fd);
        EXPECT_EQ(end, LoopEnd::Completed) << error.message;
        EXPECT_TRUE(error.ok()) << error.message;
        EXPECT_EQ(latency.calls.count(), bytes / kChunk + (bytes % kChunk != 0 ? 1 : 0));
        EXPECT_EQ(latency.syncs.count(), 64u) << "one fsync after every 4 full writes, none for the tail";
        EXPECT_EQ(sentAgain, 0u) << "a queued fsync completed before a write submitted ahead of it";
        const auto written = readFileBytes(path);
        ASSERT_EQ(written.size(), bytes);
        for (std::uint64_t at = 0; at < bytes; at += kChunk)
            ASSERT_EQ(std::memcmp(written.data() + at, pattern.at(at), std::min(kChunk, bytes - at)), 0)
                << at;
    }
}

// A full disk with fsyncs queued behind the failing writes: the run fails with ENOSPC and ends, instead of
// sending a sync again and again for writes that will never complete.
TEST_F(Uring, ADiskFullWithQueuedFsyncsFailsWithTheCauseAndEnds)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "mounting the small tmpfs that fills up needs root";
    TmpfsMount small("size=1m");
    ASSERT_TRUE(small.ok()) << std::strerror(errno);
    const std::string path = small.path() + "/full.dat";
    const Pattern pattern(4096);
    linux_backend::Ring ring;
    Outcome outcome;
    ASSERT_TRUE(ring.init(8, outcome)) << outcome.message;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0) << std::strerror(errno);
    const linux_backend::QueueIo io = writeQueueIo(fd, pattern, path);
    for (const bool timed : {false, true}) {
        SCOPED_TRACE(timed ? "latency on" : "latency off");
        ASSERT_EQ(::ftruncate(fd, 0), 0);
        CallLatency latency;
        Outcome error;
        auto running = std::async(std::launch::async, [&] {
            Progress progress;
            if (timed) {
                linux_backend::UringQueue queue(ring, io, 8, CallTimer{&latency.calls, &latency.syncs},
                                                kInOrder, kNoCheck, error);
                return runQueuedChunks(4 * kMiB, 4096, 8, 4, progress, queue);
            }
            linux_backend::UringQueue queue(ring, io, 8, NoCallTimer{}, kInOrder, kNoCheck, error);
            return runQueuedChunks(4 * kMiB, 4096, 8, 4, progress, queue);
        });
        if (running.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
            ADD_FAILURE() << "the queue still runs 30 s after the disk filled up";
            // The thread cannot be joined: end the test program with the failure, leaving no mount behind.
            ::umount2(small.path().c_str(), MNT_DETACH);
            std::_Exit(1);
        }
        EXPECT_EQ(running.get(), LoopEnd::Failed);
        EXPECT_EQ(error.errorCode, ENOSPC) << error.message;
        EXPECT_THAT(error.message, HasSubstr(path));
        EXPECT_EQ(ring.outstanding(), 0u) << "everything in flight was reaped";
    }
    ::close(fd);
}

// Issue 34: a queue refilled all at once reached a virtio disk as one burst that completed together (32
// requests per interrupt at QD32, the device idle while the thread woke and refilled). The queue hands its
// requests to the kernel as it prepares them, without waiting: each on its own, as fio (issue 39: a quarter
// of the queue at a time ran at 0.88-0.94x fio's), and a quarter at a time on an SQPOLL ring, where that ran
// faster; below a depth of 4 they go with the wait, in the same io_uring_enter.
TEST_F(Uring, AQueueHandsItsRequestsOverAsItPreparesThemBeforeItWaits)
{
    for (const auto& [depth, group] :
         {std::pair{1u, 0u}, {3u, 0u}, {4u, 1u}, {8u, 2u}, {32u, 8u}, {128u, 32u}})
        EXPECT_EQ(linux_backend::submissionGroup(depth, true), group) << "SQPOLL, depth " << depth;
    const std::string path = m_dir / "groups.dat";
    constexpr std::uint64_t kChunk = 4096;
    const Pattern pattern(kChunk);
    struct Row
    {
        std::uint32_t depth;
        std::uint32_t group; // 0: only with the wait
    };
    for (const Row row : {Row{1, 0}, Row{2, 0}, Row{3, 0}, Row{4, 1}, Row{8, 1}, Row{32, 1}, Row{128, 1}}) {
        SCOPED_TRACE("depth " + std::to_string(row.depth));
        EXPECT_EQ(linux_backend::submissionGroup(row.depth), row.group);
        std::filesystem::remove(path);
        linux_backend::Ring ring;
        Outcome outcome;
        ASSERT_TRUE(ring.init(row.depth, outcome)) << outcome.message;
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ASSERT_GE(fd, 0) << std::strerror(errno);
        const linux_backend::QueueIo io = writeQueueIo(fd, pattern, path);
        Outcome error;
        {
            linux_backend::UringQueue queue(ring, io, row.depth, NoCallTimer{}, kInOrder, kNoCheck, error);
            for (std::uint32_t i = 0; i < row.depth; ++i) {
                ASSERT_TRUE(queue.submit(i * kChunk, kChunk));
                const std::uint32_t prepared = i + 1;
                // What the kernel has not been handed yet: the part of the last group not yet full.
                EXPECT_EQ(ring.unsubmitted(), row.group == 0 ? prepared : prepared % row.group) << prepared;
            }
            std::uint64_t done = 0;
            while (done < row.depth) {
                const Reaped reaped = queue.reap(1);
                ASSERT_FALSE(reaped.failed) << error.message;
                ASSERT_GT(reaped.requests, 0u);
                done += reaped.requests;
            }
            EXPECT_EQ(ring.unsubmitted(), 0u);
        }
        ::close(fd);
        EXPECT_TRUE(error.ok()) << error.message;
        EXPECT_EQ(std::filesystem::file_size(path), row.depth * kChunk);
    }
}

TEST_F(Uring, AStopWith128InFlightEndsAtOnceAndReapsEverything)
{
    for (const char* id : {"uring-write", "uring-write-direct"}) {
        if (strategy(id).info().needsDirectIo && mayLackDirectIo(m_target))
            continue;
        std::filesystem::remove(m_dir / "data.dat");
        // 1 GiB declared; the stop lands after the first completions. 4 KiB requests, so that what the stop
        // waits for is the 128 requests' round trip, not 8 MiB of data (64 KiB chunks on a loaded CI machine
        // took 124 ms to drain). "At once" is against the seconds the rest of the 1 GiB would take at 4 KiB a
        // request: under AddressSanitizer on a loaded 2-CPU machine the drain took 121 ms, so the bound is 1
        // s.
        const Case c = writeCase(id, 4 * kKiB, 1024 * kMiB, 128);
        const Pattern pattern(c.chunkBytes);
        const JobSpec spec = writeSpec(c, pattern);
        Outcome outcome;
        auto job = strategy(id).prepare(spec, outcome);
        ASSERT_TRUE(job) << outcome.message;
        std::atomic<bool> stop{false};
        Progress progress;
        progress.stop = &stop;
        std::atomic<std::int64_t> stoppedAtNs{0};
        std::thread stopper([&] {
            while (progress.bytes.load(std::memory_order_relaxed) == 0)
                std::this_thread::yield();
            stoppedAtNs = std::chrono::steady_clock::now().time_since_epoch().count();
            stop = true;
        });
        const Outcome executed = job->execute(progress);
        const auto endedNs = std::chrono::steady_clock::now().time_since_epoch().count();
        stopper.join();
        EXPECT_EQ(executed.status, Status::Cancelled) << id << ": " << executed.message;
        const auto tookMs = (endedNs - stoppedAtNs.load()) / 1'000'000;
        EXPECT_LT(tookMs, 1000) << id;
        RecordProperty(std::string(id) + "_stop_ms", std::to_string(tookMs));
        // Sequential requests all reaped and counted: the file is exactly the bytes reported, and stays so.
        const std::uint64_t reported = progress.bytes.load();
        EXPECT_LT(reported, c.totalBytes) << id;
        EXPECT_EQ(std::filesystem::file_size(spec.path), reported) << id;
        job.reset();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        EXPECT_EQ(std::filesystem::file_size(spec.path), reported) << id;
    }
}

TEST_F(Uring, RandomWritersScatterTheirChunks)
{
    // Stopped at once, each writes its first batch (16 chunks, or the queue depth) and no more: the chunks
    // that hold data are not the file's first ones.
    for (const char* id :
         {"write-random", "direct-random", "uring-random-write", "uring-random-write-direct"}) {
        if (strategy(id).info().needsDirectIo && mayLackDirectIo(m_target))
            continue;
        std::filesystem::remove(m_dir / "data.dat");
        constexpr std::uint64_t kChunk = 4096;
        const Case c = writeCase(id, kChunk, kMiB, queued(id) ? 8 : 0);
        const Pattern pattern(c.chunkBytes);
        const JobSpec spec = writeSpec(c, pattern);
        Outcome outcome;
        auto job = strategy(id).prepare(spec, outcome);
        ASSERT_TRUE(job) << outcome.message;
        std::atomic<bool> stop{true};
        Progress progress;
        progress.stop = &stop;
        EXPECT_EQ(job->execute(progress).status, Status::Cancelled) << id;
        job.reset();
        const auto data = readFileBytes(spec.path);
        std::vector<std::uint64_t> written;
        for (std::uint64_t at = 0; at < data.size(); at += kChunk) {
            if (data[at] == std::byte{0})
                continue; // a hole
            written.push_back(at / kChunk);
            for (std::uint64_t i = at; i < at + kChunk; ++i)
                ASSERT_EQ(data[i], Pattern::expected(i)) << id << " byte " << i;
        }
        EXPECT_EQ(written.size() * kChunk, progress.bytes.load()) << id;
        ASSERT_FALSE(written.empty()) << id;
        EXPECT_NE(written.back(), written.size() - 1) << id << ": the first chunks were written in order";
    }
}

TEST_F(Uring, AShortReadIsResubmittedAndAnEarlyEndIsNamed)
{
    // The last request gets 3996 of its 4096 bytes, its resubmitted rest the end of the file.
    writePatternFile(m_dir / "set.dat", kMiB - 100);
    Case c{"uring-read", Direction::Read, 4096, kMiB, {}, {}, 1, TargetKind::Directory};
    c.queueDepth = 8;
    c.hint = ReadHint::Sequential;
    const Pattern pattern(c.chunkBytes);
    JobSpec spec;
    spec.testCase = c;
    spec.bytes = kMiB;
    spec.path = m_dir / "set.dat";
    spec.pattern = &pattern;
    spec.verifyData = true;
    Outcome outcome;
    auto job = strategy("uring-read").prepare(spec, outcome);
    ASSERT_TRUE(job) << outcome.message;
    Progress progress;
    const Outcome executed = job->execute(progress);
    EXPECT_EQ(executed.status, Status::Failed);
    EXPECT_THAT(executed.message, HasSubstr("set.dat: read 1048476 bytes, but 1048576 were written"));
    EXPECT_EQ(progress.bytes.load(), kMiB - 4096);
}

TEST_F(Uring, ARingTheKernelRefusesIsNamed)
{
    using namespace iolab::linux_backend;
    EXPECT_EQ(ringEntries(1), 1u);
    EXPECT_EQ(ringEntries(3), 4u);
    EXPECT_EQ(ringEntries(4096), 4096u);
    // Above IORING_MAX_ENTRIES (32768): refused on every kernel, without root.
    const auto problem = probeRing(65536);
    ASSERT_TRUE(problem.has_value());
    EXPECT_THAT(*problem, HasSubstr("io_uring_setup failed: Invalid argument (EINVAL)"));
    EXPECT_THAT(*problem, HasSubstr("65536 entries"));
    EXPECT_FALSE(probeRing(ringEntries(kMaxQueueDepth)).has_value());

    EXPECT_EQ(ringSetupProblem(EPERM, 8, 2),
              "io_uring is disabled on this machine (/proc/sys/kernel/io_uring_disabled = 2)");
    EXPECT_THAT(ringSetupProblem(EPERM, 8, 1), HasSubstr("(/proc/sys/kernel/io_uring_disabled = 1)"));
    EXPECT_THAT(ringSetupProblem(ENOSYS, 8, std::nullopt), HasSubstr("ENOSYS"));
    EXPECT_THAT(ringSetupProblem(ENOSYS, 8, std::nullopt), HasSubstr("seccomp"));
    EXPECT_THAT(ringSetupProblem(EPERM, 8, 0), HasSubstr("io_uring_setup failed: Operation not permitted"));
}

namespace {

// Sets /proc/sys/kernel/io_uring_disabled for the test's duration and puts the old value back.
class DisabledSwitch
{
public:
    explicit DisabledSwitch(int value) : m_old(linux_backend::ioUringDisabledSetting())
    {
        std::ofstream("/proc/sys/kernel/io_uring_disabled") << value;
    }
    ~DisabledSwitch()
    {
        if (m_old)
            std::ofstream("/proc/sys/kernel/io_uring_disabled") << *m_old;
    }
    DisabledSwitch(const DisabledSwitch&) = delete;
    DisabledSwitch& operator=(const DisabledSwitch&) = delete;

private:
    std::optional<int> m_old;
};

} // namespace

TEST_F(Uring, DisabledIoUringIsUnsupportedWithTheCause)
{
    if (!linux_backend::ioUringDisabledSetting())
        GTEST_SKIP() << "this kernel has no /proc/sys/kernel/io_uring_disabled (before 6.6)";
    if (::geteuid() != 0)
        GTEST_SKIP() << "setting /proc/sys/kernel/io_uring_disabled needs root";
    constexpr const char* kCause =
        "io_uring is disabled on this machine (/proc/sys/kernel/io_uring_disabled = 2)";
    const Case c = writeCase("uring-write", 4096, kMiB, 8);
    const Pattern pattern(c.chunkBytes);
    const JobSpec spec = writeSpec(c, pattern);
    Outcome outcome;
    std::string refused;
    {
        DisabledSwitch disabled(2);
        if (linux_backend::ioUringDisabledSetting() != 2)
            GTEST_SKIP() << "/proc/sys/kernel/io_uring_disabled is read-only here";
        refused = refusalReason(c, m_registry, m_target);
        EXPECT_EQ(strategy("uring-read").prepare(spec, outcome), nullptr);
        EXPECT_EQ(outcome.status, Status::Unsupported);
        EXPECT_EQ(outcome.message, kCause);
        outcome = {};
        EXPECT_EQ(strategy("uring-write").prepare(spec, outcome), nullptr);
    }
    EXPECT_EQ(outcome.status, Status::Unsupported);
    EXPECT_EQ(outcome.message, kCause);
    EXPECT_EQ(refused, kCause);
    EXPECT_EQ(m_dir.entryCount(), 0u) << "no file is created when the ring cannot be set up";
    EXPECT_EQ(refusalReason(c, m_registry, m_target), "") << "the old value is back";
}
