// SPDX-License-Identifier: MIT
#include "core/formats/csv.h"

#include "core/base/error.h"

#include <fmt/format.h>

namespace iolab {

std::string csvField(std::string_view field)
{
    if (field.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(field);
    std::string quoted = "\"";
    for (char c : field) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

std::string csvRecord(const CsvRow& row)
{
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
        if (i != 0)
            line += ',';
        line += csvField(row[i]);
    }
    line += "\r\n";
    return line;
}

std::vector<CsvRow> parseCsv(std::string_view text)
{
    std::vector<CsvRow> rows;
    CsvRow row;
    std::string field;
    bool quoted = false;
    bool fieldStarted = false;
    std::size_t line = 1;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                if (c == '\n')
                    ++line;
                field += c;
            }
            continue;
        }
        switch (c) {
        case '"':
            if (fieldStarted && !field.empty())
                throw InputError(fmt::format("CSV line {}: a quote inside an unquoted field", line));
            quoted = true;
            fieldStarted = true;
            break;
        case ',':
            row.push_back(std::move(field));
            field.clear();
            fieldStarted = false;
            break;
        case '\r':
            break;
        case '\n':
            row.push_back(std::move(field));
            field.clear();
            fieldStarted = false;
            rows.push_back(std::move(row));
            row.clear();
            ++line;
            break;
        default:
            field += c;
            fieldStarted = true;
        }
    }
    if (quoted)
        throw InputError(fmt::format("CSV line {}: a quoted field is not closed", line));
    if (fieldStarted || !row.empty()) {
        row.push_back(std::move(field));
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace iolab
