// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <fmt/format.h>

#include <string>

namespace iolab {

// What the exports of a case (fio job, DiskSpd command line, C program) share.

// A file in a folder, in the form the folder's OS writes it: C:\data or \\server\share take backslashes,
// /srv/data slashes.
inline std::string joinPath(const std::string& directory, const std::string& name)
{
    if (directory.empty())
        return name;
    const bool windows =
        directory.find('\\') != std::string::npos || (directory.size() >= 2 && directory[1] == ':');
    const char separator = windows ? '\\' : '/';
    if (directory.back() == separator)
        return directory + name;
    return directory + separator + name;
}

// Where an exported case came from, for its first comment line: "case 3 of the run started 2026-...: label".
inline std::string caseOrigin(const RunResult& result, const CaseResult& c)
{
    return fmt::format("case {} of the run started {}: {}", c.index + 1, result.startedAt,
                       c.testCase.label());
}

} // namespace iolab
