// SPDX-License-Identifier: MIT
#include "core/engine/file_set.h"

#include "core/engine/pattern.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace iolab {

namespace {

constexpr std::uint32_t kFilesPerFolder = 64;
constexpr std::uint32_t kFoldersPerParent = 16;

std::uint64_t patternOffsetFor(std::size_t index)
{
    // A prime stride: neighbouring files start far apart in the pattern.
    return (static_cast<std::uint64_t>(index) * 40'503U) % Pattern::kPeriodBytes;
}

} // namespace

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
