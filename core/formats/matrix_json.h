// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/matrix.h"

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

// A JSON syntax error as one plain sentence with its place: "m.json: not valid JSON at line 3, column 7
// (byte 41): unexpected character '}'". `byte` is where the parser stopped (1-based, as nlohmann counts);
// `parserMessage` is the parser's own text, of which only the cause is kept, never its internal codes.
std::string jsonSyntaxError(std::string_view text, std::size_t byte, std::string_view parserMessage,
                            std::string_view sourceName);

// Deeper nesting than any IOLab file has (a result nests about 6 levels) is refused before parsing: a
// document nested 100,000 levels deep would otherwise exhaust the stack.
inline constexpr std::size_t kMaxJsonNesting = 64;

// Parses a JSON document, throwing InputError with jsonSyntaxError()'s sentence, or naming the line and
// column where the nesting passes kMaxJsonNesting.
nlohmann::json parseJsonDocument(std::string_view text, std::string_view sourceName);

} // namespace iolab
