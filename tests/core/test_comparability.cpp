// SPDX-License-Identifier: MIT
// Two runs compared like for like, or not: what differs besides what they measured (IOLab's version, the
// kernel, the filesystem and its mount options, the CPU governor, the strategies), named.
#include "core/analysis/comparability.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using ::testing::HasSubstr;

namespace {

RunResult run(const std::string& version, const std::vector<std::string>& strategies)
{
    RunResult r;
    r.toolVersion = version;
    r.host.kernel = "Linux 6.1.0-18-amd64";
    r.target.fsType = "ext4";
    r.target.mountOptions = "rw,relatime";
    r.system.gathered = true;
    r.system.sections = {{"Machine", {{"cpu.governor", "CPU governor", "performance", "", "/sys"}}}};
    for (const auto& s : strategies) {
        CaseResult c;
        c.testCase.strategy = s;
        r.cases.push_back(c);
    }
    return r;
}

} // namespace

TEST(Comparability, TheSameSetUpComparesLikeForLike)
{
    const RunResult a = run("0.6.0", {"write", "direct"});
    EXPECT_TRUE(runDifferences(a, a).empty());
    EXPECT_EQ(describeRunDifferences(runDifferences(a, a)), "");
    EXPECT_EQ(versionChangeLabel(a, a), "");
}

TEST(Comparability, EachDifferenceIsNamedWithBothValues)
{
    const RunResult older = run("0.5.0", {"write", "direct"});
    RunResult newer = run("0.6.0", {"write", "stdio"});
    newer.host.kernel = "Linux 6.6.13";
    newer.target.fsType = "xfs";
    newer.target.mountOptions = "rw,noatime";
    newer.system.sections[0].facts[0].value = "powersave";
    const auto differences = runDifferences(older, newer);
    ASSERT_EQ(differences.size(), 6u);
    EXPECT_EQ(differences[0].what, "IOLab's version");
    EXPECT_EQ(differences[1].what, "kernel");
    EXPECT_EQ(differences[2].what, "filesystem");
    EXPECT_EQ(differences[3].what, "mount options");
    EXPECT_EQ(differences[4].what, "CPU governor");
    EXPECT_EQ(differences[5].what, "strategies");
    EXPECT_EQ(differences[5].older, "direct, write");
    EXPECT_EQ(differences[5].newer, "stdio, write");
    const std::string said = describeRunDifferences(differences);
    EXPECT_THAT(
        said, HasSubstr("Not like for like: IOLab's version 0.5.0 → 0.6.0 (a speed-up may be IOLab's own)"));
    EXPECT_THAT(said, HasSubstr("kernel Linux 6.1.0-18-amd64 → Linux 6.6.13"));
    EXPECT_THAT(said, HasSubstr("filesystem ext4 → xfs"));
    EXPECT_THAT(said, HasSubstr("mount options rw,relatime → rw,noatime"));
    EXPECT_THAT(said, HasSubstr("CPU governor performance → powersave"));
    EXPECT_THAT(said, HasSubstr("strategies direct, write → stdio, write"));
    EXPECT_EQ(versionChangeLabel(older, newer), "across IOLab 0.5.0 → 0.6.0");
}

// A governor one run could not read (a virtual machine has none) is not a difference; a value a run did not
// record is said to be so.
TEST(Comparability, AGovernorOnlyOneRunReadIsNotADifference)
{
    const RunResult older = run("0.6.0", {"write"});
    RunResult newer = older;
    newer.system.sections[0].facts[0].value.clear();
    EXPECT_TRUE(runDifferences(older, newer).empty());
    newer.target.mountOptions.clear();
    EXPECT_THAT(describeRunDifferences(runDifferences(older, newer)),
                HasSubstr("mount options rw,relatime → not recorded"));
}
