// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/latency_histogram.h"
#include "core/base/outcome.h"
#include "core/base/stats.h"
#include "core/model/case.h"
#include "core/model/matrix.h"
#include "core/model/system_facts.h"
#include "core/model/target.h"
#include "core/model/thermal.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

// Version 2 added per-call latency (the latency and queue-depth axes); version 1 files still open.
inline constexpr const char* kResultSchema = "iolab.result/2";
inline constexpr const char* kResultSchemaV1 = "iolab.result/1";

// One sampler tick (10 Hz). Rates are over the interval since the previous tick.
struct Sample
{
    double runSeconds = 0;       // since the run started
    std::uint32_t caseIndex = 0; // index into RunResult::cases
    std::int32_t repetition = 0; // index within the case, warm-ups first
    bool warmup = false;
    std::uint64_t bytesDone = 0; // in this repetition so far
    double intervalMBps = 0;     // apparent: bytes handed to the API
    double cpuUserPercent = 0;   // of one core
    double cpuSystemPercent = 0;
    std::uint64_t rssBytes = 0;
    std::uint64_t dirtyBytes = 0;
    std::uint64_t writebackBytes = 0;
    std::uint64_t deviceReadBytes = 0;    // since the repetition started
    std::uint64_t deviceWrittenBytes = 0; // since the repetition started
    double deviceWriteMBps = 0;           // over the interval
    double deviceReadMBps = 0;            // over the interval
    bool syncing = false;                 // in the final fsync after the timed part
    // Writes to files: the bytes counted as written but not yet made durable by a completed sync, over every
    // thread (power-loss exposure, core/engine/exposure.h); 0 for other cases.
    std::uint64_t atRiskBytes = 0;
    // A case under a memory limit: its memory cgroup's usage, page cache, dirty and write-back bytes; 0 for
    // other cases.
    std::uint64_t budgetUsageBytes = 0;
    std::uint64_t budgetPageCacheBytes = 0;
    std::uint64_t budgetDirtyBytes = 0;
    std::uint64_t budgetWritebackBytes = 0;

    friend bool operator==(const Sample&, const Sample&) = default;
};

// Power-loss exposure, computed rather than simulated: what a power cut would lose, assuming the device
// honours flushes (a process crash loses less: the page cache survives kill -9). The peak of the bytes
// acknowledged but not yet made durable by a completed sync, and the longest time such bytes waited for one;
// how each is had is in core/engine/exposure.h. A figure the case cannot tell is unknown, never guessed.
enum class ExposureBasis
{
    Exact, // maxBytes is the peak itself
    AtMost // maxBytes is an upper bound (the threads' own peaks summed, or a buffer's size)
};

struct Exposure
{
    std::optional<std::uint64_t> maxBytes;
    std::optional<double> maxSeconds; // an upper bound by at most one write's own time (exposure.h)
    ExposureBasis basis = ExposureBasis::Exact;
    std::string method; // how the data becomes durable, in words: "fdatasync every 8 writes"

    friend bool operator==(const Exposure&, const Exposure&) = default;
};

std::string toString(ExposureBasis basis);
ExposureBasis parseExposureBasis(std::string_view text);

// A case run under a memory limit: the limit and the highest its memory cgroup reached (usage, page cache
// and dirty page cache), over the timed part and the child's start.
struct MemoryBudgetUse
{
    std::uint64_t limitBytes = 0;
    std::uint64_t peakBytes = 0;
    std::uint64_t peakPageCacheBytes = 0;
    std::uint64_t peakDirtyBytes = 0;

    friend bool operator==(const MemoryBudgetUse&, const MemoryBudgetUse&) = default;
};

