// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/findings.h"
#include "core/analysis/health_verdict.h"
#include "core/analysis/machine_verdict.h"
#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

class Registry;

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

    // The health verdict, first, where the run measured the device in enough dimensions (health_verdict.h).
    std::optional<HealthVerdict> health;
    std::string question; // the question the matrix asked, one line
    // For a run of a recorded program's ways of writing: the answer to how it should write (RunResult::
    // programAdvice), first; a line of 6 spaces' indent or more is code, kept as it is.
    std::vector<std::string> program;
    std::vector<std::string> answers;  // one sentence per comparison group that ran, best first
    std::vector<Highlight> highlights; // at most three, the most important first
    // The machine (issue 18): the best durable write rate against the device class's typical range, the
    // likely causes from the facts and checks (ranked; "likely causes of a slow figure" when the rate is
    // below the range), and what could not be checked.
    std::string machine;
    bool belowTypical = false;
    std::vector<LikelyCause> causes;
    std::vector<std::string> unchecked;
    std::vector<std::string> limits; // what the figures cannot say
    std::vector<std::string> terms;  // each term the sentences use, explained once ("durable: ...")
    // What the run set for every case over its preset or matrix file, said under the question ("Overridden
    // for every case: duration 1 s, 1 repetition."); "" when nothing: the preset's description no longer
    // holds.
    std::string overridden;
};

Verdict verdict(const RunResult& result, const Registry* registry, Ranking ranking = Ranking::Durable);

// The likely causes as one sentence each ("The drive's write cache is off (evidence: ...; what to change:
// ...)"), for the health verdict's ticket-ready text.
std::vector<std::string> causeSentences(const Verdict& v);

// The verdict as plain text lines for a terminal or a log (headed "Summary"), wrapped at `width` columns.
std::vector<std::string> verdictLines(const Verdict& v, std::size_t width = 100);

// `text` wrapped as the Summary wraps it (a unit kept with its number): the first line after `first`, the
// others after `rest`.
std::vector<std::string> wrappedLines(const std::string& text, const std::string& first,
                                      const std::string& rest, std::size_t width = 100);

} // namespace iolab
