// SPDX-License-Identifier: MIT
#include "core/formats/result_prometheus.h"

#include "core/analysis/findings.h"
#include "core/analysis/health_verdict.h"
#include "core/base/units.h"
#include "core/model/replay.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

namespace iolab {

namespace {

// The families, in the order the text holds them. HELP texts are fixed: the textfile collector merges the
// families of every file it reads, and a family must say the same in each.
const std::vector<PrometheusFamily> kFamilies = {
    {"iolab_run_info", PrometheusType::Gauge,
     "The IOLab run these figures come from, always 1: its IOLab version and its matrix (preset) as labels."},
    {"iolab_run_start_timestamp_seconds", PrometheusType::Gauge,
     "When the run started, in seconds since the Unix epoch."},
    {"iolab_run_end_timestamp_seconds", PrometheusType::Gauge,
     "When the run finished, in seconds since the Unix epoch."},
    {"iolab_run_cases", PrometheusType::Gauge,
     "The run's cases by how they ended: ok, failed, unsupported, cancelled, refused (refused ones never "
     "ran)."},
    {"iolab_case_ok", PrometheusType::Gauge,
     "1 when the case ran to its end with every repetition ok, 0 when it failed, was refused at run time or "
     "was cancelled (the result JSON says why)."},
    {"iolab_case_apparent_rate_bytes_per_second", PrometheusType::Gauge,
     "The case's apparent rate: bytes over the time until its last call returned, median of its measured "
     "repetitions."},
    {"iolab_case_durable_rate_bytes_per_second", PrometheusType::Gauge,
     "Writes to files: bytes over the time until they were durable (the final fsync the data still needed "
     "included), median of the measured repetitions."},
    {"iolab_case_operations_per_second", PrometheusType::Gauge,
     "IOPS: the apparent rate over the case's chunk size, calls of one chunk per second (not for replays and "
     "file sets)."},
    {"iolab_case_files_per_second", PrometheusType::Gauge,
     "File-set cases: files read per second, median of the measured repetitions."},
    {"iolab_case_call_latency_seconds", PrometheusType::Summary,
     "Per-call latency of the case's timed calls (a queued request from submission to completion), over its "
     "measured repetitions."},
    {"iolab_case_sync_latency_seconds", PrometheusType::Summary,
     "Latency of the case's sync calls (fsync, fdatasync, FlushFileBuffers ...), over its measured "
     "repetitions."},
    {"iolab_health_verdict", PrometheusType::Gauge,
     "The health verdict per dimension the run measured, against the typical range of the device's class: "
     "2 above the range (faster: a cache took part, or a better device than most), 1 in range, 0 no typical "
     "range for this kind of device, -1 below the range, -2 far below (under half its low end; for the sync "
     "latency over twice its high end). The case label names the case judged."},
};

// Label names as the format requires them ([a-zA-Z_][a-zA-Z0-9_]*), and the dimensions' values: fixed words,
// never the sentences shown to people.
std::string_view dimensionName(HealthDimension dimension)
{
    switch (dimension) {
    case HealthDimension::SequentialRead:
        return "sequential_read";
    case HealthDimension::SequentialWrite:
        return "sequential_write";
    case HealthDimension::RandomReadQd1:
        return "random_read_qd1";
    case HealthDimension::RandomReadDeep:
        return "random_read_deep";
    case HealthDimension::RandomWriteQd1:
        return "random_write_qd1";
    case HealthDimension::RandomWriteDeep:
        return "random_write_deep";
    case HealthDimension::SyncLatency:
        return "sync_latency";
    case HealthDimension::SmallFiles:
        return "small_files";
    }
    return "unknown";
}

int healthCode(HealthWord word)
{
    switch (word) {
    case HealthWord::Above:
        return 2;
    case HealthWord::InRange:
        return 1;
    case HealthWord::NoRange:
        return 0;
    case HealthWord::Below:
        return -1;
    case HealthWord::FarBelow:
        return -2;
    }
    return 0;
}

// The length of the valid UTF-8 sequence at `text[i]`, 0 when none starts there.
std::size_t utf8SequenceLength(std::string_view text, std::size_t i)
{
    const auto byte = [&](std::size_t k) {
        return static_cast<unsigned char>(text[k]);
    };
    const unsigned char lead = byte(i);
    if (lead < 0x80)
        return 1;
    std::size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        low = lead == 0xE0 ? 0xA0 : 0x80;  // no overlong form
        high = lead == 0xED ? 0x9F : 0xBF; // no surrogate
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        low = lead == 0xF0 ? 0x90 : 0x80;
        high = lead == 0xF4 ? 0x8F : 0xBF; // nothing above U+10FFFF
    } else {
        return 0;
    }
    if (i + length > text.size())
        return 0;
    if (byte(i + 1) < low || byte(i + 1) > high)
        return 0;
    for (std::size_t k = 2; k < length; ++k) {
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF)
            return 0;
    }
    return length;
}

