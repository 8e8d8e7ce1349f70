// SPDX-License-Identifier: MIT
// The overlapped-* strategies (overlapped I/O on an I/O completion port) and the synchronous random writers:
// every byte written is read back, every byte read is verified, requests are timed one by one, a stop
// reaps everything in flight, and set-up failures say what failed.
#include "core/engine/pattern.h"
#include "core/model/matrix.h"
#include "platform/builtin_strategies.h"
#include "platform/platform.h"
#include "platform/windows/overlapped_queue.h"
#include "platform/windows/win_chunk_order.h"
#include "platform/windows/win_io.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/temp_dir.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include <tuple>
#include <vector>

using namespace iolab;
using namespace iolab::test;
using namespace iolab::windows_backend;
using ::testing::HasSubstr;

namespace {

constexpr std::uint64_t kKiBytes = 1024;
constexpr std::uint64_t kMiBytes = 1024 * 1024;

struct Scratch
{
    TempDir dir;
    Pattern pattern{256 * kKiBytes};
    TargetInfo target = inspectTarget(dir.path());

    Scratch() { target.logicalBlockBytes = 4096; } // stricter than wine's volume: a real 4Kn disk's rules

    JobSpec spec(const std::string& strategy, Direction direction, std::uint64_t chunk, std::uint64_t bytes,
                 std::uint32_t queueDepth, SyncPolicy sync = {})
    {
        JobSpec s;
        s.testCase = Case{strategy, direction, chunk, bytes, {}, sync, 1, TargetKind::Directory};
        s.testCase.queueDepth = queueDepth;
        if (direction == Direction::Read) {
            s.testCase.hint =
                strategy.find("direct") == std::string::npos ? ReadHint::Normal : ReadHint::NotApplicable;
            s.testCase.cache = CacheState::Warm;
            s.verifyData = true;
        }
        s.bytes = bytes;
        s.path = dir / "data.dat";
        s.pattern = &pattern;
        s.target = target;
        return s;
    }
};

// Prepares and runs one job to its end; `bytes` is what its progress counted.
Outcome runJob(const Strategy& strategy, const JobSpec& spec, std::uint64_t* bytes = nullptr)
{
    Outcome outcome;
    auto job = strategy.prepare(spec, outcome);
    if (!job)
        return outcome;
    std::atomic<bool> stop{false};
    Progress progress;
    progress.stop = &stop;
    outcome = job->execute(progress);
    if (bytes != nullptr)
        *bytes = progress.bytes.load();
    return outcome;
}

// "" when the file holds exactly `bytes` bytes, each the pattern's byte at its position; else what differs.
std::string fileProblem(const std::string& path, std::uint64_t bytes)
{
    std::ifstream in(std::filesystem::u8path(path), std::ios::binary);
    if (!in)
        return "cannot open " + path;
    std::vector<char> piece(64 * kKiBytes);
    std::uint64_t position = 0;
    while (in) {
        in.read(piece.data(), static_cast<std::streamsize>(piece.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        for (std::size_t i = 0; i < got; ++i, ++position) {
            if (position >= bytes)
                return fmt::format("the file is longer than {} bytes", bytes);
            if (static_cast<std::byte>(piece[i]) != Pattern::expected(position))
                return fmt::format("byte {} is not the pattern's", position);
        }
    }
    if (position != bytes)
        return fmt::format("the file has {} bytes, not {}", position, bytes);
    return {};
}

void writeDataFile(const std::string& path, std::uint64_t bytes)
{
    std::ofstream out(std::filesystem::u8path(path), std::ios::binary);
    std::vector<char> piece;
    piece.reserve(bytes);
    for (std::uint64_t i = 0; i < bytes; ++i)
        piece.push_back(static_cast<char>(Pattern::expected(i)));
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
}

const Strategy& registered(const std::string& id)
{
    const Strategy* strategy = builtinRegistry().find(id);
    EXPECT_NE(strategy, nullptr) << id;
    EXPECT_FALSE(strategy->info().unavailable.has_value()) << id;
    return *strategy;
}

struct WriteRow
{
    const char* id;
    std::uint64_t chunk;
    std::uint64_t bytes; // a tail that is not a whole chunk for the buffered ones
    SyncPolicy sync;
};

class OverlappedWrites : public ::testing::TestWithParam<std::tuple<WriteRow, std::uint32_t>>
{};

} // namespace

TEST_P(OverlappedWrites, EveryByteIsThePatternsAtItsPosition)
{
    const auto& [row, queueDepth] = GetParam();
    Scratch setup;
    const JobSpec spec = setup.spec(row.id, Direction::Write, row.chunk, row.bytes, queueDepth, row.sync);
    std::uint64_t counted = 0;
    const Outcome outcome = runJob(registered(row.id), spec, &counted);
    ASSERT_TRUE(outcome.ok()) << outcome.message;
    EXPECT_EQ(counted, row.bytes);
    EXPECT_EQ(fileProblem(spec.path, row.bytes), "");
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Windows, OverlappedWrites, ::testing::Combine(::testing::Values(
    WriteRow{"overlapped-write", 64 * kKiBytes, 2 * kMiBytes + 1000, {}},
    WriteRow{"overlapped-write", 4 * kKiBytes, kMiBytes + 7, {SyncMode::FsyncEvery, 16}},
    WriteRow{"overlapped-write-direct", 4 * kKiBytes, 2 * kMiBytes, {SyncMode::ODsync, 0}},
    WriteRow{"overlapped-random-write", 16 * kKiBytes, kMiBytes + 5000, {SyncMode::FsyncEnd, 0}},
    WriteRow{"overlapped-random-write-direct", 8 * kKiBytes, kMiBytes + 4096, {}}),
    ::testing::Values(1u, 8u, 128u)),
    [](const auto& param) {
        const WriteRow& row = std::get<0>(param.param);
        std::string name = fmt::format("{}_{}_qd{}", row.id, row.chunk, std::get<1>(param.param));
        std::replace(name.begin(), name.end(), '-', '_');
        return name;
    });
// clang-format on

namespace {

struct ReadRow
{
    const char* id;
    std::uint64_t chunk;
    std::uint64_t bytes;
};

class OverlappedReads : public ::testing::TestWithParam<std::tuple<ReadRow, std::uint32_t>>
{};

} // namespace

TEST_P(OverlappedReads, VerifyEveryByte)
{
    const auto& [row, queueDepth] = GetParam();
    Scratch setup;
    const JobSpec spec = setup.spec(row.id, Direction::Read, row.chunk, row.bytes, queueDepth);
    writeDataFile(spec.path, row.bytes);
    std::uint64_t counted = 0;
    const Outcome outcome = runJob(registered(row.id), spec, &counted);
    ASSERT_TRUE(outcome.ok()) << outcome.message;
    EXPECT_EQ(counted, row.bytes);
    // One byte changed: a sequential reader, which reads every byte, says which (a random one may never
    // read it).
    if (std::string(row.id).find("random") != std::string::npos)
        return;
    {
        std::fstream file(std::filesystem::u8path(spec.path),
                          std::ios::binary | std::ios::in | std::ios::out);
        file.seekp(static_cast<std::streamoff>(row.bytes - 3));
        file.put(0);
    }
    const Outcome corrupted = runJob(registered(row.id), spec);
    EXPECT_EQ(corrupted.status, Status::Failed);
    EXPECT_THAT(corrupted.message, HasSubstr(fmt::format("byte {} differs", row.bytes - 3)));
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Windows, OverlappedReads, ::testing::Combine(::testing::Values(
    ReadRow{"overlapped-read", 64 * kKiBytes, 2 * kMiBytes + 1000},
    ReadRow{"overlapped-read-direct", 4 * kKiBytes, 2 * kMiBytes},
    ReadRow{"overlapped-random-read", 16 * kKiBytes, kMiBytes},
    ReadRow{"overlapped-random-read-direct", 4 * kKiBytes, kMiBytes}),
    ::testing::Values(1u, 32u)),
    [](const auto& param) {
        const ReadRow& row = std::get<0>(param.param);
        std::string name = fmt::format("{}_qd{}", row.id, std::get<1>(param.param));
        std::replace(name.begin(), name.end(), '-', '_');
        return name;
    });
// clang-format on

TEST(OverlappedLatency, OneCallPerRequestAndOneSyncPerFlush)
{
    Scratch setup;
    // 16 whole chunks and a tail: 17 requests; a flush after every 4 whole ones and the final one: 5.
    JobSpec spec = setup.spec("overlapped-write", Direction::Write, 64 * kKiBytes, kMiBytes + 100, 8,
                              {SyncMode::FsyncEvery, 4});
    CallLatency latency;
    spec.latency = &latency;
    ASSERT_TRUE(runJob(registered("overlapped-write"), spec).ok());
    EXPECT_EQ(latency.calls.count(), 17u);
    EXPECT_EQ(latency.syncs.count(), 5u);
    EXPECT_GT(latency.calls.maxNs(), 0u);

    // Random reads of the file just written: 32 requests, no sync.
    Scratch reads;
    JobSpec read = reads.spec("overlapped-random-read", Direction::Read, 32 * kKiBytes, kMiBytes, 32);
    writeDataFile(read.path, kMiBytes);
    CallLatency readLatency;
    read.latency = &readLatency;
    ASSERT_TRUE(runJob(registered("overlapped-random-read"), read).ok());
    EXPECT_EQ(readLatency.calls.count(), 32u);
    EXPECT_EQ(readLatency.syncs.count(), 0u);

    // Not timed (no histograms): the loop compiled without a clock read runs the same requests.
    Scratch untimed;
    JobSpec plain = untimed.spec("overlapped-write", Direction::Write, 64 * kKiBytes, kMiBytes + 100, 8,
                                 {SyncMode::FsyncEvery, 4});
    ASSERT_EQ(plain.latency, nullptr);
    ASSERT_TRUE(runJob(registered("overlapped-write"), plain).ok());
    EXPECT_EQ(fileProblem(plain.path, kMiBytes + 100), "");
}

TEST(OverlappedStop, EndsWithin100msWithNothingInFlight)
{
    Scratch setup;
    // Far more than is ever written: the stop comes after the first MiB.
    const JobSpec spec = setup.spec("overlapped-write", Direction::Write, 64 * kKiBytes, 512 * kMiBytes, 128);
    Outcome outcome;
    auto job = registered("overlapped-write").prepare(spec, outcome);
    ASSERT_TRUE(job) << outcome.message;
    std::atomic<bool> stop{false};
    Progress progress;
    progress.stop = &stop;
    std::atomic<bool> returned{false};
    std::chrono::steady_clock::time_point stopped;
    std::thread stopper([&] {
        while (progress.bytes.load() < kMiBytes && !returned)
            std::this_thread::yield();
        stopped = std::chrono::steady_clock::now();
        stop = true;
    });
    const Outcome result = job->execute(progress);
    const auto ended = std::chrono::steady_clock::now();
    returned = true;
    stopper.join();
    EXPECT_EQ(result.status, Status::Cancelled) << result.message;
    EXPECT_LT(ended - stopped, std::chrono::milliseconds(100));
    job.reset();
    EXPECT_LT(std::filesystem::file_size(std::filesystem::u8path(spec.path)), 512 * kMiBytes);
}

namespace {

// The queue driven directly, to look at its slots: sequential writes from the pattern.
struct PatternWrites
{
    static constexpr bool kWrite = true;
    Pattern::View pattern;
    void place(std::uint64_t offset, std::uint64_t bytes, OverlappedSlot& slot) const noexcept
    {
        slot.offset = offset;
        slot.bytes = bytes;
        slot.source = pattern.at(offset);
    }
    bool check(const OverlappedSlot&, Outcome&) const noexcept { return true; }
};

win::UniqueHandle openOverlapped(const std::string& path, DWORD access, DWORD disposition)
{
    return win::UniqueHandle(::CreateFileW(win::widen(path).c_str(), access, 0, nullptr, disposition,
                                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OVERLAPPED, nullptr));
}

} // namespace

TEST(OverlappedQueue, AStopReapsEveryRequestInFlight)
{
    Scratch setup;
    const std::string path = setup.dir / "queue.dat";
    Outcome outcome;
    auto file =
        OverlappedFile::create(openOverlapped(path, GENERIC_WRITE, CREATE_NEW), 128, 0, path, outcome);
    ASSERT_TRUE(file) << outcome.message;
    PatternWrites writes{setup.pattern.view()};
    OverlappedQueue<NoCallTimer, PatternWrites> queue(*file, writes, NoCallTimer{}, "WriteFile (overlapped)",
                                                      path, 0);
    std::atomic<bool> stop{true}; // seen after the first reap, with 128 requests submitted
    Progress progress;
    progress.stop = &stop;
    const std::uint64_t chunk = 4 * kKiBytes;
    EXPECT_EQ(runQueuedChunks(64 * kMiBytes, chunk, 128, 0, progress, queue), LoopEnd::Cancelled);
    EXPECT_EQ(file->inFlight(), 0u);
    EXPECT_EQ(file->freeSlots(), 128u);
    EXPECT_EQ(progress.bytes.load(), 128 * chunk) << "every submitted request was reaped";
    EXPECT_EQ(file->close(), 0u);
    EXPECT_EQ(fileProblem(path, 128 * chunk), "");
}

TEST(OverlappedQueue, AFailedRequestEndsTheLoopWithTheCallNamed)
{
    Scratch setup;
    const std::string path = setup.dir / "read-only.dat";
    writeDataFile(path, 4096);
    Outcome outcome;
    // Opened for reading only: every WriteFile fails at once.
    auto file =
        OverlappedFile::create(openOverlapped(path, GENERIC_READ, OPEN_EXISTING), 8, 0, path, outcome);
    ASSERT_TRUE(file) << outcome.message;
    PatternWrites writes{setup.pattern.view()};
    OverlappedQueue<NoCallTimer, PatternWrites> queue(*file, writes, NoCallTimer{}, "WriteFile (overlapped)",
                                                      path, 0);
    Progress progress;
    EXPECT_EQ(runQueuedChunks(kMiBytes, 4096, 8, 0, progress, queue), LoopEnd::Failed);
    const Outcome error = queue.takeError();
    EXPECT_EQ(error.status, Status::Failed);
    EXPECT_THAT(error.message, HasSubstr("WriteFile (overlapped) " + path + " failed"));
    EXPECT_EQ(file->inFlight(), 0u);
    EXPECT_EQ(file->freeSlots(), 8u);
}

TEST(OverlappedSetup, FailuresAndRefusalsSayWhat)
{
    Scratch setup;
    Outcome outcome;
    // No file to associate with a port, and a handle that is not a file's.
    EXPECT_EQ(OverlappedFile::create(win::UniqueHandle{}, 8, 4096, "nothing", outcome), nullptr);
    EXPECT_EQ(outcome.status, Status::Failed);
    EXPECT_THAT(outcome.message, HasSubstr("CreateIoCompletionPort nothing failed"));
    outcome = {};
    win::UniqueHandle event(::CreateEventW(nullptr, TRUE, FALSE, nullptr));
    ASSERT_TRUE(event);
    EXPECT_EQ(OverlappedFile::create(std::move(event), 8, 4096, "an event", outcome), nullptr);
    EXPECT_EQ(outcome.status, Status::Failed);
    EXPECT_THAT(outcome.message, HasSubstr("CreateIoCompletionPort an event failed"));

    // A reader's buffers are a chunk per request in flight.
    Case deep{"overlapped-read",     Direction::Read,  64 * kMiBytes,   256 * kMiBytes, {}, {}, 1,
              TargetKind::Directory, ReadHint::Normal, CacheState::Warm};
    deep.queueDepth = 64;
    EXPECT_THAT(refusalReason(deep, builtinRegistry(), setup.target), HasSubstr("of buffers per thread"));
    deep.queueDepth = 8;
    EXPECT_EQ(refusalReason(deep, builtinRegistry(), setup.target), "");

    // NO_BUFFERING's rules checked by the job before anything is created (wine would not enforce them).
    JobSpec tail = setup.spec("overlapped-write-direct", Direction::Write, 4096, 4096 * 4 + 512, 8);
    EXPECT_EQ(registered("overlapped-write-direct").prepare(tail, outcome), nullptr);
    EXPECT_EQ(outcome.status, Status::Refused);
    EXPECT_THAT(outcome.message, HasSubstr("4 KiB sectors"));
    EXPECT_EQ(setup.dir.entryCount(), 0u);

    // A missing data file.
    JobSpec missing = setup.spec("overlapped-read", Direction::Read, 4096, 4096, 8);
    EXPECT_EQ(registered("overlapped-read").prepare(missing, outcome), nullptr);
    EXPECT_EQ(outcome.status, Status::Failed);
    EXPECT_THAT(outcome.message, HasSubstr("ERROR_FILE_NOT_FOUND"));

    // Windows's sync policies and read hints.
    EXPECT_THAT(registered("overlapped-write").info().syncRefusal, HasSubstr("fdatasync-end has no Windows"));
    EXPECT_EQ(registered("overlapped-read").info().hints, win::windowsReadHints());
    EXPECT_TRUE(registered("overlapped-read-direct").info().hints.empty());
    EXPECT_EQ(builtinRegistry().find("uring-write")->info().unavailable.has_value(), true);
}

TEST(ChunkSequence, EveryChunkOnceNotInSequence)
{
    for (const std::uint64_t chunks : {1u, 2u, 3u, 1000u, 4097u}) {
        win::ChunkSequence order(0, chunks);
        std::set<std::uint64_t> seen;
        std::uint64_t inSequence = 0;
        std::uint64_t previous = ~std::uint64_t{0};
        for (std::uint64_t i = 0; i < chunks; ++i) {
            const std::uint64_t index = order.next();
            EXPECT_LT(index, chunks);
            seen.insert(index);
            inSequence += index == previous + 1 ? 1 : 0;
            previous = index;
        }
        EXPECT_EQ(seen.size(), chunks) << chunks;
        if (chunks >= 1000) {
            EXPECT_LT(inSequence, chunks / 20) << chunks;
        }
    }
    win::ChunkSequence first(0, 1000);
    win::ChunkSequence second(1, 1000);
    int same = 0;
    for (int i = 0; i < 1000; ++i)
        same += first.next() == second.next() ? 1 : 0;
    EXPECT_LT(same, 50) << "threads do not write in step";
}

TEST(RandomWriters, EveryChunkOnceVerified)
{
    struct Row
    {
        const char* id;
        std::unique_ptr<Strategy> strategy;
        std::uint64_t chunk;
        std::uint64_t bytes;
        SyncPolicy sync;
    };
    Row rows[] = {
        {"write-random",
         builtin::makeWriteRandomStrategy(),
         4096,
         kMiBytes + 100,
         {SyncMode::FsyncEvery, 32}},
        {"direct-random", builtin::makeDirectRandomStrategy(), 4096, kMiBytes, {SyncMode::FsyncEnd, 0}},
        {"direct-random", builtin::makeDirectRandomStrategy(), 8192, kMiBytes + 4096, {}},
    };
    for (const auto& row : rows) {
        Scratch setup;
        EXPECT_EQ(row.strategy->info().id, row.id);
        JobSpec spec = setup.spec(row.id, Direction::Write, row.chunk, row.bytes, 0, row.sync);
        CallLatency latency;
        spec.latency = &latency;
        std::uint64_t counted = 0;
        const Outcome outcome = runJob(*row.strategy, spec, &counted);
        ASSERT_TRUE(outcome.ok()) << row.id << ": " << outcome.message;
        EXPECT_EQ(counted, row.bytes) << row.id;
        EXPECT_EQ(latency.calls.count(), row.bytes / row.chunk + (row.bytes % row.chunk != 0 ? 1 : 0))
            << row.id;
        EXPECT_EQ(fileProblem(spec.path, row.bytes), "") << row.id;
    }
    EXPECT_TRUE(builtin::makeDirectRandomStrategy()->info().needsBlockAlignedChunks);
    EXPECT_THAT(builtin::makeWriteRandomStrategy()->info().syncRefusal, HasSubstr("o_sync has no Windows"));
}
