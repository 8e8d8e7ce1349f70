// SPDX-License-Identifier: MIT
// The random chunk order of the random writers: a permutation of [0, n) for every n, not the identity.
#include "core/engine/chunk_order.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace iolab;

namespace {

class ChunkOrders : public ::testing::TestWithParam<std::uint64_t>
{};

} // namespace

TEST_P(ChunkOrders, VisitEveryChunkExactlyOnce)
{
    const std::uint64_t n = GetParam();
    for (const std::uint64_t seed : {0u, 1u, 7u}) {
        const ChunkOrder order(n, seed);
        std::vector<bool> seen(n, false);
        std::uint64_t inPlace = 0;
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint64_t chunk = order.at(i);
            ASSERT_LT(chunk, n) << "n " << n << " index " << i;
            ASSERT_FALSE(seen[chunk]) << "n " << n << " chunk " << chunk << " visited twice";
            seen[chunk] = true;
            inPlace += chunk == i ? 1 : 0;
        }
        if (n >= 1000) {
            EXPECT_LT(inPlace, n / 50) << "n " << n << ": the order is close to the identity";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, ChunkOrders, ::testing::Values(1, 2, 3, 1000, 4096, std::uint64_t{1} << 20));

TEST(ChunkOrder, SmallCountsAreShuffledBySomeSeedAndThreadsDiffer)
{
    for (const std::uint64_t n : {2u, 3u}) {
        bool shuffled = false;
        for (std::uint64_t seed = 0; seed < 16 && !shuffled; ++seed)
            shuffled = ChunkOrder(n, seed).at(0) != 0;
        EXPECT_TRUE(shuffled) << "n " << n;
    }
    const ChunkOrder a(4096, 1);
    const ChunkOrder b(4096, 2);
    std::uint64_t same = 0;
    for (std::uint64_t i = 0; i < 4096; ++i)
        same += a.at(i) == b.at(i) ? 1 : 0;
    EXPECT_LT(same, 100u);
}
