// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/matrix.h"

#include <map>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace iolab::cli {

// The values given to each case axis's flag, keyed by the axis's matrix key ("chunks" for --chunk).
struct AxisFlagValues
{
    std::map<std::string, std::vector<std::string>> byMatrixKey;

    // The values given for one axis, comma lists split: "--chunk 1,4K --chunk 1M" -> 1, 4K, 1M.
    std::vector<std::string> values(const std::string& matrixKey) const;
    // Whether any axis flag other than the named ones was given.
    bool anyBesides(const std::vector<std::string>& matrixKeys) const;
};

// Splits comma-separated lists and drops empty items.
std::vector<std::string> splitList(const std::vector<std::string>& values);

// Adds one option per declared case axis that has a flag (core/model/axes.h), with its help text.
void addAxisOptions(CLI::App& command, AxisFlagValues& values);

// The matrix group the flags describe; throws InputError naming the flag and the value.
MatrixGroup groupFromAxisFlags(const AxisFlagValues& values);

// The axes whose flags may go with a preset or a matrix file, overriding it for every case: how much and how
// long each case runs (--size, --duration), never what it does. --reps, which is no axis, goes with them.
const std::vector<std::string>& overridingAxisKeys();

// Throws InputError for the first other axis flag given (in declaration order), naming it, its value, what
// it would change in `source` ("preset 'sync-lab'", "matrix file 'm.json'") and what to do instead.
void refuseChangingAxes(const AxisFlagValues& values, const std::string& source);

} // namespace iolab::cli
