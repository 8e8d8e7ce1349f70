// SPDX-License-Identifier: MIT
#include "core/formats/result_json.h"

#include "core/base/error.h"
#include "core/base/units.h"
#include "core/formats/c_program.h"
#include "core/formats/diskspd_job.h"
#include "core/formats/fio_job.h"
#include "core/formats/matrix_json.h"
#include "core/model/axes.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace iolab {

using nlohmann::json;

void to_json(json& j, const Summary& s)
{
    j = json{{"count", s.count},   {"median", s.median},          {"mean", s.mean}, {"min", s.min},
             {"max", s.max},       {"stddev", s.stddev},          {"cv", s.cv},     {"ciLow", s.ciLow},
             {"ciHigh", s.ciHigh}, {"trimmedMean", s.trimmedMean}};
}

void from_json(const json& j, Summary& s)
{
    j.at("count").get_to(s.count);
    j.at("median").get_to(s.median);
    j.at("mean").get_to(s.mean);
    j.at("min").get_to(s.min);
    j.at("max").get_to(s.max);
    j.at("stddev").get_to(s.stddev);
    j.at("cv").get_to(s.cv);
    j.at("ciLow").get_to(s.ciLow);
    j.at("ciHigh").get_to(s.ciHigh);
    // Files written before the trimmed mean existed: recomputed from min, max and mean, which is exact.
    if (j.contains("trimmedMean"))
        j.at("trimmedMean").get_to(s.trimmedMean);
    else if (s.count >= 3)
        s.trimmedMean =
            (s.mean * static_cast<double>(s.count) - s.min - s.max) / static_cast<double>(s.count - 2);
    else
        s.trimmedMean = s.mean;
}
// WITH_DEFAULT: keys added later (deviceReadMBps, dropCaches) take their defaults in older files.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Sample, runSeconds, caseIndex, repetition, warmup, bytesDone,
                                                intervalMBps, cpuUserPercent, cpuSystemPercent, rssBytes,
                                                dirtyBytes, writebackBytes, deviceReadBytes,
                                                deviceWrittenBytes, deviceWriteMBps, deviceReadMBps, syncing,
                                                atRiskBytes, budgetUsageBytes, budgetPageCacheBytes,
                                                budgetDirtyBytes, budgetWritebackBytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MemoryBudgetUse, limitBytes, peakBytes, peakPageCacheBytes,
                                                peakDirtyBytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ReplayRecord, program, recordedInsideSeconds, calls,
                                                writeCalls, syncCalls, bytesWritten)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(HostInfo, hostname, os, kernel, cpuModel, logicalCpus, ramBytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(RunOptions, repetitions, warmups, verifyFiles, verifyPipes,
                                                sampling, sampleIntervalMs, spaceCheck, dropCaches,
                                                crashProbe, crashProbeSeed, alternate)

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Fact, id, label, value, unknownWhy, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FactSection, title, facts)

void to_json(json& j, const StorageLayer& l)
{
    j = json{{"kind", toString(l.kind)}, {"name", l.name}, {"detail", l.detail}};
}

void from_json(const json& j, StorageLayer& l)
{
    l.kind = layerKindFromString(j.at("kind").get<std::string>());
    j.at("name").get_to(l.name);
    l.detail = j.value("detail", std::string());
}

void to_json(json& j, const SystemFacts& f)
{
    j = json{{"stack", f.stack},
             {"deviceClass", toString(f.deviceClass)},
             {"sections", f.sections},
             {"gatherMilliseconds", f.gatherMilliseconds}};
}

void from_json(const json& j, SystemFacts& f)
{
    f.gathered = true;
    j.at("stack").get_to(f.stack);
    f.deviceClass = deviceClassFromString(j.at("deviceClass").get<std::string>());
    j.at("sections").get_to(f.sections);
    f.gatherMilliseconds = j.value("gatherMilliseconds", 0.0);
}