// Until steady (Case::steady): where a repetition's write rate settled, as core/engine/steady.h judges it.
struct SteadyState
{
    double fromSeconds = 0;      // the flat window's start, in seconds since the timed part began
    std::uint64_t fromBytes = 0; // the bytes written by then
    double reachedSeconds = 0;   // the window's end: when the rate was known to be steady
    double mbps = 0;             // the window's rate
    double fastestMBps = 0;      // the fastest stretch before (three tenths of a window)
    bool deviceRate = false;     // the device's write rate (a buffered write), else the calls'

    friend bool operator==(const SteadyState&, const SteadyState&) = default;
};

// A read/write mix (Case::readPercent), one way of it: the requests and bytes that went that way, their rate
// and IOPS over the repetition's time (apparent: until the last call returned), and their latency when the
// case timed its calls.
struct MixSide
{
    std::uint64_t ops = 0;
    std::uint64_t bytes = 0;
    double mbps = 0;
    double iops = 0;
    std::optional<LatencySummary> latency;

    friend bool operator==(const MixSide&, const MixSide&) = default;
};

struct MixFigures
{
    MixSide reads;
    MixSide writes;

    friend bool operator==(const MixFigures&, const MixFigures&) = default;
};

// A mix over a case's measured, successful repetitions: each way's rate and IOPS summarized, its latency
// merged into one histogram.
struct CaseMix
{
    Summary readMBps;
    Summary writeMBps;
    Summary readIops;
    Summary writeIops;
    std::uint64_t readOps = 0; // over those repetitions
    std::uint64_t writeOps = 0;
    std::optional<LatencyDistribution> readLatency;
    std::optional<LatencyDistribution> writeLatency;

    friend bool operator==(const CaseMix&, const CaseMix&) = default;
};

struct RepetitionResult
{
    std::uint32_t index = 0; // 0 = warm-up
    bool warmup = false;
    Outcome outcome;
    std::uint64_t bytes = 0;   // bytes written in the timed part
    double returnSeconds = 0;  // until the last call returned
    double durableSeconds = 0; // plus the final fsync where the data was not yet durable
    double apparentMBps = 0;
    double durableMBps = 0;
    double cpuUserSeconds = 0;
    double cpuSystemSeconds = 0;
    std::uint64_t peakRssBytes = 0;
    std::uint64_t deviceWrittenBytes = 0; // meaningful only when deviceObserved
    std::uint64_t deviceReadBytes = 0;
    bool deviceObserved = false;
    bool verified = false;
    // The case's time limit ended the timed part before its total size: `bytes` is what it did by then.
    bool timeLimitReached = false;
    // File-set reads: files read, and the per-file time (open to close) at the median and 99th percentile.
    std::uint64_t files = 0;
    double fileP50Seconds = 0;
    double fileP99Seconds = 0;
    // Reads: bytes of the data set in the page cache just before the timed part (cold: what eviction left;
    // warm: what the warming read left). Unknown where the OS cannot tell.
    std::optional<std::uint64_t> cachedBytes;
    // Writes to a file: evidence of whether the data went through the page cache, taken outside the timed
    // part. The written files' bytes in the page cache just after the timed part, and the system's Dirty +
    // Writeback bytes just before and just after it. Unknown where the OS cannot tell (Windows).
    std::optional<std::uint64_t> cachedAfterBytes;
    std::optional<std::uint64_t> dirtyBeforeBytes;
    std::optional<std::uint64_t> dirtyAfterBytes;
    // Per-call latency over every thread of the repetition, where the case timed its calls: each call of
    // the loop (a request from submission to completion for queued strategies), and each sync call.
    std::optional<LatencySummary> callLatency;
    std::optional<LatencySummary> syncLatency;
    // Writes to files: the power-loss exposure of this repetition; nullopt for other cases and older files.
    std::optional<Exposure> atRisk;
    // A case under a memory limit: what its cgroup used; nullopt for other cases and older files.
    std::optional<MemoryBudgetUse> memoryBudget;
    // A replay: the time its threads spent inside the re-issued calls, summed (the program's own figure is
    // the trace's), and the calls it made; nullopt for other cases.
    std::optional<double> insideSeconds;
    std::uint64_t replayedCalls = 0;
    // Until steady: where the rate settled, which ended the repetition; nullopt when it ran to its size or
    // time limit first (or the case does not watch its rate).
    std::optional<SteadyState> steady;
    // A read/write mix: reads and writes apart (callLatency holds both); nullopt for other cases.
    std::optional<MixFigures> mix;
    // The uring-* strategies: io_uring's options in effect on every thread's ring (what all of them had);
    // nullopt for other cases and older files.
    std::optional<UringOptions> uringInEffect;

