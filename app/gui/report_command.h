// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <QString>

namespace iolab {
class Registry;
}

namespace iolab::gui {

// Writes a result in the format its extension names (.pdf report, .csv files, .json result), through a
// temporary file renamed into place, so that a failure leaves no partial file. Returns "" or the error.
// `ranking`: what the PDF ranks writes to a file by (the app's switch).
QString exportResultFile(const RunResult& result, const QString& path, const Registry* registry,
                         Ranking ranking = Ranking::Durable);

// `iolab report RESULT.json --pdf OUT.pdf [--csv OUT.csv] [--json OUT.json] [--page a4|letter]
// [--rank durable|apparent]`: renders without a display. Returns the exit code: 0 written, 1 an output could
// not be written, 2 bad input.
int reportCommand(int argc, char** argv);

} // namespace iolab::gui