void to_json(json& j, const Outcome& o)
{
    j = json{{"status", toString(o.status)},
             {"errorCode", o.errorCode},
             {"operation", o.operation},
             {"message", o.message}};
}

void from_json(const json& j, Outcome& o)
{
    o.status = parseStatus(j.at("status").get<std::string>());
    j.at("errorCode").get_to(o.errorCode);
    j.at("operation").get_to(o.operation);
    j.at("message").get_to(o.message);
}

namespace {

json optionalJson(const std::optional<std::uint64_t>& value)
{
    return value ? json(*value) : json(nullptr);
}

std::optional<std::uint64_t> optionalBytes(const json& j, const char* key)
{
    if (const auto it = j.find(key); it != j.end() && !it->is_null())
        return it->get<std::uint64_t>();
    return std::nullopt;
}

// Power-loss exposure (issue 17): absent from older files; a figure the case could not tell is null.
json exposureJson(const Exposure& e)
{
    return json{{"maxBytes", optionalJson(e.maxBytes)},
                {"maxSeconds", e.maxSeconds ? json(*e.maxSeconds) : json(nullptr)},
                {"basis", toString(e.basis)},
                {"method", e.method}};
}

Exposure exposureFromJson(const json& j)
{
    Exposure e;
    e.maxBytes = optionalBytes(j, "maxBytes");
    if (const auto it = j.find("maxSeconds"); it != j.end() && !it->is_null())
        e.maxSeconds = it->get<double>();
    e.basis = parseExposureBasis(j.value("basis", std::string("exact")));
    e.method = j.value("method", std::string());
    return e;
}

json summaryJson(const LatencySummary& s)
{
    return json{{"count", s.count},   {"meanNs", s.meanNs},   {"minNs", s.minNs},
                {"p50Ns", s.p50Ns},   {"p90Ns", s.p90Ns},     {"p99Ns", s.p99Ns},
                {"p999Ns", s.p999Ns}, {"p9999Ns", s.p9999Ns}, {"maxNs", s.maxNs}};
}

LatencySummary summaryFromJson(const json& j)
{
    LatencySummary s;
    j.at("count").get_to(s.count);
    j.at("meanNs").get_to(s.meanNs);
    j.at("minNs").get_to(s.minNs);
    j.at("p50Ns").get_to(s.p50Ns);
    j.at("p90Ns").get_to(s.p90Ns);
    j.at("p99Ns").get_to(s.p99Ns);
    j.at("p999Ns").get_to(s.p999Ns);
    j.at("p9999Ns").get_to(s.p9999Ns);
    j.at("maxNs").get_to(s.maxNs);
    return s;
}

// A case's merged histogram: its summary and its non-empty buckets as [low, high, count] in nanoseconds.
json distributionJson(const LatencyDistribution& d)
{
    json buckets = json::array();
    for (const auto& b : d.buckets)
        buckets.push_back(json::array({b.lowNs, b.highNs, b.count}));
    json j = summaryJson(d.summary);
    j["buckets"] = std::move(buckets);
    return j;
}

LatencyDistribution distributionFromJson(const json& j)
{
    LatencyDistribution d;
    d.summary = summaryFromJson(j);
    for (const auto& b : j.at("buckets"))
        d.buckets.push_back(
            {b.at(0).get<std::uint64_t>(), b.at(1).get<std::uint64_t>(), b.at(2).get<std::uint64_t>()});
    std::string problem;
    if (!LatencyHistogram::fromDistribution(d, &problem))
        throw InputError(problem);
    return d;
}

// A read/write mix, each way: requests, bytes, rate, IOPS and, where timed, latency.
json mixSideJson(const MixSide& side)
{
    json j{{"ops", side.ops}, {"bytes", side.bytes}, {"mbps", side.mbps}, {"iops", side.iops}};
    if (side.latency)
        j["latency"] = summaryJson(*side.latency);
    return j;
}

MixSide mixSideFromJson(const json& j)
{
    MixSide side;
    j.at("ops").get_to(side.ops);
    j.at("bytes").get_to(side.bytes);
    j.at("mbps").get_to(side.mbps);
    j.at("iops").get_to(side.iops);
    if (const auto it = j.find("latency"); it != j.end())
        side.latency = summaryFromJson(*it);
    return side;
}

json caseMixJson(const CaseMix& mix)
{
    json j{{"readMBps", mix.readMBps},   {"writeMBps", mix.writeMBps}, {"readIops", mix.readIops},
           {"writeIops", mix.writeIops}, {"readOps", mix.readOps},     {"writeOps", mix.writeOps}};
    if (mix.readLatency)
        j["readLatency"] = distributionJson(*mix.readLatency);
    if (mix.writeLatency)
        j["writeLatency"] = distributionJson(*mix.writeLatency);
    return j;
}

CaseMix caseMixFromJson(const json& j)
{
    CaseMix mix;
    j.at("readMBps").get_to(mix.readMBps);
    j.at("writeMBps").get_to(mix.writeMBps);
    j.at("readIops").get_to(mix.readIops);
    j.at("writeIops").get_to(mix.writeIops);
    j.at("readOps").get_to(mix.readOps);
    j.at("writeOps").get_to(mix.writeOps);
    if (const auto it = j.find("readLatency"); it != j.end())
        mix.readLatency = distributionFromJson(*it);
    if (const auto it = j.find("writeLatency"); it != j.end())
        mix.writeLatency = distributionFromJson(*it);
    return mix;
}

} // namespace

