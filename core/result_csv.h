// SPDX-License-Identifier: MIT
#pragma once

#include "core/csv.h"
#include "core/result.h"

#include <string>

namespace iolab {

// One row per case x repetition, units in the column names.
std::vector<CsvRow> repetitionRows(const RunResult& result);
// One row per sampler tick.
std::vector<CsvRow> sampleRows(const RunResult& result);

std::string toCsv(const std::vector<CsvRow>& rows);

// "out.csv" -> "out.samples.csv"
std::string samplesCsvPath(const std::string& csvPath);

} // namespace iolab
