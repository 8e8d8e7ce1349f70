// SPDX-License-Identifier: MIT
// The plain read and write jobs' shared loops (platform/plain_write_job.h, platform/plain_read_job.h) over a
// file in memory instead of an OS's calls: every order puts each byte of the pattern at its place, the sync
// policy's calls come where it says, and a failure is named by the OS's call that failed, with the OS's
// error. The real calls under them are run by the strategy tests on each OS.
#include "core/engine/chunk_order.h"
#include "core/engine/offset_picker.h"
#include "core/engine/pattern.h"
#include "core/engine/read_buffer.h"
#include "platform/plain_read_job.h"
#include "platform/plain_write_job.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace iolab;
using ::testing::HasSubstr;

namespace {

// The file the fake calls act on, and what they were asked to do.
struct MemoryDisk
{
    std::vector<std::byte> bytes;
    std::uint64_t position = 0;
    bool openedDirect = false;
    std::vector<std::uint64_t> callOffsets; // where every write or read call went, in call order
    std::vector<SyncMode> syncs;
    std::uint64_t calls = 0;
    std::optional<std::uint64_t> failCall; // this call (0-based) fails with lastError
    bool failSyncs = false;
    int closeError = 0;
    int lastError = 0;
    std::uint64_t transferChecks = 0;
    std::optional<std::uint64_t> refuseTransferAt; // directTransferFits refuses this offset
    std::uint64_t mixWrites = 0;                   // a read job's writes (a read/write mix)
};

MemoryDisk* g_disk = nullptr;

struct MemoryFile
{
    MemoryDisk* disk = nullptr;
    MemoryDisk* get() const noexcept { return disk; }
    explicit operator bool() const noexcept { return disk != nullptr; }
    int close() noexcept { return std::exchange(disk, nullptr)->closeError; }
};

Outcome fakeFailure(const char* call, const std::string& path)
{
    return {Status::Failed, g_disk->lastError, call, std::string(call) + " " + path + " failed"};
}

bool failsNow(MemoryDisk* disk)
{
    if (disk->failCall != disk->calls++)
        return false;
    disk->lastError = 28;
    return true;
}

struct MemoryWrites
{
    struct Opened
    {
        MemoryFile file;
        const std::byte* source = nullptr;
    };

    static Opened open(const JobSpec& spec, bool direct, Outcome&)
    {
        g_disk->openedDirect = direct;
        return {MemoryFile{g_disk}, spec.pattern->at(0)};
    }

    static bool writeAt(MemoryDisk* disk, const std::byte* data, std::uint64_t size, std::uint64_t offset)
    {
        disk->callOffsets.push_back(offset);
        if (failsNow(disk))
            return false;
        if (disk->bytes.size() < offset + size)
            disk->bytes.resize(offset + size);
        std::memcpy(disk->bytes.data() + offset, data, size);
        return true;
    }
    static bool write(MemoryDisk* disk, const std::byte* data, std::uint64_t size)
    {
        const bool written = writeAt(disk, data, size, disk->position);
        if (written)
            disk->position += size;
        return written;
    }
    static const char* writeCall(bool direct) { return direct ? "fake-write(direct)" : "fake-write"; }
    static const char* writeAtCall(bool direct) { return direct ? "fake-write-at(direct)" : "fake-write-at"; }

    static bool sync(MemoryDisk* disk, SyncMode mode)
    {
        disk->syncs.push_back(mode);
        if (disk->failSyncs)
            disk->lastError = 5;
        return !disk->failSyncs;
    }
    static const char* syncCall(SyncMode mode) { return syncsDataOnly(mode) ? "fake-datasync" : "fake-sync"; }

    static Outcome failure(const char* call, const std::string& path) { return fakeFailure(call, path); }
    static Outcome closeFailure(int error, const std::string& path)
    {
        return {Status::Failed, error, "fake-close", "fake-close " + path + " failed"};
    }
};

struct MemoryReads
{
    using File = MemoryFile;