void to_json(json& j, const RepetitionResult& r)
{
    j = json{{"index", r.index},
             {"warmup", r.warmup},
             {"outcome", r.outcome},
             {"bytes", r.bytes},
             {"returnSeconds", r.returnSeconds},
             {"durableSeconds", r.durableSeconds},
             {"apparentMBps", r.apparentMBps},
             {"durableMBps", r.durableMBps},
             {"cpuUserSeconds", r.cpuUserSeconds},
             {"cpuSystemSeconds", r.cpuSystemSeconds},
             {"peakRssBytes", r.peakRssBytes},
             {"deviceObserved", r.deviceObserved},
             {"deviceWrittenBytes", r.deviceWrittenBytes},
             {"deviceReadBytes", r.deviceReadBytes},
             {"verified", r.verified},
             {"files", r.files},
             {"fileP50Seconds", r.fileP50Seconds},
             {"fileP99Seconds", r.fileP99Seconds},
             {"cachedBytes", optionalJson(r.cachedBytes)}};
    // Page-cache evidence of file writes (absent from older files; only written when known).
    for (const auto& [key, value] : {std::pair{"cachedAfterBytes", &r.cachedAfterBytes},
                                     std::pair{"dirtyBeforeBytes", &r.dirtyBeforeBytes},
                                     std::pair{"dirtyAfterBytes", &r.dirtyAfterBytes}}) {
        if (*value)
            j[key] = **value;
    }
    if (r.timeLimitReached) // only cases with a time limit can; absent from older files
        j["timeLimitReached"] = true;
    if (r.callLatency)
        j["callLatency"] = summaryJson(*r.callLatency);
    if (r.syncLatency)
        j["syncLatency"] = summaryJson(*r.syncLatency);
    if (r.atRisk)
        j["atRisk"] = exposureJson(*r.atRisk);
    if (r.memoryBudget)
        j["memoryBudget"] = *r.memoryBudget;
    if (r.insideSeconds) {
        j["insideSeconds"] = *r.insideSeconds;
        j["replayedCalls"] = r.replayedCalls;
    }
    if (r.steady) // until steady, where the rate settled; absent from older files
        j["steady"] =
            json{{"fromSeconds", r.steady->fromSeconds},       {"fromBytes", r.steady->fromBytes},
                 {"reachedSeconds", r.steady->reachedSeconds}, {"mbps", r.steady->mbps},
                 {"fastestMBps", r.steady->fastestMBps},       {"deviceRate", r.steady->deviceRate}};
    if (r.mix) // a read/write mix's two ways; absent from other cases and older files
        j["mix"] = json{{"reads", mixSideJson(r.mix->reads)}, {"writes", mixSideJson(r.mix->writes)}};
    if (r.uringInEffect) // io_uring's options the kernel gave; absent for other cases and older files
        j["uringInEffect"] = toString(*r.uringInEffect);
}