    friend bool operator==(const RepetitionResult&, const RepetitionResult&) = default;
};

// One kill of the kill -9 probe: a child process ran the case and was killed with SIGKILL (Windows:
// TerminateProcess) `killAfterSeconds` into its writes; then every file was read back. Byte counts are over
// the case's data files (all threads).
struct KillCheck
{
    double killAfterSeconds = 0;
    // Kills at an acknowledgement point (CrashProbeAt::Ack): the byte count drawn for each data file (each
    // thread, or the one shared file); its writer stopped right after the call whose acknowledgement crossed
    // it. Empty for kills at a moment.
    std::vector<std::uint64_t> pointBytes;
    // Whether the kill came while the child was still writing; false: it had finished first (nothing is
    // judged from such a run).
    bool landed = false;
    std::string exit;                    // how the child ended: "killed by signal 9 (SIGKILL)"
    std::uint64_t acknowledgedBytes = 0; // what the API had acknowledged when the kill came
    std::uint64_t presentBytes = 0;      // acknowledged bytes found back, correct, in the data files
    // Acknowledged bytes found in none of the files: missing, holes or zeros inside the acknowledged range.
    std::uint64_t lostBytes = 0;
    std::uint64_t beyondBytes = 0; // correct bytes present beyond the acknowledged position
    std::uint64_t wrongBytes = 0;  // bytes that are neither the pattern's nor zeros: never acceptable
    // Acknowledged bytes missing from a data file but present in the strategy's scratch file (the batch of
    // mmap-batch-direct lives in a file-backed mapping, which survives the process).
    std::uint64_t scratchBytes = 0;

    friend bool operator==(const KillCheck&, const KillCheck&) = default;
};

// What a write strategy keeps in memory of its own for a case: bytes its API has acknowledged that the OS
// has not been handed yet (the strategy declares it: StrategyInfo; core/engine/crash_probe.h works it out for
// a case). A kill -9 loses them, whatever a probe's kills happened to see, unless that memory is a file's
// mapping, which outlives the process.
struct UserSpaceHold
{
    enum class Kind
    {
        Nothing,        // each call hands its bytes to the OS before it returns
        StdioBuffer,    // a C runtime's FILE buffer: lost
        Batch,          // a batch in memory of its own: lost
        FileBackedBatch // a batch in a shared mapping of a scratch file: kept in that file
    };
    Kind kind = Kind::Nothing;
    std::uint64_t bufferBytes = 0; // the stdio buffer's or the batch's size (0: unbuffered stdio)
    std::uint64_t heldBytes = 0;   // the most one writer holds there when a call has returned
    std::uint32_t writers = 1;     // how many hold it at once (threads with a file each; 1 for a shared file)
    std::string what;              // the memory in words: "its 1 MiB stdio buffer"
    std::string why;               // how much it holds and why, where that is not simply all of it

    // What a kill can lose by design: every writer's held bytes, unless they live in a file's mapping.
    std::uint64_t lossBytes() const
    {
        return kind == Kind::StdioBuffer || kind == Kind::Batch ? heldBytes * writers : 0;
    }

    friend bool operator==(const UserSpaceHold&, const UserSpaceHold&) = default;
};

std::string toString(UserSpaceHold::Kind kind); // "nothing", "stdio buffer", "batch", "file-backed batch"
UserSpaceHold::Kind parseUserSpaceHoldKind(std::string_view text);