    static MemoryFile open(const JobSpec&, bool direct, const std::byte*, Outcome&)
    {
        g_disk->openedDirect = direct;
        return MemoryFile{g_disk};
    }

    static bool readAt(MemoryDisk* disk, std::byte* buffer, std::uint64_t size, std::uint64_t offset,
                       std::uint64_t& got)
    {
        disk->callOffsets.push_back(offset);
        got = 0;
        if (failsNow(disk))
            return false;
        if (offset < disk->bytes.size()) {
            got = std::min<std::uint64_t>(size, disk->bytes.size() - offset);
            std::memcpy(buffer, disk->bytes.data() + offset, got);
        }
        return true;
    }
    static bool read(MemoryDisk* disk, std::byte* buffer, std::uint64_t size, std::uint64_t& got)
    {
        const bool read = readAt(disk, buffer, size, disk->position, got);
        disk->position += got;
        return read;
    }
    static const char* readCall(bool direct) { return direct ? "fake-read(direct)" : "fake-read"; }
    static const char* readAtCall(bool direct) { return direct ? "fake-read-at(direct)" : "fake-read-at"; }
    static bool writeAt(MemoryDisk* disk, const std::byte* data, std::uint64_t size, std::uint64_t offset)
    {
        ++disk->mixWrites;
        return MemoryWrites::writeAt(disk, data, size, offset);
    }
    static const char* writeAtCall(bool direct) { return direct ? "fake-write-at(direct)" : "fake-write-at"; }

    static bool directTransferFits(const JobSpec&, const std::byte*, std::uint64_t offset, std::uint64_t,
                                   Outcome& error)
    {
        ++g_disk->transferChecks;
        if (g_disk->refuseTransferAt != offset)
            return true;
        error = {Status::Failed, 0, "fake-rules", "the transfer breaks the rules"};
        return false;
    }

    static Outcome failure(const char* call, const std::string& path) { return fakeFailure(call, path); }
    static Outcome closeFailure(int error, const std::string& path)
    {
        return {Status::Failed, error, "fake-close", "fake-close " + path + " failed"};
    }
};

constexpr std::uint64_t kJobChunk = 4096;
constexpr std::uint64_t kJobBytes = 100 * kJobChunk + 123; // a short tail chunk

class PlainJobs : public ::testing::Test
{
protected:
    PlainJobs() : m_pattern(kJobChunk)
    {
        g_disk = &m_disk;
        m_spec.testCase.chunkBytes = kJobChunk;
        m_spec.testCase.totalBytes = kJobBytes;
        m_spec.bytes = kJobBytes;
        m_spec.path = "data.bin";
        m_spec.pattern = &m_pattern;
    }
    ~PlainJobs() override { g_disk = nullptr; }
    PlainJobs(const PlainJobs&) = delete;
    PlainJobs& operator=(const PlainJobs&) = delete;

    Outcome write(bool direct = false, WriteOrder order = WriteOrder::Sequential)
    {
        Outcome outcome;
        auto job = PlainWriteJob<MemoryWrites>::create(m_spec, direct, outcome, order);
        EXPECT_TRUE(job && outcome.ok()) << outcome.message;
        return job->execute(m_progress);
    }

    Outcome read(bool direct = false, ReadOrder order = ReadOrder::Sequential)
    {
        Outcome outcome;
        auto job = PlainReadJob<MemoryReads>::create(m_spec, order, direct, outcome);
        EXPECT_TRUE(job && outcome.ok()) << outcome.message;
        return job->execute(m_progress);
    }

    // The file holds the pattern's bytes from 0 to `size`.
    void fillWithPattern(std::uint64_t size)
    {
        m_disk.bytes.resize(size);
        for (std::uint64_t p = 0; p < size; ++p)
            m_disk.bytes[p] = m_pattern.byteAt(p);
    }