void from_json(const json& j, RepetitionResult& r)
{
    j.at("index").get_to(r.index);
    j.at("warmup").get_to(r.warmup);
    j.at("outcome").get_to(r.outcome);
    j.at("bytes").get_to(r.bytes);
    j.at("returnSeconds").get_to(r.returnSeconds);
    j.at("durableSeconds").get_to(r.durableSeconds);
    j.at("apparentMBps").get_to(r.apparentMBps);
    j.at("durableMBps").get_to(r.durableMBps);
    j.at("cpuUserSeconds").get_to(r.cpuUserSeconds);
    j.at("cpuSystemSeconds").get_to(r.cpuSystemSeconds);
    j.at("peakRssBytes").get_to(r.peakRssBytes);
    j.at("deviceObserved").get_to(r.deviceObserved);
    j.at("deviceWrittenBytes").get_to(r.deviceWrittenBytes);
    j.at("deviceReadBytes").get_to(r.deviceReadBytes);
    j.at("verified").get_to(r.verified);
    r.timeLimitReached = j.value("timeLimitReached", false);
    r.files = j.value("files", std::uint64_t{0});
    r.fileP50Seconds = j.value("fileP50Seconds", 0.0);
    r.fileP99Seconds = j.value("fileP99Seconds", 0.0);
    r.cachedBytes = optionalBytes(j, "cachedBytes");
    r.cachedAfterBytes = optionalBytes(j, "cachedAfterBytes");
    r.dirtyBeforeBytes = optionalBytes(j, "dirtyBeforeBytes");
    r.dirtyAfterBytes = optionalBytes(j, "dirtyAfterBytes");
    if (const auto it = j.find("callLatency"); it != j.end())
        r.callLatency = summaryFromJson(*it);
    if (const auto it = j.find("syncLatency"); it != j.end())
        r.syncLatency = summaryFromJson(*it);
    if (const auto it = j.find("atRisk"); it != j.end())
        r.atRisk = exposureFromJson(*it);
    if (const auto it = j.find("memoryBudget"); it != j.end())
        r.memoryBudget = it->get<MemoryBudgetUse>();
    if (const auto it = j.find("insideSeconds"); it != j.end()) {
        r.insideSeconds = it->get<double>();
        r.replayedCalls = j.value("replayedCalls", std::uint64_t{0});
    }
    if (const auto it = j.find("uringInEffect"); it != j.end())
        r.uringInEffect = parseUringOptions(it->get<std::string>());
    if (const auto it = j.find("steady"); it != j.end()) {
        SteadyState steady;
        it->at("fromSeconds").get_to(steady.fromSeconds);
        it->at("fromBytes").get_to(steady.fromBytes);
        it->at("reachedSeconds").get_to(steady.reachedSeconds);
        it->at("mbps").get_to(steady.mbps);
        it->at("fastestMBps").get_to(steady.fastestMBps);
        it->at("deviceRate").get_to(steady.deviceRate);
        r.steady = steady;
    }
    if (const auto it = j.find("mix"); it != j.end())
        r.mix = MixFigures{mixSideFromJson(it->at("reads")), mixSideFromJson(it->at("writes"))};
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KillCheck, killAfterSeconds, pointBytes, landed, exit,
                                                acknowledgedBytes, presentBytes, lostBytes, beyondBytes,
                                                wrongBytes, scratchBytes)

void to_json(json& j, const UserSpaceHold& h)
{
    j = json{{"kind", toString(h.kind)}, {"bufferBytes", h.bufferBytes},
             {"heldBytes", h.heldBytes}, {"writers", h.writers},
             {"what", h.what},           {"why", h.why}};
}

