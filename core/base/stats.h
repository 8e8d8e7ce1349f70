// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <span>

namespace iolab {

// Below this many values the trimmed mean (one lowest and one highest value dropped) says nothing the median
// does not: with three it is the median. Front ends show it from this count on.
inline constexpr std::size_t kTrimmedMeanMinCount = 5;

struct Summary
{
    std::size_t count = 0;
    double median = 0;
    double mean = 0;
    double min = 0;
    double max = 0;
    double stddev = 0; // sample standard deviation (n - 1)
    double cv = 0;     // stddev / mean
    double ciLow = 0;  // 95% confidence interval of the mean (Student's t); equal to the mean when count < 2
    double ciHigh = 0;
    // The mean without the single lowest and highest value (the .NET reading article's "average without the
    // largest and smallest"); the plain mean when there are fewer than three values.
    double trimmedMean = 0;

    friend bool operator==(const Summary&, const Summary&) = default;
};

Summary summarize(std::span<const double> values);

// Two-sided 95% quantile of Student's t with `degreesOfFreedom`.
double studentT95(std::size_t degreesOfFreedom);

double median(std::span<const double> values);
// Mean of the values without one minimum and one maximum; the mean when there are fewer than three.
double trimmedMean(std::span<const double> values);
double sampleStddev(std::span<const double> values);
// The p-th percentile (0..100) by the nearest-rank method: a value that occurred, as latency tools report.
double percentile(std::span<const double> values, double p);

} // namespace iolab