// The kill -9 probe of one write case: `kills` extra runs of it in a child process, each killed where `at`
// says (an acknowledgement point or a moment, drawn from `seed`). A process crash is not a power cut: the
// page cache survives a kill -9, so this says what a crashing program loses, not what a power cut would.
struct CrashProbeResult
{
    std::uint64_t seed = 0;
    CrashProbeAt at = CrashProbeAt::Ack; // files from before issue 34 were all killed at a moment
    // What the strategy's design keeps in user space for the case; nullopt in files from before issue 34.
    std::optional<UserSpaceHold> hold;
    std::vector<KillCheck> kills;
    std::string failure; // why the probe could not finish ("" when it did)

    // Whether a crash loses nothing the API acknowledged: no when the design keeps acknowledged bytes where a
    // crash loses them (whatever the kills saw), or a landed kill lost an acknowledged byte or left a wrong
    // one; yes when kills landed and none did; nullopt when no kill landed and the design says nothing.
    std::optional<bool> survives() const;
    // The most acknowledged bytes one kill lost.
    std::uint64_t worstLossBytes() const;
    // The most a kill can lose: the worst kill's loss, or the design's, whichever is larger.
    std::uint64_t canLoseBytes() const;
    std::uint64_t worstScratchBytes() const;
    std::size_t landedKills() const;
    // How many landed kills lost an acknowledged byte.
    std::size_t lossyKills() const;

    friend bool operator==(const CrashProbeResult&, const CrashProbeResult&) = default;
};

// A replay case (strategy replay): what the recorded program did, to set the replay beside.
struct ReplayRecord
{
    std::string program;              // the recorded command line, "dd if=... of=..."
    double recordedInsideSeconds = 0; // the program's time inside the calls the replay re-issues
    std::uint64_t calls = 0;          // those calls, counted call by call
    std::uint64_t writeCalls = 0;
    std::uint64_t syncCalls = 0;
    std::uint64_t bytesWritten = 0;

    friend bool operator==(const ReplayRecord&, const ReplayRecord&) = default;
};

struct CaseResult
{
    std::uint32_t index = 0;
    // What the target's drive said of its heat before the case's first repetition and after its last
    // (SystemProbe::thermal); nullopt where it said nothing, and in older files.
    std::optional<ThermalReading> thermalBefore;
    std::optional<ThermalReading> thermalAfter;
    Case testCase;
    Status status = Status::Ok;
    std::string reason; // why it is not ok
    std::vector<RepetitionResult> repetitions;
    Summary apparentMBps; // over measured, successful repetitions
    Summary durableMBps;
    double stabilityMBps = 0; // stddev of the per-interval apparent MB/s during measured repetitions
    double cpuSecondsPerGiB = 0;
    std::uint64_t peakRssBytes = 0;
    std::vector<Sample> samples;
    // Reads: how the cache state was set before each repetition, e.g. "fdatasync + POSIX_FADV_DONTNEED on
    // each file"; the size of the data set read (also in the case's totalBytes).
    std::string cacheMethod;
    std::uint64_t dataSetBytes = 0;
    // File-set reads: files per second over the measured repetitions, and the medians of their per-file
    // latency percentiles.
    Summary filesPerSecond;
    double fileP50Seconds = 0;
    double fileP99Seconds = 0;
    // Whether the calls were timed and why ("recorded: each call is a system call"); the latency of the
    // measured, successful repetitions merged into one histogram (empty where none was recorded).
    std::string latencyChoice;
    std::optional<LatencyDistribution> callLatency;
    std::optional<LatencyDistribution> syncLatency;
    // The kill -9 probe's kills, when the run asked for them (RunOptions::crashProbe).
    std::optional<CrashProbeResult> crashProbe;
    // Writes to files: the worst exposure over the measured, successful repetitions (each figure its own
    // worst; AtMost when any repetition's bytes were a bound); nullopt for other cases and older files.
    std::optional<Exposure> atRisk;
    // A case under a memory limit: the highest of its repetitions' figures (warm-ups and failed ones
    // included: an OOM kill is the point); nullopt for other cases and older files.
    std::optional<MemoryBudgetUse> memoryBudget;
    // The wall time the whole case took: its data set's writing, warm-ups, repetitions, syncs, clean-up and
    // kill -9 probe included; what the duration estimate learns from (nullopt in older files).
    std::optional<double> wallSeconds;
    // A replay: the recorded program's side of the comparison; nullopt for other cases.
    std::optional<ReplayRecord> replay;
    // A read/write mix: reads and writes apart; nullopt for other cases.
    std::optional<CaseMix> mix;
    // The uring-* strategies: io_uring's options in effect in every repetition that set up its rings (what
    // all of them had, never more); nullopt for other cases, and in files from before issue 39 ("unknown").
    std::optional<UringOptions> uringInEffect;

