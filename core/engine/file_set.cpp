// SPDX-License-Identifier: MIT
#include "core/engine/file_set.h"

#include "core/base/splitmix.h"
#include "core/engine/pattern.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace iolab {

namespace {

constexpr std::uint32_t kFilesPerFolder = 64;
constexpr std::uint32_t kFoldersPerParent = 16;

// Mean of the bounded Pareto distribution with shape a over [lo, hi].
double paretoMean(double lo, double hi, double a)
{
    const double r = lo / hi;
    if (std::abs(a - 1.0) < 1e-9)
        return lo * std::log(hi / lo) / (1.0 - r);
    return lo * a / (a - 1.0) * (1.0 - std::pow(r, a - 1.0)) / (1.0 - std::pow(r, a));
}

std::uint64_t patternOffsetFor(std::size_t index)
{
    // A prime stride: neighbouring files start far apart in the pattern.
    return (static_cast<std::uint64_t>(index) * 40'503U) % Pattern::kPeriodBytes;
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

std::string dataSetKey(const Case& c, DataLayout layout)
{
    // Files of another pattern are other files: IOLab's own pattern keeps the keys it always had.
    const std::string pattern =
        c.pattern == DataPattern{} ? std::string() : fmt::format(" {}", toString(c.pattern));
    switch (layout) {
    case DataLayout::None:
        return {};
    case DataLayout::FilePerThread:
        return fmt::format("per-thread {} x {}{}", c.threads, c.totalBytes, pattern);
    case DataLayout::SharedFile:
        return fmt::format("shared {}{}", c.totalBytes, pattern);
    case DataLayout::FileSet:
        return fmt::format("set {}{}", toString(c.fileSet), pattern);
    }
    return {};
}

DataSetPlan planDataSet(const Case& c, DataLayout layout, std::uint32_t setIndex)
{
    DataSetPlan plan;
    plan.key = dataSetKey(c, layout);
    plan.pattern = c.pattern;
    const std::string root = fmt::format("set-{}", setIndex);
    plan.directories.push_back(root);
    const auto add = [&plan](std::string path, std::uint64_t bytes) {
        const std::uint64_t offset = patternOffsetFor(plan.files.size());
        plan.files.push_back({std::move(path), bytes, offset});
        plan.totalBytes += bytes;
    };
    switch (layout) {
    case DataLayout::None:
        plan.directories.clear();
        break;
    case DataLayout::FilePerThread:
        for (std::uint32_t t = 0; t < c.threads; ++t)
            add(fmt::format("{}/f{:06}.dat", root, t), c.bytesForThread(t));
        break;
    case DataLayout::SharedFile:
        add(root + "/f000000.dat", c.totalBytes);
        break;
    case DataLayout::FileSet: {
        const auto sizes = fileSetSizes(c.fileSet);
        std::string parent;
        std::string leaf;
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            const std::size_t leafIndex = i / kFilesPerFolder;
            if (i % kFilesPerFolder == 0) {
                const std::string nextParent = fmt::format("{}/d{:02}", root, leafIndex / kFoldersPerParent);
                if (nextParent != parent) {
                    parent = nextParent;
                    plan.directories.push_back(parent);
                }
                leaf = fmt::format("{}/d{:02}", parent, leafIndex % kFoldersPerParent);
                plan.directories.push_back(leaf);
            }
            add(fmt::format("{}/f{:06}.dat", leaf, i), sizes[i]);
        }
        break;
    }
    }
    return plan;
}

} // namespace iolab
