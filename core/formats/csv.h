// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace iolab {

using CsvRow = std::vector<std::string>;

// RFC 4180: fields holding a comma, quote, CR or LF are quoted, quotes doubled, records end with CRLF.
std::string csvField(std::string_view field);
std::string csvRecord(const CsvRow& row);

// Parses RFC 4180 text (CRLF or LF record ends). Throws InputError on an unterminated quote.
std::vector<CsvRow> parseCsv(std::string_view text);

} // namespace iolab
