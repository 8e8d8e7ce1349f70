// SPDX-License-Identifier: MIT
#include "core/base/stats.h"

#include <gtest/gtest.h>

#include <vector>

using namespace iolab;

TEST(Stats, HandComputedFiveValues)
{
    // 10, 12, 23, 23, 16: mean 16.8, sample variance (6.8^2 + 4.8^2 + 6.2^2 + 6.2^2 + 0.8^2) / 4 = 36.7
    const std::vector<double> v{10, 12, 23, 23, 16};
    const auto s = summarize(v);
    EXPECT_EQ(s.count, 5u);
    EXPECT_DOUBLE_EQ(s.mean, 16.8);
    EXPECT_DOUBLE_EQ(s.median, 16.0);
    EXPECT_DOUBLE_EQ(s.min, 10.0);
    EXPECT_DOUBLE_EQ(s.max, 23.0);
    EXPECT_NEAR(s.stddev, 6.058052492344384, 1e-12);
    EXPECT_NEAR(s.cv, 6.058052492344384 / 16.8, 1e-12);
    // t(0.975, 4) = 2.776; half width = 2.776 * 6.05805 / sqrt(5) = 7.52086
    EXPECT_NEAR(s.ciLow, 16.8 - 7.52086, 1e-4);
    EXPECT_NEAR(s.ciHigh, 16.8 + 7.52086, 1e-4);
}

TEST(Stats, EvenCountMedianAverages)
{
    const std::vector<double> v{4, 1, 3, 2};
    EXPECT_DOUBLE_EQ(median(v), 2.5);
}

TEST(Stats, SingleValueHasNoSpread)
{
    const std::vector<double> v{42};
    const auto s = summarize(v);
    EXPECT_DOUBLE_EQ(s.stddev, 0.0);
    EXPECT_DOUBLE_EQ(s.ciLow, 42.0);
    EXPECT_DOUBLE_EQ(s.ciHigh, 42.0);
}

TEST(Stats, EmptyIsZero)
{
    const auto s = summarize({});
    EXPECT_EQ(s.count, 0u);
    EXPECT_DOUBLE_EQ(s.mean, 0.0);
}

TEST(Stats, StudentTTable)
{
    EXPECT_DOUBLE_EQ(studentT95(1), 12.706);
    EXPECT_DOUBLE_EQ(studentT95(2), 4.303);
    EXPECT_DOUBLE_EQ(studentT95(30), 2.042);
    EXPECT_NEAR(studentT95(60), 2.000, 1e-9);
    EXPECT_GT(studentT95(45), 2.000);
    EXPECT_LT(studentT95(45), 2.021);
    EXPECT_NEAR(studentT95(100000), 1.960, 1e-3);
}

TEST(Stats, TrimmedMeanDropsOneMinimumAndOneMaximum)
{
    // 10, 12, 23, 23, 16 without 10 and one 23: (12 + 23 + 16) / 3 = 17
    const std::vector<double> five{10, 12, 23, 23, 16};
    EXPECT_DOUBLE_EQ(trimmedMean(five), 17.0);
    EXPECT_DOUBLE_EQ(summarize(five).trimmedMean, 17.0);
    // An outlier drags the mean to 66.25; without -35 and 102 the trimmed mean is (100 + 98) / 2 = 99
    const std::vector<double> outlier{100, 102, 98, -35};
    EXPECT_DOUBLE_EQ(summarize(outlier).mean, 66.25);
    EXPECT_DOUBLE_EQ(trimmedMean(outlier), 99.0);
    // Three values keep only the middle one; fewer than three have nothing to trim.
    EXPECT_DOUBLE_EQ(trimmedMean(std::vector<double>{5, 1, 9}), 5.0);
    EXPECT_DOUBLE_EQ(trimmedMean(std::vector<double>{4, 8}), 6.0);
    EXPECT_DOUBLE_EQ(trimmedMean(std::vector<double>{7}), 7.0);
    EXPECT_DOUBLE_EQ(trimmedMean(std::vector<double>{}), 0.0);
}