void from_json(const json& j, UserSpaceHold& h)
{
    h.kind = parseUserSpaceHoldKind(j.at("kind").get<std::string>());
    j.at("bufferBytes").get_to(h.bufferBytes);
    j.at("heldBytes").get_to(h.heldBytes);
    j.at("writers").get_to(h.writers);
    j.at("what").get_to(h.what);
    j.at("why").get_to(h.why);
}

void to_json(json& j, const CrashProbeResult& p)
{
    j = json{{"seed", p.seed}, {"at", toString(p.at)}, {"kills", p.kills}, {"failure", p.failure}};
    if (p.hold)
        j["hold"] = *p.hold;
}

void from_json(const json& j, CrashProbeResult& p)
{
    j.at("seed").get_to(p.seed);
    // Probes from before issue 34 killed at a moment and did not record the strategy's design.
    p.at = parseCrashProbeAt(j.value("at", std::string("time")));
    if (const auto it = j.find("hold"); it != j.end())
        p.hold = it->get<UserSpaceHold>();
    j.at("kills").get_to(p.kills);
    p.failure = j.value("failure", std::string());
}

// A drive's heat: only the figures it gave.
json thermalJson(const ThermalReading& t)
{
    json j{{"source", t.source}};
    const auto put = [&j](const char* key, const auto& value) {
        if (value)
            j[key] = *value;
    };
    put("celsius", t.celsius);
    put("warningCelsius", t.warningCelsius);
    put("criticalCelsius", t.criticalCelsius);
    put("warningMinutes", t.warningMinutes);
    put("criticalMinutes", t.criticalMinutes);
    put("lightThrottleTransitions", t.lightThrottleTransitions);
    put("heavyThrottleTransitions", t.heavyThrottleTransitions);
    put("lightThrottleSeconds", t.lightThrottleSeconds);
    put("heavyThrottleSeconds", t.heavyThrottleSeconds);
    return j;
}

ThermalReading thermalFromJson(const json& j)
{
    ThermalReading t;
    t.source = j.value("source", std::string());
    const auto get = [&j](const char* key, auto& value) {
        if (const auto it = j.find(key); it != j.end())
            value = it->get<typename std::remove_reference_t<decltype(value)>::value_type>();
    };
    get("celsius", t.celsius);
    get("warningCelsius", t.warningCelsius);
    get("criticalCelsius", t.criticalCelsius);
    get("warningMinutes", t.warningMinutes);
    get("criticalMinutes", t.criticalMinutes);
    get("lightThrottleTransitions", t.lightThrottleTransitions);
    get("heavyThrottleTransitions", t.heavyThrottleTransitions);
    get("lightThrottleSeconds", t.lightThrottleSeconds);
    get("heavyThrottleSeconds", t.heavyThrottleSeconds);
    return t;
}

void to_json(json& j, const CaseResult& c)
{
    j = json{{"index", c.index},
             {"case", caseToJson(c.testCase)},
             {"status", toString(c.status)},
             {"reason", c.reason},
             {"repetitions", c.repetitions},
             {"apparentMBps", c.apparentMBps},
             {"durableMBps", c.durableMBps},
             {"stabilityMBps", c.stabilityMBps},
             {"cpuSecondsPerGiB", c.cpuSecondsPerGiB},
             {"peakRssBytes", c.peakRssBytes},
             {"samples", c.samples},
             {"cacheMethod", c.cacheMethod},
             {"dataSetBytes", c.dataSetBytes},
             {"filesPerSecond", c.filesPerSecond},
             {"fileP50Seconds", c.fileP50Seconds},
             {"fileP99Seconds", c.fileP99Seconds},
             {"latencyChoice", c.latencyChoice}};
    if (c.callLatency)
        j["callLatency"] = distributionJson(*c.callLatency);
    if (c.syncLatency)
        j["syncLatency"] = distributionJson(*c.syncLatency);
    if (c.crashProbe)
        j["crashProbe"] = *c.crashProbe;
    if (c.atRisk)
        j["atRisk"] = exposureJson(*c.atRisk);
    if (c.memoryBudget)
        j["memoryBudget"] = *c.memoryBudget;
    if (c.replay)
        j["replay"] = *c.replay;
    if (c.wallSeconds)
        j["wallSeconds"] = *c.wallSeconds;
    if (c.thermalBefore) // the drive's heat, where it says (absent from older files)
        j["thermalBefore"] = thermalJson(*c.thermalBefore);
    if (c.thermalAfter)
        j["thermalAfter"] = thermalJson(*c.thermalAfter);
    if (c.mix)
        j["mix"] = caseMixJson(*c.mix);
    if (c.uringInEffect) // io_uring's options the kernel gave; absent for other cases and older files
        j["uringInEffect"] = toString(*c.uringInEffect);
}

