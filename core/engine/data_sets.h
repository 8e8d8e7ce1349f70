// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/file_set.h"
#include "core/engine/strategy.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace iolab {

class Workspace;

// Room kept free beyond `bytes` of data, for the filesystem's own blocks and for what other programs write
// meanwhile: 5% of the data, at least 4 MiB.
std::uint64_t spaceMarginBytes(std::uint64_t bytes);

// Room a data set needs beyond its bytes: a block per file for rounding and a margin for the filesystem.
std::uint64_t dataSetSpaceNeeded(std::uint64_t totalBytes, std::uint64_t files);

// A data set as written: the plan's files and folders with absolute paths.
struct DataSet
{
    std::string key;
    std::vector<DataFile> files; // relativePath holds the absolute path
    std::vector<std::string> directories;
    std::uint64_t totalBytes = 0;
};

// The data sets of a run's read cases: written into the run folder when a case first needs one, kept for
// every later case that needs the same files, removed at the end. When the target lacks room for a new set,
// the sets no case is using are removed first; a set that still does not fit is refused before a byte is
// written.
class DataSets
{
public:
    // `mayFreeEarlier`: a set no later case needs may be removed to make room for another (cases that take
    // turns all need theirs until the last round).
    DataSets(Workspace& workspace, const std::atomic<bool>& stop, bool mayFreeEarlier = true)
        : m_workspace(workspace), m_stop(stop), m_mayFreeEarlier(mayFreeEarlier)
    {}
    ~DataSets() { removeAll(); }
    DataSets(const DataSets&) = delete;
    DataSets& operator=(const DataSets&) = delete;

    // The set for `c`, written if need be; nullptr with `outcome` set (Refused for space, Failed, Cancelled).
    const DataSet* prepare(const Case& c, DataLayout layout, bool spaceCheck, Outcome& outcome);
    void removeAll();

private:
    Outcome write(const DataSetPlan& plan, DataSet& set);
    void remove(DataSet& set);

    Workspace& m_workspace;
    const std::atomic<bool>& m_stop;
    bool m_mayFreeEarlier;
    std::vector<std::unique_ptr<DataSet>> m_sets;
    std::uint32_t m_nextIndex = 1;
};

} // namespace iolab
