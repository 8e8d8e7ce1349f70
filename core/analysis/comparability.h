// SPDX-License-Identifier: MIT
// Whether two runs compare like for like (History's Compare, one machine against another or one run before
// and after a change): what differs between them besides what they measured. fio's and DiskSpd's users file
// "the numbers changed between versions" again and again; a speed-up across a change of IOLab's version, of
// the kernel, of the filesystem or its mount options, of the CPU's frequency governor or of the strategies
// run is said to be one, with the change named.
#pragma once

#include "core/model/result.h"

#include <string>
#include <vector>

namespace iolab {

struct RunDifference
{
    std::string
        what; // "IOLab's version", "kernel", "filesystem", "mount options", "CPU governor", "strategies"
    std::string older; // its value in the older run ("" when it was not recorded)
    std::string newer;
};

// What differs between `older` and `newer`, in the order above; empty when they compare like for like.
std::vector<RunDifference> runDifferences(const RunResult& older, const RunResult& newer);

// One sentence for the comparison's head: "Not like for like: IOLab's version 0.5.0 → 0.6.0 (a speed-up may
// be IOLab's own), kernel Linux 6.1 → Linux 6.6." Empty when there is no difference.
std::string describeRunDifferences(const std::vector<RunDifference>& differences);

// The label a ratio across a change of IOLab's version carries ("across IOLab 0.5.0 → 0.6.0"), else "".
std::string versionChangeLabel(const RunResult& older, const RunResult& newer);

} // namespace iolab
