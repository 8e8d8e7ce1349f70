// SPDX-License-Identifier: MIT
#pragma once

#include "core/result.h"

#include <QByteArray>
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
};

// The whole report as a PDF: header, machine, target, findings, summary table, heatmap, bars by chunk with
// speed-ups, throughput over time per case, the matrix with its refused cases, and every repetition. Vector
// throughout, fonts embedded, "page k of n" on every page. The registry lets findings name O_DIRECT cases.
QByteArray renderPdfReport(const RunResult& result, const ReportOptions& options, const Registry* registry);

} // namespace iolab::report
