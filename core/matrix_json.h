// SPDX-License-Identifier: MIT
#pragma once

#include "core/matrix.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

namespace iolab {

// The matrix file format the CLI reads and the GUI saves:
//   { "name": "...", "description": "...",
//     "groups": [ { "strategies": ["stdio"], "chunks": ["1", "4K"], "sizes": ["64M"],
//                   "buffers": ["none", "default", "64K"], "syncs": ["none", "fsync-end"],
//                   "threads": [1, 4], "targets": ["directory"] } ] }
// A file with a single group may put the axes at the top level instead of "groups".
// Throws InputError naming the source, and line and column for syntax errors.
Matrix parseMatrixJson(std::string_view text, std::string_view sourceName);
Matrix matrixFromJson(const nlohmann::json& json, std::string_view sourceName);
nlohmann::json matrixToJson(const Matrix& matrix);

} // namespace iolab
