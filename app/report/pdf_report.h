// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/findings.h"
#include "core/analysis/program_profile.h"
#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <QByteArray>
#include <QColor>
#include <QString>

namespace iolab {
class Registry;
}

namespace iolab::report {

enum class PageFormat
{
    Auto, // Letter where the locale measures in inches, A4 elsewhere
    A4,
    Letter
};

struct ReportOptions
{
    PageFormat page = PageFormat::Auto;
    QString title; // "" = reportTitle(result): the matrix or preset, or what an ad-hoc matrix tested
    Ranking ranking = Ranking::Durable; // what writes to a file are ranked and coloured by
};

// The whole report as a PDF: on page 1 the summary (the verdict: question, answers, what matters most, what
// the figures cannot say, terms), the CrystalDiskMark-style grid when the run has one, then machine, target,
// a results table per comparison group, findings, a heatmap and bars by chunk with speed-ups per group, the
// call-latency percentiles and histograms when cases timed their calls, the queue-depth sweep when the run
// has one, throughput over time per case, the matrix with its refused cases, and every repetition. Vector
// throughout, fonts embedded, "page k of n" on every page. The registry lets findings name O_DIRECT cases.
QByteArray renderPdfReport(const RunResult& result, const ReportOptions& options, const Registry* registry);

// A recorded program's profile as a PDF (iolab report TRACE --pdf, the Program tab's Save as PDF...), for a
// support engineer to hand over: what the program is and when it was recorded, the profile's answer (where
// its time went, what it wrote how, its syncs, the most data at risk), a table of its files with their lives,
// its write and read sizes, and what the recorder could not see. `tracePath` names the trace in the text.
QByteArray renderProfilePdf(const ProgramProfile& profile, const QString& tracePath,
                            const ReportOptions& options);

// The colour the report sets a finding of `kind` in, on page 1 among what matters most and among the
// Findings: the colour of a failure for a kind its declaration marks Bad (core/analysis/finding_kinds.h), the
// text's otherwise.
QColor findingColour(Finding::Kind kind);

} // namespace iolab::report
