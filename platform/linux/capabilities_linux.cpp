// SPDX-License-Identifier: MIT
// The capability trial on Linux: O_DIRECT and fallocate on the probe file (platform/common/capabilities.cpp
// runs it).
#include "platform/os_primitives.h"
#include "platform/posix/posix_io.h"

#include <fcntl.h>

namespace iolab::os {

const char* const kUnnamedFileSystem = "this filesystem";

ProbeFileFindings tryProbeFile(const std::string& path, const TargetInfo&)
{
    ProbeFileFindings findings;
    posix::UniqueFd fd(
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_DIRECT, 0644));
    if (!fd && errno == EINVAL) {
        findings.directIoProblem = "does not support O_DIRECT";
        fd.reset(::open(path.c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644));
    }
    if (fd && ::fallocate(fd.get(), 0, 0, 4096) != 0 && (errno == EOPNOTSUPP || errno == ENOSYS))
        findings.reserveProblem = "does not support fallocate";
    return findings;
}

} // namespace iolab::os