    friend bool operator==(const CaseResult&, const CaseResult&) = default;
};

struct RunOptions
{
    std::uint32_t repetitions = kDefaultRepetitions;
    std::uint32_t warmups = 1;
    bool verifyFiles = false;
    bool verifyPipes = true;
    bool sampling = true;
    std::uint32_t sampleIntervalMs = 100;
    bool spaceCheck = true;
    bool dropCaches = false; // reads, cold: as root, drop the whole page cache instead of evicting per file
    // The kill -9 probe: each file-write case runs this many more times in a child process that is killed
    // where crashProbeAt says, and the files are checked for acknowledged bytes lost (0: no probe).
    std::uint32_t crashProbe = 0;
    std::uint64_t crashProbeSeed = 0; // the kill points' seed; 0: drawn when the run starts, then recorded
    CrashProbeAt crashProbeAt = CrashProbeAt::Ack;
    // The cases take turns: a round of one repetition of every case, then the next, the order reversed every
    // other round (Runner says why); else each case runs all its repetitions before the next starts.
    bool alternate = false;

    friend bool operator==(const RunOptions&, const RunOptions&) = default;
};

struct RunResult
{
    std::string schema = kResultSchema;
    std::string toolVersion;
    std::string startedAt; // ISO 8601, UTC
    std::string finishedAt;
    HostInfo host;
    TargetInfo target;
    // The storage stack under the target and the machine's settings that shape I/O, read when the run began.
    SystemFacts system;
    Matrix matrix;
    RunOptions options;
    std::vector<RefusedCase> refused;
    std::vector<CaseResult> cases;
    bool cancelled = false;
    // About the whole run, for every front end to show (e.g. another IOLab run wrote to the same target).
    std::vector<std::string> warnings;
    // A run of a recorded program's ways of writing (iolab-cli advise, the app's Find a faster way): the
    // answer to how it should write (core/analysis/program_advice.h's lines), kept with the result so that
    // History, the Summary and the PDF show it without the trace.
    std::vector<std::string> programAdvice;
    // Made fit to share (core/formats/result_redact.h): names replaced by placeholders, every figure kept.
    bool redacted = false;

    friend bool operator==(const RunResult&, const RunResult&) = default;
};

// Ok when every case ran ok; failures, refusals at run time and cancellation make it not ok.
bool allCasesOk(const RunResult& result);

// The cases that ran to their end, ok or not. A stopped run lists every planned case: the one it stopped
// (cut short, without figures) and those after it (never started) are Cancelled, and are not among these.
inline std::size_t casesRunToEnd(const RunResult& result)
{
    std::size_t ran = 0;
    for (const auto& c : result.cases)
        ran += c.status != Status::Cancelled ? 1 : 0;
    return ran;
}

// The cache methods the run's read cases used, each once, in case order (for footers and reports).
std::vector<std::string> cacheMethods(const RunResult& result);

} // namespace iolab