void from_json(const json& j, CaseResult& c)
{
    j.at("index").get_to(c.index);
    c.testCase = caseFromJson(j.at("case"));
    c.status = parseStatus(j.at("status").get<std::string>());
    j.at("reason").get_to(c.reason);
    j.at("repetitions").get_to(c.repetitions);
    j.at("apparentMBps").get_to(c.apparentMBps);
    j.at("durableMBps").get_to(c.durableMBps);
    j.at("stabilityMBps").get_to(c.stabilityMBps);
    j.at("cpuSecondsPerGiB").get_to(c.cpuSecondsPerGiB);
    j.at("peakRssBytes").get_to(c.peakRssBytes);
    j.at("samples").get_to(c.samples);
    c.cacheMethod = j.value("cacheMethod", std::string());
    c.dataSetBytes = j.value("dataSetBytes", std::uint64_t{0});
    if (const auto it = j.find("filesPerSecond"); it != j.end())
        it->get_to(c.filesPerSecond);
    c.fileP50Seconds = j.value("fileP50Seconds", 0.0);
    c.fileP99Seconds = j.value("fileP99Seconds", 0.0);
    c.latencyChoice = j.value("latencyChoice", std::string()); // absent before schema 2
    if (const auto it = j.find("callLatency"); it != j.end())
        c.callLatency = distributionFromJson(*it);
    if (const auto it = j.find("syncLatency"); it != j.end())
        c.syncLatency = distributionFromJson(*it);
    if (const auto it = j.find("crashProbe"); it != j.end())
        c.crashProbe = it->get<CrashProbeResult>();
    if (const auto it = j.find("atRisk"); it != j.end())
        c.atRisk = exposureFromJson(*it);
    if (const auto it = j.find("memoryBudget"); it != j.end())
        c.memoryBudget = it->get<MemoryBudgetUse>();
    if (const auto it = j.find("replay"); it != j.end())
        c.replay = it->get<ReplayRecord>();
    if (const auto it = j.find("wallSeconds"); it != j.end())
        c.wallSeconds = it->get<double>();
    if (const auto it = j.find("thermalBefore"); it != j.end())
        c.thermalBefore = thermalFromJson(*it);
    if (const auto it = j.find("thermalAfter"); it != j.end())
        c.thermalAfter = thermalFromJson(*it);
    if (const auto it = j.find("mix"); it != j.end())
        c.mix = caseMixFromJson(*it);
    if (const auto it = j.find("uringInEffect"); it != j.end())
        c.uringInEffect = parseUringOptions(it->get<std::string>());
}

