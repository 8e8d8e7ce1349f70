// SPDX-License-Identifier: MIT
#include "core/analysis/estimate.h"
#include "core/engine/chunk_loop.h"
#include "core/engine/mapped_copy.h"
#include "core/engine/pattern.h"
#include "core/engine/stream_check.h"
#include "core/model/target.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

using namespace iolab;

TEST(Pattern, NeverZeroAndWindowsMatchExpected)
{
    const Pattern p(1000);
    for (std::uint64_t i = 0; i < 3 * Pattern::kPeriodBytes; i += 7)
        ASSERT_NE(Pattern::expected(i), std::byte{0}) << i;
    const std::uint64_t period = Pattern::kPeriodBytes;
    for (std::uint64_t offset :
         {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{4095}, period - 1, 5 * period + 3}) {
        const std::byte* w = p.at(offset);
        for (std::uint64_t k = 0; k < 1000; ++k)
            ASSERT_EQ(w[k], Pattern::expected(offset + k)) << offset << "+" << k;
    }
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p.at(0)) % Pattern::kAlignment, 0u);
}

TEST(Pattern, FindsTheFirstMismatch)
{
    const Pattern p(4096);
    std::vector<std::byte> data(3 * Pattern::kPeriodBytes);
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = Pattern::expected(100 + i);
    EXPECT_FALSE(p.firstMismatch(100, data.data(), data.size()).has_value());
    data[Pattern::kPeriodBytes + 17] ^= std::byte{0xff};
    EXPECT_EQ(p.firstMismatch(100, data.data(), data.size()), Pattern::kPeriodBytes + 17);
}

// The pattern axis's bytes: zeros are all zero; random bytes are spread over every value with no 4 KiB block
// repeated within the period; compressible:N% has N% of every 4 KiB block zero, the rest random; each is what
// the verification checks against.
TEST(Pattern, EachKindHoldsTheBytesItNames)
{
    constexpr std::size_t kBlock = kCompressibleBlockBytes;
    const Pattern zeros(kBlock, DataPattern{PatternKind::Zeros});
    EXPECT_EQ(zeros.kind(), DataPattern{PatternKind::Zeros});
    EXPECT_TRUE(std::all_of(zeros.at(0), zeros.at(0) + Pattern::kPeriodBytes,
                            [](std::byte b) { return b == std::byte{0}; }));

    const Pattern random(kBlock, DataPattern{PatternKind::Random});
    std::vector<std::size_t> counts(256);
    for (std::size_t i = 0; i < Pattern::kPeriodBytes; ++i)
        ++counts[std::to_integer<unsigned>(random.byteAt(i))];
    const double expected = static_cast<double>(Pattern::kPeriodBytes) / 256;
    for (std::size_t v = 0; v < 256; ++v) {
        EXPECT_GT(static_cast<double>(counts[v]), expected * 0.8) << v;
        EXPECT_LT(static_cast<double>(counts[v]), expected * 1.2) << v;
    }
    std::vector<std::string> blocks;
    for (std::size_t b = 0; b < Pattern::kPeriodBytes / kBlock; ++b)
        blocks.emplace_back(reinterpret_cast<const char*>(random.at(b * kBlock)), kBlock);
    std::sort(blocks.begin(), blocks.end());
    EXPECT_EQ(std::adjacent_find(blocks.begin(), blocks.end()), blocks.end()) << "a repeated 4 KiB block";
    // The same bytes every time.
    const Pattern again(1, DataPattern{PatternKind::Random});
    EXPECT_EQ(std::memcmp(random.at(0), again.at(0), Pattern::kPeriodBytes), 0);
    EXPECT_NE(std::memcmp(random.at(0), Pattern(1).at(0), 4096), 0);

    const Pattern half(kBlock, DataPattern{PatternKind::Compressible, 25});
    for (std::size_t b = 0; b < Pattern::kPeriodBytes; b += kBlock) {
        const std::byte* block = half.at(b);
        ASSERT_TRUE(std::all_of(block + kBlock * 3 / 4, block + kBlock, [](std::byte x) {
            return x == std::byte{0};
        })) << b;
        ASSERT_GT(std::count(block, block + kBlock * 3 / 4, std::byte{0}), 0)
            << "random bytes hold some zeros";
        ASSERT_LT(std::count(block, block + kBlock * 3 / 4, std::byte{0}), 40) << b;
    }
    // Verification checks each kind against its own bytes: windows past the period wrap.
    for (const Pattern* p : {&zeros, &random, &half}) {
        std::vector<std::byte> data(p->at(100), p->at(100) + kBlock);
        EXPECT_FALSE(p->firstMismatch(100 + 5 * Pattern::kPeriodBytes, data.data(), data.size()).has_value());
        data[17] ^= std::byte{0x5a};
        EXPECT_EQ(p->firstMismatch(100, data.data(), data.size()), 17u);
    }
}

