// SPDX-License-Identifier: MIT
#include "core/base/stats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

namespace iolab {

double studentT95(std::size_t df)
{
    static constexpr std::array<double, 30> kTable{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                                   2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                                   2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                                   2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    if (df == 0)
        return 0.0;
    if (df <= kTable.size())
        return kTable[df - 1];
    // Beyond 30: linear in 1/df between the published points 30, 40, 60, 120 and infinity.
    struct Point
    {
        double df;
        double t;
    };
    static constexpr std::array<Point, 5> kTail{
        {{30, 2.042}, {40, 2.021}, {60, 2.000}, {120, 1.980}, {1e300, 1.960}}};
    const double x = static_cast<double>(df);
    for (std::size_t i = 1; i < kTail.size(); ++i) {
        if (x <= kTail[i].df) {
            const double a = 1.0 / kTail[i - 1].df;
            const double b = 1.0 / kTail[i].df;
            const double f = (a - 1.0 / x) / (a - b);
            return kTail[i - 1].t + f * (kTail[i].t - kTail[i - 1].t);
        }
    }
    return 1.960;
}

double median(std::span<const double> values)
{
    if (values.empty())
        return 0.0;
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

double trimmedMean(std::span<const double> values)
{
    if (values.empty())
        return 0.0;
    const double sum = std::accumulate(values.begin(), values.end(), 0.0);
    if (values.size() < 3)
        return sum / static_cast<double>(values.size());
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    return (sum - *lo - *hi) / static_cast<double>(values.size() - 2);
}

double sampleStddev(std::span<const double> values)
{
    if (values.size() < 2)
        return 0.0;
    const double mean =
        std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    double sum = 0.0;
    for (double v : values)
        sum += (v - mean) * (v - mean);
    return std::sqrt(sum / static_cast<double>(values.size() - 1));
}

Summary summarize(std::span<const double> values)
{
    Summary s;
    s.count = values.size();
    if (values.empty())
        return s;
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    s.median = median(values);
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    s.min = *lo;
    s.max = *hi;
    s.stddev = sampleStddev(values);
    s.trimmedMean = trimmedMean(values);
    s.cv = s.mean != 0.0 ? s.stddev / s.mean : 0.0;
    const double half = values.size() >= 2 ? studentT95(values.size() - 1) * s.stddev /
                                                 std::sqrt(static_cast<double>(values.size()))
                                           : 0.0;
    s.ciLow = s.mean - half;
    s.ciHigh = s.mean + half;
    return s;
}

double percentile(std::span<const double> values, double p)
{
    if (values.empty())
        return 0;
    std::vector<double> sorted(values.begin(), values.end());
    // p / 100 * n in binary floating point can land a hair above a whole rank (99.9% of 100,000 is
    // 99,900.000000000006): a relative tolerance keeps the nearest rank from moving one value up, which in a
    // bimodal set is the other mode.
    const double exact = p / 100.0 * static_cast<double>(sorted.size());
    const auto rank = static_cast<std::size_t>(std::ceil(exact - 1e-9 * std::max(1.0, exact)));
    const std::size_t index = std::clamp<std::size_t>(rank, 1, sorted.size()) - 1;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(index), sorted.end());
    return sorted[index];
}

} // namespace iolab
