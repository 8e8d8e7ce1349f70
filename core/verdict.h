// SPDX-License-Identifier: MIT
#pragma once

#include "core/findings.h"
#include "core/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

class Registry;

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

// The answer a run gives, for a customer: no internal ids in its sentences, units on every number.
struct Verdict
{
    struct Highlight
    {
        Finding::Kind kind = Finding::Kind::Fastest;
        std::optional<std::uint32_t> caseIndex;
        std::string what;   // the finding, one sentence with its numbers
        std::string advice; // one-line recommendation
    };

    std::string question;              // the question the matrix asked, one line
    std::vector<std::string> answers;  // one sentence per comparison group that ran, best first
    std::vector<Highlight> highlights; // at most three, the most important first
    std::vector<std::string> limits;   // what the figures cannot say
    std::vector<std::string> terms;    // each term the sentences use, explained once ("durable: ...")
};

Verdict verdict(const RunResult& result, const Registry* registry, Ranking ranking = Ranking::Durable);

// The verdict as plain text lines for a terminal or a log (headed "Summary"), wrapped at `width` columns.
std::vector<std::string> verdictLines(const Verdict& v, std::size_t width = 100);

} // namespace iolab
