// SPDX-License-Identifier: MIT
#include "app/cli/cli.h"

#include "app/cli/axis_flags.h"
#include "app/cli/console_observer.h"
#include "app/cli/record_command.h"
#include "app/common/concurrent_runs.h"
#include "app/common/plan_runner.h"
#include "app/common/recording.h"
#include "core/analysis/cdm_grid.h"
#include "core/analysis/estimate.h"
#include "core/analysis/memory_budget_table.h"
#include "core/analysis/program_advice.h"
#include "core/analysis/sync_lab.h"
#include "core/analysis/verdict.h"
#include "core/analysis/warnings.h"
#include "core/base/error.h"
#include "core/base/log.h"
#include "core/base/units.h"
#include "core/engine/crash_probe.h"
#include "core/engine/registry.h"
#include "core/engine/replay_script.h"
#include "core/engine/replay_variants.h"
#include "core/engine/runner.h"
#include "core/formats/c_program.h"
#include "core/formats/diskspd_job.h"
#include "core/formats/facts_text.h"
#include "core/formats/fio_job.h"
#include "core/formats/matrix_json.h"
#include "core/formats/presets.h"
#include "core/formats/result_csv.h"
#include "core/formats/result_json.h"
#include "core/formats/result_prometheus.h"
#include "core/formats/result_redact.h"
#include "core/model/axes.h"
#include "core/model/replay.h"
#include "core/version.h"
#include "platform/calibration.h"
#include "platform/platform.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <stop_token>
#include <thread>

