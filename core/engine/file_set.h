// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/case.h"
#include "core/model/file_set_sizes.h"
#include "core/model/strategy_info.h"

#include <cstdint>
#include <string>
#include <vector>

namespace iolab {

// One file of a read case's data set: where it lives inside the run folder, its size, and where in the
// pattern its first byte is (files start at different offsets, so reading the wrong file is caught).
struct DataFile
{
    std::string relativePath; // '/'-separated, inside the run folder
    std::uint64_t bytes = 0;
    std::uint64_t patternOffset = 0;

    friend bool operator==(const DataFile&, const DataFile&) = default;
};

// The files a read case needs, written before its first repetition and kept for every later case that needs
// the same set. `directories` are listed parents first.
struct DataSetPlan
{
    std::string key; // equal keys: the same files
    std::vector<std::string> directories;
    std::vector<DataFile> files;
    std::uint64_t totalBytes = 0;
    DataPattern pattern; // the bytes the files hold (the read case's pattern)
};

// The plan for a read case; `setIndex` names its folder (set-<index>). FileSet layouts nest the files two
// folders deep (at most 64 files per folder, 16 folders per parent).
DataSetPlan planDataSet(const Case& c, DataLayout layout, std::uint32_t setIndex);
// The key planDataSet would give, to find a set already written.
std::string dataSetKey(const Case& c, DataLayout layout);

} // namespace iolab
