// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/case.h"

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

// How a read strategy lays out its data.
enum class DataLayout
{
    None,          // writes: the strategy creates its own files
    FilePerThread, // one file per thread, sized like a writer's share
    SharedFile,    // one file all threads read at random offsets
    FileSet        // a generated set of many files in nested folders
};

// The sizes of a file set, deterministic for a spec: quantiles of the distribution at (i + 1/2) / N, so the
// set follows the distribution closely even for a few hundred files, shuffled into a fixed pseudo-random
// order. Article mixes are a bounded Pareto distribution over [min, max] whose shape is solved for the mean.
std::vector<std::uint64_t> fileSetSizes(const FileSetSpec& spec);
// Their sum, without building the list twice where only the total is wanted.
std::uint64_t fileSetBytes(const FileSetSpec& spec);

// The plan for a read case; `setIndex` names its folder (set-<index>). FileSet layouts nest the files two
// folders deep (at most 64 files per folder, 16 folders per parent).
DataSetPlan planDataSet(const Case& c, DataLayout layout, std::uint32_t setIndex);
// The key planDataSet would give, to find a set already written.
std::string dataSetKey(const Case& c, DataLayout layout);

// Bounded Pareto shape alpha with the given mean over [min, max]; exposed for tests.
double paretoShapeForMean(double minBytes, double maxBytes, double meanBytes);

} // namespace iolab