namespace iolab::cli {

namespace {

constexpr std::uint32_t kMaxWarmups = 100;

// Set by the signal handler, read by the watcher thread: a lock-free atomic is safe for both.
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void onInterrupt(int)
{
    g_interrupted.store(true, std::memory_order_relaxed);
}

// Ctrl-C (and Ctrl+Break on Windows) and SIGTERM only set g_interrupted while a run command is under way,
// from before the target is probed (the probe writes a file) to the end; the previous handlers come back on
// every way out.
class InterruptHandlers
{
public:
    InterruptHandlers()
    {
        g_interrupted.store(false);
        m_previousInt = std::signal(SIGINT, onInterrupt);
        m_previousTerm = std::signal(SIGTERM, onInterrupt);
#ifdef SIGBREAK // a Windows console's Ctrl+Break, which reaches a program's own process group
        m_previousBreak = std::signal(SIGBREAK, onInterrupt);
#endif
    }
    ~InterruptHandlers()
    {
        std::signal(SIGINT, m_previousInt);
        std::signal(SIGTERM, m_previousTerm);
#ifdef SIGBREAK
        std::signal(SIGBREAK, m_previousBreak);
#endif
    }
    InterruptHandlers(const InterruptHandlers&) = delete;
    InterruptHandlers& operator=(const InterruptHandlers&) = delete;

private:
    void (*m_previousInt)(int) = SIG_DFL;
    void (*m_previousTerm)(int) = SIG_DFL;
#ifdef SIGBREAK
    void (*m_previousBreak)(int) = SIG_DFL;
#endif
};

struct RunArgs
{
    std::string target;
    std::string preset;
    std::string matrixFile;
    std::vector<std::string> replays; // --replay TRACE: a recorded program's calls re-issued
    AxisFlagValues axes;              // --strategy, --chunk, --size and every other case axis's flag
    bool dropCaches = false;
    std::optional<std::uint32_t> repetitions; // --reps; unset: the matrix's own, else kDefaultRepetitions
    std::optional<std::uint32_t> crashProbe;  // --crash-probe; unset: the matrix's own, else none
    std::uint64_t crashProbeSeed = 0;         // --crash-probe-seed; 0: drawn, then recorded
    std::optional<std::string> crashProbeAt;  // --crash-probe-at; unset: the matrix's own, else ack
    std::uint32_t warmups = 1;
    bool verify = false;
    bool noPipeVerify = false;
    bool noSampling = false;
    bool noSpaceCheck = false;
    bool quiet = false;
    bool allowConcurrent = false;
    std::string jsonPath;
    std::string csvPath;
    std::string prometheusPath; // --prometheus: the headline figures for node_exporter's textfile collector
    bool noSummary = false;
    bool latencyTable = false;
    std::string rank = "durable";
    bool planOnly = false;        // --plan: print the plan and the estimate, run nothing
    std::string format = "table"; // or "pg": pg_test_fsync's layout
    // iolab-cli advise TRACE: the trace's replay beside each variant that applies to it, and the advice
    // (core/analysis/program_advice.h) as the Summary.
    bool advise = false;
    bool alternate = false;    // --alternate: the cases take turns
    std::string latencyTarget; // --latency-target 1ms@p99: the Summary answers the most load under it
    bool redact = false;       // --redact: the files written fit to share (core/formats/result_redact.h)
};

// The name of the matrix a run's axis flags make (one group of every strategy and value listed).
constexpr const char* kCommandLineMatrix = "command line";

// What to do when a flag refused some strategies: a flag applies to every strategy listed with it, so a
// setting one strategy takes and another does not wants a matrix file with a group for each.
std::string flagRefusalHint(const Matrix& matrix, std::size_t refused)
{
    if (refused == 0 || matrix.name != kCommandLineMatrix || matrix.groups.empty() ||
        matrix.groups.front().strategies.size() < 2)
        return {};
    return "A flag applies to every strategy listed with it. To give one strategy a setting the others do "
           "not "
           "take, leave the flag out or write a matrix file (--matrix) with a group per strategy, each with "
           "its own values; --plan shows what it expands to.";
}

Matrix matrixFromAxes(const RunArgs& args)
{
    const MatrixGroup g = groupFromAxisFlags(args.axes);
    if (g.chunks.empty())
        throw InputError("--chunk is required with --strategy (e.g. --chunk 4K)");
    if (g.sizes.empty() && g.fileSets.empty())
        throw InputError("--size (or --files for the file-set readers) is required with --strategy "
                         "(e.g. --size 64M, --files 2000xarticle-2b)");
    return Matrix{kCommandLineMatrix, {}, {g}};
}

std::string readTextFile(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(fmt::format("matrix file '{}' is a folder; give a matrix JSON file", path));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(fmt::format("matrix file '{}' cannot be opened: {}", path, std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// --replay TRACE...: one replay case per trace, each taking its size, chunk and threads from its trace; the
// other axis flags that apply to a replay (--replay-timing, --latency) set its cases.
Matrix matrixFromReplays(const RunArgs& args)
{
    for (const char* key : {"chunks", "sizes", "threads", "syncs", "buffers"}) {
        if (!args.axes.values(key).empty())
            throw InputError(
                fmt::format("--replay re-issues what the program did: its sizes, chunks, threads "
                            "and syncs are the trace's, so the {} flag does not apply",
                            key == std::string("chunks")    ? "--chunk"
                            : key == std::string("sizes")   ? "--size"
                            : key == std::string("threads") ? "--threads"
                            : key == std::string("syncs")   ? "--sync"
                                                            : "--buffer"));
    }
    MatrixGroup g = groupFromAxisFlags(args.axes);
    g.strategies = {std::string(kReplayStrategy)};
    std::string names;
    for (const auto& trace : args.replays) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(trace, ec))
            throw InputError(fmt::format("{} {}: {}", args.advise ? "the trace" : "--replay", trace,
                                         std::filesystem::exists(trace, ec)
                                             ? "is not a file; give a trace iolab-cli record or import wrote"
                                             : "no such file; iolab-cli record or import writes a trace"));
        const std::string absolute = std::filesystem::absolute(trace, ec).lexically_normal().string();
        g.extraAxes["replay"].push_back(ec ? trace : absolute);
        names += (names.empty() ? "" : ", ") + std::filesystem::path(trace).filename().string();
    }
    if (args.advise) {
        // The program's own calls first, then every way of making them that changes something in it.
        g.extraAxes["replay-variant"] = adviceVariantAxis(loadReplayScript(args.replays.front()));
        Matrix m{"other ways of writing what " + names + " wrote", {}, {g}};
        m.alternate = true; // the answer is a ratio between the ways: a drift of the device must weigh on all
        return m;
    }
    return Matrix{"replay of " + names, {}, {g}};
}

Matrix chooseMatrix(const RunArgs& args, const Registry& registry)
{
    const auto given = args.axes.byMatrixKey.find("strategies");
    const bool strategiesGiven = given != args.axes.byMatrixKey.end() && !given->second.empty();
    const int sources = (args.preset.empty() ? 0 : 1) + (args.matrixFile.empty() ? 0 : 1) +
                        (strategiesGiven ? 1 : 0) + (args.replays.empty() ? 0 : 1);
    if (sources == 0)
        throw InputError("say what to run: --preset NAME, --matrix FILE.json, --strategy with --chunk and "
                         "--size, or --replay TRACE");
    if (sources > 1)
        throw InputError("--preset, --matrix, --strategy and --replay are alternatives; give one");
    if (!args.replays.empty())
        return matrixFromReplays(args);
    if (strategiesGiven)
        return matrixFromAxes(args);
    // Over a preset or a matrix file, flags set how much and how long every case runs, never what it does.
    refuseChangingAxes(args.axes, args.preset.empty() ? fmt::format("matrix file '{}'", args.matrixFile)
                                                      : fmt::format("preset '{}'", args.preset));
    Matrix m;
    if (!args.preset.empty()) {
        auto preset = findPreset(args.preset);
        if (!preset)
            throw InputError(fmt::format("unknown preset '{}' (known: {})", args.preset, presetNames()));
        m = *preset;
    } else {
        m = parseMatrixJson(readTextFile(args.matrixFile), args.matrixFile);
    }
    CaseOverrides overrides;
    for (const auto& s : args.axes.values("sizes"))
        overrides.sizes.push_back(parseBytes(s, "--size"));
    for (const auto& t : args.axes.values("timeLimits"))
        overrides.timeLimitsMs.push_back(t == "none" ? 0 : parseTimeLimitMs(t, "--duration"));
    overrides.repetitions = args.repetitions;
    if (overrides.any())
        applyOverrides(m, std::move(overrides), registry);
    return m;
}

std::string cell(const std::string& text, std::size_t width)
{
    if (text.size() <= width)
        return text;
    return text.substr(0, width - 1) + "~";
}

// Three significant figures or so, whatever the magnitude: 0.62, 55.6, 1321.
std::string figure(double value)
{
    if (value < 10.0)
        return fmt::format("{:.2f}", value);
    if (value < 1000.0)
        return fmt::format("{:.1f}", value);
    return fmt::format("{:.0f}", value);
}

// A case's data pattern beside its strategy in the table ("direct zeros", "write c50%"); "" for IOLab's own.
std::string patternTag(const Case& k)
{
    switch (k.pattern.kind) {
    case PatternKind::Iolab:
        return {};
    case PatternKind::Compressible:
        return fmt::format(" c{}%", k.pattern.percent);
    default:
        return " " + toString(k.pattern);
    }
}

// The PDF's Sync/read cell, declared by the axes that share it (core/model/axes.cpp): a write's sync policy,
// a read's hint and cache state, a mix's read share and hot spot, a pipe's reader, io_uring's options.
std::string syncOrRead(const Case& k)
{
    if (k.strategy == kReplayStrategy) // the program's own syncs, where it made them
        return "program's";
    static const CaseTableColumn* const column = [] {
        const auto& columns = caseTableColumns();
        const auto it = std::find_if(columns.begin(), columns.end(),
                                     [](const CaseTableColumn& c) { return c.header == "Sync/read"; });
        if (it == columns.end())
            throw std::logic_error("no axis declares the case table's Sync/read column");
        return &*it;
    }();
    return column->text(k);
}

// Reads: how the cache was set, and for file sets the files per second and per-file latency.
void printReadDetails(const RunResult& result)
{
    std::vector<std::string> methods;
    bool fileSets = false;
    for (const auto& c : result.cases) {
        if (!c.cacheMethod.empty() &&
            std::find(methods.begin(), methods.end(), c.cacheMethod) == methods.end())
            methods.push_back(c.cacheMethod);
        fileSets = fileSets || !c.testCase.fileSet.empty();
    }
    for (const auto& m : methods)
        std::printf("Reads, %s.\n", m.c_str());
    if (!fileSets)
        return;
    fmt::print("\n{:<3} {:<17} {:<22} {:>5} {:>10} {:>10} {:>10} {:>10}\n", "#", "file-set reader",
               "file set", "thr", "files", "files/s", "p50/file", "p99/file");
    for (const auto& c : result.cases) {
        const auto& k = c.testCase;
        if (k.fileSet.empty())
            continue;
        const bool ok = c.status == Status::Ok && c.filesPerSecond.count > 0;
        const std::string dash = "-";
        fmt::print("{:<3} {:<17} {:<22} {:>5} {:>10} {:>10} {:>10} {:>10}\n", c.index + 1,
                   cell(k.strategy, 17), cell(toString(k.fileSet), 22), k.threads, k.fileSet.files,
                   ok ? figure(c.filesPerSecond.median) : dash, ok ? formatLatency(c.fileP50Seconds) : dash,
                   ok ? formatLatency(c.fileP99Seconds) : dash);
    }
    std::printf("Per file: open to close; p50/p99 are medians over the measured repetitions.\n");
}

// The values of one axis that the run's counted cases took, each said in words, joined by "; " ("" when no
// case counts): for the axes that move a figure a lot without showing in its name.
template <class T, class Counts, class Describe>
std::string usedValues(const RunResult& result, Counts counts, T Case::*field, Describe describe)
{
    std::set<T> used;
    for (const auto& c : result.cases) {
        if (counts(c.testCase))
            used.insert(c.testCase.*field);
    }
    std::string text;
    for (const T value : used)
        text += (text.empty() ? "" : "; ") + describe(value);
    return text;
}

// What the write cases' files held before the timed part, which moves durable figures a lot.
void printPreallocation(const RunResult& result)
{
    const std::string text = usedValues(
        result,
        [](const Case& k) { return k.direction == Direction::Write && k.target == TargetKind::Directory; },
        &Case::preallocate,
        [](Preallocate p) -> std::string {
            switch (p) {
            case Preallocate::None:
                return "new, empty files (preallocate none)";
            case Preallocate::Fallocate:
                return "files whose space was reserved first (preallocate fallocate)";
            case Preallocate::Overwrite:
                return "files written whole first, then overwritten (preallocate overwrite)";
            case Preallocate::Rewrite:
                return "one chunk written first, then rewritten in place by every write (preallocate "
                       "rewrite)";
            }
            return "";
        });
    if (!text.empty())
        std::printf("Writes to files: %s; the preparation is not timed.\n", text.c_str());
}

// Where the pipe cases' reader threads ran against their writers, which moves a pipe's rate a lot.
void printReaderPlacement(const RunResult& result)
{
    const std::string text = usedValues(
        result, [](const Case& k) { return k.target == TargetKind::Pipe; }, &Case::readerCpu,
        [](ReaderCpu p) -> std::string {
            switch (p) {
            case ReaderCpu::Any:
                return "where the scheduler put it (reader any)";
            case ReaderCpu::Same:
                return "on the writer's CPU, the two taking turns (reader same)";
            case ReaderCpu::Other:
                return "on a CPU of its own, the writer pinned to another (reader other)";
            }
            return "";
        });
    // A reader process (--reader process) is placed the same way as a reader thread.
    const bool processes = std::any_of(result.cases.begin(), result.cases.end(), [](const CaseResult& r) {
        return r.testCase.target == TargetKind::Pipe &&
               extraAxisValue(r.testCase, "readerKinds", "thread") == "process";
    });
    if (!text.empty())
        std::printf("Pipes: the reader %s ran %s.\n", processes ? "(thread or process)" : "thread",
                    text.c_str());
}

// A latency in nanoseconds for the tables: "850 ns", "12.3 us", "1.20 ms".
std::string latencyCell(std::uint64_t ns)
{
    return formatLatency(static_cast<double>(ns) * 1e-9);
}

// With --latency-table: every percentile of every case that timed its calls, and of its sync calls.
void printLatencyTable(const RunResult& result)
{
    bool any = false;
    for (const auto& c : result.cases)
        any = any || c.callLatency || c.syncLatency;
    if (!any) {
        std::printf("\nLatency: no case timed its calls (see the latency axis: --latency on).\n");
        return;
    }
    fmt::print(
        "\nLatency per call, over the measured repetitions (a queued request: submission to completion)\n");
    fmt::print("{:<3} {:<5} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "#", "calls", "count",
               "mean", "p50", "p90", "p99", "p99.9", "p99.99", "max");
    for (const auto& c : result.cases) {
        for (const auto& [kind, d] : {std::pair{"call", &c.callLatency}, std::pair{"sync", &c.syncLatency}}) {
            if (!*d || c.status != Status::Ok)
                continue;
            const LatencySummary& s = (*d)->summary;
            fmt::print("{:<3} {:<5} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", c.index + 1, kind,
                       s.count, formatLatency(s.meanNs * 1e-9), latencyCell(s.p50Ns), latencyCell(s.p90Ns),
                       latencyCell(s.p99Ns), latencyCell(s.p999Ns), latencyCell(s.p9999Ns),
                       latencyCell(s.maxNs));
        }
    }
    for (const auto& c : result.cases) {
        if (!c.latencyChoice.empty() && c.latencyChoice.starts_with("not recorded"))
            std::printf("  %u  %s\n", c.index + 1, c.latencyChoice.c_str());
    }
}

// The p99 a case's row shows, with the call it is of where that is not the loop's own call: "5.50 ms
// fdatasync".
std::string p99Cell(const CaseResult& c)
{
    const HeadlineLatency latency = headlineLatency(c);
    if (latency.distribution == nullptr)
        return "-";
    const std::string figure = latencyCell(latency.distribution->summary.p99Ns);
    return latency.ofSyncs ? figure + " " + latency.call : figure;
}

void printResults(const RunResult& result, Ranking ranking)
{
    // The sync/read column as wide as its longest cell (a pipe's reader and pages, a mix and its io_uring
    // ring), within reason.
    std::size_t syncWidth = 9;
    for (const auto& c : result.cases)
        syncWidth = std::max(syncWidth, syncOrRead(c.testCase).size());
    syncWidth = std::min<std::size_t>(syncWidth, 40);
    fmt::print(
        "\n{:<3} {:<25} {:>6} {:>7} {:<{}} {:>3} {:>4} {:>6} {:<11} {:>8} {:>8} {:>15} {:>8} {:>5} {:>17} "
        "{:>9} {:>9}\n",
        "#", "strategy", "chunk", "buffer", "sync/read", syncWidth, "thr", "qd", "size", "status", "MB/s",
        "trimmed", "95% CI", "durable", "CV%", "p99 (of)", "CPU s/GiB", "peak RSS");
    // The spread the warnings, the app and the PDF quote: of the middle repetitions from 5 on.
    const auto spreadOf = [ranking](const CaseResult& c) {
        return repetitionSpread(c, ranking);
    };
    for (const auto& c : result.cases) {
        const auto& k = c.testCase;
        const bool ok = c.status == Status::Ok;
        const auto& a = c.apparentMBps;
        // The interval and the spread qualify the rate the case is ranked by, as in the app.
        const auto& ranked = rankedRate(c, ranking);
        const std::string dash = "-";
        fmt::print("{:<3} {:<25} {:>6} {:>7} {:<{}} {:>3} {:>4} {:>6} {:<11} {:>8} {:>8} {:>15} {:>8} {:>5} "
                   "{:>17} {:>9} "
                   "{:>9}\n",
                   c.index + 1,
                   cell(k.strategy == kReplayStrategy ? k.label() : k.strategy + patternTag(k), 25),
                   formatBytesCompact(k.chunkBytes), toString(k.buffer), cell(syncOrRead(k), syncWidth),
                   syncWidth, k.threads, k.queueDepth != 0 ? std::to_string(k.queueDepth) : dash,
                   formatBytesShort(k.totalBytes), toString(c.status), ok ? figure(a.median) : dash,
                   ok && a.count >= kTrimmedMeanMinCount ? figure(a.trimmedMean) : dash,
                   ok && ranked.count >= 2 ? figure(std::max(0.0, ranked.ciLow)) + "-" + figure(ranked.ciHigh)
                                           : dash,
                   ok && (comparisonGroup(k) == ComparisonGroup::FileWrites || mixes(k))
                       ? figure(c.durableMBps.median)
                       : dash,
                   ok && spreadOf(c).used >= 2 ? fmt::format("{:.1f}", spreadOf(c).cv * 100) : dash,
                   ok ? p99Cell(c) : dash, ok ? fmt::format("{:.3f}", c.cpuSecondsPerGiB) : dash,
                   formatBytes(c.peakRssBytes));
    }
    std::printf(
        "MB/s = 10^6 bytes/s, median over %u measured repetitions after %u warm-up; trimmed = their mean "
        "without the slowest and the fastest, shown from %zu repetitions on (below that it is about the "
        "median); durable includes the final fsync. 95%% CI and CV%% are of the rate cases are ranked by "
        "(%s); CV%% is of the repetitions left when the slowest and the fastest are left out, from %zu on, "
        "as "
        "the warnings and the PDF give it. p99: 99%% of the calls took at most this long, of the sync calls "
        "where it names one (the case "
        "syncs in its loop; --latency-table lists every percentile of both); qd: "
        "the requests a queued strategy kept in flight.\n",
        result.options.repetitions, result.options.warmups, kTrimmedMeanMinCount,
        ranking == Ranking::Durable ? "durable for writes to a file, the one rate for the others"
                                    : "apparent",
        kTrimmedMeanMinCount);
    printReadDetails(result);
    printPreallocation(result);
    printReaderPlacement(result);
    if (!result.warnings.empty()) {
        std::printf("\nAbout this run:\n");
        for (const auto& warning : result.warnings)
            std::printf("  %s\n", warning.c_str());
    }
    bool warned = false;
    for (const auto& c : result.cases) {
        const auto warnings = caseWarnings(c, &result.host, ranking);
        if (warnings.empty())
            continue;
        if (!warned)
            std::printf("\nWarnings:\n");
        warned = true;
        std::printf("  %u  %s\n", c.index + 1, c.testCase.label().c_str());
        for (const auto& warning : warnings)
            std::printf("       %s\n", warning.c_str());
    }
    bool header = false;
    for (const auto& c : result.cases) {
        if (c.status == Status::Ok)
            continue;
        if (!header)
            std::printf("\nNot ok:\n");
        header = true;
        std::printf("  %u  %s: %s: %s\n", c.index + 1, c.testCase.label().c_str(), toString(c.status).c_str(),
                    c.reason.c_str());
    }
    if (!result.refused.empty()) {
        std::printf("\nRefused before running (%zu):\n", result.refused.size());
        for (const auto& r : result.refused)
            std::printf("  %s: %s\n", r.testCase.label().c_str(), r.reason.c_str());
        if (const std::string hint = flagRefusalHint(result.matrix, result.refused.size()); !hint.empty())
            std::printf("%s\n", hint.c_str());
    }
    if (result.cancelled)
        std::printf("\nThe run was cancelled; its files were removed.\n");
    std::fflush(stdout);
}

// The kill -9 probe: how its kills were placed and what each kill lost, per case it probed. The answer
// itself is the Summary's (crashProbeAnswers); printed here too when no Summary follows.
void printCrashProbe(const RunResult& result, const Registry& registry, bool withAnswers)
{
    if (result.options.crashProbe == 0)
        return;
    std::printf(
        "\nkill -9 probe: %s. A process crash is not a power cut: the page cache survives a kill -9, so "
        "this is what a crashing program loses.\n",
        crashProbeMethod(result.options).c_str());
    for (const auto& c : result.cases) {
        if (!c.crashProbe)
            continue;
        const CrashProbeResult& probe = *c.crashProbe;
        if (withAnswers) {
            const Strategy* strategy = registry.find(c.testCase.strategy);
            std::printf(
                "  %u %s: %s\n", c.index + 1, c.testCase.label().c_str(),
                crashProbeVerdict(probe, c.testCase, strategy != nullptr ? &strategy->info() : nullptr)
                    .c_str());
            continue;
        }
        std::string lost;
        for (const auto& kill : probe.kills)
            lost += fmt::format("{}{}", lost.empty() ? "" : ", ",
                                kill.landed ? formatBytes(kill.lostBytes) : std::string("finished first"));
        std::printf("  %u %s: %zu kill%s, lost %s%s\n", c.index + 1, c.testCase.label().c_str(),
                    probe.kills.size(), probe.kills.size() == 1 ? "" : "s",
                    lost.empty() ? "nothing" : lost.c_str(),
                    probe.hold && probe.hold->lossBytes() != 0
                        ? fmt::format("; by design up to {}", formatBytes(probe.hold->lossBytes())).c_str()
                        : "");
        if (!probe.failure.empty())
            std::printf("    not finished: %s\n", probe.failure.c_str());
    }
    std::fflush(stdout);
}

// The verdict under the table: the question, the answer per group, what matters most, the limits, the terms.
void printSummary(const RunResult& result, const Registry& registry, Ranking ranking)
{
    std::printf("\n");
    for (const auto& line : verdictLines(verdict(result, &registry, ranking)))
        std::printf("%s\n", line.c_str());
    std::fflush(stdout);
}

// One closing line that counts every case by how it ended, so that the exit code is never a surprise.
// Each replay case: what it re-issued and how its time inside the calls compares with the program's.
void printReplays(const RunResult& result, const RunPlan& plan)
{
    for (const auto& c : result.cases) {
        if (c.testCase.strategy != kReplayStrategy)
            continue;
        const auto it = plan.replays.find(
            replayPlanKey(extraAxisValue(c.testCase, "replay", ""),
                          extraAxisValue(c.testCase, "replay-variant", std::string(kRecordedCalls))));
        if (it == plan.replays.end())
            continue;
        std::printf("\nCase %u, %s\n", c.index + 1, c.testCase.label().c_str());
        for (const auto& line : describeReplayResult(c, *it->second))
            std::printf("  %s\n", line.c_str());
    }
}

// iolab-cli advise: the answer to "how should my program write?", kept in the result (its JSON has it).
void adviseOnRun(RunResult& result, const RunPlan& plan, const std::string& trace)
{
    std::error_code ec;
    const std::string absolute = std::filesystem::absolute(trace, ec).lexically_normal().string();
    const std::string path = ec ? trace : absolute;
    if (const auto advice = adviseOnPlan(result, plan, path, profileOf(path)))
        result.programAdvice = advice->lines;
}

// The answer, in place of the Summary.
void printAdvice(const RunResult& result)
{
    if (result.programAdvice.empty())
        return;
    std::printf("\nYour program\n");
    for (const auto& line : result.programAdvice) {
        // A snippet's lines keep their own layout; sentences are wrapped as the Summary wraps them.
        const std::size_t indent = line.find_first_not_of(' ');
        if (indent != std::string::npos && indent >= 6) {
            std::printf("%s\n", line.c_str());
            continue;
        }
        const std::string lead = line.substr(0, indent == std::string::npos ? 0 : indent);
        for (const auto& wrapped : wrappedLines(line.substr(lead.size()), lead, lead + "  ", 100))
            std::printf("%s\n", wrapped.c_str());
    }
    std::fflush(stdout);
}

void printTally(const RunResult& result)
{
    std::size_t ok = 0;
    std::size_t failed = 0;
    std::size_t refused = 0;
    std::size_t cancelled = 0;
    for (const auto& c : result.cases) {
        switch (c.status) {
        case Status::Ok:
            ++ok;
            break;
        case Status::Refused:
            ++refused;
            break;
        case Status::Cancelled:
            ++cancelled;
            break;
        case Status::Failed:
        case Status::Unsupported:
            ++failed;
            break;
        }
    }
    // A stopped run lists every planned case: those it stopped or never started did not run.
    const std::size_t ran = ok + failed + refused;
    const std::string cancelledText =
        cancelled == 0 ? "" : fmt::format("; {} more cancelled by the stop, not run to their end", cancelled);
    fmt::print("\n{} case{} ran: {} ok, {} failed, {} refused at run time{}; {} refused before running.\n",
               ran, ran == 1 ? "" : "s", ok, failed, refused, cancelledText, result.refused.size());
    std::fflush(stdout);
}

void printTarget(const TargetInfo& t)
{
    std::printf("Target %s\n", t.path.c_str());
    std::printf("  filesystem   %s on %s (mounted at %s, %s)\n", t.fsType.c_str(), t.mountSource.c_str(),
                t.mountPoint.c_str(), t.mountOptions.c_str());
    std::printf("  device       %s%s%s\n",
                t.device.empty() ? "(none: no block device to watch)" : t.device.c_str(),
                t.deviceModel.empty() ? "" : ", model ", t.deviceModel.c_str());
    std::printf("  space        %s free of %s\n", formatBytes(t.freeBytes).c_str(),
                formatBytes(t.totalBytes).c_str());
    std::printf("  rotational   %s   write cache %s\n",
                t.rotational ? (*t.rotational ? "yes" : "no") : "unknown", describeWriteCache(t).c_str());
    std::printf("  sectors      logical %u B, physical %u B, max transfer %s\n", t.logicalBlockBytes,
                t.physicalBlockBytes,
                t.maxTransferBytes ? formatBytes(t.maxTransferBytes).c_str() : "unknown");
}

int commandStrategies(const Registry& registry, const std::string& target)
{
    std::optional<TargetInfo> info;
    if (!target.empty()) {
        info = inspectTarget(target);
        probeCapabilities(*info);
        printTarget(*info);
        std::printf("\n");
    }
    std::printf("%-18s %-10s %s\n", "strategy", "available", "what it does");
    for (const auto& s : registry.all()) {
        const auto& i = s->info();
        std::string why = i.unavailable.value_or("");
        if (why.empty() && info && i.needsDirectIo && !info->directIoProblem.empty())
            why = info->directIoProblem;
        if (why.empty() && info && i.needsFallocate && !info->fallocateProblem.empty())
            why = info->fallocateProblem;
        std::printf("%-18s %-10s %s\n", i.id.c_str(), why.empty() ? "yes" : "no", i.description.c_str());
        if (!why.empty())
            std::printf("%-29s %s\n", "", why.c_str());
        std::string targets;
        for (auto t : i.targets)
            targets += (targets.empty() ? "" : ", ") + toString(t);
        std::string syncs;
        for (auto m : i.syncModes) {
            syncs += syncs.empty() ? "" : ", ";
            syncs += m == SyncMode::FsyncEvery       ? std::string("fsync-every:N")
                     : m == SyncMode::FdatasyncEvery ? std::string("fdatasync-every:N")
                                                     : toString(SyncPolicy{m, 0});
        }
        std::printf("%-29s targets: %s; sync: %s%s\n", "", targets.c_str(), syncs.c_str(),
                    i.needsBlockAlignedChunks ? "; chunks must be block aligned" : "");
    }
    return kExitOk;
}

// `targets --details [FOLDER...]`: each target (the given folders, else every writable filesystem) with its
// system facts: the storage stack, the device, the filesystem, the kernel and the machine.
int commandTargetDetails(const std::vector<std::string>& folders)
{
    std::vector<TargetInfo> targets;
    if (folders.empty())
        targets = listWritableTargets();
    for (const auto& folder : folders)
        targets.push_back(inspectTarget(folder));
    if (targets.empty()) {
        std::printf("no writable filesystem found; give a folder: iolab-cli targets --details FOLDER\n");
        return kExitOk;
    }
    bool first = true;
    for (const auto& t : targets) {
        const auto facts = gatherSystemFacts(t);
        fmt::print("{}{}  ({} free of {})\n", first ? "" : "\n", t.path, formatBytes(t.freeBytes),
                   formatBytes(t.totalBytes));
        fmt::print("{}", factsToText(facts));
        first = false;
    }
    return kExitOk;
}

int commandTargets(bool details, const std::vector<std::string>& folders)
{
    if (details)
        return commandTargetDetails(folders);
    if (!folders.empty())
        throw InputError("a folder after 'targets' needs --details: iolab-cli targets --details FOLDER");
    const auto targets = listWritableTargets();
    if (targets.empty()) {
        std::printf("no writable filesystem found; give a folder with --target\n");
        return kExitOk;
    }
    // The write cache with FUA (Linux) or power-loss protection (Windows) where the system says: "write back,
    // no FUA", "write back, PLP".
    const auto cacheCell = [](const TargetInfo& t) {
        std::string text = t.writeCache.empty() ? "-" : t.writeCache;
        if (t.fua)
            text += *t.fua ? ", FUA" : ", no FUA";
        if (t.powerProtected)
            text += *t.powerProtected ? ", PLP" : ", no PLP";
        return text;
    };
    fmt::print("{:<28} {:<8} {:<12} {:>10} {:>10} {:<5} {:<18} {:>8}  {}\n", "mount point", "fs", "device",
               "free", "size", "rot", "write cache", "sectors", "model");
    for (const auto& t : targets) {
        fmt::print("{:<28} {:<8} {:<12} {:>10} {:>10} {:<5} {:<18} {:>8}  {}\n", cell(t.path, 28),
                   cell(t.fsType, 8), t.device.empty() ? "-" : cell(t.device, 12), formatBytes(t.freeBytes),
                   formatBytes(t.totalBytes), t.rotational ? (*t.rotational ? "yes" : "no") : "-",
                   cacheCell(t), fmt::format("{}/{}", t.logicalBlockBytes, t.physicalBlockBytes),
                   t.deviceModel);
    }
    std::printf(
        "sectors: logical/physical bytes; FUA: the device takes force-unit-access writes; PLP: its cache "
        "is power-loss protected.\nAny writable folder works as a target, not only these.\n");
    return kExitOk;
}

// `export-job RESULT.json --case N --as fio|diskspd|c`: the case as a fio job, a DiskSpd command line or a
// standalone C program to rerun elsewhere, on stdout; exit 1 when that has no equivalent (the text says why).
// A result file, read back; InputError names the file and what is wrong with it.
RunResult readResultFile(const std::string& resultPath)
{
    std::ifstream in(resultPath, std::ios::binary);
    if (!in)
        throw InputError(fmt::format("cannot read {}: {}", resultPath, std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    return resultFromJson(text.str(), resultPath);
}

int commandExportJob(const std::string& resultPath, std::size_t caseNumber, const std::string& as)
{
    if (as != "fio" && as != "diskspd" && as != "c")
        throw InputError(
            fmt::format("--as {}: export-job writes a fio job (--as fio), a DiskSpd command line "
                        "(--as diskspd) or a C program (--as c)",
                        as));
    const RunResult result = readResultFile(resultPath);
    if (caseNumber == 0 || caseNumber > result.cases.size())
        throw InputError(fmt::format("{} has {} case{}: --case takes 1 to {}", resultPath,
                                     result.cases.size(), result.cases.size() == 1 ? "" : "s",
                                     result.cases.size()));
    const std::size_t index = caseNumber - 1;
    if (as == "diskspd") {
        const auto job = diskspdJobOf(result, index);
        std::fputs(job.text.c_str(), stdout);
        return job.equivalent ? kExitOk : kExitCasesFailed;
    }
    if (as == "c") {
        const auto program = cProgramOf(result, index);
        std::fputs(program.text.c_str(), stdout);
        return program.available ? kExitOk : kExitCasesFailed;
    }
    const auto job = fioJobOf(result, index);
    std::fputs(job.text.c_str(), stdout);
    return job.equivalent ? kExitOk : kExitCasesFailed;
}

struct ShowArgs
{
    std::string result;
    std::string rank = "durable";
    bool latencyTable = false;
    bool redact = false;
};

// A saved result printed as the run printed it: the table, the CrystalDiskMark grid where it applies, the
// Summary (or a program's advice) and the tally; with --redact, as it would leave the machine.
int commandShow(const Registry& registry, const ShowArgs& args)
{
    Ranking ranking = Ranking::Durable;
    try {
        ranking = parseRanking(args.rank);
    } catch (const InputError& e) {
        throw InputError(fmt::format("--rank: {}", e.what()));
    }
    const RunResult read = readResultFile(args.result);
    const RunResult result = args.redact ? redactResult(read) : read;
    fmt::print("{}: IOLab {}, {} on {}, started {}{}\n", args.result, result.toolVersion,
               result.matrix.name.empty() ? std::string("a run") : "the " + result.matrix.name + " run",
               result.target.path, result.startedAt, result.cancelled ? " (cancelled)" : "");
    printResults(result, ranking);
    printCrashProbe(result, registry, false);
    std::fputs(memoryBudgetText(result).c_str(), stdout);
    if (const auto grid = cdmGrid(result, registry)) {
        std::printf("\nAs CrystalDiskMark shows it:\n");
        std::fputs(cdmGridText(*grid, result).c_str(), stdout);
    }
    if (args.latencyTable)
        printLatencyTable(result);
    if (!result.programAdvice.empty())
        printAdvice(result);
    else
        printSummary(result, registry, ranking);
    printTally(result);
    return allCasesOk(result) ? kExitOk : kExitCasesFailed;
}

int commandPresets(const Registry& registry)
{
    // What runs on a target that takes every strategy: combinations a preset refuses wherever it runs (a
    // duplicate, an axis a strategy has not) are not counted.
    const TargetInfo anyTarget;
    for (const auto& p : builtinPresets()) {
        const std::size_t cases = expand(p, registry, anyTarget).cases.size();
        std::printf("%-16s %3zu cases  %s\n", p.name.c_str(), cases, p.description.c_str());
    }
    return kExitOk;
}

int commandClean(const std::string& target)
{
    const auto report = cleanStaleRuns(target);
    for (const auto& folder : report.removed)
        std::printf("removed %s\n", folder.c_str());
    for (const auto& [folder, why] : report.kept)
        std::printf("kept    %s: %s\n", folder.c_str(), why.c_str());
    if (report.removed.empty() && report.kept.empty())
        std::printf("no IOLab run folders in %s\n", target.c_str());
    return kExitOk;
}

// Another IOLab run writing into the same target measures against this one: refused unless the user allows
// it (the policy and the warnings are app/common's, the GUI's too). The caller prints the warnings once
// something will run.
std::vector<std::string> concurrentRunWarnings(const std::string& target, bool allowConcurrent)
{
    ConcurrentRuns weighed = weighConcurrentRuns(otherRunsFor(target), allowConcurrent);
    if (weighed.refusedBy)
        throw InputError(fmt::format(
            "another IOLab run is writing into this target now (process {}, run folder {}); two runs at "
            "once measure each other. Wait for it to end, or give --allow-concurrent to run anyway",
            weighed.refusedBy->pid, weighed.refusedBy->folder));
    return std::move(weighed.warnings);
}

// Where an estimate's figures come from, in a few words: " (from earlier runs of 3 cases here; the rest
// calibrated on this target)".
std::string estimateBasis(const DurationEstimate& estimate)
{
    const std::string model =
        estimate.calibrated ? "calibrated on this target" : "typical figures, not calibrated";
    if (estimate.measuredCases > 0 && estimate.guessedCases > 0)
        return fmt::format(" (timed before: {} case{}; the rest {})", estimate.measuredCases,
                           estimate.measuredCases == 1 ? "" : "s", model);
    if (estimate.measuredCases > 0)
        return " (every case timed before)";
    return " (" + model + ")";
}

// The estimate of a planned run, over the target's kept calibration, or a fresh one when the run is not short
// (a second of I/O on the target then saves a guess that can be off by a factor of several) or the user asked
// for the plan. `target` gets the calibration used.
DurationEstimate planEstimate(const RunPlan& plan, const RunOptions& options, TargetInfo& target,
                              const Registry& registry, const RunArgs& args, const std::stop_token& stop)
{
    constexpr double kCalibrateFromSeconds = 20;
    const std::string store = defaultLogDirectory();
    if (!target.calibration && plan.target.calibration)
        target.calibration = plan.target.calibration;
    if (!target.calibration)
        target.calibration = storedCalibration(store, target);
    DurationEstimate estimate = estimateDuration(plan.expanded.cases, options, target, {}, registry);
    const bool usesDisk = std::any_of(plan.expanded.cases.begin(), plan.expanded.cases.end(),
                                      [](const Case& c) { return c.target == TargetKind::Directory; });
    // Calibrated for --plan, and for a long run started from a terminal, where someone waits for the time
    // left; a script's run keeps the typical figures (and says so) rather than spend a second of I/O on them.
    const bool worthIt = args.planOnly || (estimate.seconds >= kCalibrateFromSeconds && stderrIsTerminal());
    if (target.calibration || !usesDisk || !worthIt)
        return estimate;
    if (!args.quiet)
        fmt::print(stderr, "Calibrating the time estimate: about a second of I/O on {}...\n", target.path);
    if (auto calibration = calibrateTarget(target, registry, stop)) {
        storeCalibration(store, target, *calibration);
        target.calibration = std::move(calibration);
        estimate = estimateDuration(plan.expanded.cases, options, target, {}, registry);
    }
    return estimate;
}

// `run --plan`: what Run would do, as the app's Plan shows it: the cases, the refused ones with their
// reasons, the space the largest case needs against the free space, and the estimate.
void printPlan(const RunPlan& plan, const RunOptions& options, const TargetInfo& target,
               const DurationEstimate& estimate)
{
    const ExpandedMatrix& expanded = plan.expanded;
    fmt::print("Plan: {} on {} ({} filesystem, {} free)\n",
               plan.matrix.name.empty() ? std::string("matrix") : plan.matrix.name, target.path,
               target.fsType, formatBytes(target.freeBytes));
    fmt::print("{} case{} to run, {} measured repetition{} each after {} warm-up{}{}{}:\n",
               expanded.cases.size(), expanded.cases.size() == 1 ? "" : "s", options.repetitions,
               options.repetitions == 1 ? "" : "s", options.warmups, options.warmups == 1 ? "" : "s",
               options.crashProbe != 0
                   ? fmt::format(", and {} kill -9 probe runs per write case", options.crashProbe)
                   : std::string(),
               options.alternate ? ", taking turns (a round of one repetition of each case, then the next)"
                                 : "");
    if (plan.matrix.latencyTarget)
        fmt::print("  (the Summary answers the most load whose call latency keeps {} over each queue-depth "
                   "sweep)\n",
                   toString(*plan.matrix.latencyTarget));
    const auto unwarmed = std::count_if(expanded.cases.begin(), expanded.cases.end(), [&](const Case& c) {
        return warmupsFor(c, options.warmups) != options.warmups;
    });
    if (unwarmed != 0)
        fmt::print(
            "  ({} without a warm-up: a write past a fast cache, whose warm-up would fill that cache)\n",
            unwarmed == static_cast<std::ptrdiff_t>(expanded.cases.size())
                ? std::string("every case")
                : fmt::format("{} of them", unwarmed));
    std::uint64_t largest = 0;
    for (std::size_t i = 0; i < expanded.cases.size(); ++i) {
        const Case& c = expanded.cases[i];
        const double seconds = i < estimate.caseSeconds.size() ? estimate.caseSeconds[i] : 0;
        fmt::print("  {:>3}  {:>9}  {}\n", i + 1, formatDuration(seconds), c.label());
        if (c.target == TargetKind::Directory)
            largest = std::max(largest, spaceNeeded(c));
        if (c.freeSharePercent != 0)
            fmt::print("  {:>3}  {:>9}  (sized at {}% of the {} free: {})\n", "", "", c.freeSharePercent,
                       formatBytes(target.freeBytes), formatBytes(c.totalBytes));
    }
    if (!expanded.refused.empty()) {
        fmt::print("Refused before running ({}):\n", expanded.refused.size());
        for (const auto& r : expanded.refused)
            fmt::print("  {}: {}\n", r.testCase.label(), r.reason);
        if (const std::string hint = flagRefusalHint(plan.matrix, expanded.refused.size()); !hint.empty())
            fmt::print("{}\n", hint);
    }
    if (largest > 0)
        fmt::print("Space: the largest case needs {} (its data, scratch and a margin); {} has {} free{}\n",
                   formatBytes(largest), target.path, formatBytes(target.freeBytes),
                   largest > target.freeBytes ? ": NOT ENOUGH, that case would be refused" : "");
    fmt::print("Estimate: {}{}\n", describeEstimate(estimate), estimateBasis(estimate));
    if (const auto& c = target.calibration)
        fmt::print(
            "Calibration ({}): page cache {}, durable buffered {}, direct {} ({} until the calls returned), "
            "direct reads {}, a sync {}, a 4 KiB direct write {}, read {}\n",
            c->measuredAt, formatRate(c->pageCacheWriteBytesPerSecond),
            formatRate(c->bufferedDurableBytesPerSecond), formatRate(c->deviceWriteBytesPerSecond),
            formatRate(c->directReturnedBytesPerSecond > 0 ? c->directReturnedBytesPerSecond
                                                           : c->deviceWriteBytesPerSecond),
            formatRate(c->deviceReadBytesPerSecond), formatLatency(c->syncSeconds),
            formatLatency(c->directWriteSeconds), formatLatency(c->directReadSeconds));
    std::fflush(stdout);
}

// Run folders left by a killed run hold disk space until `clean` removes them: say so, once per run.
void mentionKilledRuns(const std::string& target)
{
    const auto stale = cleanStaleRuns(target, CleanMode::ListOnly).removed;
    if (stale.size() == 1)
        fmt::print(stderr,
                   "note: a run folder from a killed run is here: {}; `iolab-cli clean {}` removes it\n",
                   stale.front(), target);
    else if (stale.size() > 1)
        fmt::print(
            stderr,
            "note: {} run folders from killed runs are here ({} ...); `iolab-cli clean {}` removes them\n",
            stale.size(), stale.front(), target);
}

// The queue depths a latency target sweeps when none are given: powers of two up to 128.
const std::vector<std::uint32_t> kLatencyTargetDepths{1, 2, 4, 8, 16, 32, 64, 128};

// --latency-target: the matrix's target, and a queue-depth sweep for strategies given on the command line
// without --qd (when every one of them is queued). A matrix without a queued strategy has nothing to answer.
void applyLatencyTarget(Matrix& matrix, const RunArgs& args, const Registry& registry)
{
    if (args.latencyTarget.empty())
        return;
    try {
        matrix.latencyTarget = parseLatencyTarget(args.latencyTarget);
    } catch (const InputError& e) {
        throw InputError(fmt::format("--latency-target: {}", e.what()));
    }
    const auto queued = [&registry](const std::string& id) {
        const Strategy* s = registry.find(id);
        return s != nullptr && s->info().maxQueueDepth > 0;
    };
    bool any = false;
    for (MatrixGroup& g : matrix.groups) {
        const bool all =
            !g.strategies.empty() && std::all_of(g.strategies.begin(), g.strategies.end(), queued);
        any = any || std::any_of(g.strategies.begin(), g.strategies.end(), queued);
        if (all && g.queueDepths.empty() && args.axes.values("queueDepths").empty())
            g.queueDepths = kLatencyTargetDepths;
    }
    if (!any)
        throw InputError("--latency-target: it searches the queue depth of the queued strategies (uring-*, "
                         "overlapped-*), and none is in the matrix");
}

int commandRun(const Registry& registry, const RunArgs& args)
{
    Matrix matrix = chooseMatrix(args, registry);
    applyLatencyTarget(matrix, args, registry);
    Ranking ranking = Ranking::Durable;
    try {
        ranking = parseRanking(args.rank);
    } catch (const InputError& e) {
        throw InputError(fmt::format("--rank: {}", e.what()));
    }
    // Every file the run will write, checked before a byte is measured so that a bad path loses nothing.
    std::vector<std::string> outputs;
    if (!args.jsonPath.empty())
        outputs.push_back(args.jsonPath);
    if (!args.csvPath.empty())
        outputs.insert(outputs.end(),
                       {args.csvPath, summaryCsvPath(args.csvPath), samplesCsvPath(args.csvPath)});
    if (!args.prometheusPath.empty())
        outputs.push_back(args.prometheusPath);
    for (const auto& out : outputs) {
        if (auto problem = outputPathProblem(out); !problem.empty())
            throw InputError(problem);
    }
    if (args.redact && outputs.empty())
        throw InputError(
            "--redact makes the files written fit to share, and this run writes none: add --json "
            "FILE, --csv FILE or --prometheus FILE (or redact a result later with iolab report RESULT.json "
            "--redact)");
    if (args.repetitions && (*args.repetitions == 0 || *args.repetitions > kMaxRepetitions))
        throw InputError(fmt::format("--reps: give 1 to {} measured repetitions", kMaxRepetitions));
    if (args.warmups > kMaxWarmups)
        throw InputError(fmt::format("--warmups: give 0 to {} warm-up repetitions", kMaxWarmups));
    const InterruptHandlers interruptHandlers;
    TargetInfo target = inspectTarget(args.target);
    const std::vector<std::string> concurrency = concurrentRunWarnings(target.path, args.allowConcurrent);
    mentionKilledRuns(args.target);
    // A target with no free space at all cannot take a case's files, nor the run folder, the probe file or a
    // read's data set: refused here, before anything is written, rather than as one refusal per case at run
    // time.
    if (target.freeBytes == 0 && !args.noSpaceCheck)
        throw InputError(
            fmt::format("the target {} has no free space ({} filesystem, {} in all): nothing can "
                        "be written there; free some space or choose another target "
                        "(--no-space-check runs anyway, to see how a full disk behaves)",
                        target.path, target.fsType, formatBytes(target.totalBytes)));
    probeCapabilities(target);
    const std::shared_ptr<const RunPlan> plan = makeRunPlan(matrix, registry, target);
    const ExpandedMatrix& expanded = plan->expanded;
    if (expanded.cases.empty()) {
        std::string reasons;
        for (const auto& r : expanded.refused)
            reasons += fmt::format("\n  {}: {}", r.testCase.label(), r.reason);
        const std::string hint = flagRefusalHint(matrix, expanded.refused.size());
        throw InputError(fmt::format("nothing to run: every case was refused{}{}", reasons,
                                     hint.empty() ? "" : "\n" + hint));
    }
    // Said only once something will run: a refusal stays a single 'iolab-cli: ' line.
    for (const auto& warning : concurrency)
        std::fprintf(stderr, "warning: %s\n", warning.c_str());

    RunOptions options;
    options.repetitions = args.repetitions.value_or(matrix.repetitions.value_or(kDefaultRepetitions));
    options.warmups = args.warmups;
    options.verifyFiles = args.verify;
    options.verifyPipes = !args.noPipeVerify;
    options.sampling = !args.noSampling;
    options.spaceCheck = !args.noSpaceCheck;
    options.dropCaches = args.dropCaches;
    if (args.crashProbe && *args.crashProbe > kMaxCrashProbeKills)
        throw InputError(
            fmt::format("--crash-probe: give 0 to {} kills per write case", kMaxCrashProbeKills));
    options.crashProbe = args.crashProbe.value_or(matrix.crashProbe.value_or(0));
    options.crashProbeSeed = args.crashProbeSeed;
    options.crashProbeAt = matrix.crashProbeAt.value_or(CrashProbeAt::Ack);
    options.alternate = args.alternate || matrix.alternate.value_or(false);
    if (args.crashProbeAt) {
        try {
            options.crashProbeAt = parseCrashProbeAt(*args.crashProbeAt);
        } catch (const InputError& e) {
            throw InputError(fmt::format("--crash-probe-at: {}", e.what()));
        }
        if (options.crashProbe == 0)
            throw InputError(
                fmt::format("--crash-probe-at {} places the kill -9 probe's kills, but this run has "
                            "no probe: add --crash-probe N",
                            *args.crashProbeAt));
    }
    if (options.dropCaches && !canDropCaches())
        throw InputError("--drop-caches needs root (it writes /proc/sys/vm/drop_caches); without it IOLab "
                         "evicts every file it reads with fdatasync + posix_fadvise(DONTNEED) before each "
                         "repetition");

    // Ctrl-C and SIGTERM from here on stop what is under way (the calibration, the run) and remove its files.
    std::stop_source stopSource;
    std::jthread watcher([&stopSource](const std::stop_token& stop) {
        while (!stop.stop_requested()) {
            if (g_interrupted.load(std::memory_order_relaxed)) {
                std::fprintf(stderr, "\ncancelling: removing the run's files...\n");
                stopSource.request_stop();
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    // The one estimate (core/analysis/estimate.h), over the target's calibration where one is kept; a run
    // that the typical figures price at more than a short while, or a --plan, calibrates first.
    const DurationEstimate estimate =
        planEstimate(*plan, options, target, registry, args, stopSource.get_token());
    if (args.planOnly && !stopSource.stop_requested()) {
        printPlan(*plan, options, target, estimate);
        return kExitOk;
    }

    ConsoleObserver observer(expanded, options, stderrIsTerminal(), args.quiet);
    observer.setCaseEstimates(estimate.caseSeconds);

    if (stopSource.stop_requested()) {
        std::fprintf(stderr, "cancelled before the run started: nothing was written\n");
        std::printf("cancelled before the run started\n");
        return kExitCasesFailed;
    }
    if (!args.quiet)
        fmt::print(stderr, "IOLab {}: {} case{} to run ({} refused before running) on {}, {}{}\n",
                   IOLAB_VERSION, expanded.cases.size(), expanded.cases.size() == 1 ? "" : "s",
                   expanded.refused.size(), target.path, describeEstimate(estimate), estimateBasis(estimate));
    RunResult result = runPlanOnTarget(registry, *plan, options, stopSource.get_token(), &observer);
    result.warnings.insert(result.warnings.begin(), concurrency.begin(), concurrency.end());
    watcher.request_stop();
    watcher.join();

    if (args.format == "pg") {
        // pg_test_fsync's layout and the sync lab's verdicts are the answer: IOLab's table and Summary would
        // say it twice.
        std::fputs(formatPgTestFsync(result, &registry).c_str(), stdout);
        if (args.latencyTable)
            printLatencyTable(result);
        printCrashProbe(result, registry, true);
    } else {
        printResults(result, ranking);
        printCrashProbe(result, registry, args.noSummary);
        std::fputs(memoryBudgetText(result).c_str(), stdout);
        if (const auto grid = cdmGrid(result, registry)) {
            std::printf("\nAs CrystalDiskMark shows it:\n");
            std::fputs(cdmGridText(*grid, result).c_str(), stdout);
        }
        if (args.latencyTable)
            printLatencyTable(result);
        printReplays(result, *plan);
        if (args.advise && !result.cancelled) { // a stopped run has not measured every way
            adviseOnRun(result, *plan, args.replays.front());
            printAdvice(result);
        } else if (!args.noSummary)
            printSummary(result, registry, ranking);
    }
    printTally(result);
    int status = allCasesOk(result) ? kExitOk : kExitCasesFailed;
    // The files are what leaves the machine; the terminal's own copy keeps the names.
    const RunResult toWrite = args.redact ? redactResult(result) : result;
    if (!args.jsonPath.empty()) {
        const auto outcome = writeFileAtomically(args.jsonPath, resultToJson(toWrite).dump(1) + "\n");
        if (!outcome.ok()) {
            std::fprintf(stderr, "error: %s\n", outcome.message.c_str());
            status = kExitCasesFailed;
        } else if (!args.quiet) {
            std::fprintf(stderr, "result JSON: %s\n", args.jsonPath.c_str());
        }
    }
    if (!args.csvPath.empty()) {
        Outcome outcome;
        std::string written;
        for (const auto& file : resultCsvFiles(toWrite, args.csvPath)) {
            outcome = writeFileAtomically(file.path, file.content);
            if (!outcome.ok())
                break;
            written += (written.empty() ? "" : ", ") + file.path;
        }
        if (!outcome.ok()) {
            std::fprintf(stderr, "error: %s\n", outcome.message.c_str());
            status = kExitCasesFailed;
        } else if (!args.quiet) {
            std::fprintf(stderr, "result CSV: %s\n", written.c_str());
        }
    }
    if (!args.prometheusPath.empty()) {
        // Written whole and renamed into place: the textfile collector never reads half a file.
        const auto outcome = writeFileAtomically(args.prometheusPath, resultToPrometheus(toWrite, &registry));
        if (!outcome.ok()) {
            std::fprintf(stderr, "error: %s\n", outcome.message.c_str());
            status = kExitCasesFailed;
        } else if (!args.quiet) {
            std::fprintf(stderr, "result metrics: %s\n", args.prometheusPath.c_str());
        }
    }
    return status;
}

spdlog::level::level_enum parseLevel(const std::string& text)
{
    const auto level = spdlog::level::from_str(text);
    if (level == spdlog::level::off && text != "off")
        throw InputError(
            fmt::format("--log-level: '{}' is not one of trace, debug, info, warn, error, off", text));
    return level;
}

// CLI11 reports a mistyped subcommand as a missing one ("A subcommand is required"): name the word the user
// typed, or say that none was given, with the list either way.
std::string subcommandProblem(const CLI::App& app, int argc, const char* const* argv)
{
    std::string known;
    for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        known += (known.empty() ? "" : ", ") + sub->get_name();
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--log-level") {
            ++i; // its value
            continue;
        }
        if (arg.starts_with("-"))
            return {}; // --help, --version, --log-level=X or a mistake CLI11 words well
        for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
            if (sub->get_name() == arg)
                return {};
        }
        return fmt::format("unknown subcommand '{}' (the subcommands are: {})", arg, known);
    }
    return fmt::format("a subcommand is required: {}", known);
}

// Every numeric flag's check, run on its text before CLI11 converts it, so that "1e6", "-1" or "abc" gets the
// same sentence as a number out of range: "--reps: give 1 to 1000 measured repetitions ('1e6' is not a whole
// number)".
CLI::Validator wholeNumber(std::uint64_t low, std::uint64_t high, const std::string& what)
{
    return CLI::Validator(
        [low, high, what](std::string& text) -> std::string {
            const std::string range = fmt::format("give {} to {} {}", low, high, what);
            if (text.empty() || text.size() > 20 ||
                !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
                return fmt::format("{} ('{}' is not a whole number)", range, text);
            const unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
            if (value < low || value > high || (value == ULLONG_MAX && text != std::to_string(ULLONG_MAX)))
                return fmt::format("{} ({} is out of range)", range, text);
            return {};
        },
        fmt::format("{}..{}", low, high));
}

} // namespace

int runCli(int argc, const char* const* argv)
{
    CLI::App app{"IOLab: measure how the way you write changes what you get.", "iolab-cli"};
    app.set_version_flag("--version", std::string("iolab-cli ") + IOLAB_VERSION);
    app.require_subcommand(1);
    std::string logLevel = "info";
    app.add_option("--log-level", logLevel, "Log file level: trace, debug, info, warn, error, off")
        ->capture_default_str();

    auto* strategies = app.add_subcommand("strategies", "List the strategies, with availability on this OS");
    std::string strategiesTarget;
    strategies->add_option("--target", strategiesTarget, "Also describe this target folder");

    app.add_subcommand("presets", "List the built-in presets");
    auto* targets = app.add_subcommand(
        "targets", "List the mounted filesystems you can write to, with their device facts");
    bool targetDetails = false;
    std::vector<std::string> detailFolders;
    targets->add_flag("--details", targetDetails,
                      "Each target's system facts: storage stack, device, filesystem, kernel, machine");
    targets->add_option("folders", detailFolders,
                        "With --details: these folders instead of every filesystem");

    auto* exportJob = app.add_subcommand("export-job", "Print a result's case to rerun elsewhere (a fio job "
                                                       "file, a DiskSpd command line or a C program), its "
                                                       "differences stated");
    std::string exportResult;
    std::size_t exportCase = 0;
    std::string exportAs = "fio";
    exportJob->add_option("result", exportResult, "A result JSON file")->required();
    exportJob->add_option("--case", exportCase, "The case's number, as the table numbers it (1 = the first)")
        ->required()
        ->check(wholeNumber(1, 100'000'000, "(a case's number, as the table numbers it)"));
    exportJob
        ->add_option(
            "--as", exportAs,
            "The format: fio (a fio job file), diskspd (a DiskSpd command line for Windows's cmd) or c (a "
            "standalone C program of the strategy's loop)")
        ->capture_default_str();

    ShowArgs showArgs;
    auto* show = app.add_subcommand("show", "Print a saved result as its run printed it: the table, the "
                                            "CrystalDiskMark grid, the Summary");
    show->add_option("result", showArgs.result, "A result JSON file (iolab-cli run --json, or the app's)")
        ->required();
    show->add_option(
            "--rank", showArgs.rank,
            "What the Summary ranks writes to a file by: durable (until the data is on the device) or "
            "apparent (until the last call returned)")
        ->capture_default_str();
    show->add_flag("--latency-table", showArgs.latencyTable,
                   "Print every latency percentile (p50 to p99.99, max) of each case's calls and sync calls");
    show->add_flag(
        "--redact", showArgs.redact,
        "Print it fit to share: the host name, paths, user names, serial numbers and MAC addresses "
        "replaced by placeholders, every figure kept");

    auto* clean =
        app.add_subcommand("clean", "Remove stale IOLab run folders (and only those) from a target");
    std::string cleanTarget;
    clean->add_option("target", cleanTarget, "The folder that holds iolab-run-* folders")->required();

    RecordArgs recordArgs;
    auto* record = addRecordCommand(app, recordArgs);
    ProfileArgs profileArgs;
    auto* profile = addProfileCommand(app, profileArgs);
    ImportArgs importArgs;
    auto* importLog = addImportCommand(app, importArgs);

    auto* run = app.add_subcommand("run", "Run a strategy matrix against a target folder");
    RunArgs args;
    run->add_option("--target", args.target, "Folder to write into (inside a marked run folder)")->required();
    run->add_option("--preset", args.preset, "A built-in matrix: " + presetNames());
    run->add_option("--matrix", args.matrixFile, "A matrix JSON file");
    run->add_option("--replay", args.replays,
                    "A trace (iolab-cli record or import wrote it) to replay: the program's calls re-issued "
                    "in the run folder with its sizes, offsets, flags, syncs and file lives, IOLab's pattern "
                    "as the data, timed like any case; its time inside the calls is set beside the "
                    "program's. Repeat for several traces");
    addAxisOptions(*run, args.axes);
    run->add_flag("--drop-caches", args.dropCaches,
                  "Cold reads: drop the whole page cache before each repetition (root only)");
    run->add_option(
        "--reps", args.repetitions,
        fmt::format("Measured repetitions per case (default: the preset's or matrix file's own, else "
                    "{}); the trimmed mean is shown from {} on",
                    kDefaultRepetitions, kTrimmedMeanMinCount));
    run->add_option("--warmups", args.warmups, "Warm-up repetitions per case (not counted)")
        ->capture_default_str();
    run->add_flag("--verify", args.verify, "Read every file back and check every byte");
    run->add_flag("--alternate", args.alternate,
                  "The cases take turns: a round of one repetition of every case, then the next, the order "
                  "reversed every other round, so that a device whose speed drifts over the minutes weighs "
                  "on every case alike (default: the matrix's own \"alternate\", else each case runs all "
                  "its repetitions before the next; iolab-cli advise always alternates)");
    run->add_option(
        "--latency-target", args.latencyTarget,
        "The most load whose call latency stays under a target, as fio's latency_target: e.g. "
        "1ms@p99, 500us@p99.9, 2ms (p99). The queued strategies' queue depth (and thread count) is "
        "swept, 1 to 128 when no --qd is given, and the Summary answers with the most IOPS that keep "
        "the percentile under the target and the next depth's cost; the queue-depth chart marks the "
        "target");
    run->add_option(
        "--crash-probe", args.crashProbe,
        "kill -9 probe: run each file-write case N more times in a child process killed (SIGKILL, "
        "Windows: TerminateProcess) where --crash-probe-at says, then check the files for bytes the "
        "API had acknowledged but that are lost, and say what the strategy's design can lose "
        "(default: the matrix's own, else 0). Refuses read, pipe and null cases");
    run->add_option(
        "--crash-probe-at", args.crashProbeAt,
        "Where the kill -9 probe kills: ack (default: each thread stops right after the call whose "
        "acknowledgement crosses a byte count drawn for the kill, and is killed there, so every kill "
        "tests what the API promised) or time (at a random moment, wherever the child is: mostly "
        "inside its slowest call, which can hide a buffer's loss)");
    run->add_option(
        "--crash-probe-seed", args.crashProbeSeed,
        "The seed of the kills' byte counts or moments, to repeat a probe kill for kill (default: "
        "drawn, and recorded in the result)");
    run->add_flag("--no-pipe-verify", args.noPipeVerify,
                  "Let the pipe reader splice to /dev/null instead of checking every byte");
    run->add_flag("--no-sampling", args.noSampling, "Do not sample CPU, memory and device counters");
    run->add_flag("--no-space-check", args.noSpaceCheck,
                  "Run cases even when the target lacks the free space (to see how a full disk behaves)");
    run->add_option("--json", args.jsonPath, "Write the result JSON here");
    run->add_flag(
        "--redact", args.redact,
        "Write the JSON, CSV and metrics fit to share: the host name, paths, user names, serial numbers and "
        "MAC addresses replaced by placeholders (the same value by the same one), every figure "
        "kept, and the result saying so first");
    run->add_option("--csv", args.csvPath, "Write the repetitions CSV here (samples go beside it)");
    run->add_option("--prometheus", args.prometheusPath,
                    "Write the headline figures here in Prometheus's text format, for node_exporter's "
                    "textfile collector (a FILE.prom in its folder): per case the rates, IOPS, latency and "
                    "the health verdict, labelled by machine, target, case and strategy");
    run->add_flag("--quiet", args.quiet, "No progress on stderr");
    run->add_flag("--latency-table", args.latencyTable,
                  "Print every latency percentile (p50 to p99.99, max) of each case's calls and sync calls");
    run->add_flag("--no-summary", args.noSummary,
                  "Do not print the Summary under the table (the question, the answer, what matters most, "
                  "what the figures cannot say)");
    run->add_option(
           "--rank", args.rank,
           "What the Summary ranks writes to a file by: durable (until the data is on the device) or "
           "apparent (until the last call returned)")
        ->capture_default_str();
    run->add_option(
           "--format", args.format,
           "How the results print: table (IOLab's table, the CrystalDiskMark grid where it applies and "
           "the Summary) or pg (pg_test_fsync's layout, ops/sec and usecs/op per sync method, with "
           "percentile columns, then the sync lab's findings and its two verdicts; for --preset sync-lab)")
        ->check(CLI::IsMember({"table", "pg"}))
        ->capture_default_str();
    run->add_flag("--plan", args.planOnly,
                  "Print the plan (the cases, those refused with their reasons, the space needed against the "
                  "free space, the time estimate) and exit without running; calibrates the estimate on the "
                  "target first when no calibration of it is kept");
    run->add_flag("--allow-concurrent", args.allowConcurrent,
                  "Run even while another IOLab run writes into the same target (the result says so)");

    RunArgs adviseArgs;
    std::string adviseTrace;
    auto* advise = app.add_subcommand(
        "advise", "Answer how a recorded program should write: its calls replayed as they were and in each "
                  "other way that keeps its durability (the same bytes synced at the same points), measured "
                  "here and ranked by the durable rate, with the code change for each");
    advise->add_option("trace", adviseTrace, "A trace iolab-cli record or import wrote")->required();
    advise->add_option("--target", adviseArgs.target, "Folder to write into (inside a marked run folder)")
        ->required();
    advise->add_option("--reps", adviseArgs.repetitions,
                       fmt::format("Measured repetitions per way (default {}: a way is named only where its "
                                   "lead holds against the noise)",
                                   kAdviceRepetitions));
    advise->add_option("--warmups", adviseArgs.warmups, "Warm-up repetitions per way (not counted)")
        ->capture_default_str();
    advise->add_flag("--verify", adviseArgs.verify, "Read every file back and check every byte");
    advise->add_option("--json", adviseArgs.jsonPath, "Write the result JSON here");
    advise->add_option("--prometheus", adviseArgs.prometheusPath,
                       "Write each way's headline figures here in Prometheus's text format, for "
                       "node_exporter's textfile collector");
    advise->add_flag("--redact", adviseArgs.redact,
                     "Write the JSON and metrics fit to share: names replaced by placeholders, every figure "
                     "kept");
    advise->add_flag("--quiet", adviseArgs.quiet, "No progress on stderr");
    advise->add_flag("--no-space-check", adviseArgs.noSpaceCheck,
                     "Run even when the target lacks the free space the replay needs");
    advise->get_option("--reps")->check(wholeNumber(1, kMaxRepetitions, "measured repetitions"));
    advise->get_option("--warmups")->check(wholeNumber(0, kMaxWarmups, "warm-up repetitions"));

    // The numeric flags' text checked before conversion (wholeNumber): one kind of message for every one.
    run->get_option("--reps")->check(wholeNumber(1, kMaxRepetitions, "measured repetitions"));
    run->get_option("--warmups")->check(wholeNumber(0, kMaxWarmups, "warm-up repetitions"));
    run->get_option("--crash-probe")->check(wholeNumber(0, kMaxCrashProbeKills, "kills per write case"));
    run->get_option("--crash-probe-seed")
        ->check(wholeNumber(0, std::numeric_limits<std::uint64_t>::max(), "as the seed (0: drawn)"));

    if (const auto problem = subcommandProblem(app, argc, argv); !problem.empty()) {
        std::fprintf(stderr, "iolab-cli: %s\n", problem.c_str());
        std::fprintf(stderr, "Run 'iolab-cli --help' for usage.\n");
        return kExitUsage;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "iolab-cli: %s\n", e.what());
        std::fprintf(stderr, "Run 'iolab-cli --help' for usage.\n");
        return kExitUsage;
    }

    try {
        LogConfig config;
        config.fileLevel = parseLevel(logLevel);
        config.filePath = defaultLogDirectory() + "/iolab.log";
        if (const auto error = configureLogging(config); !error.empty())
            std::fprintf(stderr, "warning: no log file (%s)\n", error.c_str());
        const Registry& registry = builtinRegistry();
        if (*strategies)
            return commandStrategies(registry, strategiesTarget);
        if (*targets)
            return commandTargets(targetDetails, detailFolders);
        if (app.got_subcommand("presets"))
            return commandPresets(registry);
        if (*clean)
            return commandClean(cleanTarget);
        if (*exportJob)
            return commandExportJob(exportResult, exportCase, exportAs);
        if (*show)
            return commandShow(registry, showArgs);
        if (*record)
            return commandRecord(recordArgs);
        if (*profile)
            return commandProfile(profileArgs);
        if (*importLog)
            return commandImport(importArgs);
        if (*advise) {
            adviseArgs.advise = true;
            adviseArgs.replays = {adviseTrace};
            if (!adviseArgs.repetitions)
                adviseArgs.repetitions = kAdviceRepetitions;
            return commandRun(registry, adviseArgs);
        }
        return commandRun(registry, args);
    } catch (const InputError& e) {
        std::fprintf(stderr, "iolab-cli: %s\n", e.what());
        return kExitUsage;
    }
}

} // namespace iolab::cli