// A sample's value: Go's float syntax, which reads fmt's shortest round-trip form ("1e+20", "0.00042").
std::string valueText(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    return fmt::format("{}", value);
}

std::string helpText(std::string_view help)
{
    std::string out;
    for (const char c : help) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

// "YYYY-MM-DDTHH:MM:SSZ" (the runner's startedAt and finishedAt) as seconds since the Unix epoch.
std::optional<double> unixSeconds(const std::string& iso)
{
    int year = 0;
    unsigned month = 0;
    unsigned day = 0;
    int hours = 0;
    int minutes = 0;
    int seconds = 0;
    char zone = 0;
    if (std::sscanf(iso.c_str(), "%4d-%2u-%2uT%2d:%2d:%2d%c", &year, &month, &day, &hours, &minutes, &seconds,
                    &zone) != 7 ||
        zone != 'Z')
        return std::nullopt;
    const std::chrono::year_month_day date{std::chrono::year{year}, std::chrono::month{month},
                                           std::chrono::day{day}};
    if (!date.ok() || hours > 23 || minutes > 59 || seconds > 60 || hours < 0 || minutes < 0 || seconds < 0)
        return std::nullopt;
    const auto days = std::chrono::sys_days{date}.time_since_epoch();
    const auto total = std::chrono::duration_cast<std::chrono::seconds>(days) + std::chrono::hours{hours} +
                       std::chrono::minutes{minutes} + std::chrono::seconds{seconds};
    return static_cast<double>(total.count());
}

using Labels = std::vector<std::pair<std::string_view, std::string>>;

class Exposition
{
public:
    void add(std::string_view family, const Labels& labels, double value, std::string_view suffix = {})
    {
        std::string line = fmt::format("{}{}", family, suffix);
        if (!labels.empty()) {
            line += '{';
            for (std::size_t i = 0; i < labels.size(); ++i)
                line += fmt::format("{}{}=\"{}\"", i == 0 ? "" : ",", labels[i].first,
                                    prometheusLabelValue(labels[i].second));
            line += '}';
        }
        m_samples[std::string(family)].push_back(line + " " + valueText(value));
    }

    // A summary of nanosecond latencies in seconds: the quantiles the result keeps, its sum and count.
    void addLatency(std::string_view family, const Labels& labels, const LatencySummary& s)
    {
        for (const auto& [quantile, ns] : {std::pair{"0.5", s.p50Ns}, std::pair{"0.9", s.p90Ns},
                                           std::pair{"0.99", s.p99Ns}, std::pair{"0.999", s.p999Ns}}) {
            Labels withQuantile = labels;
            withQuantile.emplace_back("quantile", quantile);
            add(family, withQuantile, static_cast<double>(ns) / 1e9);
        }
        add(family, labels, s.meanNs * static_cast<double>(s.count) / 1e9, "_sum");
        add(family, labels, static_cast<double>(s.count), "_count");
    }

    std::string text() const
    {
        std::string out;
        for (const auto& family : kFamilies) {
            const auto it = m_samples.find(std::string(family.name));
            if (it == m_samples.end())
                continue;
            out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", family.name, helpText(family.help),
                               family.name, toString(family.type));
            for (const auto& line : it->second)
                out += line + "\n";
        }
        return out;
    }

private:
    std::map<std::string, std::vector<std::string>> m_samples;
};

// Each case's label value: its label, with its number where two cases of the run share one, so that no two
// series are the same.
std::vector<std::string> caseNames(const RunResult& result)
{
    std::map<std::string, int> uses;
    for (const auto& c : result.cases)
        ++uses[c.testCase.label()];
    std::vector<std::string> names;
    for (const auto& c : result.cases) {
        std::string label = c.testCase.label();
        names.push_back(uses[label] > 1 ? fmt::format("{} #{}", label, c.index + 1) : label);
    }
    return names;
}

} // namespace

std::string_view toString(PrometheusType type)
{
    switch (type) {
    case PrometheusType::Gauge:
        return "gauge";
    case PrometheusType::Summary:
        return "summary";
    }
    return "untyped";
}

