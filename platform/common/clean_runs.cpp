// SPDX-License-Identifier: MIT
// Which run folders `iolab-cli clean` removes: marked ones directly inside the target whose process is gone
// and that hold nothing IOLab did not write; the rest are kept with the reason. Each OS lists, reads and
// removes (platform/os_primitives.h).
#include "core/base/error.h"
#include "platform/os_primitives.h"
#include "platform/platform.h"

#include <fmt/format.h>

#include <algorithm>

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

} // namespace

CleanReport cleanStaleRuns(const std::string& target, CleanMode mode)
{
    const EntryKind kind = os::kindOf(target, true);
    if (kind == EntryKind::Missing)
        throw InputError(fmt::format("target '{}' does not exist", target));
    if (kind != EntryKind::Folder)
        throw InputError(fmt::format("target '{}' is not a folder", target));
    std::string unreadable;
    const auto candidates = os::listFolder(target, runfolder::kPrefix, unreadable);
    if (!unreadable.empty())
        throw InputError(fmt::format("target '{}' cannot be read: {}", target, unreadable));

    CleanReport report;
    for (const auto& candidate : candidates) {
        if (candidate.kind != EntryKind::Folder)
            continue; // a file, or a link that could lead anywhere
        const std::string folder = os::joinPath(target, candidate.name);
        const std::string marker = os::joinPath(folder, runfolder::kMarkerName);
        if (os::kindOf(marker, false) != EntryKind::File) {
            report.kept.emplace_back(folder, "no IOLab marker inside: not ours");
            continue;
        }
        const long pid = runfolder::markerPid(os::readSmallFile(marker));
        if (pid == os::currentPid() || os::processAlive(pid)) {
            report.kept.emplace_back(folder, fmt::format("in use by running process {}", pid));
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
        if (const std::string error = os::removeFolder(folder); error.empty()) {
            report.removed.push_back(folder);
            report.removedBytes += run.bytes;
        } else
            report.kept.emplace_back(folder, fmt::format("could not be removed: {}", error));
    }
    return report;
}

} // namespace iolab