namespace {

struct Recorded
{
    std::vector<std::pair<std::uint64_t, std::uint64_t>> writes;
    int syncs = 0;
};

} // namespace

TEST(ChunkLoop, CoversEveryByteWithATail)
{
    Progress progress;
    Recorded r;
    const auto end = runChunks(
        10'000, 4096, 0, progress,
        [&](std::uint64_t offset, std::uint64_t size) {
            r.writes.emplace_back(offset, size);
            return true;
        },
        [&] { return ++r.syncs > 0; });
    EXPECT_EQ(end, LoopEnd::Completed);
    ASSERT_EQ(r.writes.size(), 3u);
    EXPECT_EQ(r.writes[2], std::make_pair(std::uint64_t{8192}, std::uint64_t{10'000 - 8192}));
    EXPECT_EQ(progress.bytes.load(), 10'000u);
    EXPECT_EQ(r.syncs, 0);
}

TEST(ChunkLoop, SyncsEveryNWrites)
{
    Progress progress;
    Recorded r;
    runChunks(
        100, 1, 30, progress,
        [&](std::uint64_t offset, std::uint64_t size) {
            r.writes.emplace_back(offset, size);
            return true;
        },
        [&] {
            ++r.syncs;
            return true;
        });
    EXPECT_EQ(r.writes.size(), 100u);
    EXPECT_EQ(r.syncs, 3); // after writes 30, 60 and 90
}

TEST(ChunkLoop, StopsAtTheNextBatchWhenAsked)
{
    std::atomic<bool> stop{false};
    Progress progress;
    progress.stop = &stop;
    std::uint64_t written = 0;
    const auto end = runChunks(
        1ULL << 30, 1, 0, progress,
        [&](std::uint64_t, std::uint64_t size) {
            written += size;
            if (written == 1000)
                stop.store(true);
            return true;
        },
        [] { return true; });
    EXPECT_EQ(end, LoopEnd::Cancelled);
    EXPECT_LE(written, 64u * 1024u); // within one 64 KiB batch of the request
    EXPECT_EQ(progress.bytes.load(), written);
}

// The README's "a stop lands within ~20 ms": a batch starts at one write, grows only while batches take under
// 2 ms and shrinks once one takes over 20 ms, so a stop waits for at most 20 ms of writes (or one write,
// where a write takes longer), from the first write on. Counted in writes, not timed: each write here sleeps
// 5 ms, and a busy machine only makes a sleep longer, which keeps the batch small. 512-byte chunks, as a slow
// O_DSYNC case: a first batch of 64 KiB would be 128 writes, 640 ms here (and 1.1 s of a cancelled run was
// seen in it on a busy disk before batches started at one write).
TEST(ChunkLoop, AStopWaitsForAtMost20MsOfWritesFromTheFirstWriteOn)
{
    constexpr auto kWrite = std::chrono::milliseconds(5);
    const auto writesAfterAStopAt = [&](std::uint64_t stopAtWrite) {
        std::atomic<bool> stop{false};
        Progress progress;
        progress.stop = &stop;
        std::uint64_t writes = 0;
        std::uint64_t after = 0;
        const auto end = runChunks(
            std::uint64_t{1} << 30, 512, 0, progress,
            [&](std::uint64_t, std::uint64_t) {
                std::this_thread::sleep_for(kWrite);
                ++writes;
                if (stop.load())
                    ++after;
                if (writes == stopAtWrite)
                    stop.store(true);
                return true;
            },
            [] { return true; });
        EXPECT_EQ(end, LoopEnd::Cancelled);
        return after;
    };
    for (const std::uint64_t stopAt : {1, 2, 3, 17, 30}) {
        const auto after = writesAfterAStopAt(stopAt);
        EXPECT_LE(after * kWrite, std::chrono::milliseconds(20)) << "stopped at write " << stopAt;
    }
}

TEST(ChunkLoop, ATimeLimitEndsTheLoopAsCompletedAndTheUserStopStillCancels)
{
    for (const bool userStopToo : {false, true}) {
        std::atomic<bool> stop{false};
        std::atomic<bool> timeUp{false};
        Progress progress;
        progress.stop = &stop;
        progress.timeUp = &timeUp;
        std::uint64_t written = 0;
        const auto end = runChunks(
            1ULL << 30, 1, 0, progress,
            [&](std::uint64_t, std::uint64_t size) {
                written += size;
                if (written == 1000) {
                    timeUp.store(true);
                    stop.store(userStopToo);
                }
                return true;
            },
            [] { return true; });
        EXPECT_EQ(end, userStopToo ? LoopEnd::Cancelled : LoopEnd::Completed)
            << "the time limit ends the loop as its size would, so the job syncs and closes; the user's stop "
               "wins over it";
        EXPECT_LE(written, 64u * 1024u);
        EXPECT_EQ(progress.bytes.load(), written);
    }
}

TEST(ChunkLoop, FailureStopsAndCountsWhatWasWritten)
{
    Progress progress;
    const auto end = runChunks(
        1 << 20, 512, 0, progress, [&](std::uint64_t offset, std::uint64_t) { return offset < 5 * 512; },
        [] { return true; });
    EXPECT_EQ(end, LoopEnd::Failed);
    EXPECT_EQ(progress.bytes.load(), 5u * 512u);
}

TEST(ChunkLoop, ChunksOfOneToEightBytesRunAsCompileTimeConstants)
{
    for (std::uint64_t chunk = 1; chunk <= 10; ++chunk) {
        const auto seen = withFixedChunk(chunk, [](auto c) -> std::pair<bool, std::uint64_t> {
            return {!std::is_same_v<decltype(c), std::uint64_t>, c};
        });
        EXPECT_EQ(seen.first, chunk <= kLargestFixedChunk) << chunk;
        EXPECT_EQ(seen.second, chunk);
    }
}

TEST(ChunkLoop, AFixedChunkReachesEveryFullWriteAndTheTailIsACount)
{
    Progress progress;
    std::uint64_t fixedWrites = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> counted;
    const auto end = runChunks(
        3 * 100'000 + 2, FixedChunk<3>{}, 0, progress,
        [&](std::uint64_t offset, auto size) {
            if constexpr (std::is_same_v<decltype(size), FixedChunk<3>>) {
                EXPECT_EQ(offset, 3 * fixedWrites);
                ++fixedWrites;
            } else {
                counted.emplace_back(offset, size);
            }
            return true;
        },
        [] { return true; });
    EXPECT_EQ(end, LoopEnd::Completed);
    EXPECT_EQ(fixedWrites, 100'000u);
    ASSERT_EQ(counted.size(), 1u);
    EXPECT_EQ(counted[0], std::make_pair(std::uint64_t{300'000}, std::uint64_t{2}));
    EXPECT_EQ(progress.bytes.load(), 300'002u);
}

TEST(MappedCopy, BatchFlushesEveryFullBufferInOrder)
{
    std::vector<std::byte> storage(16);
    BatchBuffer batch{storage.data(), 16, 0};
    std::vector<std::byte> flushed;
    auto flush = [&] {
        flushed.insert(flushed.end(), storage.begin(), storage.begin() + static_cast<long>(batch.used));
        batch.used = 0;
        return true;
    };
    const Pattern pattern(64);
    std::uint64_t offset = 0;
    for (std::uint64_t size : {5, 5, 5, 1, 40, 3}) { // fills exactly, then spans two buffers and more
        ASSERT_TRUE(batch.append(pattern.at(offset), size, flush));
        offset += size;
    }
    EXPECT_EQ(flushed.size(), 48u);
    EXPECT_EQ(batch.used, offset - 48);
    for (std::size_t i = 0; i < flushed.size(); ++i)
        ASSERT_EQ(flushed[i], Pattern::expected(i)) << i;
    int calls = 0;
    BatchBuffer failing{storage.data(), 16, 15};
    EXPECT_FALSE(failing.append(pattern.at(0), 40, [&] { return ++calls, false; }));
    EXPECT_EQ(calls, 1) << "a failed flush stops the copy";
}

TEST(MappedCopy, WindowRemapsAtWindowStartsAndCopiesAcross)
{
    constexpr std::uint64_t kWindow = 16;
    std::vector<std::byte> file(100);
    FileWindow window;
    std::vector<std::uint64_t> starts;
    auto map = [&](std::uint64_t start) {
        starts.push_back(start);
        window = {file.data() + start, start, std::min<std::uint64_t>(start + kWindow, file.size())};
        return true;
    };
    const Pattern pattern(64);
    for (std::uint64_t offset = 0; offset < 100; offset += 10)
        ASSERT_TRUE(window.copy(offset, pattern.at(offset), 10, kWindow, map));
    EXPECT_EQ(starts, (std::vector<std::uint64_t>{0, 16, 32, 48, 64, 80, 96}));
    for (std::size_t i = 0; i < file.size(); ++i)
        ASSERT_EQ(file[i], Pattern::expected(i)) << i;
    FileWindow unmapped;
    EXPECT_FALSE(unmapped.copy(0, pattern.at(0), 1, kWindow, [](std::uint64_t) { return false; }));
}

namespace {

// A stream of `bytes` pattern bytes starting at pattern offset `start`, fed to a StreamCheck in reads whose
// sizes cycle through `reads` (odd sizes put later reads at odd offsets), each read placed in the buffer at
// the given misalignment; the first mismatch the check reports, if any.
std::optional<std::uint64_t> firstWrongByte(const Pattern& pattern, std::uint64_t start,
                                            const std::vector<std::byte>& stream,
                                            const std::vector<std::size_t>& reads, std::size_t shift)
{
    StreamCheck check(pattern, "the pipe reader", start);
    std::vector<std::byte> buffer(stream.size() + shift);
    std::size_t at = 0;
    for (std::size_t i = 0; at < stream.size(); ++i) {
        const std::size_t n = std::min(reads[i % reads.size()], stream.size() - at);
        std::memcpy(buffer.data() + shift, stream.data() + at, n);
        check.add(buffer.data() + shift, n);
        at += n;
    }
    const auto outcome = check.outcome(stream.size(), "verify (pipe)");
    if (outcome.ok())
        return std::nullopt;
    const std::string prefix = "the pipe reader: byte ";
    EXPECT_EQ(outcome.message.rfind(prefix, 0), 0u) << outcome.message;
    return std::stoull(outcome.message.substr(prefix.size()));
}

std::vector<std::byte> patternStream(std::uint64_t start, std::size_t bytes)
{
    std::vector<std::byte> stream(bytes);
    for (std::size_t i = 0; i < bytes; ++i)
        stream[i] = Pattern::expected(start + i);
    return stream;
}

} // namespace

TEST(StreamCheck, ShortReadsAtOddOffsetsVerify)
{
    constexpr std::uint64_t period = Pattern::kPeriodBytes;
    const std::vector<std::vector<std::size_t>> readPlans{
        {1}, {7, 4093, 65537}, {period - 1, 3}, {period + 5}, {3 * period}, {256 * 1024, 100'000, 13}};
    for (const std::uint64_t patternSize :
         {std::uint64_t{0}, std::uint64_t{4096}, std::uint64_t{256 * 1024}}) {
        const Pattern pattern(patternSize);
        for (const std::uint64_t start : {std::uint64_t{0}, std::uint64_t{1}, period - 3}) {
            const auto stream = patternStream(start, 3 * period + 12'345);
            for (std::size_t plan = 0; plan < readPlans.size(); ++plan) {
                if (readPlans[plan] == std::vector<std::size_t>{1} && patternSize != 0)
                    continue; // one byte per read: once is enough (it is slow)
                for (const std::size_t shift : {std::size_t{0}, std::size_t{3}}) {
                    EXPECT_EQ(firstWrongByte(pattern, start, stream, readPlans[plan], shift), std::nullopt)
                        << "pattern " << patternSize << " start " << start << " plan " << plan << " shift "
                        << shift;
                }
            }
        }
    }
}

TEST(StreamCheck, FindsACorruptByteAnywhere)
{
    constexpr std::uint64_t period = Pattern::kPeriodBytes;
    const std::uint64_t size = 3 * period + 777;
    // Read boundaries of the {65536, 4093} plan fall at 65536, 69629, 135165, ...
    const std::vector<std::uint64_t> places{0,      1,          63,         64,         65535,
                                            65536,  69628,      69629,      period / 2, period - 1,
                                            period, period + 1, 2 * period, size - 2,   size - 1};
    const std::vector<std::vector<std::size_t>> readPlans{{65536, 4093}, {size}, {period}, {1000, 1}};
    for (const std::uint64_t patternSize : {std::uint64_t{4096}, std::uint64_t{256 * 1024}}) {
        const Pattern pattern(patternSize);
        for (const std::uint64_t start : {std::uint64_t{0}, std::uint64_t{5}}) {
            const auto clean = patternStream(start, size);
            for (const std::uint64_t place : places) {
                for (std::size_t plan = 0; plan < readPlans.size(); ++plan) {
                    auto stream = clean;
                    stream[place] ^= std::byte{0x01}; // the smallest change: one bit
                    EXPECT_EQ(firstWrongByte(pattern, start, stream, readPlans[plan], 1), place)
                        << "pattern " << patternSize << " start " << start << " plan " << plan;
                    stream[size - 1] ^= std::byte{0x80}; // a later wrong byte does not hide the first
                    if (place != size - 1) {
                        EXPECT_EQ(firstWrongByte(pattern, start, stream, readPlans[plan], 0), place);
                    }
                }
            }
        }
    }
}

TEST(StreamCheck, NamesTheFirstWrongByteOrTheShortCount)
{
    const Pattern pattern(4096);
    std::vector<std::byte> data(pattern.at(0), pattern.at(0) + 3000);
    StreamCheck good(pattern, "the pipe reader");
    good.add(data.data(), 1000);
    good.skip(1000);
    good.add(data.data() + 2000, 1000);
    EXPECT_TRUE(good.outcome(3000, "verify (pipe)").ok());
    EXPECT_EQ(good.outcome(3001, "verify (pipe)").message,
              "the pipe reader: 3000 bytes arrived, expected 3001");

    data[1234] = ~data[1234];
    data[2500] = ~data[2500];
    StreamCheck bad(pattern, "/x/c000-r0-t0.dat");
    bad.add(data.data(), 2000);
    bad.add(data.data() + 2000, 1000);
    const auto outcome = bad.outcome(3000, "verify");
    EXPECT_EQ(outcome.status, Status::Failed);
    EXPECT_EQ(outcome.operation, "verify");
    EXPECT_EQ(outcome.message, "/x/c000-r0-t0.dat: byte 1234 differs from what was written");
}

TEST(Estimate, CasesNotStartedAreWeighedByTheirOwnEstimateAtThePaceOfTheFinishedOnes)
{
    // Three cases of 10 s each by the estimate.
    const std::vector<double> cases{10, 10, 10};
    EXPECT_DOUBLE_EQ(estimateSecondsLeft(cases, {}, 0, 0), 30);
    // Two seconds into the first case (its bytes all in the page cache, its fsync still to come): the
    // cases not started still count in full.
    EXPECT_DOUBLE_EQ(estimateSecondsLeft(cases, {}, 0, 2), 28);
    // The first case took 20 s, twice its estimate: the rest will likely take twice theirs.
    EXPECT_DOUBLE_EQ(estimateSecondsLeft(cases, {20}, 1, 0), 40);
    EXPECT_DOUBLE_EQ(estimateSecondsLeft(cases, {20}, 1, 5), 35);
    // A case that runs past its estimate adds nothing negative.
    EXPECT_DOUBLE_EQ(estimateSecondsLeft(cases, {10, 10}, 2, 30), 0);
    // A fast first case does not make the rest vanish: the pace is bounded.
    EXPECT_NEAR(estimateSecondsLeft(cases, {0.001}, 1, 0), 2, 1e-9);
    // Cases of very different sizes keep their own weights.
    EXPECT_DOUBLE_EQ(estimateSecondsLeft({1, 1, 100}, {1, 1}, 2, 0), 100);
    EXPECT_DOUBLE_EQ(estimateSecondsLeft(cases, {10, 10, 10}, 3, 0), 0);
}

// Cases that take turns are all under way at once: the share of each done, weighed by its estimate, sets
// the pace; what is left of each is weighed at that pace.
TEST(Estimate, CasesTakingTurnsAreWeighedByTheShareOfEachDone)
{
    const std::vector<double> cases{10, 10, 20};
    EXPECT_DOUBLE_EQ(estimateSecondsLeftInTurns(cases, {0, 0, 0}, 0), 40) << "nothing done: the estimate";
    // Half of each done (20 s of estimated work) in 20 s: on pace, 20 s left.
    EXPECT_DOUBLE_EQ(estimateSecondsLeftInTurns(cases, {0.5, 0.5, 0.5}, 20), 20);
    // ... in 40 s: twice as slow as estimated, 40 s left.
    EXPECT_DOUBLE_EQ(estimateSecondsLeftInTurns(cases, {0.5, 0.5, 0.5}, 40), 40);
    // A case that ended early (failed) counts as done; the others' rest is left.
    EXPECT_DOUBLE_EQ(estimateSecondsLeftInTurns(cases, {1, 0.5, 0.5}, 25), 15);
    // The pace is bounded, and everything done leaves nothing.
    EXPECT_NEAR(estimateSecondsLeftInTurns(cases, {0.5, 0.5, 0.5}, 0.001), 2, 1e-9);
    EXPECT_DOUBLE_EQ(estimateSecondsLeftInTurns(cases, {1, 1, 1}, 50), 0);
}

TEST(TargetFacts, TmpfsAndRamfsLiveInMemoryAndNothingElseDoes)
{
    for (const char* fs : {"tmpfs", "ramfs"}) {
        TargetInfo target;
        target.fsType = fs;
        EXPECT_TRUE(target.livesInMemory()) << fs;
    }
    for (const char* fs : {"ext4", "xfs", "btrfs", "NTFS", "", "tmpfs2"}) {
        TargetInfo target;
        target.fsType = fs;
        EXPECT_FALSE(target.livesInMemory()) << fs;
    }
}
