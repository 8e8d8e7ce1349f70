// SPDX-License-Identifier: MIT
// A result's headline figures in Prometheus's text format (issue 39, part 7): the labels escaped as the
// format says, every kind of case with the figures it has and none it has not, a failed case, the health
// verdict per dimension, the run's info, and redaction. promtool's own check of the format is in
// tests/cli/test_prometheus.cpp.
#include "core/analysis/health_verdict.h"
#include "core/base/stats.h"
#include "core/formats/result_prometheus.h"
#include "core/formats/result_redact.h"
#include "tests/support/fakes.h"
#include "tests/support/leaky_result.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace iolab {
namespace {

using test::FakeBehaviour;
using test::FakeStrategy;
using ::testing::HasSubstr;
using ::testing::Not;

// The fakes declared as the real strategies are, in what the health verdict reads of them.
struct Strategies
{
    FakeBehaviour behaviour;
    Registry registry;

    Strategies()
    {
        const auto add = [&](const char* id, bool direct, bool random, Direction direction,
                             std::vector<TargetKind> targets = {TargetKind::Directory}) {
            auto s = std::make_unique<FakeStrategy>(id, behaviour, std::move(targets));
            s->mutableInfo().needsDirectIo = direct;
            s->mutableInfo().randomOffsets = random;
            s->mutableInfo().direction = direction;
            registry.add(std::move(s));
        };
        add("stdio", false, false, Direction::Write);
        add("write", false, false, Direction::Write);
        add("uring-write-direct", true, false, Direction::Write);
        add("uring-random-write-direct", true, true, Direction::Write);
        add("read", false, false, Direction::Read);
        add("uring-read-direct", true, false, Direction::Read);
        add("uring-random-read-direct", true, true, Direction::Read);
        add("files-serial", false, false, Direction::Read);
        add("vmsplice", false, false, Direction::Write, {TargetKind::Pipe});
        add("replay", false, false, Direction::Write);
    }
};

CaseResult ran(std::uint32_t index, Case k, double mbps)
{
    CaseResult c;
    c.index = index;
    c.testCase = std::move(k);
    for (std::uint32_t r = 1; r <= 3; ++r) {
        RepetitionResult rep;
        rep.index = r;
        rep.bytes = 64 << 20;
        rep.apparentMBps = mbps;
        rep.durableMBps = mbps / 2;
        c.repetitions.push_back(rep);
    }
    c.apparentMBps = summarize(std::vector<double>(3, mbps));
    c.durableMBps = summarize(std::vector<double>(3, mbps / 2));
    return c;
}

Case shape(const char* strategy, Direction direction, std::uint64_t chunk, std::uint32_t qd)
{
    Case k;
    k.strategy = strategy;
    k.direction = direction;
    k.chunkBytes = chunk;
    k.totalBytes = 1ULL << 30;
    k.queueDepth = qd;
    if (direction == Direction::Read)
        k.cache = CacheState::Cold;
    return k;
}

LatencyDistribution latency(std::uint64_t count, std::uint64_t p50Ns, std::uint64_t p99Ns)
{
    LatencyDistribution d;
    d.summary.count = count;
    d.summary.meanNs = static_cast<double>(p50Ns);
    d.summary.p50Ns = p50Ns;
    d.summary.p90Ns = p50Ns;
    d.summary.p99Ns = p99Ns;
    d.summary.p999Ns = p99Ns;
    d.summary.maxNs = p99Ns;
    return d;
}

// A health-check-shaped run on a SATA SSD (every dimension measured, each verdict's code given by one),
// beside a write into a pipe, a replay, a failed case and a cancelled one, with a case refused before the
// run.
RunResult fleetRun()
{
    RunResult r;
    r.toolVersion = "0.6.0";
    r.startedAt = "2026-11-30T10:00:00Z";
    r.finishedAt = "2026-11-30T10:01:05Z";
    r.host.hostname = "ws-17";
    r.target.path = "/srv/bench";
    r.matrix.name = "health-check";
    r.system.gathered = true;
    r.system.deviceClass = DeviceClass::SataSsd;
    r.target.deviceModel = "Samsung SSD 870 EVO 1TB";
    std::uint32_t i = 0;
    CaseResult seqWrite = ran(i++, shape("uring-write-direct", Direction::Write, 1 << 20, 8), 480);
    seqWrite.callLatency = latency(1024, 2'000'000, 4'500'000);
    r.cases.push_back(seqWrite);
    r.cases.push_back(ran(i++, shape("uring-read-direct", Direction::Read, 1 << 20, 8), 530));
    r.cases.push_back(ran(i++, shape("uring-random-read-direct", Direction::Read, 4096, 1), 38));
    // Deep random reads faster than SATA allows (a cache took part): above.
    r.cases.push_back(ran(i++, shape("uring-random-read-direct", Direction::Read, 4096, 32), 2000));
    // 8 MB/s where a SATA SSD typically writes 50-150: far below (4 durable).
    r.cases.push_back(ran(i++, shape("uring-random-write-direct", Direction::Write, 4096, 1), 8));
    r.cases.push_back(ran(i++, shape("uring-random-write-direct", Direction::Write, 4096, 32), 250));
    Case sync = shape("write", Direction::Write, 4096, 0);
    sync.sync = {SyncMode::FsyncEvery, 1};
    CaseResult synced = ran(i++, sync, 2.13);
    synced.syncLatency = latency(780, 3'970'000, 5'500'000);
    r.cases.push_back(synced);
    Case files = shape("files-serial", Direction::Read, 64 << 10, 0);
    files.fileSet = {1000, SizeMix::Article, 10000, 62000000, 205000, "article-10k"};
    CaseResult f = ran(i++, files, 180);
    f.filesPerSecond = summarize(std::vector<double>(3, 850.0));
    r.cases.push_back(f);
    Case pipe = shape("vmsplice", Direction::Write, 1 << 20, 0);
    pipe.target = TargetKind::Pipe;
    r.cases.push_back(ran(i++, pipe, 5400));
    Case replay = shape("replay", Direction::Write, 4096, 0);
    replay.extraAxes["replay"] = "/home/op/app.iolab-trace";
    r.cases.push_back(ran(i++, replay, 12));
    CaseResult failed = ran(i++, shape("stdio", Direction::Write, 4096, 0), 0);
    failed.status = Status::Failed;
    failed.reason = "write: No space left on device";
    failed.apparentMBps = failed.durableMBps = {};
    r.cases.push_back(failed);
    CaseResult cancelled;
    cancelled.index = i++;
    cancelled.testCase = shape("stdio", Direction::Write, 65536, 0);
    cancelled.status = Status::Cancelled;
    r.cases.push_back(cancelled);
    r.refused.push_back({shape("stdio", Direction::Write, 1000, 0), "refused for the test"});
    return r;
}

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
    Strategies s;
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
    Strategies s;
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
    Strategies s;
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
