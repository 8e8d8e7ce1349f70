// SPDX-License-Identifier: MIT
#pragma once

#include "core/formats/csv.h"
#include "core/model/result.h"

#include <string>

namespace iolab {

// One row per case x repetition, units in the column names.
std::vector<CsvRow> repetitionRows(const RunResult& result);
// One row per sampler tick.
std::vector<CsvRow> sampleRows(const RunResult& result);
// One row per case (then one per refused combination): the report's summary table with units in the names.
std::vector<CsvRow> summaryRows(const RunResult& result);

std::string toCsv(const std::vector<CsvRow>& rows);

// "out.csv" -> "out.samples.csv"
std::string samplesCsvPath(const std::string& csvPath);
// x.csv -> x.summary.csv
std::string summaryCsvPath(const std::string& csvPath);

// The three CSV files of a result: repetitions at `csvPath`, the summary and the samples beside it.
struct CsvFile
{
    std::string path;
    std::string content;
};
std::vector<CsvFile> resultCsvFiles(const RunResult& result, const std::string& csvPath);

} // namespace iolab
