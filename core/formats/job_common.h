// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/units.h"
#include "core/model/result.h"

#include <fmt/format.h>

#include <algorithm>
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

// The calls a stdio case makes to the OS: their size (the case's buffer, or its chunk when that is larger or
// there is no buffer), and the buffer in words ("a 64 KiB buffer"), for the exports' "closest" line.
struct StdioCalls
{
    std::uint64_t bytes = 0;
    std::string buffer;
};
inline StdioCalls stdioCalls(const Case& c)
{
    StdioCalls calls{c.chunkBytes, "unbuffered, so each call goes to the OS"};
    if (c.buffer.mode == BufferMode::Default)
        calls = {4 * kKiB, "its default buffer (glibc: the filesystem's block size, usually 4 KiB)"};
    else if (c.buffer.mode == BufferMode::Bytes)
        calls = {c.buffer.bytes, fmt::format("a {} buffer", formatBytes(c.buffer.bytes))};
    calls.bytes = std::max(calls.bytes, c.chunkBytes);
    return calls;
}

} // namespace iolab
