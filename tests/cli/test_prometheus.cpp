// SPDX-License-Identifier: MIT
// iolab-cli run --prometheus (issue 39, part 7): the file node_exporter's textfile collector reads, checked
// by Prometheus's own promtool, its figures the result JSON's, written whole over an older one, redacted with
// --redact, and its path checked before the run.
#include "core/formats/result_json.h"
#include "core/formats/result_prometheus.h"
#include "tests/support/fleet_result.h"
#include "tests/support/process.h"
#include "tests/support/promtool.h"
#include "tests/support/result_schema.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

std::string slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

class Prometheus : public ::testing::Test
{
protected:
    ProcessResult cli(std::vector<std::string> args)
    {
        return runProcess(IOLAB_CLI_PATH, args, {stateHome(m_state.path())});
    }
    // A small run of two write cases, one syncing: both rates, IOPS, call and sync latency.
    ProcessResult smallRun(std::vector<std::string> extra)
    {
        std::vector<std::string> args{
            "run", "--target", m_target.path(),      "--strategy", "write", "--chunk",   "64K", "--size",
            "2M",  "--sync",   "none,fsync-every:8", "--reps",     "2",     "--warmups", "0",   "--quiet"};
        args.insert(args.end(), extra.begin(), extra.end());
        return cli(args);
    }

    TempDir m_target;
    TempDir m_out;
    TempDir m_state;
};

// The metrics of a run pass promtool's check, and say what its JSON says.
TEST_F(Prometheus, ARunsMetricsPassPromtoolAndAreItsJsonsFigures)
{
    if (const auto missing = promtoolMissing())
        GTEST_SKIP() << *missing;
    const std::string prom = m_out / "iolab.prom";
    const std::string json = m_out / "r.json";
    const ProcessResult r = smallRun({"--json", json, "--prometheus", prom});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const ProcessResult checked = promtoolCheckMetrics(prom);
    EXPECT_EQ(checked.exitCode, 0) << checked.out << checked.err;
    EXPECT_EQ(checked.out + checked.err, "") << "promtool's lint has nothing to say";
    EXPECT_TRUE(followsResultSchema(json));

    const std::string text = slurp(prom);
    const RunResult result = resultFromJson(slurp(json), json);
    ASSERT_EQ(result.cases.size(), 2u);
    for (const auto& c : result.cases) {
        const std::string labels =
            fmt::format(R"({{machine="{}",target="{}",case="{}",strategy="write"}})",
                        prometheusLabelValue(result.host.hostname), prometheusLabelValue(result.target.path),
                        prometheusLabelValue(c.testCase.label()));
        EXPECT_THAT(text, HasSubstr(fmt::format("iolab_case_durable_rate_bytes_per_second{} {}\n", labels,
                                                c.durableMBps.median * 1e6)));
        EXPECT_THAT(text, HasSubstr(fmt::format("iolab_case_apparent_rate_bytes_per_second{} {}\n", labels,
                                                c.apparentMBps.median * 1e6)));
        EXPECT_THAT(text, HasSubstr("iolab_case_ok" + labels + " 1\n"));
        if (c.callLatency) { // where the OS's write call is timed (Linux's write(2) is)
            EXPECT_THAT(text, HasSubstr(fmt::format("iolab_case_call_latency_seconds_count{} {}\n", labels,
                                                    c.callLatency->summary.count)));
        }
    }
    EXPECT_THAT(text, HasSubstr("# TYPE iolab_case_sync_latency_seconds summary\n"))
        << "the case with an fsync every 8 writes";
    EXPECT_THAT(text, HasSubstr(fmt::format("iolab_run_info{{machine=\"{}\"",
                                            prometheusLabelValue(result.host.hostname))));
    EXPECT_EQ(m_out.entryCount(), 2u) << "no temporary file left beside them";
}

// The fleet's run (every verdict, a failed and a cancelled case) with labels that need escaping, and bytes
// that are not UTF-8: promtool reads it.
TEST_F(Prometheus, EveryKindOfCaseAndAwkwardLabelsPassPromtool)
{
    if (const auto missing = promtoolMissing())
        GTEST_SKIP() << *missing;
    FleetStrategies s;
    RunResult r = fleetRun();
    r.host.hostname = "ws \"17\"\\east";
    r.target.path = "/mnt/caf\xE9\nnew line";
    const std::string text = resultToPrometheus(r, &s.registry);
    ASSERT_THAT(text, HasSubstr("iolab_health_verdict{"));
    const std::string prom = m_out / "fleet.prom";
    std::ofstream(prom, std::ios::binary) << text;
    const ProcessResult checked = promtoolCheckMetrics(prom);
    EXPECT_EQ(checked.exitCode, 0) << checked.out << checked.err << "\n" << text;
    EXPECT_EQ(checked.out + checked.err, "");
}

// A second run replaces the file whole: the textfile collector reads the old one or the new one, never a mix
// (on Windows the rename replaces an existing file too).
TEST_F(Prometheus, ASecondRunReplacesTheFileWhole)
{
    const std::string prom = m_out / "iolab.prom";
    std::ofstream(prom) << "# an older run's metrics, longer than the new ones will be\n"
                        << std::string(200000, '#') << "\n";
    const ProcessResult r = smallRun({"--prometheus", prom});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string text = slurp(prom);
    EXPECT_TRUE(text.starts_with("# HELP iolab_run_info ")) << text.substr(0, 200);
    EXPECT_THAT(text, Not(HasSubstr("older run")));
    EXPECT_TRUE(text.ends_with("\n"));
    EXPECT_EQ(m_out.entryCount(), 1u) << "no temporary file left";
    EXPECT_THAT(r.err, Not(HasSubstr("error")));
}

// --redact: the machine and target labels are placeholders, and the host name and the target's path are in
// no label.
TEST_F(Prometheus, RedactedMetricsNameNoMachineAndNoPath)
{
    const std::string prom = m_out / "shared.prom";
    const std::string json = m_out / "shared.json";
    const ProcessResult r = smallRun({"--prometheus", prom, "--json", json, "--redact"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(followsResultSchema(json));
    const std::string text = slurp(prom);
    EXPECT_THAT(text, HasSubstr(R"(iolab_run_info{machine="host-1",target="path-1",)"));
    EXPECT_THAT(text, Not(HasSubstr(prometheusLabelValue(m_target.path()))));
    const RunResult plain = resultFromJson(slurp(json), json);
    EXPECT_TRUE(plain.redacted);
    EXPECT_EQ(plain.host.hostname, "host-1");
    // The real host name, from an unredacted run's metrics.
    const std::string own = m_out / "own.prom";
    ASSERT_EQ(smallRun({"--prometheus", own}).exitCode, 0);
    const std::string ownText = slurp(own);
    const auto at = ownText.find("iolab_run_info{machine=\"") + 24;
    const std::string machine = ownText.substr(at, ownText.find('"', at) - at);
    ASSERT_FALSE(machine.empty());
    EXPECT_THAT(text, Not(HasSubstr("machine=\"" + machine + "\"")));
}

// A --prometheus path that cannot be written is refused before the run, as --json's is: nothing runs.
TEST_F(Prometheus, AnUnwritablePathIsRefusedBeforeTheRun)
{
    const std::string prom = m_out / "missing" + "/iolab.prom";
    const ProcessResult r = smallRun({"--prometheus", prom});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("does not exist"));
    EXPECT_EQ(m_target.entryCount(), 0u);
    EXPECT_EQ(m_out.entryCount(), 0u);
}

} // namespace
