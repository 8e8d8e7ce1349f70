// SPDX-License-Identifier: MIT
// Other runs' folders in a target: which are live (liveRunsIn) and which `iolab-cli clean` removes (marked
// ones whose process is gone and that hold nothing IOLab did not write; the rest are kept with the reason).
// Each OS lists, reads and removes (platform/os_primitives.h).
#include "core/base/error.h"
#include "platform/os_primitives.h"
#include "platform/platform.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace iolab {

namespace {

using os::EntryKind;

struct RunFiles
{
    std::vector<std::string> files;
    std::vector<std::string> directories; // parents first
    std::string foreign;                  // the first name IOLab did not write, "" when none
    std::uint64_t bytes = 0;
};

// The files and data-set folders a run wrote under `folder`; the first name that is not IOLab's goes to
// `foreign` (and stops the search). Links are never followed.
void collectRunFiles(const std::string& folder, bool top, RunFiles& run)
{
    std::string unreadable;
    for (const auto& entry : os::listFolder(folder, {}, unreadable)) {
        if (top && entry.name == runfolder::kMarkerName)
            continue;
        const std::string path = os::joinPath(folder, entry.name);
        if (entry.kind == EntryKind::File && runfolder::isRunFileName(entry.name)) {
            run.files.push_back(path);
            run.bytes += entry.bytes;
        } else if (entry.kind == EntryKind::Folder && runfolder::isRunDirectoryName(entry.name)) {
            run.directories.push_back(path);
            collectRunFiles(path, false, run);
        } else {
            run.foreign = top ? entry.name : os::nestedEntryName(path);
        }
        if (!run.foreign.empty())
            return;
    }
}

// A folder directly inside a target that may be a run folder.
struct Candidate
{
    std::string folder;
    std::string marker;
    std::optional<long> pid; // the marker's; none without a marker that is a plain file: not IOLab's
};

// The run folders directly inside `target`: real folders named iolab-run-*. A link of that name (a symlink,
// a junction) is never one, and a marker that is a link is no marker. IOLab's own run folders are always real
// folders it made itself, so a link can only be someone else's: following it would let a name in the target
// point `clean` at any folder on the machine, or have a run elsewhere counted as writing into this target (it
// writes where the link leads, and the beacon already reports a run on this filesystem). Sets `unreadable`
// when the target cannot be listed.
std::vector<Candidate> runFolderCandidates(const std::string& target, std::string& unreadable)
{
    std::vector<Candidate> candidates;
    for (const auto& entry : os::listFolder(target, runfolder::kPrefix, unreadable)) {
        if (entry.kind != EntryKind::Folder)
            continue; // a file, or a link that could lead anywhere
        Candidate candidate;
        candidate.folder = os::joinPath(target, entry.name);
        candidate.marker = os::joinPath(candidate.folder, runfolder::kMarkerName);
        if (os::kindOf(candidate.marker, false) == EntryKind::File)
            candidate.pid = runfolder::markerPid(os::readSmallFile(candidate.marker));
        candidates.push_back(std::move(candidate));
    }
    return candidates;
}

} // namespace

std::vector<LiveRun> liveRunsIn(const std::string& target)
{
    std::vector<LiveRun> runs;
    std::string unreadable;
    for (const auto& candidate : runFolderCandidates(target, unreadable)) {
        if (candidate.pid && *candidate.pid != os::currentPid() && os::processAlive(*candidate.pid))
            runs.push_back({candidate.folder, *candidate.pid});
    }
    std::sort(runs.begin(), runs.end(),
              [](const LiveRun& a, const LiveRun& b) { return a.folder < b.folder; });
    return runs;
}

CleanReport cleanStaleRuns(const std::string& target, CleanMode mode)
{
    const EntryKind kind = os::kindOf(target, true);
    if (kind == EntryKind::Missing)
        throw InputError(fmt::format("target '{}' does not exist", target));
    if (kind != EntryKind::Folder)
        throw InputError(fmt::format("target '{}' is not a folder", target));
    std::string unreadable;
    const auto candidates = runFolderCandidates(target, unreadable);
    if (!unreadable.empty())
        throw InputError(fmt::format("target '{}' cannot be read: {}", target, unreadable));

    CleanReport report;
    for (const auto& [folder, marker, pid] : candidates) {
        if (!pid) {
            report.kept.emplace_back(folder, "no IOLab marker inside: not ours");
            continue;
        }
        if (*pid == os::currentPid() || os::processAlive(*pid)) {
            report.kept.emplace_back(folder, fmt::format("in use by running process {}", *pid));
            continue;
        }
        RunFiles run;
        collectRunFiles(folder, true, run);
        if (!run.foreign.empty()) {
            report.kept.emplace_back(
                folder, fmt::format("holds '{}', which IOLab did not write: left alone", run.foreign));
            continue;
        }
        if (mode == CleanMode::ListOnly) {
            report.removed.push_back(folder);
            report.removedBytes += run.bytes;
            continue;
        }
        for (const auto& path : run.files)
            os::removeFile(path);
        std::for_each(run.directories.rbegin(), run.directories.rend(),
                      [](const std::string& inside) { os::removeFolder(inside); });
        os::removeFile(marker);
        if (const os::Removal removal = os::removeFolder(folder); removal.error.empty()) {
            report.removed.push_back(folder);
            report.removedBytes += run.bytes;
        } else
            report.kept.emplace_back(folder, fmt::format("could not be removed: {}", removal.error));
    }
    return report;
}

} // namespace iolab
