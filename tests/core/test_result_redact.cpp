// SPDX-License-Identifier: MIT
// A result made fit to share: every name that says whose or where (the host, the paths, a user's folder, a
// serial number, a MAC address) replaced by a stable placeholder, in the JSON and in the CSV made from it;
// every figure kept; the result says first that it was redacted.
#include "core/formats/result_csv.h"
#include "core/formats/result_json.h"
#include "core/formats/result_redact.h"
#include "tests/support/leaky_result.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

std::string everything(const RunResult& r)
{
    std::string text = resultToJson(r).dump();
    for (const auto& csv : resultCsvFiles(r, "/out/result.csv"))
        text += csv.content;
    return text;
}

} // namespace

TEST(RedactResult, NoNameSurvivesInTheJsonOrTheCsvAndEveryFigureIsKept)
{
    const RunResult original = leakyResult();
    for (const auto& name : kLeakyNames)
        ASSERT_NE(everything(original).find(name), std::string::npos) << "the test's result carries " << name;

    const RunResult redacted = redactResult(original);
    const std::string text = everything(redacted);
    for (const auto& name : kLeakyNames)
        EXPECT_EQ(text.find(name), std::string::npos) << name << " is left in:\n"
                                                      << text.substr(text.find(name) - 200, 400);
    EXPECT_EQ(redacted.matrix.name, "other ways of writing what path-2 wrote");
    EXPECT_EQ(redacted.host.hostname, "host-1");
    EXPECT_EQ(redacted.target.path, "path-1");
    EXPECT_EQ(redacted.cases[1].testCase.extraAxes.at("replay"), "path-2");
    EXPECT_EQ(redacted.cases[1].reason, R"(open C:\Users\user-1\path-3 failed on host-1: Access is denied)")
        << "a user's folders inside their home go with the user's name";
    EXPECT_EQ(redacted.system.find("device.serial")->value, "serial-1");
    EXPECT_EQ(redacted.system.find("machine.nic")->value, "eth0 mac-1, up");
    EXPECT_EQ(redacted.system.find("device.model")->value, "Samsung SSD 980") << "a model names no one";
    EXPECT_EQ(redacted.target.mountPoint, "/home") << "a bare /home names no one";
    EXPECT_EQ(redacted.warnings.at(1), "another IOLab run was writing into path-1/iolab-run-2")
        << "the same value, the same placeholder";
    // Every figure as measured.
    ASSERT_EQ(redacted.cases.size(), original.cases.size());
    for (std::size_t i = 0; i < original.cases.size(); ++i) {
        EXPECT_EQ(redacted.cases[i].repetitions, original.cases[i].repetitions);
        EXPECT_EQ(redacted.cases[i].apparentMBps, original.cases[i].apparentMBps);
        EXPECT_EQ(redacted.cases[i].durableMBps, original.cases[i].durableMBps);
    }
    EXPECT_EQ(redacted.host.ramBytes, original.host.ramBytes);
    // It says so first, and says it once however often it is redacted; the JSON keeps the mark.
    EXPECT_TRUE(redacted.redacted);
    EXPECT_EQ(redacted.warnings.front(), kRedactedNotice);
    const RunResult twice = redactResult(redacted);
    EXPECT_EQ(std::count(twice.warnings.begin(), twice.warnings.end(), std::string(kRedactedNotice)), 1);
    EXPECT_TRUE(resultFromJson(resultToJson(redacted).dump(), "r").redacted);
    EXPECT_FALSE(resultFromJson(resultToJson(original).dump(), "r").redacted);
}

// A host's name is replaced where it stands alone, not inside another word: a host called "vm" leaves
// vm.dirty_ratio and vmsplice alone.
TEST(RedactResult, AShortHostNameIsReplacedOnlyWhereItStandsAlone)
{
    RunResult r = leakyResult();
    r.host.hostname = "vm";
    r.warnings = {"vmsplice on vm: vm.dirty_ratio is 20% (vm)"};
    const RunResult redacted = redactResult(r);
    EXPECT_EQ(redacted.warnings.at(1), "vmsplice on host-1: vm.dirty_ratio is 20% (host-1)");
}
