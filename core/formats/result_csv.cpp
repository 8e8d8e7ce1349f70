// SPDX-License-Identifier: MIT
#include "core/formats/result_csv.h"

#include "core/analysis/findings.h"
#include "core/model/axes.h"

#include <fmt/format.h>

#include <algorithm>

namespace iolab {

namespace {

std::string number(double v)
{
    return fmt::format("{:.6g}", v);
}

// The columns that say which case a row is about: "label", then one per declared axis.
CsvRow caseHeader()
{
    CsvRow row{"label"};
    for (const auto& axis : caseAxes())
        row.push_back(axis.csvColumn);
    return row;
}

CsvRow caseFields(const Case& k)
{
    CsvRow row{k.label()};
    for (const auto& axis : caseAxes())
        row.push_back(axis.format(k));
    return row;
}

std::string optionalNumber(const std::optional<std::uint64_t>& value)
{
    return value ? std::to_string(*value) : "";
}

std::string milliseconds(double seconds)
{
    return fmt::format("{:.6g}", seconds * 1e3);
}

std::string microseconds(double ns)
{
    return fmt::format("{:.6g}", ns / 1e3);
}

// Latency columns: the calls timed, their mean and percentiles and the largest, in microseconds; empty
// where the case timed no call.
const CsvRow& latencyHeader(const std::string& prefix)
{
    static const CsvRow calls{"lat_calls",  "lat_mean_us", "lat_p50_us",   "lat_p90_us",
                              "lat_p99_us", "lat_p999_us", "lat_p9999_us", "lat_max_us"};
    static const CsvRow syncs{"sync_calls",  "sync_mean_us", "sync_p50_us",   "sync_p90_us",
                              "sync_p99_us", "sync_p999_us", "sync_p9999_us", "sync_max_us"};
    return prefix == "lat" ? calls : syncs;
}

CsvRow latencyFields(const std::optional<LatencySummary>& s)
{
    if (!s || s->count == 0)
        return CsvRow(8);
    const auto us = [](std::uint64_t ns) {
        return microseconds(static_cast<double>(ns));
    };
    return {std::to_string(s->count),
            microseconds(s->meanNs),
            us(s->p50Ns),
            us(s->p90Ns),
            us(s->p99Ns),
            us(s->p999Ns),
            us(s->p9999Ns),
            us(s->maxNs)};
}

std::optional<LatencySummary> summaryOf(const std::optional<LatencyDistribution>& d)
{
    return d ? std::optional<LatencySummary>(d->summary) : std::nullopt;
}

// Power-loss exposure: the peak bytes and longest seconds at risk, and whether the bytes are exact or a
// bound; empty where the case has none (not a file write) or the figure is unknown.
CsvRow exposureHeader()
{
    return {"at_risk_max_bytes", "at_risk_max_s", "at_risk_basis"};
}

CsvRow exposureFields(const std::optional<Exposure>& e)
{
    if (!e)
        return {"", "", ""};
    return {optionalNumber(e->maxBytes), e->maxSeconds ? number(*e->maxSeconds) : "", toString(e->basis)};
}

// A case under a memory limit: the limit and its memory cgroup's peak usage, page cache and dirty bytes;
// empty for other cases.
CsvRow budgetHeader()
{
    return {"memory_peak_bytes", "memory_peak_page_cache_bytes", "memory_peak_dirty_bytes"};
}

CsvRow budgetFields(const std::optional<MemoryBudgetUse>& b)
{
    if (!b)
        return {"", "", ""};
    return {std::to_string(b->peakBytes), std::to_string(b->peakPageCacheBytes),
            std::to_string(b->peakDirtyBytes)};
}

// Until steady: where the rate settled (the flat window's start, the bytes by then) and its rate; empty where
// it did not, or the case did not watch it.
CsvRow steadyHeader()
{
    return {"steady_from_s", "steady_from_bytes", "steady_MBps"};
}

CsvRow steadyFields(const std::optional<SteadyState>& s)
{
    if (!s)
        return {"", "", ""};
    return {number(s->fromSeconds), std::to_string(s->fromBytes), number(s->mbps)};
}

// The drive's heat: its temperature before and after the case, and how much its throttling counters rose
// (transitions and seconds) between the two readings; empty where it did not say.
CsvRow thermalHeader()
{
    return {"temp_before_c", "temp_after_c", "throttle_transitions", "throttle_s"};
}

CsvRow thermalFields(const CaseResult& c)
{
    const auto celsius = [](const std::optional<ThermalReading>& t) {
        return t && t->celsius ? number(*t->celsius) : std::string();
    };
    CsvRow row{celsius(c.thermalBefore), celsius(c.thermalAfter), "", ""};
    if (c.thermalBefore && c.thermalAfter) {
        if (const ThermalChange change = thermalChange(*c.thermalBefore, *c.thermalAfter);
            change.countersKnown) {
            row[2] = std::to_string(change.throttleTransitions);
            row[3] = std::to_string(change.throttleSeconds);
        }
    }
    return row;
}

// A read/write mix, each way: rate, IOPS and p99 latency (reads first); empty for other cases.
CsvRow mixHeader()
{
    return {"read_MBps", "read_iops", "read_p99_us", "write_MBps", "write_iops", "write_p99_us"};
}

CsvRow mixSideFields(double mbps, double iops, const std::optional<LatencySummary>& latency)
{
    return {number(mbps), number(iops),
            latency && latency->count > 0 ? microseconds(static_cast<double>(latency->p99Ns)) : ""};
}

CsvRow mixFields(const std::optional<MixFigures>& m)
{
    if (!m)
        return CsvRow(6);
    CsvRow row = mixSideFields(m->reads.mbps, m->reads.iops, m->reads.latency);
    const CsvRow writes = mixSideFields(m->writes.mbps, m->writes.iops, m->writes.latency);
    row.insert(row.end(), writes.begin(), writes.end());
    return row;
}

CsvRow caseMixFields(const std::optional<CaseMix>& m, bool ok)
{
    if (!m || !ok)
        return CsvRow(6);
    const auto p99 = [](const std::optional<LatencyDistribution>& d) {
        return d ? std::optional<LatencySummary>(d->summary) : std::nullopt;
    };
    CsvRow row = mixSideFields(m->readMBps.median, m->readIops.median, p99(m->readLatency));
    const CsvRow writes = mixSideFields(m->writeMBps.median, m->writeIops.median, p99(m->writeLatency));
    row.insert(row.end(), writes.begin(), writes.end());
    return row;
}

// io_uring's options in effect ("fixedbufs+registerfiles", "plain"); empty for other cases and older files.
std::string uringInEffectText(const std::optional<UringOptions>& inEffect)
{
    return inEffect ? toString(*inEffect) : std::string();
}

CsvRow joinRows(CsvRow head, const CsvRow& middle, const CsvRow& tail)
{
    head.insert(head.end(), middle.begin(), middle.end());
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
}

} // namespace

std::vector<CsvRow> repetitionRows(const RunResult& result)
{
    std::vector<CsvRow> rows;
    rows.push_back(joinRows({"case"}, caseHeader(),
                            {"case_status",
                             "repetition",
                             "warmup",
                             "status",
                             "failed_call",
                             "error_code",
                             "message",
                             "bytes",
                             "return_s",
                             "durable_s",
                             "apparent_MBps",
                             "durable_MBps",
                             "cpu_user_s",
                             "cpu_sys_s",
                             "peak_rss_bytes",
                             "device_written_bytes",
                             "device_read_bytes",
                             "verified",
                             "files",
                             "file_p50_ms",
                             "file_p99_ms",
                             "cached_bytes",
                             "cached_after_bytes",
                             "dirty_before_bytes",
                             "dirty_after_bytes"}));
    rows.front() =
        joinRows(joinRows(rows.front(), latencyHeader("lat"), latencyHeader("sync")), exposureHeader(),
                 joinRows(budgetHeader(), steadyHeader(), joinRows({"uring_in_effect"}, mixHeader(), {})));
    for (const auto& c : result.cases) {
        const auto& k = c.testCase;
        const CsvRow base = joinRows({std::to_string(c.index + 1)}, caseFields(k), {toString(c.status)});
        if (c.repetitions.empty()) {
            CsvRow row = joinRows(base, {"", "", toString(c.status), "", "", c.reason}, {});
            row.resize(rows.front().size()); // no figures for a case without repetitions
            rows.push_back(std::move(row));
            continue;
        }
        for (const auto& r : c.repetitions) {
            CsvRow row = base;
            row.insert(row.end(), {std::to_string(r.index),
                                   r.warmup ? "1" : "0",
                                   toString(r.outcome.status),
                                   r.outcome.operation,
                                   std::to_string(r.outcome.errorCode),
                                   r.outcome.message,
                                   std::to_string(r.bytes),
                                   number(r.returnSeconds),
                                   number(r.durableSeconds),
                                   number(r.apparentMBps),
                                   number(r.durableMBps),
                                   number(r.cpuUserSeconds),
                                   number(r.cpuSystemSeconds),
                                   std::to_string(r.peakRssBytes),
                                   r.deviceObserved ? std::to_string(r.deviceWrittenBytes) : "",
                                   r.deviceObserved ? std::to_string(r.deviceReadBytes) : "",
                                   r.verified ? "1" : "0",
                                   r.files > 0 ? std::to_string(r.files) : "",
                                   r.files > 0 ? milliseconds(r.fileP50Seconds) : "",
                                   r.files > 0 ? milliseconds(r.fileP99Seconds) : "",
                                   optionalNumber(r.cachedBytes),
                                   optionalNumber(r.cachedAfterBytes),
                                   optionalNumber(r.dirtyBeforeBytes),
                                   optionalNumber(r.dirtyAfterBytes)});
            row = joinRows(joinRows(row, latencyFields(r.callLatency), latencyFields(r.syncLatency)),
                           exposureFields(r.atRisk),
                           joinRows(budgetFields(r.memoryBudget), steadyFields(r.steady),
                                    joinRows({uringInEffectText(r.uringInEffect)}, mixFields(r.mix), {})));
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

std::vector<CsvRow> summaryRows(const RunResult& result)
{
    std::vector<CsvRow> rows;
    rows.push_back(joinRows({"case"}, caseHeader(),
                            {"status", "reason", "repetitions", "median_MBps", "trimmed_mean_MBps",
                             "ci95_low_MBps", "ci95_high_MBps", "cv_pct", "durable_MBps", "speedup_vs_stdio",
                             "cpu_s_per_GiB", "peak_rss_bytes", "stability_MBps", "files_per_s",
                             "file_p50_ms", "file_p99_ms", "cache_method", "iops", "latency"}));
    rows.front() =
        joinRows(joinRows(rows.front(), latencyHeader("lat"), latencyHeader("sync")), exposureHeader(),
                 joinRows(budgetHeader(), thermalHeader(), joinRows({"uring_in_effect"}, mixHeader(), {})));
    for (std::size_t i = 0; i < result.cases.size(); ++i) {
        const auto& c = result.cases[i];
        const auto& k = c.testCase;
        const bool ok = c.status == Status::Ok && c.apparentMBps.count > 0;
        // Speed-up by the rate cases are ranked by: durable for file writes, the one rate otherwise.
        std::string speedup;
        if (const auto base = baselineCase(result, i); ok && base)
            speedup = number(rankedRate(c, Ranking::Durable).median /
                             rankedRate(result.cases[*base], Ranking::Durable).median);
        rows.push_back(joinRows(
            {std::to_string(c.index + 1)}, caseFields(k),
            {toString(c.status), c.reason, std::to_string(c.apparentMBps.count),
             ok ? number(c.apparentMBps.median) : "",
             ok && c.apparentMBps.count >= kTrimmedMeanMinCount ? number(c.apparentMBps.trimmedMean) : "",
             ok && c.apparentMBps.count > 1 ? number(std::max(0.0, c.apparentMBps.ciLow)) : "",
             ok && c.apparentMBps.count > 1 ? number(c.apparentMBps.ciHigh) : "",
             ok ? number(c.apparentMBps.cv * 100) : "", ok ? number(c.durableMBps.median) : "", speedup,
             ok ? number(c.cpuSecondsPerGiB) : "", std::to_string(c.peakRssBytes),
             ok ? number(c.stabilityMBps) : "",
             ok && c.filesPerSecond.count > 0 ? number(c.filesPerSecond.median) : "",
             ok && c.filesPerSecond.count > 0 ? milliseconds(c.fileP50Seconds) : "",
             ok && c.filesPerSecond.count > 0 ? milliseconds(c.fileP99Seconds) : "", c.cacheMethod,
             ok && k.chunkBytes > 0 && c.filesPerSecond.count == 0
                 ? number(c.apparentMBps.median * 1e6 / static_cast<double>(k.chunkBytes))
                 : "",
             c.latencyChoice}));
        rows.back() = joinRows(rows.back(), latencyFields(ok ? summaryOf(c.callLatency) : std::nullopt),
                               latencyFields(ok ? summaryOf(c.syncLatency) : std::nullopt));
        rows.back() =
            joinRows(rows.back(), exposureFields(ok ? c.atRisk : std::nullopt),
                     joinRows(budgetFields(c.memoryBudget), thermalFields(c),
                              joinRows({uringInEffectText(c.uringInEffect)}, caseMixFields(c.mix, ok), {})));
    }
    for (const auto& r : result.refused) {
        const auto& k = r.testCase;
        CsvRow row = joinRows({""}, caseFields(k), {"refused", r.reason, "0"});
        row.resize(rows.front().size()); // no figures for a case that did not run
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<CsvRow> sampleRows(const RunResult& result)
{
    std::vector<CsvRow> rows;
    rows.push_back({"case",
                    "repetition",
                    "warmup",
                    "run_s",
                    "bytes_done",
                    "interval_MBps",
                    "cpu_user_pct",
                    "cpu_sys_pct",
                    "rss_bytes",
                    "dirty_bytes",
                    "writeback_bytes",
                    "device_read_bytes",
                    "device_written_bytes",
                    "device_write_MBps",
                    "device_read_MBps",
                    "syncing",
                    "at_risk_bytes",
                    "memory_cgroup_bytes",
                    "memory_cgroup_page_cache_bytes",
                    "memory_cgroup_dirty_bytes",
                    "memory_cgroup_writeback_bytes"});
    for (const auto& c : result.cases) {
        for (const auto& s : c.samples) {
            rows.push_back({std::to_string(s.caseIndex + 1),
                            std::to_string(s.repetition),
                            s.warmup ? "1" : "0",
                            number(s.runSeconds),
                            std::to_string(s.bytesDone),
                            number(s.intervalMBps),
                            number(s.cpuUserPercent),
                            number(s.cpuSystemPercent),
                            std::to_string(s.rssBytes),
                            std::to_string(s.dirtyBytes),
                            std::to_string(s.writebackBytes),
                            std::to_string(s.deviceReadBytes),
                            std::to_string(s.deviceWrittenBytes),
                            number(s.deviceWriteMBps),
                            number(s.deviceReadMBps),
                            s.syncing ? "1" : "0",
                            std::to_string(s.atRiskBytes),
                            std::to_string(s.budgetUsageBytes),
                            std::to_string(s.budgetPageCacheBytes),
                            std::to_string(s.budgetDirtyBytes),
                            std::to_string(s.budgetWritebackBytes)});
        }
    }
    return rows;
}

std::string toCsv(const std::vector<CsvRow>& rows)
{
    std::string text;
    for (const auto& row : rows)
        text += csvRecord(row);
    return text;
}

std::string siblingCsvPath(const std::string& csvPath, std::string_view part)
{
    constexpr std::string_view ext = ".csv";
    const std::string stem = csvPath.size() > ext.size() && csvPath.ends_with(ext)
                                 ? csvPath.substr(0, csvPath.size() - ext.size())
                                 : csvPath;
    return fmt::format("{}.{}.csv", stem, part);
}

std::string samplesCsvPath(const std::string& csvPath)
{
    return siblingCsvPath(csvPath, "samples");
}

std::string summaryCsvPath(const std::string& csvPath)
{
    return siblingCsvPath(csvPath, "summary");
}

std::vector<CsvFile> resultCsvFiles(const RunResult& result, const std::string& csvPath)
{
    return {{csvPath, toCsv(repetitionRows(result))},
            {summaryCsvPath(csvPath), toCsv(summaryRows(result))},
            {samplesCsvPath(csvPath), toCsv(sampleRows(result))}};
}

} // namespace iolab
