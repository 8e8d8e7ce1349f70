// SPDX-License-Identifier: MIT
// A trace with its names replaced by stable ones (iolab-cli record --anonymise, import --anonymise), for a
// trace that leaves the machine: a customer's support engineer can hand it over without the names of the
// customer's files, folders or arguments. Every folder becomes /d<N> and every file f<N> in it, in the order
// they first appear, with the file's extension kept (up to 12 characters after the dot: ".db", ".log",
// ".db-journal": what kind of file it is, which the advice needs); terminals, pipes, devices, /proc and /sys
// keep their names (they name no one's data). The program keeps its name (what ran), its arguments become
// <argument N>, its working folder /anonymised. Sizes, offsets, flags, threads and times are untouched, so a
// replay of it is the same replay.
#pragma once

#include "core/model/trace_reader.h"

#include <cstddef>
#include <functional>
#include <map>
#include <ostream>
#include <string>

namespace iolab {

// Writes each process of `reader`'s trace, anonymised, as a part into the stream `openPart(n)` gives for
// the n-th process (merged afterwards with mergeTraceParts, in that order).
void anonymiseTrace(TraceReader& reader, const std::function<std::ostream&(std::size_t)>& openPart);

// The stable names, for the tests and for saying what became of a path.
class PathAnonymiser
{
public:
    std::string operator()(const std::string& path);

private:
    std::string folder(const std::string& path);
    std::map<std::string, std::string> m_folders;
    std::map<std::string, std::string> m_files;
};

} // namespace iolab
