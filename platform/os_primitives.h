// SPDX-License-Identifier: MIT
// The small per-OS calls under the shared skeletons of platform/common/: each backend defines them, the
// skeletons hold the policy and the words once.
#pragma once

#include "core/base/outcome.h"
#include "core/model/target.h"

#include <cstddef>
#include <cstdint>
#include <memory>
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

// The calls under the workspace's verify and data-set writing (platform/run_folder_workspace.h): a file read
// back or written whole, through this OS's descriptor or handle. A call that fails returns false (read: -1)
// and failure() then tells which call it was and why.
class WholeFile
{
public:
    WholeFile();
    ~WholeFile(); // closes a file still open, its close's failure ignored
    WholeFile(const WholeFile&) = delete;
    WholeFile& operator=(const WholeFile&) = delete;

    // The existing file at `path`, to read from its start.
    bool openToRead(const std::string& path);
    bool size(std::uint64_t& bytes);
    // Up to `size` bytes: how many were read, 0 at the end of the file, -1 on failure.
    std::int64_t read(std::byte* data, std::size_t size);
    // A new file at `path`, never over an existing one, as the strategies' scratch files are made; a failure
    // is that call's, in `error`, and not failure()'s.
    bool create(const std::string& path, Outcome& error);
    bool writeFully(const std::byte* data, std::uint64_t size);
    // Closes the file, failing with the close's error (a delayed write error).
    bool close();
    // The call that failed last, with this OS's error: "<call> (<purpose>)" on `path`.
    Outcome failure(std::string_view purpose, const std::string& path) const;

private:
    struct Native; // this OS's file and its last error
    std::unique_ptr<Native> m_native;
};

} // namespace iolab::os
