// SPDX-License-Identifier: MIT
// A result's headline figures in Prometheus's text format (issue 39, part 7): the labels escaped as the
// format says, every kind of case with the figures it has and none it has not, a failed case, the health
// verdict per dimension, the run's info, and redaction. promtool's own check of the format is in
// tests/cli/test_prometheus.cpp.
#include "core/analysis/health_verdict.h"
#include "core/base/stats.h"
#include "core/formats/result_prometheus.h"
#include "core/formats/result_redact.h"
#include "tests/support/fleet_result.h"
#include "tests/support/leaky_result.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

namespace iolab {
namespace {

using test::fleetRun;
using test::FleetStrategies;
using ::testing::HasSubstr;
using ::testing::Not;

// The text's samples by their series (name and labels as written), and the family names of its HELP and
// TYPE lines, each counted.
struct Parsed
{
    std::map<std::string, std::string> samples; // series -> value
    std::map<std::string, int> helps;
    std::map<std::string, std::string> types;
    std::vector<std::string> problems;
};

Parsed parse(const std::string& text)
{
    Parsed p;
    std::istringstream in(text);
    std::string line;
    std::string family;
    while (std::getline(in, line)) {
        if (line.starts_with("# HELP ")) {
            family = line.substr(7, line.find(' ', 7) - 7);
            ++p.helps[family];
        } else if (line.starts_with("# TYPE ")) {
            const std::string name = line.substr(7, line.find(' ', 7) - 7);
            if (name != family || p.types.contains(name))
                p.problems.push_back("TYPE out of place: " + line);
            p.types[name] = line.substr(line.rfind(' ') + 1);
        } else {
            const auto space = line.rfind(' ');
            const std::string series = line.substr(0, space);
            const std::string name = series.substr(0, series.find('{'));
            if (name != family && name != family + "_sum" && name != family + "_count")
                p.problems.push_back("a sample outside its family " + family + ": " + line);
            if (!p.samples.emplace(series, line.substr(space + 1)).second)
                p.problems.push_back("the same series twice: " + series);
        }
    }
    return p;
}

std::string caseLabels(const RunResult& r, std::size_t i)
{
    return fmt::format("machine=\"{}\",target=\"{}\",case=\"{}\",strategy=\"{}\"", r.host.hostname,
                       r.target.path, r.cases[i].testCase.label(), r.cases[i].testCase.strategy);
}

TEST(ResultPrometheus, LabelValuesAreEscapedAsTheFormatSays)
{
    EXPECT_EQ(prometheusLabelValue(R"(C:\Users\op)"), R"(C:\\Users\\op)");
    EXPECT_EQ(prometheusLabelValue(R"(say "hi")"), R"(say \"hi\")");
    EXPECT_EQ(prometheusLabelValue("two\nlines"), R"(two\nlines)");
    EXPECT_EQ(prometheusLabelValue("/mnt/données, ünïcode €"), "/mnt/données, ünïcode €") << "UTF-8 as it is";
    EXPECT_EQ(prometheusLabelValue("tab\tstays"), "tab\tstays");
    // Bytes that are not UTF-8 (a Latin-1 file name, a cut sequence, an overlong form) become U+FFFD.
    EXPECT_EQ(prometheusLabelValue("caf\xE9"), "caf\xEF\xBF\xBD");
    EXPECT_EQ(prometheusLabelValue("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_EQ(prometheusLabelValue("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");

    RunResult r = fleetRun();
    r.host.hostname = "host \"a\"\\b";
    r.target.path = "/mnt/new\nline";
    const std::string text = resultToPrometheus(r, nullptr);
    EXPECT_THAT(text,
                HasSubstr(R"(iolab_run_info{machine="host \"a\"\\b",target="/mnt/new\nline",version="0.6.0",)"
                          R"(matrix="health-check"} 1)"));
    EXPECT_EQ(parse(text).problems, std::vector<std::string>{});
}

TEST(ResultPrometheus, EveryCaseKindGivesTheFiguresItHas)
{
    FleetStrategies s;
    const RunResult r = fleetRun();
    const std::string text = resultToPrometheus(r, &s.registry);
    const Parsed p = parse(text);
    EXPECT_EQ(p.problems, std::vector<std::string>{});
    const auto value = [&](const std::string& series) {
        const auto it = p.samples.find(series);
        return it == p.samples.end() ? std::string("(none)") : it->second;
    };
    const auto has = [&](const std::string& series) {
        return p.samples.contains(series);
    };

    // A direct write: both rates in bytes per second, its IOPS and its call latency in seconds.
    const std::string seqWrite = caseLabels(r, 0);
    EXPECT_EQ(value("iolab_case_apparent_rate_bytes_per_second{" + seqWrite + "}"), "480000000");
    EXPECT_EQ(value("iolab_case_durable_rate_bytes_per_second{" + seqWrite + "}"), "240000000");
    EXPECT_EQ(value("iolab_case_operations_per_second{" + seqWrite + "}"),
              fmt::format("{}", 480e6 / (1 << 20)));
    EXPECT_EQ(value("iolab_case_call_latency_seconds{" + seqWrite + ",quantile=\"0.5\"}"), "0.002");
    EXPECT_EQ(value("iolab_case_call_latency_seconds{" + seqWrite + ",quantile=\"0.99\"}"), "0.0045");
    EXPECT_EQ(value("iolab_case_call_latency_seconds_count{" + seqWrite + "}"), "1024");
    EXPECT_EQ(value("iolab_case_call_latency_seconds_sum{" + seqWrite + "}"), "2.048");
    EXPECT_FALSE(has("iolab_case_sync_latency_seconds_count{" + seqWrite + "}"));
    EXPECT_EQ(value("iolab_case_ok{" + seqWrite + "}"), "1");

    // A read: one rate, no durable one.
    const std::string read = caseLabels(r, 1);
    EXPECT_EQ(value("iolab_case_apparent_rate_bytes_per_second{" + read + "}"), "530000000");
    EXPECT_FALSE(has("iolab_case_durable_rate_bytes_per_second{" + read + "}"));

    // The write with an fsync after each: its sync latency.
    const std::string synced = caseLabels(r, 6);
    EXPECT_EQ(value("iolab_case_sync_latency_seconds{" + synced + ",quantile=\"0.5\"}"), "0.00397");
    EXPECT_EQ(value("iolab_case_sync_latency_seconds{" + synced + ",quantile=\"0.99\"}"), "0.0055");
    EXPECT_EQ(value("iolab_case_sync_latency_seconds_count{" + synced + "}"), "780");
    EXPECT_FALSE(has("iolab_case_call_latency_seconds_count{" + synced + "}")) << "its calls were not timed";

    // A file set: files per second instead of IOPS.
    const std::string files = caseLabels(r, 7);
    EXPECT_EQ(value("iolab_case_files_per_second{" + files + "}"), "850");
    EXPECT_FALSE(has("iolab_case_operations_per_second{" + files + "}"));

    // A write into a pipe makes nothing durable; a replay's chunk is its trace's, not a call's size.
    const std::string pipe = caseLabels(r, 8);
    EXPECT_EQ(value("iolab_case_apparent_rate_bytes_per_second{" + pipe + "}"), "5400000000");
    EXPECT_FALSE(has("iolab_case_durable_rate_bytes_per_second{" + pipe + "}"));
    const std::string replay = caseLabels(r, 9);
    EXPECT_THAT(replay, HasSubstr("case=\"replay of app.iolab-trace"));
    EXPECT_EQ(value("iolab_case_durable_rate_bytes_per_second{" + replay + "}"), "6000000");
    EXPECT_FALSE(has("iolab_case_operations_per_second{" + replay + "}"));

    // The failed and the cancelled case: not ok, and no figure at all.
    for (const std::size_t i : {std::size_t{10}, std::size_t{11}}) {
        const std::string labels = caseLabels(r, i);
        EXPECT_EQ(value("iolab_case_ok{" + labels + "}"), "0") << labels;
        for (const auto& [series, v] : p.samples)
            EXPECT_TRUE(series.find(labels) == std::string::npos || series.starts_with("iolab_case_ok{"))
                << series;
    }
    const std::string run = "machine=\"ws-17\",target=\"/srv/bench\"";
    EXPECT_EQ(value("iolab_run_cases{" + run + ",status=\"ok\"}"), "10");
    EXPECT_EQ(value("iolab_run_cases{" + run + ",status=\"failed\"}"), "1");
    EXPECT_EQ(value("iolab_run_cases{" + run + ",status=\"cancelled\"}"), "1");
    EXPECT_EQ(value("iolab_run_cases{" + run + ",status=\"refused\"}"), "1");
    EXPECT_EQ(value("iolab_run_cases{" + run + ",status=\"unsupported\"}"), "0");
    EXPECT_EQ(value("iolab_run_info{" + run + ",version=\"0.6.0\",matrix=\"health-check\"}"), "1");
    // 2026-11-30T10:00:00Z, and 65 s later.
    EXPECT_EQ(value("iolab_run_start_timestamp_seconds{" + run + "}"), "1796032800");
    EXPECT_EQ(value("iolab_run_end_timestamp_seconds{" + run + "}"), "1796032865");
}

TEST(ResultPrometheus, TheHealthVerdictIsACodePerDimension)
{
    FleetStrategies s;
    const RunResult r = fleetRun();
    const auto health = healthVerdict(r, &s.registry, {});
    ASSERT_TRUE(health);
    const Parsed p = parse(resultToPrometheus(r, &s.registry));
    std::map<std::string, std::string> verdicts;
    for (const auto& [series, v] : p.samples) {
        if (!series.starts_with("iolab_health_verdict{"))
            continue;
        const auto at = series.find("dimension=\"") + 11;
        verdicts[series.substr(at, series.find('"', at) - at)] = v;
    }
    EXPECT_EQ(verdicts, (std::map<std::string, std::string>{{"sequential_write", "1"},
                                                            {"sequential_read", "1"},
                                                            {"random_read_qd1", "1"},
                                                            {"random_read_deep", "2"},
                                                            {"random_write_qd1", "-2"},
                                                            {"random_write_deep", "-1"},
                                                            {"sync_latency", "-1"},
                                                            {"small_files", "0"}}));
    EXPECT_EQ(verdicts.size(), health->lines.size());
    // Each names the case it judged.
    EXPECT_TRUE(
        p.samples.contains("iolab_health_verdict{" + caseLabels(r, 4) + ",dimension=\"random_write_qd1\"}"));
    const auto help = resultToPrometheus(r, &s.registry);
    EXPECT_THAT(help, HasSubstr("# TYPE iolab_health_verdict gauge"));
    EXPECT_THAT(help, HasSubstr("2 above the range"));
    EXPECT_THAT(help, HasSubstr("-2 far below"));

    // Without a registry, or without enough dimensions, no verdict: no series and no HELP for one.
    EXPECT_THAT(resultToPrometheus(r, nullptr), Not(HasSubstr("iolab_health_verdict")));
    RunResult few = r;
    few.cases.resize(2);
    EXPECT_THAT(resultToPrometheus(few, &s.registry), Not(HasSubstr("iolab_health_verdict")));
}

TEST(ResultPrometheus, EveryFamilyHasItsHelpAndTypeOnceAndOnlyDeclaredFamiliesAppear)
{
    FleetStrategies s;
    const Parsed p = parse(resultToPrometheus(fleetRun(), &s.registry));
    EXPECT_EQ(p.problems, std::vector<std::string>{});
    std::set<std::string> declared;
    for (const auto& family : prometheusFamilies()) {
        declared.insert(std::string(family.name));
        EXPECT_TRUE(family.name.starts_with("iolab_")) << family.name;
        EXPECT_FALSE(family.help.empty()) << family.name;
        EXPECT_EQ(p.helps.count(std::string(family.name)), 1u) << family.name << " is missing from the text";
        EXPECT_EQ(p.types.at(std::string(family.name)), toString(family.type)) << family.name;
    }
    for (const auto& [name, count] : p.helps) {
        EXPECT_EQ(count, 1) << name;
        EXPECT_TRUE(declared.contains(name)) << name;
    }
}

TEST(ResultPrometheus, TwoCasesWithOneLabelStayTwoSeries)
{
    RunResult r = fleetRun();
    r.cases.push_back(r.cases[0]);
    r.cases.back().index = static_cast<std::uint32_t>(r.cases.size() - 1);
    const Parsed p = parse(resultToPrometheus(r, nullptr));
    EXPECT_EQ(p.problems, std::vector<std::string>{});
    const std::string label = r.cases[0].testCase.label();
    EXPECT_TRUE(p.samples.contains(
        fmt::format(R"(iolab_case_ok{{machine="ws-17",target="/srv/bench",case="{} #1",strategy="{}"}})",
                    label, r.cases[0].testCase.strategy)));
    EXPECT_TRUE(p.samples.contains(
        fmt::format(R"(iolab_case_ok{{machine="ws-17",target="/srv/bench",case="{} #{}",strategy="{}"}})",
                    label, r.cases.size(), r.cases[0].testCase.strategy)));
}

TEST(ResultPrometheus, ARedactedResultGivesItsPlaceholdersAsLabels)
{
    const RunResult original = test::leakyResult();
    const std::string plain = resultToPrometheus(original, nullptr);
    for (const auto& name : {"alices-laptop", "alice", "acme-secret"})
        ASSERT_THAT(plain, HasSubstr(name)) << "the test's result carries it";
    const std::string text = resultToPrometheus(redactResult(original), nullptr);
    for (const auto& name : test::kLeakyNames)
        EXPECT_THAT(text, Not(HasSubstr(name)));
    EXPECT_THAT(text, HasSubstr(R"(iolab_run_info{machine="host-1",target="path-1",)"));
    EXPECT_THAT(text, HasSubstr(R"(case="replay of path-2")"));
}

TEST(ResultPrometheus, ARunWithoutTimesHasNoTimestamps)
{
    RunResult r = fleetRun();
    r.startedAt = "";
    r.finishedAt = "2026-13-01T00:00:00Z";
    const std::string text = resultToPrometheus(r, nullptr);
    EXPECT_THAT(text, Not(HasSubstr("iolab_run_start_timestamp_seconds")));
    EXPECT_THAT(text, Not(HasSubstr("iolab_run_end_timestamp_seconds")));
    EXPECT_THAT(text, HasSubstr("iolab_run_info{"));
}

} // namespace
} // namespace iolab

namespace iolab {
namespace {

// The Grafana dashboard for these metrics (resources/grafana/iolab-dashboard.json): the shape Grafana imports
// (a title, panels each with its queries, the machine and target variables), and every metric its queries
// name one the exporter writes.
TEST(GrafanaDashboard, ItsQueriesUseTheExportersMetricsAndItIsTemplatedByMachineAndTarget)
{
    std::ifstream in(std::string(IOLAB_SOURCE_DIR) + "/resources/grafana/iolab-dashboard.json");
    ASSERT_TRUE(in);
    const auto dashboard = nlohmann::json::parse(in);
    EXPECT_FALSE(dashboard.at("title").get<std::string>().empty());
    EXPECT_FALSE(dashboard.at("uid").get<std::string>().empty());
    EXPECT_TRUE(dashboard.at("schemaVersion").is_number_integer());
    EXPECT_TRUE(dashboard.at("time").contains("from"));

    std::set<std::string> written;
    for (const auto& family : prometheusFamilies())
        for (const auto& name : prometheusSeriesNames(family))
            written.insert(name);
    const std::regex metric(R"(\biolab_[a-z0-9_]+)");
    std::set<std::string> used;
    const auto metricsOf = [&](const std::string& query, const std::string& where) {
        std::size_t found = 0;
        for (auto it = std::sregex_iterator(query.begin(), query.end(), metric); it != std::sregex_iterator();
             ++it, ++found) {
            used.insert(it->str());
            EXPECT_TRUE(written.contains(it->str()))
                << where << " queries " << it->str() << ", which the exporter does not write";
        }
        EXPECT_GT(found, 0u) << where << ": " << query;
    };

    std::map<std::string, nlohmann::json> variables;
    for (const auto& v : dashboard.at("templating").at("list"))
        variables[v.at("name")] = v;
    ASSERT_TRUE(variables.contains("datasource"));
    EXPECT_EQ(variables["datasource"].at("type"), "datasource");
    EXPECT_EQ(variables["datasource"].at("query"), "prometheus");
    for (const char* name : {"machine", "target"}) {
        ASSERT_TRUE(variables.contains(name)) << name;
        EXPECT_EQ(variables[name].at("type"), "query");
        metricsOf(variables[name].at("definition"), std::string("variable ") + name);
        EXPECT_THAT(variables[name].at("definition").get<std::string>(),
                    HasSubstr(std::string(", ") + name + ")"));
    }

    const auto& panels = dashboard.at("panels");
    ASSERT_GE(panels.size(), 5u);
    std::set<int> ids;
    for (const auto& panel : panels) {
        const std::string title = panel.at("title");
        EXPECT_TRUE(ids.insert(panel.at("id").get<int>()).second) << title << ": its id is taken";
        EXPECT_THAT((std::set<std::string>{"timeseries", "stat", "table"}),
                    ::testing::Contains(panel.at("type")))
            << title;
        for (const char* key : {"x", "y", "w", "h"})
            EXPECT_TRUE(panel.at("gridPos").at(key).is_number_integer()) << title << " " << key;
        EXPECT_EQ(panel.at("datasource").at("uid"), "${datasource}") << title;
        ASSERT_FALSE(panel.at("targets").empty()) << title;
        std::set<std::string> refIds;
        for (const auto& target : panel.at("targets")) {
            EXPECT_TRUE(refIds.insert(target.at("refId")).second) << title;
            const std::string expr = target.at("expr");
            metricsOf(expr, title);
            EXPECT_THAT(expr, HasSubstr(R"(machine=~"$machine")")) << title;
            EXPECT_THAT(expr, HasSubstr(R"(target=~"$target")")) << title;
        }
    }
    // What the fleet asked for: durable beside apparent rates, p99 latency, the sync latency, the verdict.
    for (const char* name :
         {"iolab_case_durable_rate_bytes_per_second", "iolab_case_apparent_rate_bytes_per_second",
          "iolab_case_call_latency_seconds", "iolab_case_sync_latency_seconds", "iolab_health_verdict"})
        EXPECT_TRUE(used.contains(name)) << name << " has no panel";
}

} // namespace
} // namespace iolab
