// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

namespace iolab::gui {

// The Export dialog's file types, PDF first: its name filters and the extension each one writes.
QStringList exportNameFilters();
QString extensionOfFilter(const QString& nameFilter); // "pdf" for "PDF report (*.pdf)"; "" if none

// `fileName` with the extension the chosen filter writes: "run.json" + the PDF filter gives "run.pdf";
// a name without a known extension gets one added.
QString fileNameForFilter(const QString& fileName, const QString& nameFilter);

// The status bar's line after an export: where it went, or that it failed and why.
QString exportStatusText(const QString& path, const QString& error);

} // namespace iolab::gui
