// SPDX-License-Identifier: MIT
#include "app/common/concurrent_runs.h"

#include <fmt/format.h>

namespace iolab {

ConcurrentRuns weighConcurrentRuns(const OtherRuns& others, bool allowConcurrent)
{
    ConcurrentRuns weighed;
    for (const auto& other : others.inTarget) {
        if (!allowConcurrent) {
            weighed.refusedBy = other;
            weighed.warnings.clear();
            return weighed;
        }
        weighed.warnings.push_back(
            fmt::format("another IOLab run (process {}, run folder {}) was writing into "
                        "the same target when this run started: the figures may "
                        "measure both",
                        other.pid, other.folder));
    }
    for (const long pid : others.elsewhereOnFilesystem)
        weighed.warnings.push_back(fmt::format("another IOLab run (process {}) was writing elsewhere on this "
                                               "target's filesystem when this run started: the figures may "
                                               "measure both",
                                               pid));
    return weighed;
}

} // namespace iolab
