// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/case.h"
#include "core/model/target.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

class StrategyCatalog;

inline constexpr std::uint32_t kMaxThreads = 1024;
inline constexpr std::uint64_t kMaxChunkBytes = 1ULL << 30; // 1 GiB
inline constexpr std::uint64_t kMaxTotalBytes = 1ULL << 44; // 16 TiB
inline constexpr std::uint64_t kMaxCases = 100'000;         // combinations one run may expand to
inline constexpr std::uint32_t kDefaultRepetitions = 3; // measured repetitions when nothing says otherwise
inline constexpr std::uint32_t kMaxRepetitions = 1000;
inline constexpr std::uint32_t kMaxCrashProbeKills = 100; // kill -9 probe runs per write case

// Where the kill -9 probe's kills land. Ack: each child stops itself right after the call whose
// acknowledgement crosses a byte count drawn for the kill, and is killed there, so that every kill tests what
// the API promised when it returned. Time: at a drawn moment, wherever the child then is (mostly inside its
// slowest call: a stdio buffer's write(2), where nothing acknowledged is still in the process).
enum class CrashProbeAt
{
    Ack,
    Time
};
std::string toString(CrashProbeAt at); // "ack", "time"
// Throws InputError naming the text.
CrashProbeAt parseCrashProbeAt(std::string_view text);

// A latency target (fio's latency_target): the highest load whose chosen percentile of the call latency stays
// under `seconds`; the Summary answers it per series of queued cases that differ only in their queue depth
// and threads. "1ms@p99", "500us@p99.9", "2ms" (p99).
struct LatencyTarget
{
    double seconds = 0;
    double percentile = 99; // one of 50, 90, 99, 99.9, 99.99: the percentiles a histogram summary holds

    friend bool operator==(const LatencyTarget&, const LatencyTarget&) = default;
};
std::string toString(const LatencyTarget& target); // "1ms@p99"
// Throws InputError with the accepted spellings.
LatencyTarget parseLatencyTarget(std::string_view text);

// One cartesian product of axis values. Empty optional axes take their defaults: buffers -> n/a (stdio
// strategies: default), syncs -> none, threads -> 1, targets -> each strategy's own target, hints -> each
// read strategy's default, caches -> cold. Each strategy takes the axes it has: file-set readers the file
// sets, every other strategy the sizes.
struct MatrixGroup
{
    std::vector<std::string> strategies;
    std::vector<std::uint64_t> chunks;
    std::vector<std::uint64_t> sizes;
    std::vector<StdioBuffer> buffers;
    std::vector<SyncPolicy> syncs;
    std::vector<std::uint32_t> threads;
    std::vector<TargetKind> targets;
    std::vector<ReadHint> hints;                  // reads: empty -> each strategy's default hint
    std::vector<CacheState> caches;               // reads: empty -> cold
    std::vector<FileSetSpec> fileSets;            // file-set strategies read these instead of a size
    std::vector<Preallocate> preallocations;      // writes to a file: empty -> none
    std::vector<ReaderCpu> readerCpus;            // pipes: empty -> any
    std::vector<std::uint32_t> queueDepths;       // queued strategies: empty -> 1
    std::vector<LatencyMode> latencies;           // empty -> auto
    std::vector<DataPattern> patterns;            // empty -> iolab
    std::vector<std::uint64_t> timeLimitsMs;      // empty -> none (0)
    std::vector<std::uint64_t> memoryLimitsBytes; // empty -> none (0)
    std::vector<SteadyRule> steadyRules;          // writes to a file: empty -> off
    std::vector<std::uint32_t> freeSharesPercent; // writes to a file: empty -> none (0)
    std::vector<std::optional<std::uint32_t>> readPercents; // random readers: empty -> every request reads
    std::vector<RandomDist> randomDists;                    // random readers: empty -> uniform
    std::vector<UringOptions> uringOptions;                 // uring-* strategies: empty -> auto
    // Axes declared without a typed field (core/model/axes.h): matrix key -> values; absent -> its default.
    std::map<std::string, std::vector<std::string>> extraAxes;

    friend bool operator==(const MatrixGroup&, const MatrixGroup&) = default;
};

