// SPDX-License-Identifier: MIT
// Reads what `strace -f -tt -T -y` printed about a program (for a machine where IOLab is not installed, or a
// statically linked program) as a trace: the same calls, files, sizes, offsets, flags, threads, times and
// results the recorder keeps. strace sees system calls only: the stdio layer shows as the writes its buffers
// flush, and the trace carries a note that says so.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace iolab {

struct StraceImport
{
    std::uint64_t lines = 0;
    std::uint64_t calls = 0;       // system calls turned into the trace's calls
    std::uint64_t otherCalls = 0;  // system calls that are not about files (mmap of memory, futex, ...)
    std::uint64_t unreadLines = 0; // lines that are neither (signals, strace's own messages, garbage)
    std::uint64_t processes = 0;
    bool timed = true;                 // every call had its <duration> (-T)
    bool stamped = true;               // every line had its time of day (-tt or -ttt)
    bool decorated = true;             // descriptors carried their paths (-y)
    std::vector<std::string> warnings; // what the import could not know, in words
};

// Reads `in` (named `sourceName` in messages) and writes one part per process, each to the stream
// `openPart(n)` gives for the n-th process seen (0, 1, ...), which must outlive the call. Throws InputError
// when no line is strace's.
StraceImport importStrace(std::istream& in, const std::string& sourceName,
                          const std::function<std::ostream&(std::size_t)>& openPart);

// The command that writes what importStrace reads, for the README, `iolab-cli record --help` and messages.
inline constexpr const char* kStraceCommand = "strace -f -tt -T -y -o trace.strace -- PROGRAM ARGS...";

} // namespace iolab
