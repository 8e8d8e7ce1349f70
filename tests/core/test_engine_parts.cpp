// SPDX-License-Identifier: MIT
#include "core/chunk_loop.h"
#include "core/pattern.h"

#include <gtest/gtest.h>

#include <atomic>
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

TEST(ChunkLoop, FailureStopsAndCountsWhatWasWritten)
{
    Progress progress;
    const auto end = runChunks(
        1 << 20, 512, 0, progress, [&](std::uint64_t offset, std::uint64_t) { return offset < 5 * 512; },
        [] { return true; });
    EXPECT_EQ(end, LoopEnd::Failed);
    EXPECT_EQ(progress.bytes.load(), 5u * 512u);
}
