// SPDX-License-Identifier: MIT
// The small per-OS calls under the shared skeletons of platform/common/: each backend defines them, the
// skeletons hold the policy and the words once.
#pragma once

#include "core/base/outcome.h"
#include "core/model/target.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace iolab::os {

// What a probe file at `path` on the target showed, each problem as this OS words it after "<fs> at
// <mount point> " ("does not support O_DIRECT"); empty when there is none. Leaves the file for the caller
// to remove.
struct ProbeFileFindings
{
    std::string directIoProblem;
    std::string reserveProblem;
};
ProbeFileFindings tryProbeFile(const std::string& path, const TargetInfo& target);

// How a problem names a filesystem whose type is not known.
extern const char* const kUnnamedFileSystem;

} // namespace iolab::os

namespace iolab::os {

// A folder entry as the run-folder cleanup sees it.
enum class EntryKind
{
    Missing,
    File,   // a plain file
    Folder, // a plain folder
    Other   // a link (never followed), a device, anything else
};
struct FolderEntry
{
    std::string name;
    EntryKind kind = EntryKind::Other;
    std::uint64_t bytes = 0; // a file's size on disk
};

// The entries of `folder` whose names start with `prefix`, without "." and "..". Sets `error` (this OS's
// text) and returns nothing when the folder cannot be read; an entry that cannot be looked at is left out.
std::vector<FolderEntry> listFolder(const std::string& folder, std::string_view prefix, std::string& error);
// What `path` is; `followLinks` looks through a link at its end.
EntryKind kindOf(const std::string& path, bool followLinks);
std::string joinPath(const std::string& folder, std::string_view name);
// How a file found inside a data-set folder of a run folder is named in a report.
std::string nestedEntryName(const std::string& path);
std::string readSmallFile(const std::string& path);
long currentPid();
bool processAlive(long pid);

// What a removal did: `error` is "" when the path was removed, else why not (this OS's text); `missing`
// says the path was not there to remove.
struct Removal
{
    std::string error;
    bool missing = false;
};
Removal removeFile(const std::string& path);
Removal removeFolder(const std::string& path);

// The calls under the run folder's bookkeeping (platform/run_folder_workspace.h).
// A new folder; a failure is this OS's folder-creating call's (mkdir, CreateDirectory).
Outcome makeFolder(const std::string& path);
// The run folder's marker holding `text`: a new plain file, never over an existing one or through a link;
// a failure is the "create marker" call's. A file created but not filled is left for the caller to remove.
Outcome createMarker(const std::string& path, std::string_view text);

} // namespace iolab::os
