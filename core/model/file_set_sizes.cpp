// SPDX-License-Identifier: MIT
#include "core/model/file_set_sizes.h"

#include "core/base/splitmix.h"

#include <algorithm>
#include <cmath>

namespace iolab {

namespace {

// Mean of the bounded Pareto distribution with shape a over [lo, hi].
double paretoMean(double lo, double hi, double a)
{
    const double r = lo / hi;
    if (std::abs(a - 1.0) < 1e-9)
        return lo * std::log(hi / lo) / (1.0 - r);
    return lo * a / (a - 1.0) * (1.0 - std::pow(r, a - 1.0)) / (1.0 - std::pow(r, a));
}

} // namespace

double paretoShapeForMean(double minBytes, double maxBytes, double meanBytes)
{
    double lo = 1e-6;
    double hi = 50.0;
    for (int i = 0; i < 200; ++i) {
        const double mid = (lo + hi) / 2;
        if (paretoMean(minBytes, maxBytes, mid) > meanBytes)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

std::vector<std::uint64_t> fileSetSizes(const FileSetSpec& spec)
{
    std::vector<std::uint64_t> sizes(spec.files);
    const double n = spec.files;
    const double lo = static_cast<double>(spec.minBytes);
    const double hi = static_cast<double>(spec.maxBytes);
    double shape = 0;
    if (spec.mix == SizeMix::Article)
        shape = paretoShapeForMean(lo, hi, static_cast<double>(spec.meanBytes));
    for (std::uint32_t i = 0; i < spec.files; ++i) {
        const double u = (i + 0.5) / n;
        double x = lo;
        switch (spec.mix) {
        case SizeMix::None:
        case SizeMix::Fixed:
            x = lo;
            break;
        case SizeMix::Uniform:
            x = lo + u * (hi - lo);
            break;
        case SizeMix::Article:
            x = lo * std::pow(1.0 - u * (1.0 - std::pow(lo / hi, shape)), -1.0 / shape);
            break;
        }
        sizes[i] = std::clamp(static_cast<std::uint64_t>(std::llround(x)), spec.minBytes, spec.maxBytes);
    }
    SplitMix64 random(0x10'1a'b0'00ULL ^ spec.files ^ (spec.minBytes << 20) ^ (spec.maxBytes << 7));
    for (std::size_t i = sizes.size(); i > 1; --i)
        std::swap(sizes[i - 1], sizes[random.next() % i]);
    return sizes;
}

std::uint64_t fileSetBytes(const FileSetSpec& spec)
{
    std::uint64_t total = 0;
    for (auto size : fileSetSizes(spec))
        total += size;
    return total;
}

} // namespace iolab