    std::optional<std::uint64_t> firstByteNotThePatterns() const
    {
        for (std::uint64_t p = 0; p < m_disk.bytes.size(); ++p) {
            if (m_disk.bytes[p] != m_pattern.byteAt(p))
                return p;
        }
        return std::nullopt;
    }

    Pattern m_pattern;
    MemoryDisk m_disk;
    JobSpec m_spec;
    Progress m_progress;
};

} // namespace

TEST_F(PlainJobs, SequentialWritesPutThePatternFrontToBack)
{
    ASSERT_TRUE(write().ok());
    EXPECT_EQ(m_disk.bytes.size(), kJobBytes);
    EXPECT_EQ(firstByteNotThePatterns(), std::nullopt);
    ASSERT_EQ(m_disk.callOffsets.size(), 101u);
    for (std::uint64_t i = 0; i < m_disk.callOffsets.size(); ++i)
        EXPECT_EQ(m_disk.callOffsets[i], i * kJobChunk);
    EXPECT_EQ(m_progress.bytes.load(), kJobBytes);
    EXPECT_FALSE(m_disk.openedDirect);
}

TEST_F(PlainJobs, RandomWritesPutEveryChunkOnceAtItsPlaceInTheThreadsOrder)
{
    m_spec.thread = 2;
    ASSERT_TRUE(write(true, WriteOrder::Random).ok());
    EXPECT_TRUE(m_disk.openedDirect);
    EXPECT_EQ(m_disk.bytes.size(), kJobBytes);
    EXPECT_EQ(firstByteNotThePatterns(), std::nullopt);
    const std::set<std::uint64_t> offsets(m_disk.callOffsets.begin(), m_disk.callOffsets.end());
    EXPECT_EQ(offsets.size(), 101u);
    EXPECT_FALSE(std::is_sorted(m_disk.callOffsets.begin(), m_disk.callOffsets.end()));
    const ChunkOrder order(101, m_spec.thread + 1);
    for (std::uint64_t i = 0; i < m_disk.callOffsets.size(); ++i)
        EXPECT_EQ(m_disk.callOffsets[i], order.at(i) * kJobChunk) << "call " << i;
}

TEST_F(PlainJobs, PreallocateRewriteWritesTheFirstChunkOnEveryCall)
{
    m_spec.testCase.preallocate = Preallocate::Rewrite;
    ASSERT_TRUE(write(false, WriteOrder::Random).ok()); // rewrite wins over the strategy's order
    EXPECT_EQ(m_disk.bytes.size(), kJobChunk);
    EXPECT_EQ(firstByteNotThePatterns(), std::nullopt);
    EXPECT_EQ(m_disk.callOffsets, std::vector<std::uint64_t>(101, 0));
    EXPECT_EQ(m_progress.bytes.load(), kJobBytes);
}

TEST_F(PlainJobs, SyncsEveryNWritesAndOnceAfterTheLoop)
{
    m_spec.testCase.sync = {SyncMode::FdatasyncEvery, 30};
    ASSERT_TRUE(write().ok());
    // Three in the loop (after writes 30, 60 and 90) and the policy's call once more at the end.
    EXPECT_EQ(m_disk.syncs, std::vector<SyncMode>(4, SyncMode::FdatasyncEvery));
    EXPECT_EQ(m_progress.durable.load(), 90 * kJobChunk);
}

TEST_F(PlainJobs, AFailedWriteIsNamedByItsCallWithTheOsError)
{
    m_disk.failCall = 7;
    Outcome outcome = write(true);
    EXPECT_EQ(outcome.operation, "fake-write(direct)");
    EXPECT_EQ(outcome.errorCode, 28);
    EXPECT_EQ(outcome.message, "fake-write(direct) data.bin failed");
    EXPECT_EQ(m_disk.callOffsets.size(), 8u);
    EXPECT_EQ(m_progress.bytes.load(), 7 * kJobChunk);

    m_disk = {};
    m_disk.failCall = 3;
    outcome = write(false, WriteOrder::Random);
    EXPECT_EQ(outcome.operation, "fake-write-at");
}

