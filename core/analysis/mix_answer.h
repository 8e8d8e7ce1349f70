// SPDX-License-Identifier: MIT
// The answer for read/write mixes (Case::readPercent): what each way got when reads and writes share the
// device, in the Summary's words.
#pragma once

#include "core/model/result.h"

#include <string>
#include <vector>

namespace iolab {

// One sentence per measured mixed case, in case order: "Mix, #3 uring-random-read-direct 4K QD 32, 70% reads
// over a Zipf hot spot (theta 1.2): reads 45.2 MB/s (11,040 IOPS, p99 2.10 ms), writes 19.4 MB/s (4,730 IOPS,
// p99 3.40 ms), 64.6 MB/s together." Where several mixes differ only in their read share, one more sentence
// says how the total moved with the writes' share. Empty when the run has no mix.
std::vector<std::string> mixAnswers(const RunResult& result);

// A mixed case's figures in a few words for tables and charts: "reads 45.2 MB/s, 11,040 IOPS, p99 2.10 ms";
// "" when the case has none.
std::string mixSideText(const CaseResult& c, bool reads);

} // namespace iolab
