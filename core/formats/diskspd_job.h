// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/case.h"
#include "core/model/result.h"

#include <string>

namespace iolab {

// A case as a Microsoft DiskSpd command line, for someone to rerun the workload on Windows (issue 18). Where
// DiskSpd has the same thing it is used: -b block, -c file size, -o requests in flight, -t threads per file,
// -w write percentage, -s / -r sequential or random, -Sb / -Su / -Sw / -Sh / -Sm caching, write-through and
// memory-mapped I/O, -fs / -fr access hints, -L latency. DiskSpd runs for a time (-d), not a size, and never
// flushes a file; those and every other difference are stated in REM lines above the command, which a cmd
// user pastes as they are. A case DiskSpd cannot run at all (a pipe, group commit, per-byte stdio calls, a
// set of small files) says so instead of inventing a command.
struct DiskspdJobOptions
{
    std::string directory; // where the files go: the target folder
    std::string fileStem;  // the files' name without extension: "iolab-case-3"
    // IOLab's time for the case (the median of its measured repetitions), for -d; 0 when unknown.
    double seconds = 0;
    bool verify = false; // IOLab read every byte back
    std::string title;   // first REM line: what the case was
    std::string ranOn;   // the OS IOLab ran on ("Debian GNU/Linux 12"); "" or "Windows ...": no note
};

struct DiskspdJob
{
    bool equivalent =
        true; // false: DiskSpd cannot run this workload (the text says why and holds no command)
    std::string text;
};

DiskspdJob diskspdJob(const Case& c, const DiskspdJobOptions& options);

// The command line of a result's case (its index in `cases`): files in the result's target folder named after
// the case, -d from the case's measured time.
DiskspdJob diskspdJobOf(const RunResult& result, std::size_t caseIndex);

} // namespace iolab
