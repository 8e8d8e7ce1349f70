// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/strategy.h"
#include "core/model/target.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace iolab {

class Pattern;

// The run's marked folder inside the target, implemented by the platform. The folder is created on first use
// and removed, with everything the run wrote into it, by close() or the destructor.
class Workspace
{
public:
    virtual ~Workspace() = default;
    virtual const TargetInfo& target() const = 0;
    // A path inside the run folder for `name` (created by the strategy with O_EXCL); creates the folder
    // first.
    virtual std::string pathFor(const std::string& name, Outcome& outcome) = 0;
    virtual std::uint64_t freeBytes() = 0;
    // Opens the file and fsyncs it: what a buffered writer must still pay before its data is durable.
    virtual Outcome makeDurable(const std::string& path) = 0;
    // Writes back whatever the target's filesystem holds dirty, whoever wrote it (Linux: syncfs), so that a
    // timed part that syncs does not pay for what ran before it. Windows has no such call short of flushing
    // the whole volume, which needs an administrator: there it does nothing.
    virtual Outcome settle() = 0;
    // Reads the file back and checks its size and every byte against the pattern, the file's first byte
    // being the pattern's byte at `patternOffset`. With `prefixOnly` the file may be longer (it was sized
    // before the timed part, which its time limit cut short): its first expectedBytes are checked.
    virtual Outcome verify(const std::string& path, std::uint64_t expectedBytes, const Pattern& pattern,
                           std::uint64_t patternOffset = 0, bool prefixOnly = false) = 0;

    // Reads the file from its start, handing each piece read to `consume` in order; an empty file hands
    // nothing. Fails with the reading call's error (a missing file included).
    virtual Outcome readBack(const std::string& path,
                             const std::function<void(const std::byte*, std::size_t)>& consume) = 0;
    // Read data sets. A folder inside the run folder ('/'-separated `name`), created now and removed by
    // removeDirectory() or close().
    virtual std::string directoryFor(const std::string& name, Outcome& outcome) = 0;
    virtual void removeDirectory(const std::string& path) = 0;
    // Creates `path` (never over an existing file) holding `bytes` bytes of the pattern from
    // `patternOffset`, in writes of `writeBytes` (0: of the pattern's chunk); stops early, with Cancelled,
    // once `stop` is set.
    virtual Outcome writeDataFile(const std::string& path, std::uint64_t bytes, std::uint64_t patternOffset,
                                  const Pattern& pattern, const std::atomic<bool>& stop,
                                  std::uint64_t writeBytes) = 0;
    // Pushes the file out of the OS cache so that the next read comes from the device (Linux: fdatasync and
    // POSIX_FADV_DONTNEED), as far as an unprivileged process can.
    virtual Outcome evict(const std::string& path) = 0;
    // As root: empties the whole page cache (Linux: sync, then 3 > /proc/sys/vm/drop_caches). Unsupported
    // elsewhere, Failed without the privilege.
    virtual Outcome dropCaches() = 0;
    // Bytes of the file the OS holds in its cache; nullopt where it cannot tell.
    virtual std::optional<std::uint64_t> cachedBytes(const std::string& path) = 0;
    // How evict() (or dropCaches(), when `dropCaches`) does it, for results: one phrase.
    virtual std::string evictionMethod(bool dropCaches) const = 0;

    // Removes a file the run created; a file that is not there is fine.
    virtual void remove(const std::string& path) = 0;
    // Removes the run folder and its marker.
    virtual void close() = 0;
    // The run folder's path, "" until it exists.
    virtual std::string folder() const = 0;
};

// How run folders are named and marked, shared by the platforms' workspaces and `clean`.
namespace runfolder {

inline constexpr std::string_view kPrefix = "iolab-run-";
inline constexpr std::string_view kMarkerName = ".iolab-run";
// Room a target's path must leave for what a run creates under it: the run folder's name and the longest
// relative path inside it ("set-N/dNNN/f000000.dat", "c001-r0-t0.dat" and their temporary names).
inline constexpr std::size_t kInnerPathReserve = 128;

// "iolab-run-<yyyymmdd-hhmmss>-<pid>" for the local time given as a ready-made stamp.
std::string folderName(std::string_view stamp, long pid);
// Names the runner gives its files: c<case>-r<rep>-t<thread>.dat or .batch (c<case>-k<kill>-t<thread> for
// the kill -9 probe's runs), a case child's c<case>-k<kill>.link, and the data-set files f<number>.dat;
// nothing else is removed.
bool isRunFileName(std::string_view name);
// Folders the runner makes for data sets: set-<number> and, inside them, d<number>.
bool isRunDirectoryName(std::string_view name);
// What the marker file says: a line for a person who finds the folder, and the owning process.
std::string markerText(long pid);
// The pid a marker names, 0 when it names none.
long markerPid(std::string_view text);

} // namespace runfolder

} // namespace iolab
