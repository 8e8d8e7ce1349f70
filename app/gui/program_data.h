// SPDX-License-Identifier: MIT
// A recorded program as the Program tab shows it: its profile (core/analysis/program_profile.h) and its
// sentences, the bytes it wrote per file over time and where it synced, read from a trace in one pass of
// TraceReader off the GUI thread; and the matrix that replays a trace (as iolab-cli run --replay builds it).
#pragma once

#include "core/analysis/program_profile.h"
#include "core/model/matrix.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace iolab::gui {

// One file's writes over the program's time: bytes written in each bin, and the times of its syncs.
struct FileTimeline
{
    std::string path;                 // or "other files" for the files past the chart's first ones
    std::vector<std::uint64_t> bytes; // per bin
    std::vector<double> syncSeconds;  // since the program's start
    std::uint64_t totalBytes = 0;
};

// The writes of a program's files over its run: `bins` bins of `binSeconds` each, the files that wrote the
// most first (at most kTimelineFiles, the others together as one more line).
struct WriteTimeline
{
    static constexpr std::size_t kBins = 60;
    static constexpr std::size_t kFiles = 6;
    double binSeconds = 0;
    double spanSeconds = 0;
    std::vector<FileTimeline> files;
    std::uint64_t syncs = 0;
};

// A trace read for the Program tab; `error` says why it could not be read (then nothing else is set).
struct ProgramData
{
    QString tracePath;
    ProgramProfile profile;
    std::vector<std::string> lines; // describeProgramProfile's sentences
    WriteTimeline timeline;
    std::uint64_t records = 0;
    QString error;
};

// Reads `tracePath` (a trace iolab-cli record or import wrote, or File > Record a program...): blocking, call
// it off the GUI thread.
ProgramData readProgram(const QString& tracePath);

// The writes and syncs of the trace's files over time (a second pass of the trace's calls); throws
// InputError for a trace that cannot be read.
WriteTimeline writeTimelineOf(const std::string& tracePath, std::uint64_t wallNs);

// The matrix of one replay of `tracePath` (an absolute path): what iolab-cli run --replay TRACE runs.
Matrix replayMatrix(const QString& tracePath);
// Find a faster way: the replay and each other way of writing that changes something in the program, 5
// repetitions each: what iolab-cli advise TRACE runs. Reads the trace (InputError when it cannot be read).
Matrix adviceMatrix(const QString& tracePath);

} // namespace iolab::gui
