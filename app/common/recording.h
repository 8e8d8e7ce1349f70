// SPDX-License-Identifier: MIT
// What both front ends do around a recording or an import (iolab-cli record and import, File > Record a
// program... in the app): a new trace's name checked, a parts folder beside it that removes itself however
// the work ends, the parts merged into the trace in the order their processes started, and the trace's
// profile read back.
#pragma once

#include "core/analysis/program_profile.h"

#include <cstdint>
#include <filesystem>
#include <vector>

namespace iolab {

// `output`, refused (InputError) when a file already has that name.
std::filesystem::path newTraceName(const std::filesystem::path& output);

// A folder of its own beside the trace for the recorder's or importer's parts, removed with everything in it
// when this goes.
struct PartsFolder
{
    explicit PartsFolder(const std::filesystem::path& output);
    ~PartsFolder();
    PartsFolder(const PartsFolder&) = delete;
    PartsFolder& operator=(const PartsFolder&) = delete;
    std::filesystem::path path;
};

// The parts in `folder` (<pid>-<monotonic ns>.part), in the order their processes started.
std::vector<std::filesystem::path> partsIn(const std::filesystem::path& folder);

// Merges the parts into `output` (through a temporary file beside it, renamed when complete). Throws
// InputError when it cannot be written.
void mergeParts(const std::vector<std::filesystem::path>& parts, const std::filesystem::path& output);

// Reads a trace and profiles it; `records`, when given, gets its count of call records. Throws InputError for
// a file that cannot be read or is no trace.
ProgramProfile profileOf(const std::filesystem::path& tracePath, std::uint64_t* records = nullptr);

} // namespace iolab