// What a run set for every case over a preset or a matrix file (iolab-cli's --size, --duration and --reps):
// how much and how long each case runs, never what it does. Kept in the matrix the run ran, so that every
// front end says that its figures are not the preset's own.
struct CaseOverrides
{
    std::vector<std::uint64_t> sizes;        // empty: the matrix's own
    std::vector<std::uint64_t> timeLimitsMs; // empty: the matrix's own; {0}: none, each case runs to its size
    std::optional<std::uint32_t> repetitions;
    // The strategies that keep their own value: file-set readers read every file of their set, whatever the
    // size or the time limit (set by applyOverrides).
    std::vector<std::string> untouched;

    bool any() const { return !sizes.empty() || !timeLimitsMs.empty() || repetitions.has_value(); }
    friend bool operator==(const CaseOverrides&, const CaseOverrides&) = default;
};

// A matrix is the union of its groups, so a preset can pair stdio's buffer axis with other strategies that
// have none.
struct Matrix
{
    std::string name;
    std::string description;
    std::vector<MatrixGroup> groups;
    std::string question; // the one question the matrix asks, for the verdict ("" = made from the cases)
    // The measured repetitions its answer needs, when a run does not say (nullopt: kDefaultRepetitions). A
    // preset whose cases vary more than others on a busy machine asks for enough to leave out the lowest and
    // the highest (kTrimmedMeanMinCount).
    std::optional<std::uint32_t> repetitions;
    // The kill -9 probe's kills per write case it asks for, when a run does not say (RunOptions::crashProbe).
    std::optional<std::uint32_t> crashProbe;
    // What the run set over the matrix for every case; the groups and `repetitions` already hold it.
    CaseOverrides overridden;
    // Where those kills land, when a run does not say (RunOptions::crashProbeAt).
    std::optional<CrashProbeAt> crashProbeAt;
    // Its cases take turns, a round of one repetition of each: the front ends set RunOptions::alternate from
    // it (the CLI's --alternate, the editor's Take turns); a matrix whose answer is a ratio between its cases
    // asks for it.
    std::optional<bool> alternate;
    // The latency its queued cases are judged against (iolab-cli --latency-target); nullopt: none.
    std::optional<LatencyTarget> latencyTarget;

    friend bool operator==(const Matrix&, const Matrix&) = default;
};

struct RefusedCase
{
    Case testCase;
    std::string reason;

    friend bool operator==(const RefusedCase&, const RefusedCase&) = default;
};

struct ExpandedMatrix
{
    std::vector<Case> cases;
    std::vector<RefusedCase> refused; // every combination that will not run, with the reason
};

// Checks the values themselves (unknown strategy, zero or absurd sizes, thread counts, more than kMaxCases
// combinations); throws InputError.
void validate(const Matrix& matrix, const StrategyCatalog& registry);

// Gives every group of `matrix` these sizes (--size over a preset or a matrix file). A group's memory limits
// keep their share of its size: the limit scales with its largest size (a 1 GiB limit on 4 GiB becomes 64 MiB
// on 256 MiB), rounded up to a MiB and never below the smallest limit IOLab sets.
void overrideSizes(Matrix& matrix, const std::vector<std::uint64_t>& sizes);

// Sets `overrides` on every case of `matrix` and records them in `matrix.overridden`: the sizes as
// overrideSizes() does, the time limits on every strategy that takes one (a group that mixes file-set readers
// with others is split, keeping the order of its strategies), the measured repetitions. Strategies the
// registry does not know are left for validate() to name.
void applyOverrides(Matrix& matrix, CaseOverrides overrides, const StrategyCatalog& registry);

// The overrides in words, for the Summary's "Overridden for every case: " line: "duration 1 s, 1 repetition",
// "size 256 MiB (memory limits scaled to 64 MiB)"; "" when nothing was overridden. `matrix`: as it ran.
std::string overridesText(const Matrix& matrix);

// How many combinations expand() would make (refused ones included), counted from the axis sizes without
// making them; saturates at the largest uint64. Unknown strategies count nothing.
std::uint64_t caseCount(const Matrix& matrix, const StrategyCatalog& registry);

// Expands to the valid cases on this target; every other combination is listed in `refused`.
ExpandedMatrix expand(const Matrix& matrix, const StrategyCatalog& registry, const TargetInfo& target);

// Why `c` cannot run with this strategy on this target, or "" when it can.
std::string refusalReason(const Case& c, const StrategyCatalog& registry, const TargetInfo& target);

} // namespace iolab