json resultToJson(const RunResult& r)
{
    json refused = json::array();
    for (const auto& item : r.refused)
        refused.push_back(json{{"case", caseToJson(item.testCase)}, {"reason", item.reason}});
    json out{{"schema", r.schema},
             {"toolVersion", r.toolVersion},
             {"startedAt", r.startedAt},
             {"finishedAt", r.finishedAt},
             {"host", r.host},
             {"target", r.target},
             {"matrix", matrixToJson(r.matrix)},
             {"options", r.options},
             {"refused", refused},
             {"cases", r.cases},
             {"cancelled", r.cancelled}};
    // Only with a probe, so that results without one read and save as before.
    if (r.options.crashProbe != 0)
        out["options"]["crashProbeAt"] = toString(r.options.crashProbeAt);
    // Each case to rerun elsewhere: a fio job, a DiskSpd command line and a standalone C program
    // (core/formats/fio_job.h, diskspd_job.h, c_program.h); written for people and other tools, never read
    // back.
    for (std::size_t i = 0; i < r.cases.size(); ++i) {
        const FioJob job = fioJobOf(r, i);
        out["cases"][i]["fioJob"] = json{{"equivalent", job.equivalent}, {"text", job.text}};
        const DiskspdJob diskspd = diskspdJobOf(r, i);
        out["cases"][i]["diskspd"] = json{{"equivalent", diskspd.equivalent}, {"text", diskspd.text}};
        const CProgram program = cProgramOf(r, i);
        out["cases"][i]["cProgram"] = json{
            {"available", program.available}, {"text", program.text}, {"buildCommand", program.buildCommand}};
    }
    if (!r.warnings.empty())
        out["warnings"] = r.warnings;
    if (!r.programAdvice.empty())
        out["programAdvice"] = r.programAdvice;
    if (r.redacted)
        out["redacted"] = true;
    if (r.system.gathered)
        out["system"] = r.system;
    return out;
}

RunResult resultFromJson(std::string_view text, std::string_view sourceName)
{
    json j = parseJsonDocument(text, sourceName);
    if (!j.is_object() || !j.contains("schema") || !j["schema"].is_string())
        throw InputError(fmt::format("{}: not an IOLab result (no \"schema\" field)", sourceName));
    const auto schema = j["schema"].get<std::string>();
    if (schema != kResultSchema && schema != kResultSchemaV1) {
        if (schema.starts_with("iolab.result/"))
            throw InputError(
                fmt::format("{}: written with result schema {}, this IOLab reads {}; a newer IOLab "
                            "is needed",
                            sourceName, schema, kResultSchema));
        throw InputError(fmt::format("{}: unknown schema '{}'", sourceName, schema));
    }
    try {
        RunResult r;
        r.schema = kResultSchema; // a version 1 file reads as a version 2 result without latency
        j.at("toolVersion").get_to(r.toolVersion);
        j.at("startedAt").get_to(r.startedAt);
        j.at("finishedAt").get_to(r.finishedAt);
        j.at("host").get_to(r.host);
        j.at("target").get_to(r.target);
        r.matrix = matrixFromJson(j.at("matrix"), sourceName);
        j.at("options").get_to(r.options);
        // A probe from before issue 34 killed at moments.
        if (r.options.crashProbe != 0)
            r.options.crashProbeAt =
                parseCrashProbeAt(j.at("options").value("crashProbeAt", std::string("time")));
        for (const auto& item : j.at("refused"))
            r.refused.push_back({caseFromJson(item.at("case")), item.at("reason").get<std::string>()});
        j.at("cases").get_to(r.cases);
        j.at("cancelled").get_to(r.cancelled);
        if (j.contains("warnings"))
            j.at("warnings").get_to(r.warnings); // results written before run warnings existed have none
        if (j.contains("system"))
            j.at("system").get_to(r.system); // nor system facts before issue 18
        if (j.contains("programAdvice"))
            j.at("programAdvice").get_to(r.programAdvice); // only a run of a program's ways has it
        r.redacted = j.value("redacted", false);
        return r;
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: damaged result file: {}", sourceName, e.what()));
    } catch (const json::exception& e) {
        std::string detail = e.what();
        if (const auto bracket = detail.find("] "); bracket != std::string::npos)
            detail = detail.substr(bracket + 2);
        throw InputError(fmt::format("{}: damaged result file: {}", sourceName, detail));
    }
}

} // namespace iolab
