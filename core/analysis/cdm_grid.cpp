// SPDX-License-Identifier: MIT
#include "core/analysis/cdm_grid.h"

#include "core/base/units.h"
#include "core/engine/registry.h"
#include "core/engine/strategy.h"

#include <fmt/format.h>

#include <algorithm>

namespace iolab {

namespace {

struct RowSpec
{
    const char* name;
    std::uint64_t chunkBytes;
    bool random;
    std::uint32_t queueDepth;
};

constexpr std::array<RowSpec, 4> kRows{{{"SEQ1M Q8T1", 1 * kMiB, false, 8},
                                        {"SEQ1M Q1T1", 1 * kMiB, false, 1},
                                        {"RND4K Q32T1", 4 * kKiB, true, 32},
                                        {"RND4K Q1T1", 4 * kKiB, true, 1}}};

// Whether a case is one of the grid's kind at all: direct I/O on the row's chunk size and access. A cell is
// pure reads or pure writes at uniform offsets, as CrystalDiskMark measures them: a read/write mix or a hot
// spot is another question and never fills one (a 100% read share at uniform offsets is a pure read).
bool fitsRow(const Case& k, const StrategyInfo& info, const RowSpec& row, Direction direction)
{
    return k.direction == direction && info.direction == direction && info.needsDirectIo &&
           info.randomOffsets == row.random && k.chunkBytes == row.chunkBytes &&
           k.target == TargetKind::Directory && !mixes(k) && !k.randomDist.hotSpot();
}

CdmCell cellOf(const CaseResult& c, std::string note)
{
    CdmCell cell;
    cell.caseIndex = c.index;
    cell.strategy = c.testCase.strategy;
    cell.note = std::move(note);
    if (c.status != Status::Ok || c.apparentMBps.count == 0) {
        cell.note = fmt::format("not measured: {}", c.reason.empty() ? toString(c.status) : c.reason);
        return cell;
    }
    cell.medianMBps = c.apparentMBps.median;
    cell.lowMBps = c.apparentMBps.min;
    cell.highMBps = c.apparentMBps.max;
    cell.repetitions = static_cast<std::uint32_t>(c.apparentMBps.count);
    cell.iops = cell.medianMBps * 1e6 / static_cast<double>(c.testCase.chunkBytes);
    if (c.callLatency)
        cell.p99Ns = c.callLatency->summary.p99Ns;
    return cell;
}

std::optional<CdmCell> findCell(const RunResult& result, const Registry& registry, const RowSpec& row,
                                Direction direction)
{
    const CaseResult* queued = nullptr;
    const CaseResult* standIn = nullptr;
    for (const auto& c : result.cases) {
        const Strategy* s = registry.find(c.testCase.strategy);
        if (s == nullptr || !fitsRow(c.testCase, s->info(), row, direction))
            continue;
        const Case& k = c.testCase;
        if (k.queueDepth == row.queueDepth && k.threads == 1 && (queued == nullptr || c.status == Status::Ok))
            queued = queued != nullptr && queued->status == Status::Ok ? queued : &c;
        else if (k.queueDepth == 0 && k.threads == row.queueDepth && standIn == nullptr)
            standIn = &c;
    }
    if (queued != nullptr && queued->status == Status::Ok)
        return cellOf(*queued, "");
    if (standIn != nullptr && standIn->status == Status::Ok) {
        const std::string why = queued != nullptr ? fmt::format(" ({} did not run: {})",
                                                                queued->testCase.strategy, queued->reason)
                                                  : std::string();
        return cellOf(*standIn,
                      row.queueDepth == 1
                          ? fmt::format("stood in: {}, one call at a time{}", standIn->testCase.strategy, why)
                          : fmt::format("stood in: {} threads of {} instead of a queue of {}{}",
                                        row.queueDepth, standIn->testCase.strategy, row.queueDepth, why));
    }
    if (queued != nullptr)
        return cellOf(*queued, "");
    for (const auto& r : result.refused) {
        const Strategy* s = registry.find(r.testCase.strategy);
        if (s != nullptr && s->info().unavailable)
            continue; // the other OS's family: this OS's stands in its place
        if (s != nullptr && fitsRow(r.testCase, s->info(), row, direction) &&
            r.testCase.queueDepth == row.queueDepth && r.testCase.threads == 1) {
            CdmCell cell;
            cell.strategy = r.testCase.strategy;
            cell.note = "refused: " + r.reason;
            return cell;
        }
    }
    return std::nullopt;
}

std::string mbps(double v)
{
    return v >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.2f}", v);
}

} // namespace

std::optional<CdmGrid> cdmGrid(const RunResult& result, const Registry& registry)
{
    CdmGrid grid;
    bool any = false;
    for (std::size_t i = 0; i < kRows.size(); ++i) {
        const RowSpec& spec = kRows[i];
        CdmGrid::Row& row = grid.rows[i];
        row.name = spec.name;
        row.chunkBytes = spec.chunkBytes;
        row.random = spec.random;
        row.queueDepth = spec.queueDepth;
        for (const Direction direction : {Direction::Read, Direction::Write}) {
            CdmCell& cell = row.cells[direction == Direction::Read ? 0 : 1];
            if (auto found = findCell(result, registry, spec, direction)) {
                cell = std::move(*found);
                any = any || cell.caseIndex.has_value();
            } else {
                cell.note = "not in this run";
            }
        }
    }
    return any ? std::optional<CdmGrid>(std::move(grid)) : std::nullopt;
}

std::string cdmGridText(const CdmGrid& grid, const RunResult& result)
{
    std::string text = fmt::format("IOLab {} - CrystalDiskMark-style grid - {} ({})\n", result.toolVersion,
                                   result.target.path, result.startedAt);
    text += fmt::format("{:<12} {:>24} {:>24}\n", "", "Read [MB/s]", "Write [MB/s]");
    std::vector<std::string> notes;
    for (const auto& row : grid.rows) {
        std::array<std::string, 2> figure;
        std::array<std::string, 2> detail;
        for (std::size_t i = 0; i < 2; ++i) {
            const CdmCell& cell = row.cells[i];
            if (cell.repetitions == 0) {
                figure[i] = "-";
                detail[i] = "";
            } else {
                figure[i] =
                    fmt::format("{} ({}-{})", mbps(cell.medianMBps), mbps(cell.lowMBps), mbps(cell.highMBps));
                detail[i] = fmt::format(
                    "{:.0f} IOPS{}", cell.iops,
                    cell.p99Ns
                        ? fmt::format(", p99 {}", formatLatency(static_cast<double>(*cell.p99Ns) * 1e-9))
                        : std::string());
            }
            if (!cell.note.empty())
                notes.push_back(fmt::format("{} {}: {}", row.name, i == 0 ? "read" : "write", cell.note));
        }
        text += fmt::format("{:<12} {:>24} {:>24}\n", row.name, figure[0], figure[1]);
        text += fmt::format("{:<12} {:>24} {:>24}\n", "", detail[0], detail[1]);
    }
    text +=
        "MB/s = 10^6 bytes/s: the median of the measured repetitions, with the slowest and the fastest in "
        "brackets (CrystalDiskMark shows the best of N). Direct I/O, one thread; Q = requests in flight.\n";
    for (const auto& note : notes)
        text += note + "\n";
    return text;
}

} // namespace iolab
