// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace iolab::report {

// The space between a number and its unit ("1.60 GB/s", "512 MiB", "38 ms") made non-breaking, and a word
// joiner after a rate's slash, so that a wrapped line never leaves "GB/s" (or "s") alone at the start of the
// next: the app's Summary and the PDF's page 1.
QString keepUnitsWithNumbers(const QString& text);

} // namespace iolab::report
