// SPDX-License-Identifier: MIT
// Reads what Sysinternals Process Monitor exported as CSV (File > Save..., Comma-Separated Values) as a
// trace: for a support engineer who captured a Windows program with the tool already on the machine. Process
// Monitor sees the file system's requests, below the C runtime and the Win32 calls: a stdio stream's writes
// show as what its buffer flushed, and the cache manager's own writes (paging I/O) are the system's, not the
// program's, so they are counted and left out. Columns are found by their names, in any order; the ones
// Process Monitor shows by default are required, TID and Duration are read when present (Options > Select
// Columns) and their absence is said.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace iolab {

struct ProcmonImport
{
    std::uint64_t rows = 0;
    std::uint64_t calls = 0;        // rows turned into the trace's calls
    std::uint64_t otherRows = 0;    // rows about other things (registry, queries, process events, ...)
    std::uint64_t pagingWrites = 0; // the cache manager's and memory manager's writes, left out
    std::uint64_t processes = 0;
    bool timed = true;                 // a Duration column
    bool threaded = true;              // a TID column
    std::vector<std::string> warnings; // what the import could not know, in words
};

// Whether `firstLine` is the header of Process Monitor's CSV (its Operation, Path and Detail columns).
bool looksLikeProcmonCsv(const std::string& firstLine);

// Reads `in` (named `sourceName` in messages) and writes one part per process, each to the stream
// `openPart(n)` gives for the n-th process seen (0, 1, ...), which must outlive the call. Throws InputError
// for a header that lacks a required column (naming it and how to add it), a file separated by something
// else than commas, and a file with no row about a file.
ProcmonImport importProcmonCsv(std::istream& in, const std::string& sourceName,
                               const std::function<std::ostream&(std::size_t)>& openPart);

// How to make what importProcmonCsv reads, for the README, `iolab-cli import --help` and messages.
inline constexpr const char* kProcmonHowTo =
    "in Process Monitor, filter on the program (Filter > Process Name), add the TID and Duration columns "
    "(Options > Select Columns), then File > Save... > All events, Comma-Separated Values (CSV)";

} // namespace iolab
