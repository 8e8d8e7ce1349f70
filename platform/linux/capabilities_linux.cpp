// SPDX-License-Identifier: MIT
// What the target's filesystem accepts, learned the only reliable way: by trying, on a probe file inside a
// marked run folder that is removed again at once.
#include "platform/platform.h"
#include "platform/posix/posix_io.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <cstring>

namespace iolab {

void probeCapabilities(TargetInfo& target)
{
    auto workspace = makeWorkspace(target);
    Outcome outcome;
    const std::string path = workspace->pathFor("c000-r0-t0.dat", outcome);
    if (!outcome.ok())
        return; // the run itself will report why the folder cannot be made
    const std::string fs = target.fsType.empty() ? std::string("this filesystem") : target.fsType;
    posix::UniqueFd fd(
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_DIRECT, 0644));
    if (!fd && errno == EINVAL) {
        target.directIoProblem = fmt::format("{} at {} does not support O_DIRECT", fs, target.mountPoint);
        fd.reset(::open(path.c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644));
    }
    if (fd && ::fallocate(fd.get(), 0, 0, 4096) != 0 && (errno == EOPNOTSUPP || errno == ENOSYS))
        target.fallocateProblem = fmt::format("{} at {} does not support fallocate", fs, target.mountPoint);
    fd.reset();
    workspace->remove(path);
    workspace->close();
    target.capabilitiesProbed = true;
}

} // namespace iolab
