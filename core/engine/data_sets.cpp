// SPDX-License-Identifier: MIT
#include "core/engine/data_sets.h"

#include "core/base/log.h"
#include "core/base/units.h"
#include "core/engine/pattern.h"
#include "core/engine/workspace.h"

#include <fmt/format.h>

#include <algorithm>

namespace iolab {

namespace {

constexpr std::uint64_t kMinMarginBytes = 4 * kMiB;
constexpr std::uint64_t kMarginPercent = 5;
constexpr std::uint64_t kSlackPerFile = 4 * kKiB;
constexpr std::uint64_t kWriteChunk = 1 * kMiB;

} // namespace

std::uint64_t spaceMarginBytes(std::uint64_t bytes)
{
    return std::max(kMinMarginBytes, bytes / 100 * kMarginPercent + bytes % 100 * kMarginPercent / 100);
}

std::uint64_t dataSetSpaceNeeded(std::uint64_t totalBytes, std::uint64_t files)
{
    return totalBytes + kSlackPerFile * files + spaceMarginBytes(totalBytes);
}

const DataSet* DataSets::prepare(const Case& c, DataLayout layout, bool spaceCheck, Outcome& outcome)
{
    const std::string key = dataSetKey(c, layout);
    for (const auto& set : m_sets) {
        if (set->key == key)
            return set.get();
    }
    const DataSetPlan plan = planDataSet(c, layout, m_nextIndex);
    const std::uint64_t needed = dataSetSpaceNeeded(plan.totalBytes, plan.files.size());
    if (spaceCheck && m_mayFreeEarlier && needed > m_workspace.freeBytes() && !m_sets.empty()) {
        logger(LogModule::Core).info("removing {} earlier data set(s) to make room", m_sets.size());
        removeAll();
    }
    if (const std::uint64_t free = m_workspace.freeBytes(); spaceCheck && needed > free) {
        outcome = {
            Status::Refused, 0, "",
            fmt::format("the data set ({} in {} file{}) needs {} of free space with its margin, but the "
                        "target has {}; nothing was written{}",
                        formatBytes(plan.totalBytes), plan.files.size(), plan.files.size() == 1 ? "" : "s",
                        formatBytes(needed), formatBytes(free),
                        m_mayFreeEarlier || m_sets.empty()
                            ? ""
                            : " (the cases take turns, so the data sets of the cases before it stay on the "
                              "target until the last round; run the cases one after another to free them)")};
        return nullptr;
    }
    ++m_nextIndex;
    auto set = std::make_unique<DataSet>();
    set->key = key;
    set->totalBytes = plan.totalBytes;
    logger(LogModule::Core)
        .info("writing data set {}: {} file(s), {}", plan.directories.front(), plan.files.size(),
              formatBytes(plan.totalBytes));
    outcome = write(plan, *set);
    if (!outcome.ok()) {
        remove(*set);
        return nullptr;
    }
    m_sets.push_back(std::move(set));
    return m_sets.back().get();
}

Outcome DataSets::write(const DataSetPlan& plan, DataSet& set)
{
    for (const auto& dir : plan.directories) {
        Outcome outcome;
        std::string path = m_workspace.directoryFor(dir, outcome);
        if (!outcome.ok())
            return outcome;
        set.directories.push_back(std::move(path));
    }
    std::uint64_t largest = 0;
    for (const auto& file : plan.files)
        largest = std::max(largest, file.bytes);
    const Pattern pattern(std::min(largest, kWriteChunk), plan.pattern);
    for (const auto& file : plan.files) {
        if (m_stop.load(std::memory_order_relaxed))
            return Outcome::cancelled();
        Outcome outcome;
        std::string path = m_workspace.pathFor(file.relativePath, outcome);
        if (!outcome.ok())
            return outcome;
        set.files.push_back({path, file.bytes, file.patternOffset});
        outcome = m_workspace.writeDataFile(path, file.bytes, file.patternOffset, pattern, m_stop, 0);
        if (!outcome.ok())
            return outcome;
    }
    // Written back before any case reads it: otherwise the kernel's write-back of the new set would run
    // during the first timed reads, and a warm case would read dirty pages.
    for (const auto& file : set.files) {
        if (m_stop.load(std::memory_order_relaxed))
            return Outcome::cancelled();
        if (auto outcome = m_workspace.makeDurable(file.relativePath); !outcome.ok())
            return outcome;
    }
    return Outcome::success();
}

void DataSets::remove(DataSet& set)
{
    for (const auto& file : set.files)
        m_workspace.remove(file.relativePath);
    // Children before their parents.
    std::for_each(set.directories.rbegin(), set.directories.rend(),
                  [this](const std::string& dir) { m_workspace.removeDirectory(dir); });
    set.files.clear();
    set.directories.clear();
}

void DataSets::removeAll()
{
    for (auto& set : m_sets)
        remove(*set);
    m_sets.clear();
}

} // namespace iolab
