// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace iolab {

class Registry;

// One figure of the CrystalDiskMark grid: the case that measured it (the median of its measured repetitions,
// with the slowest and fastest of them: the spread, where CrystalDiskMark shows the best of N), or why
// there is none.
struct CdmCell
{
    std::optional<std::uint32_t> caseIndex;
    std::string strategy;
    double medianMBps = 0;
    double lowMBps = 0;  // the slowest measured repetition
    double highMBps = 0; // the fastest
    std::uint32_t repetitions = 0;
    double iops = 0;
    std::optional<std::uint64_t> p99Ns;
    std::string note; // what stood in, or why nothing was measured ("" for the queued case itself)
};

// CrystalDiskMark's four rows, read and write: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1.
struct CdmGrid
{
    struct Row
    {
        std::string name; // "SEQ1M Q8T1"
        std::uint64_t chunkBytes = 0;
        bool random = false;
        std::uint32_t queueDepth = 1;
        std::array<CdmCell, 2> cells; // read, write
    };
    std::array<Row, 4> rows;
};

// The grid of a run that measured at least one of its figures: each cell from the direct, one-thread case
// of a queued strategy with the row's chunk size, access and queue depth; where there is none, a synchronous
// direct case stands in (threads standing in for the queue depth) and the cell says so; where neither ran,
// the cell says why (refused, failed). nullopt when the run has none of the grid's cases. The registry tells
// random from sequential strategies and direct from buffered.
std::optional<CdmGrid> cdmGrid(const RunResult& result, const Registry& registry);

// The grid as plain text to paste into a ticket: a header, the four rows with MB/s, IOPS and p99 under each,
// and a line on what the figures are (medians with their spread, not CrystalDiskMark's best of N).
std::string cdmGridText(const CdmGrid& grid, const RunResult& result);

} // namespace iolab