TEST_F(PlainJobs, AFailedSyncOrCloseIsNamedByItsCall)
{
    m_spec.testCase.sync = {SyncMode::FsyncEvery, 10};
    m_disk.failSyncs = true;
    Outcome outcome = write();
    EXPECT_EQ(outcome.operation, "fake-sync");
    EXPECT_EQ(outcome.errorCode, 5);
    EXPECT_EQ(m_disk.callOffsets.size(), 10u) << "the loop stops at the failed sync";

    m_disk = {};
    m_spec.testCase.sync = {SyncMode::FdatasyncEnd, 0};
    m_disk.failSyncs = true;
    outcome = write();
    EXPECT_EQ(outcome.operation, "fake-datasync");
    EXPECT_EQ(m_disk.callOffsets.size(), 101u);

    m_disk = {};
    m_disk.closeError = 9;
    outcome = write();
    EXPECT_EQ(outcome.operation, "fake-close");
    EXPECT_EQ(outcome.errorCode, 9);
}

TEST_F(PlainJobs, AStopCancelsTheWriteLoop)
{
    std::atomic<bool> stop{true};
    m_progress.stop = &stop;
    EXPECT_EQ(write().status, Status::Cancelled);
    EXPECT_EQ(m_disk.callOffsets.size(), 1u) << "the first batch is one write";
}

TEST_F(PlainJobs, SequentialReadsVerifyEveryByte)
{
    fillWithPattern(kJobBytes);
    m_spec.verifyData = true;
    ASSERT_TRUE(read().ok());
    EXPECT_EQ(m_disk.callOffsets.size(), 101u);
    EXPECT_EQ(m_progress.bytes.load(), kJobBytes);
    EXPECT_EQ(m_disk.transferChecks, 0u) << "only direct transfers are checked";

    m_disk.position = 0;
    m_disk.callOffsets.clear();
    m_disk.bytes[5000] = std::byte{0};
    const Outcome outcome = read();
    EXPECT_EQ(outcome.operation, "verify");
    EXPECT_THAT(outcome.message, HasSubstr("data.bin: byte 5000 differs"));
    EXPECT_EQ(m_disk.callOffsets.size(), 2u);
}

TEST_F(PlainJobs, RandomReadsTakeTheThreadsOffsetsOverTheWholeFile)
{
    // The shared file is the whole case; this thread reads its share of it at random.
    m_spec.testCase.totalBytes = 4 * kJobBytes;
    m_spec.thread = 1;
    fillWithPattern(4 * kJobBytes);
    m_spec.verifyData = true;
    ASSERT_TRUE(read(true, ReadOrder::Random).ok());
    EXPECT_TRUE(m_disk.openedDirect);
    RandomOffsets offsets(1, 4 * kJobBytes, kJobChunk);
    ASSERT_EQ(m_disk.callOffsets.size(), 101u);
    for (const std::uint64_t offset : m_disk.callOffsets)
        EXPECT_EQ(offset, offsets.next());
    EXPECT_EQ(m_disk.transferChecks, 101u);
}

