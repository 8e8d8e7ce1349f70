// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/system_facts.h"
#include "core/model/target.h"

#include <string>

namespace iolab::linux_facts {

// The system facts of a target whose filesystem sits on block device major:minor (0:0 when it has none:
// tmpfs, FUSE, NFS), read from the /sys and /proc found under `root`: "" for this machine, a recorded tree in
// the tests. The target's mount (fsType, mountOptions, mountSource) comes from inspectTarget.
SystemFacts gather(const std::string& root, const TargetInfo& target, unsigned major, unsigned minor);

} // namespace iolab::linux_facts
