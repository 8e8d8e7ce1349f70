// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/findings.h"

#include <string>
#include <vector>

namespace iolab {

// The terms a verdict's sentences may use, each explained once in its `terms` (verdict.cpp says how).
enum class Term
{
    Durable,
    Apparent,
    SpeedUp,
    Chunk,
    PageCache,
    Fsync,
    Direct,
    Spread,
    Ci,
    Significance
};

// How a kind of finding is marked where findings are listed: the PDF's "what matters most" and Findings set a
// Bad one in the colour of a failure (app/report/pdf_report.h, findingColour); the app's and the CLI's
// Summary list their highlights in one style.
enum class FindingMark
{
    Answer, // the answer itself: the Summary's answers and the PDF's tables give it, no list of findings does
    Plain,  // in the text's colour
    Bad     // a case is missing from the answer, or the figures are not what they claim to be
};

// One kind of finding, declared once: its name, what it weighs in the Summary, its advice and terms, and how
// the reports mark it. toString(), the verdict's highlights and the PDF iterate over or look up these
// declarations instead of naming the kinds. Adding a finding is its check (findings.cpp, system_checks.cpp)
// and its declaration (finding_kinds.cpp).
struct FindingKindSpec
{
    Finding::Kind kind = Finding::Kind::Fastest;
    std::string id;    // stable, lower case with dashes: "direct-ignored"
    std::string title; // before its sentence in the PDF's findings, and toString(): "O_DIRECT not honoured"
    FindingMark mark = FindingMark::Plain;
    // The Summary's "what matters most" takes one finding per importance, the lowest first, at most three;
    // kinds that share one share its place (the first found stands for both). Not used for an Answer.
    int importance = 0;
    // One line: what to do about it, unless the finding gives its own (Finding::advice). "" for an Answer.
    std::string advice;
    // The terms its sentence and advice use, explained in the Summary when it is among the highlights.
    std::vector<Term> terms;
};

// Every kind's declaration, in the order of Finding::Kind (the index is the kind's value).
const std::vector<FindingKindSpec>& findingKinds();
// The declaration of `kind`.
const FindingKindSpec& findingKind(Finding::Kind kind);

} // namespace iolab