// A read/write mix over a hot spot: the offsets the hot spot's picker gives, each request a write unless the
// mix's choice says read (in that order, as every backend draws them), writes putting the pattern's bytes
// back where they were, every read still checked, and the job's counts what the disk saw.
TEST_F(PlainJobs, AMixWritesThePatternBackInPlaceAndCountsEachWay)
{
    m_spec.testCase.totalBytes = 4 * kJobBytes;
    m_spec.testCase.readPercent = 60;
    m_spec.testCase.randomDist = parseRandomDist("zipf:1.1");
    m_spec.bytes = 100 * kJobChunk;
    m_spec.thread = 2;
    fillWithPattern(4 * kJobBytes);
    m_spec.verifyData = true;
    auto latency = std::make_unique<CallLatency>();
    m_spec.latency = latency.get();
    Outcome outcome;
    auto job = PlainReadJob<MemoryReads>::create(m_spec, ReadOrder::Random, false, outcome);
    ASSERT_TRUE(job) << outcome.message;
    ASSERT_TRUE(job->execute(m_progress).ok());
    HotSpotOffsets offsets(m_spec.testCase.randomDist, 2, 4 * kJobBytes, kJobChunk);
    MixChooser chooser(60, 2);
    std::uint64_t writes = 0;
    ASSERT_EQ(m_disk.callOffsets.size(), 100U);
    for (const std::uint64_t offset : m_disk.callOffsets) {
        EXPECT_EQ(offset, offsets.next());
        writes += chooser.nextIsRead() ? 0 : 1;
    }
    EXPECT_EQ(m_disk.mixWrites, writes);
    EXPECT_FALSE(firstByteNotThePatterns()) << "a write changed the data";
    EXPECT_EQ(m_disk.bytes.size(), 4 * kJobBytes);
    const auto counts = job->mixCounts();
    ASSERT_TRUE(counts);
    EXPECT_EQ(counts->writeOps, writes);
    EXPECT_EQ(counts->readOps, 100U - writes);
    EXPECT_EQ(counts->readBytes + counts->writeBytes, 100U * kJobChunk);
    EXPECT_EQ(latency->calls.count(), counts->readOps);
    EXPECT_EQ(latency->writes.count(), counts->writeOps);
    m_spec.testCase.readPercent.reset();
    job = PlainReadJob<MemoryReads>::create(m_spec, ReadOrder::Random, false, outcome);
    EXPECT_FALSE(job->mixCounts()) << "a job without a mix says nothing of one";
}

TEST_F(PlainJobs, AShortFileIsNamedWithWhatWasWritten)
{
    fillWithPattern(kJobBytes - 1000);
    Outcome outcome = read();
    EXPECT_EQ(outcome.operation, "read");
    EXPECT_THAT(outcome.message, HasSubstr("data.bin: read " + std::to_string(kJobBytes - 1000) +
                                           " bytes, but " + std::to_string(kJobBytes) + " were written"));

    // A random read past the end compares with the shared file's size, not the thread's share.
    m_disk = {};
    m_spec.testCase.totalBytes = 2 * kJobBytes;
    fillWithPattern(kJobChunk);
    outcome = read(false, ReadOrder::Random);
    EXPECT_EQ(outcome.operation, "read");
    EXPECT_THAT(outcome.message, HasSubstr("but " + std::to_string(2 * kJobBytes) + " were written"));
}

TEST_F(PlainJobs, AFailedReadIsNamedByItsCallWithTheOsError)
{
    fillWithPattern(kJobBytes);
    m_disk.failCall = 4;
    Outcome outcome = read(true);
    EXPECT_EQ(outcome.operation, "fake-read(direct)");
    EXPECT_EQ(outcome.errorCode, 28);

    m_disk.position = 0;
    m_disk.calls = 0;
    outcome = read(false, ReadOrder::Random);
    EXPECT_EQ(outcome.operation, "fake-read-at");

    m_disk.position = 0;
    m_disk.failCall.reset();
    m_disk.closeError = 9;
    outcome = read();
    EXPECT_EQ(outcome.operation, "fake-close");
    EXPECT_EQ(outcome.errorCode, 9);
}

TEST_F(PlainJobs, ADirectTransferTheOsRulesOutIsNotMade)
{
    fillWithPattern(kJobBytes);
    m_disk.refuseTransferAt = 3 * kJobChunk;
    const Outcome outcome = read(true);
    EXPECT_EQ(outcome.operation, "fake-rules");
    EXPECT_EQ(m_disk.callOffsets.size(), 3u);
}
