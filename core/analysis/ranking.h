// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <string>
#include <string_view>

namespace iolab {

// What cases are ranked by. A file write is ranked by what reached the disk (durable: the timed part plus the
// final fsync it still needed); Apparent ranks by the moment the last call returned. Reads, pipes and the
// null device have no durable figure and always rank by their one rate.
enum class Ranking
{
    Durable,
    Apparent
};

std::string toString(Ranking ranking);       // "durable", "apparent"
Ranking parseRanking(std::string_view text); // throws InputError with the accepted spellings

// Cases are only ever compared within their group: a write into a pipe is no rival of a write to a file.
enum class ComparisonGroup
{
    FileWrites,
    StreamWrites, // into a pipe or the null device
    ColdReads,
    WarmReads
};

ComparisonGroup comparisonGroup(const Case& c);
std::string toString(ComparisonGroup group); // plain words: "writes to a file", "writes into a pipe", ...

// Whether the case's ranked rate is its durable one under `ranking` (file writes only).
bool ranksDurable(const Case& c, Ranking ranking);
// The figures a case is ranked and coloured by: durableMBps or apparentMBps.
const Summary& rankedRate(const CaseResult& c, Ranking ranking);

// The latency a table shows for a case, and which call it is of. A case that syncs within its loop
// (fsync-every:N, fdatasync-every:N) shows its sync calls: that is the latency its durability costs, and its
// write calls' own figure is in the full latency table; any other case shows its calls.
struct HeadlineLatency
{
    const LatencyDistribution* distribution = nullptr; // nullptr: the case timed nothing
    std::string call;                                  // "fsync", "fdatasync" or "call"
    bool ofSyncs = false;
};
HeadlineLatency headlineLatency(const CaseResult& c);

} // namespace iolab
