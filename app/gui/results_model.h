// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/ranking.h"
#include "core/analysis/significance.h"
#include "core/model/result.h"

#include <QAbstractTableModel>

#include <optional>
#include <string_view>
#include <vector>

namespace iolab {
struct AxisSpec;
}

namespace iolab::gui {

// The results table: one row per case of a run, refused ones included (they are shown, never hidden). Numbers
// are displayed with units and given to sorting raw through SortRole, so a proxy sorts 950 MB/s below 1.2
// GB/s.
class ResultsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    // The columns: the case number, then one column per declared axis column (core/model/axes.h,
    // AxisColumn: the built-in axes' are Strategy to Latency), then the figures (Apparent to Reason). The
    // constants are the columns with only the built-in axes declared; an axis declared with a column of its
    // own moves the figures right, so code that must hold for any axis asks figureColumn() and
    // axisColumn() instead (results_view.cpp does).
    enum Column
    {
        CaseColumn,
        StrategyColumn,
        ChunkColumn,
        BufferColumn,
        SyncColumn,
        ReadColumn,
        ReaderCpuColumn,
        MixColumn,     // a random reader's read share and hot spot (--read-percent, --random-dist)
        PatternColumn, // the data pattern (iolab, zeros, random, compressible:N%)
        QueueDepthColumn,
        UringColumn, // io_uring's own options (--uring)
        ThreadsColumn,
        SizeColumn,
        FreeShareColumn,   // the share of free space a write's size was capped at (--free-share)
        TimeLimitColumn,   // a case's time limit (--duration), where one has it
        SteadyColumn,      // until steady (--until-steady), where a case has it
        MemoryLimitColumn, // a case's memory limit (--memory-limit), where one has it
        LatencyColumn,     // the latency mode asked for (auto, on, off)
        MedianColumn,      // the first figure
        TrimmedMeanColumn,
        CiColumn,
        DurableColumn,
        AtRiskColumn, // power-loss exposure: max bytes at risk, for how long (CaseResult::atRisk)
        SpeedupColumn,
        FilesPerSecondColumn,
        FileP50Column,
        FileP99Column,
        CallP50Column, // of each call, over the measured repetitions (CaseResult::callLatency)
        CallP99Column,
        CallP999Column,
        SyncP99Column, // of each sync call (fsync, fdatasync, FlushFileBuffers): CaseResult::syncLatency
        IopsColumn,
        MixFiguresColumn, // a read/write mix's reads and writes apart (CaseResult::mix)
        CpuColumn,
        RssColumn,
        TempColumn, // the drive's temperature before and after the case, where it says (issue 39)
        StabilityColumn,
        SurvivesKillColumn, // the kill -9 probe's answer (CaseResult::crashProbe)
        StatusColumn,
        ReasonColumn,
        ColumnCount // with only the built-in axes declared
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit ResultsModel(QObject* parent = nullptr);

    void setResult(const RunResult& result);
    // Adds or replaces one case while a run is going.
    void updateCase(const CaseResult& result);
    void clear();

    // The row whose median the speed-up column divides by; by default plain stdio (default buffer if there is
    // one) at the same chunk size, found per row.
    void setBaselineRow(std::optional<int> row);
    // Speed-ups divide the ranked rates: durable for writes to a file under Ranking::Durable (the default).
    void setRanking(Ranking ranking);
    Ranking ranking() const { return m_ranking; }
    std::optional<int> baselineFor(int row) const;
    // The speed-up's difference judged against the noise (significance.h); none without a speed-up.
    std::optional<RateDifference> speedupDifference(int row) const;
    // The case a row shows (its index in the run's cases); none for a combination refused before the run.
    std::optional<std::uint32_t> caseIndexAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // What a column means, in plain words (its header's tooltip).
    static QString columnToolTip(int section);

    // The column of the case number or of a figure (MedianColumn to ReasonColumn) with the axes declared now.
    static int figureColumn(Column figure);
    // The column that shows the axis with this result key (its own or the one it shares), or -1.
    static int axisColumn(std::string_view resultKey);
    // The declared axis columns, left to right.
    static std::vector<int> axisColumns();
    // The axes a column shows, the one with the header first; empty for the case number and the figures.
    static std::vector<const AxisSpec*> axesInColumn(int column);

private:
    struct Row
    {
        CaseResult result;
        bool refusedBeforeRun = false;
    };
    std::optional<double> speedup(int row) const;
    QVariant display(const Row& row, int rowIndex, int column) const;
    QVariant sortValue(const Row& row, int rowIndex, int column) const;

    std::vector<Row> m_rows;
    std::optional<int> m_baselineRow;
    Ranking m_ranking = Ranking::Durable;
};

} // namespace iolab::gui
