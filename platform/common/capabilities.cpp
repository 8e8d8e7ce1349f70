// SPDX-License-Identifier: MIT
// What the target's filesystem accepts, learned the only reliable way: by trying, on a probe file inside a
// marked run folder that is removed again at once. The trial itself is each OS's (os::tryProbeFile).
#include "platform/os_primitives.h"
#include "platform/platform.h"

#include <fmt/format.h>

namespace iolab {

void probeCapabilities(TargetInfo& target)
{
    auto workspace = makeWorkspace(target);
    Outcome outcome;
    const std::string path = workspace->pathFor("c000-r0-t0.dat", outcome);
    if (!outcome.ok())
        return; // the run itself will report why the folder cannot be made
    const os::ProbeFileFindings findings = os::tryProbeFile(path, target);
    const std::string fs = target.fsType.empty() ? std::string(os::kUnnamedFileSystem) : target.fsType;
    if (!findings.directIoProblem.empty())
        target.directIoProblem = fmt::format("{} at {} {}", fs, target.mountPoint, findings.directIoProblem);
    if (!findings.reserveProblem.empty())
        target.fallocateProblem = fmt::format("{} at {} {}", fs, target.mountPoint, findings.reserveProblem);
    workspace->remove(path);
    workspace->close();
    target.capabilitiesProbed = true;
}

} // namespace iolab
