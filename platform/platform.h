// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/case_child.h"
#include "core/engine/probe.h"
#include "core/engine/registry.h"
#include "core/engine/workspace.h"
#include "core/model/system_facts.h"
#include "core/model/target.h"
#include "platform/run_beacon.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

// Adds this OS's strategies, in the order front ends list them.
void registerBuiltinStrategies(Registry& registry);

// This OS's strategies, registered on first use: the one registry of a process, shared read-only by its
// front end, its run worker and its reports.
inline const Registry& builtinRegistry()
{
    static const Registry registry = [] {
        Registry r;
        registerBuiltinStrategies(r);
        return r;
    }();
    return registry;
}

std::unique_ptr<SystemProbe> makeSystemProbe();

// Case children (core/engine/case_child.h): this program re-executed with `__case-child <link file>`.
std::unique_ptr<CaseChildLauncher> makeCaseChildLauncher();
// Called first in every main() of a program whose runs may start case children (the CLI, the GUI, the test
// programs that run the probe): when the arguments ask for a case child, runs it with `registry`'s
// strategies and returns its exit code; nullopt otherwise.
std::optional<int> runCaseChildIfAsked(int argc, char** argv, const Registry& registry);

// The bytes this user may still write under a folder (Linux: statvfs's f_bavail; Windows:
// GetDiskFreeSpaceEx's free to the caller), or 0 when the folder cannot be asked. The one question the plan
// (inspectTarget), the app, the CLI and the engine's space check before each case all ask.
std::uint64_t freeSpaceAt(const std::string& folder);

// Facts about a target folder. Throws InputError when it is missing, not a folder, not writable, or on a
// kernel pseudo-filesystem (Linux: proc, sysfs, devtmpfs, cgroup ...).
TargetInfo inspectTarget(const std::string& path);

// The mounted filesystems this user can write to, one per filesystem (bind mounts folded into the shortest
// mount point), each described as inspectTarget does; pseudo and read-only filesystems are left out.
std::vector<TargetInfo> listWritableTargets();

// The storage stack under a target and the machine's settings that shape I/O (core/model/system_facts.h):
// a few dozen small reads, well under 200 ms; call it off a GUI thread all the same.
SystemFacts gatherSystemFacts(const TargetInfo& target);

// Opens a probe file in a marked run folder on the target (removed again at once) to learn whether this
// filesystem takes O_DIRECT and fallocate; fills TargetInfo's capability fields.
void probeCapabilities(TargetInfo& target);

// The run folder for one run: <target>/iolab-run-<time>-<pid>/ with a marker file, created on first use.
std::unique_ptr<Workspace> makeWorkspace(const TargetInfo& target);

struct CleanReport
{
    std::vector<std::string> removed;                      // run folders removed (or removable, ListOnly)
    std::uint64_t removedBytes = 0;                        // disk space they held
    std::vector<std::pair<std::string, std::string>> kept; // folder, why it was left alone
};

enum class CleanMode
{
    Remove,
    ListOnly // report what Remove would remove, touching nothing
};
// Removes stale marked run folders (whose process is gone) directly inside `target`, and nothing else.
// Throws InputError when the target is not a readable folder.
CleanReport cleanStaleRuns(const std::string& target, CleanMode mode = CleanMode::Remove);

// An IOLab run in progress: its marked run folder and the process that owns it.
struct LiveRun
{
    std::string folder;
    long pid = 0;
};
// The other IOLab runs writing into `target` now: marked run folders directly inside it whose process is
// alive (this process's own folder excluded). Two runs at once measure each other, so front ends refuse or
// warn. Reads only; returns nothing for a folder it cannot read.
std::vector<LiveRun> liveRunsIn(const std::string& target);

// The other IOLab runs that would measure against a run in `target`: those writing into the target itself
// (refused unless the user allows it) and those writing elsewhere on its filesystem (a warning: two folders
// of one disk share the device and its cache, but parallel work in different folders is often on purpose).
struct OtherRuns
{
    std::vector<LiveRun> inTarget;
    std::vector<long> elsewhereOnFilesystem; // pids
};
inline OtherRuns otherRunsFor(const std::string& target)
{
    OtherRuns runs{liveRunsIn(target), {}};
    for (const long pid : runsOnFilesystemOf(target)) {
        if (std::none_of(runs.inTarget.begin(), runs.inTarget.end(),
                         [pid](const LiveRun& run) { return run.pid == pid; }))
            runs.elsewhereOnFilesystem.push_back(pid);
    }
    return runs;
}

// The folder for logs: $XDG_STATE_HOME/iolab, or ~/.local/state/iolab (Windows: %LOCALAPPDATA%\IOLab).
std::string defaultLogDirectory();
std::string homeDirectory();

bool stderrIsTerminal();

// Whether this process may empty the OS page cache (Linux: root, with /proc/sys/vm/drop_caches writable).
bool canDropCaches();

// A console program's arguments as UTF-8. On Windows they come from the UTF-16 command line (the C runtime's
// argv is in the ANSI code page, which cannot hold every path) and console output is switched to UTF-8.
std::vector<std::string> consoleArguments(int argc, char** argv);

// For a windowed program (Windows' GUI subsystem, which starts without a console): when started from a
// console, write stdout and stderr there, so that `iolab --help` and `iolab report` print where they were
// typed. Does nothing where a program always has its terminal (Linux) or was started from no console.
void attachParentConsole();

// The display servers a window could open on. Linux: whether an X server answers at $DISPLAY (connecting as
// libxcb does, its authority file included) and whether a Wayland compositor listens at $WAYLAND_DISPLAY,
// each with why not. Windows: its desktop is always there (needsServer false).
struct DisplayServers
{
    bool needsServer = false;
    bool x11 = false;
    bool wayland = false;
    std::string x11Problem;     // "DISPLAY is not set", "no X server answers at :9"
    std::string waylandProblem; // "WAYLAND_DISPLAY is not set", "no Wayland compositor listens at ..."
};
DisplayServers probeDisplayServers();

// The Qt platform plugin for work without a window (iolab report): one that needs no display server and has
// fonts. Linux: "offscreen". Windows: "windows", which draws with the system's fonts and needs no server;
// Qt's offscreen plugin finds no fonts there, and a PDF's text came out as empty boxes.
const char* headlessQtPlatform();

// An environment variable a Qt program of IOLab sets for itself before Qt starts, unless the user set it.
struct EnvironmentDefault
{
    const char* name;
    const char* value;
};
// Windows (MinGW): QT_ENABLE_REGEXP_JIT=0. With JIT, Qt keeps a PCRE2 stack per thread in a thread_local
// whose destructor MinGW runs after its emulated TLS has freed the variable: a worker thread that matched a
// QRegularExpression faults on its way out, the loader swallows the fault, winpthreads' thread-key lock stays
// held, and the process hangs in its exit (libstdc++'s last pthread_key_delete). Without JIT no such
// thread_local exists. Linux: none.
std::vector<EnvironmentDefault> qtEnvironmentDefaults();

// Why `path` cannot be written as an output file ("" when it can): a missing or unwritable folder, a folder
// in the way. Checked before a run so that a bad output path costs nothing.
std::string outputPathProblem(const std::string& path);

// Writes `content` to a temporary file beside `path`, fsyncs it and renames it over `path`, so that a reader
// sees the old file or the whole new one, never a part. Removes the temporary file on failure.
Outcome writeFileAtomically(const std::string& path, std::string_view content);

} // namespace iolab
