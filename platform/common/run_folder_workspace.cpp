// SPDX-License-Identifier: MIT
#include "platform/run_folder_workspace.h"

#include "core/base/log.h"
#include "core/engine/pattern.h"
#include "core/engine/stream_check.h"
#include "platform/os_primitives.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <vector>

namespace iolab {

RunFolderWorkspace::RunFolderWorkspace(TargetInfo target) : m_target(std::move(target)) {}

RunFolderWorkspace::~RunFolderWorkspace()
{
    close();
}

std::string RunFolderWorkspace::pathFor(const std::string& name, Outcome& outcome)
{
    if (m_folder.empty() && !createFolder(outcome))
        return {};
    std::string path = os::joinPath(m_folder, name);
    m_files.insert(path);
    return path;
}

std::string RunFolderWorkspace::directoryFor(const std::string& name, Outcome& outcome)
{
    if (m_folder.empty() && !createFolder(outcome))
        return {};
    std::string path = os::joinPath(m_folder, name);
    if (Outcome made = os::makeFolder(path); !made.ok()) {
        outcome = std::move(made);
        return {};
    }
    m_directories.push_back(path);
    return path;
}

void RunFolderWorkspace::removeDirectory(const std::string& path)
{
    if (const os::Removal removal = os::removeFolder(path); !removal.error.empty() && !removal.missing)
        logger(LogModule::Platform).warn("could not remove {}: {}", path, removal.error);
    std::erase(m_directories, path);
}

void RunFolderWorkspace::remove(const std::string& path)
{
    if (const os::Removal removal = os::removeFile(path); !removal.error.empty() && !removal.missing)
        logger(LogModule::Platform).warn("could not remove {}: {}", path, removal.error);
    m_files.erase(path);
}

void RunFolderWorkspace::close()
{
    if (m_folder.empty())
        return;
    for (const auto& path : std::set<std::string>(m_files))
        remove(path);
    std::for_each(m_directories.rbegin(), m_directories.rend(),
                  [](const std::string& folder) { os::removeFolder(folder); });
    m_directories.clear();
    os::removeFile(os::joinPath(m_folder, runfolder::kMarkerName));
    if (const os::Removal removal = os::removeFolder(m_folder); !removal.error.empty())
        logger(LogModule::Platform).warn("could not remove run folder {}: {}", m_folder, removal.error);
    m_folder.clear();
    m_beacon = RunBeacon();
}

Outcome RunFolderWorkspace::verify(const std::string& path, std::uint64_t expectedBytes,
                                   const Pattern& pattern, std::uint64_t patternOffset, bool prefixOnly)
{
    os::WholeFile file;
    if (!file.openToRead(path))
        return file.failure("verify", path);
    std::uint64_t size = 0;
    if (!file.size(size))
        return file.failure("verify", path);
    if (prefixOnly ? size < expectedBytes : size != expectedBytes)
        return {Status::Failed, 0, "verify",
                fmt::format("{} holds {} bytes, expected {}{}", path, size, prefixOnly ? "at least " : "",
                            expectedBytes)};
    std::vector<std::byte> buffer(1 << 20);
    StreamCheck check(pattern, path, patternOffset);
    while (check.received() < expectedBytes) {
        // No further than expectedBytes: a longer file's rest (prefixOnly) is not the pattern's.
        const auto want = std::min<std::uint64_t>(buffer.size(), expectedBytes - check.received());
        const std::int64_t n = file.read(buffer.data(), static_cast<std::size_t>(want));
        if (n < 0)
            return file.failure("verify", path);
        if (n == 0)
            break;
        check.add(buffer.data(), static_cast<std::size_t>(n));
    }
    return check.outcome(expectedBytes, "verify");
}

Outcome RunFolderWorkspace::readBack(const std::string& path,
                                     const std::function<void(const std::byte*, std::size_t)>& consume)
{
    os::WholeFile file;
    if (!file.openToRead(path))
        return file.failure("read back", path);
    std::vector<std::byte> buffer(1 << 20);
    for (;;) {
        const std::int64_t n = file.read(buffer.data(), buffer.size());
        if (n < 0)
            return file.failure("read back", path);
        if (n == 0)
            return Outcome::success();
        consume(buffer.data(), static_cast<std::size_t>(n));
    }
}

Outcome RunFolderWorkspace::writeDataFile(const std::string& path, std::uint64_t bytes,
                                          std::uint64_t patternOffset, const Pattern& pattern,
                                          const std::atomic<bool>& stop, std::uint64_t writeBytes)
{
    os::WholeFile file;
    Outcome outcome;
    if (!file.create(path, outcome))
        return outcome;
    // The pattern hands out at most its chunk at a time: larger writes are gathered in a buffer first.
    const std::uint64_t piece = pattern.sizeBytes() - Pattern::kPeriodBytes;
    const std::uint64_t each = writeBytes != 0 ? writeBytes : piece;
    std::vector<std::byte> gathered(each > piece ? each : 0);
    for (std::uint64_t done = 0; done < bytes;) {
        if (stop.load(std::memory_order_relaxed))
            return Outcome::cancelled();
        if (gathered.empty()) {
            const std::uint64_t size = std::min(each, bytes - done);
            if (!file.writeFully(pattern.at(patternOffset + done), size))
                return file.failure("data set", path);
            done += size;
            continue;
        }
        const std::uint64_t size = std::min<std::uint64_t>(gathered.size(), bytes - done);
        for (std::uint64_t in = 0; in < size;) {
            const std::uint64_t part = std::min(piece, size - in);
            std::memcpy(gathered.data() + in, pattern.at(patternOffset + done + in), part);
            in += part;
        }
        if (!file.writeFully(gathered.data(), size))
            return file.failure("data set", path);
        done += size;
    }
    if (!file.close())
        return file.failure("data set", path);
    return Outcome::success();
}

bool RunFolderWorkspace::createFolder(Outcome& outcome)
{
    const auto stamp = fmt::format("{:%Y%m%d-%H%M%S}", fmt::localtime(std::time(nullptr)));
    const long pid = os::currentPid();
    // A killed run leaves its folder, and Windows hands a dead process's id to the next one at once: under
    // wine a run started in the second another was killed in got its id and found its folder's name taken.
    // The next free name then, with a counter: `clean` knows a run folder by its prefix and its marker.
    const std::string base = os::joinPath(m_target.path, runfolder::folderName(stamp, pid));
    std::string folder = base;
    for (int taken = 1; os::kindOf(folder, false) != os::EntryKind::Missing && taken < 100; ++taken)
        folder = fmt::format("{}-{}", base, taken);
    if (Outcome made = os::makeFolder(folder); !made.ok()) {
        outcome = std::move(made);
        return false;
    }
    const std::string marker = os::joinPath(folder, runfolder::kMarkerName);
    if (Outcome marked = os::createMarker(marker, runfolder::markerText(pid)); !marked.ok()) {
        outcome = std::move(marked);
        os::removeFile(marker);
        os::removeFolder(folder);
        return false;
    }
    m_folder = folder;
    m_beacon = RunBeacon(m_target.path); // other runs on this filesystem now see this one
    logger(LogModule::Platform).info("run folder {}", m_folder);
    return true;
}

} // namespace iolab
