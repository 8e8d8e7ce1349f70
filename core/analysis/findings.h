// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

class Registry;

// One statement a report makes about a run, derived from its figures, with the numbers behind it. Each kind
// is declared once in finding_kinds.cpp (its name, importance, advice, terms and how the reports mark it).
struct Finding
{
    enum class Kind
    {
        Fastest,       // the fastest strategy of a comparison group at a chunk size, and its speed-up
        DurableGap,    // the writes returned far faster than the data became durable
        Noise,         // repetitions spread more than kNoisyCv
        Short,         // repetitions too short for the timer and scheduler to be negligible
        CacheIllusion, // a durable gap with data that fit in RAM, or the device saw far fewer bytes
        DirectIgnored, // O_DIRECT accepted but the page cache held the data (or the filesystem is in memory)
        FinalFlush,    // a direct write's final fsync took long with nothing cached: the device and metadata
        Tail,          // the slowest calls took far longer than the median call
        QueueDepth,    // how the rate grew with the queue depth, and where it stopped growing
        FlushHonesty,  // syncs or synchronous writes returned faster than the medium can store data
        Storage,       // a layer or mount option under the target that changes what every figure means
        CpuBound,      // the CPU was busy nearly all the time on the cores the case kept busy
        CacheCliff,    // a long write's rate fell once and stayed down: a cache in front of the medium filled
        Compression,   // zeros moved far faster than random bytes: a compressor or deduplicator took part
        Failed,        // a case failed or was refused at run time
        Cancelled,     // the run was stopped before the end
        Heat,          // a case's rate fell while the drive's thermal counters rose: it slowed itself to cool
        Count          // not a kind: how many there are; a new kind goes before it, with its declaration
    };
    Kind kind = Kind::Fastest;
    std::optional<std::uint32_t> caseIndex; // the case it is about, if one
    std::string text;                       // one or two sentences, numbers included
    std::string advice; // what to do about it, where it depends on the case ("" = the kind's own advice)

    friend bool operator==(const Finding&, const Finding&) = default;
};

// The kind's title in its declaration (finding_kinds.h): "durable gap", "O_DIRECT not honoured".
std::string toString(Finding::Kind kind);

// How a finding's text names its case: "case 3 (write 64 KiB, O_DSYNC)". The verdict puts plain words there.
std::string findingSubject(const CaseResult& c);

// Every finding of a run, in report order: fastest per comparison group and chunk size first (file writes
// ranked by `ranking`, pipes, the null device and reads apart with their one rate), then problems case by
// case. The registry says which strategies bypass the page cache; without one, no DirectIgnored finding is
// made.
std::vector<Finding> findings(const RunResult& result, const Registry* registry,
                              Ranking ranking = Ranking::Durable);

// The write cases whose syncs or synchronous writes returned faster than the medium can store data, where the
// device's facts make that an accusation (the FlushHonesty findings that do not say "IOLab cannot tell"): the
// sync lab leaves them out of its fastest durable method.
std::vector<std::uint32_t> flushDistrustedCases(const RunResult& result, const Registry* registry);

// Whether a case ran to the end and has a rate: the cases that can be ranked, drawn and compared.
bool hasRate(const CaseResult& c);

// The case whose median a case's speed-up is measured against: for writes plain stdio with its default
// buffer (any stdio buffer otherwise), for writes into a pipe plain write(2) into the pipe, for file sets
// files-serial (one file after another) over the same set, for other reads plain
// read(2) with the normal hint and the same threads (any hint otherwise), at the same chunk size, target kind
// and cache state. None when there is no such case. baselineStrategy() names the strategy: "stdio",
// "pipe-write", "files-serial" or "read" (the Direction form: "stdio" or "read"), the strategy declared
// for the case's baseline role (core/model/strategy_methods.h).
std::string baselineStrategy(Direction direction);
std::string baselineStrategy(const Case& c);
// Whether `candidate` can be the baseline of `c` (strategy, chunk, target, cache), and whether it is the
// preferred one (default buffer; normal hint and the same threads). The app's chooser uses the same rule.
bool canBeBaselineOf(const Case& candidate, const Case& c);
bool isPreferredBaselineOf(const Case& candidate, const Case& c);
// The case whose rate is `caseIndex`'s speed-up baseline; none for a case rewriting one chunk (its rate is
// ops).
std::optional<std::size_t> baselineCase(const RunResult& result, std::size_t caseIndex);

} // namespace iolab
