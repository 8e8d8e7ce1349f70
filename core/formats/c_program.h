// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/case.h"
#include "core/model/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace iolab {

// A case as a standalone C program of its strategy's loop (issue 18), for someone to rerun it without IOLab:
// C11 and POSIX (plus liburing for the io_uring strategies) on Linux, C11 and windows.h for Windows's
// overlapped I/O. It writes (or writes, then reads) the case's size in the case's chunks with its threads,
// buffer, sync policy, O_DIRECT and queue depth, times the loop with a monotonic clock, prints one line with
// MB/s (apparent, and durable with the final fsync where IOLab measures that), checks every call and names
// the one that failed, and removes its files. Each program comes from one template per strategy (or per
// family whose loop is the same but for parameters; core/formats/c_templates.h); its header comment says
// how to build it and every way it differs from IOLab's run.
struct CProgramOptions
{
    std::string directory; // where the program's files go by default: the target folder
    std::string fileStem;  // their name: "iolab-case-3"
    std::string title;     // the first comment line: where the program comes from
    std::string ranOn;     // the OS IOLab ran on ("Debian GNU/Linux 12", "Windows 10.0 ...")
    std::uint32_t repetitions = 0;
    std::uint32_t warmups = 0;
    bool verify = false;          // IOLab read the files back (writes) or checked what it read (reads)
    bool verifyPipes = false;     // IOLab's pipe reader checked the stream
    bool dropCaches = false;      // cold reads emptied the whole page cache
    bool timedCalls = false;      // IOLab timed each call for its latency histogram
    std::uint32_t crashKills = 0; // the kill -9 probe's kills
};

struct CProgram
{
    bool available = false; // false: no program; `text` says why
    std::string text;
    std::string buildCommand; // "cc -O2 -pthread -o iolab-case iolab-case.c"
};

CProgram cProgram(const Case& c, const CProgramOptions& options);

// The program of a result's case (its index in `cases`): its files in the result's target folder, named
// after the case.
CProgram cProgramOf(const RunResult& result, std::size_t caseIndex);

// The template a strategy's program comes from ("fd-write" for write, direct, write-random...), "" for a
// strategy with none.
std::string_view cTemplateOf(std::string_view strategy);

} // namespace iolab