const std::vector<PrometheusFamily>& prometheusFamilies()
{
    return kFamilies;
}

std::vector<std::string> prometheusSeriesNames(const PrometheusFamily& family)
{
    std::vector<std::string> names{std::string(family.name)};
    if (family.type == PrometheusType::Summary) {
        names.push_back(std::string(family.name) + "_sum");
        names.push_back(std::string(family.name) + "_count");
    }
    return names;
}

std::string prometheusLabelValue(std::string_view value)
{
    std::string out;
    out.reserve(value.size());
    for (std::size_t i = 0; i < value.size();) {
        const std::size_t length = utf8SequenceLength(value, i);
        if (length == 0) {
            out += "\xEF\xBF\xBD"; // U+FFFD
            ++i;
            continue;
        }
        if (length == 1 && value[i] == '\\')
            out += "\\\\";
        else if (length == 1 && value[i] == '"')
            out += "\\\"";
        else if (length == 1 && value[i] == '\n')
            out += "\\n";
        else
            out.append(value.substr(i, length));
        i += length;
    }
    return out;
}

std::string resultToPrometheus(const RunResult& result, const Registry* registry)
{
    Exposition out;
    const Labels run{{"machine", result.host.hostname}, {"target", result.target.path}};

    Labels info = run;
    info.emplace_back("version", result.toolVersion);
    info.emplace_back("matrix", result.matrix.name);
    out.add("iolab_run_info", info, 1);
    if (const auto started = unixSeconds(result.startedAt))
        out.add("iolab_run_start_timestamp_seconds", run, *started);
    if (const auto finished = unixSeconds(result.finishedAt))
        out.add("iolab_run_end_timestamp_seconds", run, *finished);

    std::map<Status, std::size_t> byStatus{{Status::Ok, 0},
                                           {Status::Failed, 0},
                                           {Status::Unsupported, 0},
                                           {Status::Cancelled, 0},
                                           {Status::Refused, result.refused.size()}};
    for (const auto& c : result.cases)
        ++byStatus[c.status];
    for (const auto& [status, count] : byStatus) {
        Labels labels = run;
        labels.emplace_back("status", toString(status));
        out.add("iolab_run_cases", labels, static_cast<double>(count));
    }

    const std::vector<std::string> names = caseNames(result);
    const auto caseLabels = [&](std::size_t i) {
        Labels labels = run;
        labels.emplace_back("case", names[i]);
        labels.emplace_back("strategy", result.cases[i].testCase.strategy);
        return labels;
    };
    for (std::size_t i = 0; i < result.cases.size(); ++i) {
        const CaseResult& c = result.cases[i];
        const Case& k = c.testCase;
        const Labels labels = caseLabels(i);
        out.add("iolab_case_ok", labels, c.status == Status::Ok ? 1 : 0);
        if (!hasRate(c))
            continue; // failed, refused or cancelled: no figure to give
        out.add("iolab_case_apparent_rate_bytes_per_second", labels, c.apparentMBps.median * kBytesPerMB);
        if (k.direction == Direction::Write && k.target == TargetKind::Directory && c.durableMBps.count > 0)
            out.add("iolab_case_durable_rate_bytes_per_second", labels, c.durableMBps.median * kBytesPerMB);
        if (!k.fileSet.empty()) {
            out.add("iolab_case_files_per_second", labels, c.filesPerSecond.median);
        } else if (k.chunkBytes > 0 && k.strategy != kReplayStrategy) {
            out.add("iolab_case_operations_per_second", labels,
                    c.apparentMBps.median * kBytesPerMB / static_cast<double>(k.chunkBytes));
        }
        if (c.callLatency && c.callLatency->summary.count > 0)
            out.addLatency("iolab_case_call_latency_seconds", labels, c.callLatency->summary);
        if (c.syncLatency && c.syncLatency->summary.count > 0)
            out.addLatency("iolab_case_sync_latency_seconds", labels, c.syncLatency->summary);
    }

    if (registry != nullptr) {
        if (const auto health = healthVerdict(result, registry, findings(result, registry))) {
            for (const auto& line : health->lines) {
                std::size_t at = 0;
                while (at < result.cases.size() && result.cases[at].index != line.caseIndex)
                    ++at;
                if (at == result.cases.size())
                    continue;
                Labels labels = caseLabels(at);
                labels.emplace_back("dimension", dimensionName(line.dimension));
                out.add("iolab_health_verdict", labels, healthCode(line.word));
            }
        }
    }
    return out.text();
}

} // namespace iolab
