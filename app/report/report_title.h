// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <QString>

namespace iolab::report {

// The name a report goes by: the matrix's or preset's name, or, for a matrix given on the command line,
// what it tested: "stdio and write at 4 KiB and 64 KiB".
QString matrixTitle(const RunResult& result);
// "IOLab report: " and matrixTitle().
QString reportTitle(const RunResult& result);

} // namespace iolab::report
