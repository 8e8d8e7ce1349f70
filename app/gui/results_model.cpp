// SPDX-License-Identifier: MIT
#include "app/gui/results_model.h"
#include "app/gui/text_helpers.h"

#include "core/analysis/findings.h"
#include "core/analysis/mix_answer.h"
#include "core/analysis/significance.h"
#include "core/analysis/warnings.h"
#include "core/base/units.h"
#include "core/engine/exposure.h"
#include "core/model/axes.h"

#include <QLocale>
#include <QPalette>

#include <fmt/format.h>

namespace iolab::gui {

namespace {

bool measured(const CaseResult& c)
{
    return c.status == Status::Ok && c.apparentMBps.count > 0;
}

// A percentile in nanoseconds of the latency the case's row shows (headlineLatency: its sync calls when it
// syncs in its loop, else its calls), when it timed any.
std::optional<std::uint64_t> callPercentileNs(const CaseResult& c, int figure)
{
    const HeadlineLatency headline = headlineLatency(c);
    if (headline.distribution == nullptr)
        return std::nullopt;
    const LatencySummary& s = headline.distribution->summary;
    return figure == ResultsModel::CallP50Column   ? s.p50Ns
           : figure == ResultsModel::CallP99Column ? s.p99Ns
                                                   : s.p999Ns;
}

// Calls per second at the median apparent rate: one call moves one chunk. A file set's calls are files.
std::optional<double> iops(const CaseResult& c)
{
    if (!measured(c) || c.testCase.chunkBytes == 0 || !c.testCase.fileSet.empty() ||
        c.filesPerSecond.count > 0)
        return std::nullopt;
    return c.apparentMBps.median * kBytesPerMB / static_cast<double>(c.testCase.chunkBytes);
}

int axisColumnCount()
{
    return static_cast<int>(axisColumnsInOrder().size());
}

// The axes shown in `column` (the declared axis columns follow the case number), or nullptr.
const std::vector<const AxisSpec*>* axesAt(int column)
{
    const auto& columns = axisColumnsInOrder();
    const int at = column - 1;
    return at >= 0 && at < static_cast<int>(columns.size()) ? &columns[static_cast<std::size_t>(at)]
                                                            : nullptr;
}

// The figure (its Column constant) or the case number shown in `column`; -1 for an axis column or none.
int figureAt(int column)
{
    if (column == ResultsModel::CaseColumn)
        return ResultsModel::CaseColumn;
    const int figure = column - 1 - axisColumnCount() + ResultsModel::MedianColumn;
    return figure >= ResultsModel::MedianColumn && figure < ResultsModel::ColumnCount ? figure : -1;
}

// A case's cell in an axis column: the parts of its axes, joined by ", " ("" when none has one).
std::string axisCellText(const std::vector<const AxisSpec*>& axes, const Case& k)
{
    std::string text;
    for (const AxisSpec* axis : axes) {
        const std::string part = axis->column.text ? axis->column.text(k) : axis->format(k);
        if (part.empty())
            continue;
        text += text.empty() ? part : ", " + part;
    }
    return text;
}

} // namespace

int ResultsModel::figureColumn(Column figure)
{
    return figure <= CaseColumn ? CaseColumn : figure - MedianColumn + 1 + axisColumnCount();
}

int ResultsModel::axisColumn(std::string_view resultKey)
{
    const auto& columns = axisColumnsInOrder();
    for (std::size_t i = 0; i < columns.size(); ++i) {
        for (const AxisSpec* axis : columns[i]) {
            if (axis->resultKey == resultKey)
                return static_cast<int>(i) + 1;
        }
    }
    return -1;
}

std::vector<int> ResultsModel::axisColumns()
{
    std::vector<int> out;
    for (int column = 1; column <= axisColumnCount(); ++column)
        out.push_back(column);
    return out;
}

std::vector<const AxisSpec*> ResultsModel::axesInColumn(int column)
{
    const auto* axes = axesAt(column);
    return axes ? *axes : std::vector<const AxisSpec*>{};
}

ResultsModel::ResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ResultsModel::setResult(const RunResult& result)
{
    beginResetModel();
    m_rows.clear();
    for (const auto& c : result.cases)
        m_rows.push_back({c, false});
    for (const auto& refused : result.refused) {
        CaseResult c;
        c.index = static_cast<std::uint32_t>(m_rows.size());
        c.testCase = refused.testCase;
        c.status = Status::Refused;
        c.reason = refused.reason;
        m_rows.push_back({c, true});
    }
    m_baselineRow.reset();
    endResetModel();
}

void ResultsModel::updateCase(const CaseResult& result)
{
    for (auto& row : m_rows) {
        if (!row.refusedBeforeRun && row.result.index == result.index) {
            row.result = result;
            // The speed-up of every row may depend on this one.
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
            return;
        }
    }
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_rows.push_back({result, false});
    endInsertRows();
    const int speedup = figureColumn(SpeedupColumn);
    Q_EMIT dataChanged(index(0, speedup), index(rowCount() - 1, speedup));
}

void ResultsModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_baselineRow.reset();
    endResetModel();
}

void ResultsModel::setBaselineRow(std::optional<int> row)
{
    if (row && (*row < 0 || *row >= rowCount()))
        row.reset();
    m_baselineRow = row;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

std::optional<int> ResultsModel::baselineFor(int row) const
{
    if (m_baselineRow)
        return m_baselineRow;
    const auto& c = m_rows[static_cast<std::size_t>(row)].result.testCase;
    std::optional<int> any;
    for (int i = 0; i < rowCount(); ++i) {
        const auto& candidate = m_rows[static_cast<std::size_t>(i)].result;
        if (!canBeBaselineOf(candidate.testCase, c) || !measured(candidate))
            continue;
        if (isPreferredBaselineOf(candidate.testCase, c))
            return i;
        if (!any)
            any = i;
    }
    return any;
}

std::optional<RateDifference> ResultsModel::speedupDifference(int row) const
{
    const auto& c = m_rows[static_cast<std::size_t>(row)].result;
    const auto base = baselineFor(row);
    if (!measured(c) || !base || *base == row)
        return std::nullopt;
    const auto& b = m_rows[static_cast<std::size_t>(*base)].result;
    if (!measured(b) || comparisonGroup(b.testCase) != comparisonGroup(c.testCase))
        return std::nullopt;
    return compareCases(c, b, m_ranking);
}

std::optional<double> ResultsModel::speedup(int row) const
{
    const auto& c = m_rows[static_cast<std::size_t>(row)].result;
    const auto base = baselineFor(row);
    if (!measured(c) || !base)
        return std::nullopt;
    const auto& b = m_rows[static_cast<std::size_t>(*base)].result;
    // A pipe is no rival of a file: never a speed-up across comparison groups, even against a chosen row.
    if (!measured(b) || comparisonGroup(b.testCase) != comparisonGroup(c.testCase))
        return std::nullopt;
    const Summary& mine = rankedRate(c, m_ranking);
    const Summary& theirs = rankedRate(b, m_ranking);
    if (mine.count == 0 || theirs.count == 0 || theirs.median <= 0)
        return std::nullopt;
    return mine.median / theirs.median;
}

void ResultsModel::setRanking(Ranking ranking)
{
    if (m_ranking == ranking)
        return;
    m_ranking = ranking;
    // The speed-ups, the spread, the interval and the ranked sort all follow the ranking.
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

std::optional<std::uint32_t> ResultsModel::caseIndexAt(int row) const
{
    if (row < 0 || row >= static_cast<int>(m_rows.size()) ||
        m_rows[static_cast<std::size_t>(row)].refusedBeforeRun)
        return std::nullopt;
    return m_rows[static_cast<std::size_t>(row)].result.index;
}

int ResultsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ResultsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount - MedianColumn + 1 + axisColumnCount();
}

QVariant ResultsModel::display(const Row& row, int rowIndex, int column) const
{
    const auto& c = row.result;
    const auto& k = c.testCase;
    const bool ok = measured(c);
    if (const auto* axes = axesAt(column)) {
        const std::string text = axisCellText(*axes, k);
        return text.empty() ? QVariant() : QVariant(qs(text));
    }
    switch (figureAt(column)) {
    case CaseColumn:
        return row.refusedBeforeRun ? QStringLiteral("-") : QString::number(c.index + 1);
    case FilesPerSecondColumn:
        return ok && c.filesPerSecond.count > 0 ? tr("%1 files/s").arg(c.filesPerSecond.median, 0, 'f', 0)
                                                : QVariant();
    case FileP50Column:
        return ok && c.filesPerSecond.count > 0 ? qs(formatLatency(c.fileP50Seconds)) : QVariant();
    case FileP99Column:
        return ok && c.filesPerSecond.count > 0 ? qs(formatLatency(c.fileP99Seconds)) : QVariant();
    case MedianColumn:
        return ok ? qs(formatRate(c.apparentMBps.median * kBytesPerMB)) : QVariant();
    case CallP50Column:
    case CallP99Column:
    case CallP999Column:
        if (const auto ns = callPercentileNs(c, figureAt(column))) {
            // Which call a figure is of, where the case timed two kinds.
            const HeadlineLatency headline = headlineLatency(c);
            return qs(formatLatency(static_cast<double>(*ns) * 1e-9) +
                      (headline.ofSyncs ? " (" + headline.call + ")" : std::string()));
        }
        return {};
    case SyncP99Column:
        if (c.syncLatency && c.syncLatency->summary.count > 0)
            return qs(formatLatency(static_cast<double>(c.syncLatency->summary.p99Ns) * 1e-9));
        return {};
    case IopsColumn:
        if (const auto rate = iops(c))
            return QLocale().toString(*rate, 'f', 0);
        return {};
    case MixFiguresColumn:
        // Reads and writes apart: "reads 45.2 MB/s, 11,040 IOPS, p99 2.10 ms; writes ...".
        if (ok && c.mix && c.mix->readMBps.count > 0)
            return qs(mixSideText(c, true) + "; " + mixSideText(c, false));
        return {};
    case TrimmedMeanColumn:
        return ok ? qs(formatRate(c.apparentMBps.trimmedMean * kBytesPerMB)) : QVariant();
    case CiColumn: {
        // The interval of the rate the case is ranked by, so it sits beside the figure it qualifies.
        const Summary& ranked = rankedRate(c, m_ranking);
        if (!ok || ranked.count < 2)
            return {};
        return tr("%1 - %2 MB/s").arg(std::max(0.0, ranked.ciLow), 0, 'f', 1).arg(ranked.ciHigh, 0, 'f', 1);
    }
    case DurableColumn:
        // A pipe or the null device keeps nothing: only writes to a file have a durable rate.
        // A read/write mix's writes reach the disk too: its durable rate includes the file's fsync.
        return ok && (comparisonGroup(k) == ComparisonGroup::FileWrites || mixes(k)) &&
                       c.durableMBps.count > 0
                   ? qs(formatRate(c.durableMBps.median * kBytesPerMB))
                   : QVariant();
    case AtRiskColumn:
        return ok && c.atRisk ? qs(formatExposure(*c.atRisk)) : QVariant();
    case SpeedupColumn:
        if (auto s = speedup(rowIndex))
            return tr("%1x").arg(*s, 0, 'f', 2);
        return {};
    case CpuColumn:
        return ok ? tr("%1 s/GiB").arg(c.cpuSecondsPerGiB, 0, 'f', 3) : QVariant();
    case RssColumn:
        return c.peakRssBytes > 0 ? qs(formatBytes(c.peakRssBytes)) : QVariant();
    case TempColumn: {
        const std::string text = temperatureText(c.thermalBefore, c.thermalAfter);
        return text.empty() ? QVariant() : QVariant(qs(text));
    }
    case StabilityColumn: {
        // The spread of the repetitions behind the ranked rate, as the noise rule judges it.
        const RepetitionSpread spread = repetitionSpread(c, m_ranking);
        if (!ok || spread.used < 2)
            return {};
        return tr("%1%").arg(spread.cv * 100, 0, 'f', 1);
    }
    case SurvivesKillColumn: {
        if (!c.crashProbe)
            return {};
        const auto survives = c.crashProbe->survives();
        if (!survives)
            return c.crashProbe->failure.empty() ? tr("not known") : tr("not run");
        if (*survives)
            return c.crashProbe->worstScratchBytes() != 0 ? tr("yes (batch in scratch file)") : tr("yes");
        return tr("no: loses up to %1").arg(qs(formatBytes(c.crashProbe->canLoseBytes())));
    }
    case StatusColumn:
        return qs(toString(c.status));
    case ReasonColumn:
        return qs(c.reason);
    default:
        return {};
    }
}

QVariant ResultsModel::sortValue(const Row& row, int rowIndex, int column) const
{
    const auto& c = row.result;
    const auto& k = c.testCase;
    const bool ok = measured(c);
    if (const auto* axes = axesAt(column)) {
        const AxisSpec& shown = *axes->front();
        return shown.column.sortValue ? QVariant(shown.column.sortValue(k)) : display(row, rowIndex, column);
    }
    switch (figureAt(column)) {
    case CaseColumn:
        return row.refusedBeforeRun ? QVariant(1e9 + rowIndex) : QVariant(static_cast<double>(c.index));
    case MedianColumn:
        return ok ? c.apparentMBps.median : -1.0;
    case CiColumn:
        return ok ? rankedRate(c, m_ranking).median : -1.0;
    case TrimmedMeanColumn:
        return ok ? c.apparentMBps.trimmedMean : -1.0;
    case DurableColumn:
        // A file write's durable rate, and the one rate of a pipe, the null device or a read: the rate cases
        // are ranked by, so that the table, opened sorted by this column, lists them as the Summary ranks.
        return ok ? rankedRate(c, Ranking::Durable).median : -1.0;
    case SpeedupColumn:
        return speedup(rowIndex).value_or(-1.0);
    case AtRiskColumn:
        // By the bytes; unknown sorts with the most at risk, never as safe.
        if (!ok || !c.atRisk)
            return -1.0;
        return c.atRisk->maxBytes ? static_cast<double>(*c.atRisk->maxBytes) : 1e300;
    case CpuColumn:
        return ok ? c.cpuSecondsPerGiB : -1.0;
    case RssColumn:
        return static_cast<qulonglong>(c.peakRssBytes);
    case TempColumn:
        return c.thermalAfter && c.thermalAfter->celsius ? *c.thermalAfter->celsius : -300.0;
    case StabilityColumn: {
        const RepetitionSpread spread = repetitionSpread(c, m_ranking);
        return ok && spread.used >= 2 ? spread.cv : -1.0;
    }
    case SurvivesKillColumn:
        // Losing nothing first, then by how much was lost.
        if (!c.crashProbe || !c.crashProbe->survives())
            return -2.0;
        return *c.crashProbe->survives() ? 0.0 : -1.0 - static_cast<double>(c.crashProbe->canLoseBytes());
    case FilesPerSecondColumn:
        return ok && c.filesPerSecond.count > 0 ? c.filesPerSecond.median : -1.0;
    case FileP50Column:
        return ok && c.filesPerSecond.count > 0 ? c.fileP50Seconds : -1.0;
    case FileP99Column:
        return ok && c.filesPerSecond.count > 0 ? c.fileP99Seconds : -1.0;
    case CallP50Column:
    case CallP99Column:
    case CallP999Column:
        if (const auto ns = callPercentileNs(c, figureAt(column)))
            return static_cast<double>(*ns);
        return -1.0;
    case SyncP99Column:
        return c.syncLatency && c.syncLatency->summary.count > 0
                   ? static_cast<double>(c.syncLatency->summary.p99Ns)
                   : -1.0;
    case IopsColumn:
        return iops(c).value_or(-1.0);
    case MixFiguresColumn:
        return ok && c.mix ? c.mix->readMBps.median + c.mix->writeMBps.median : -1.0;
    default:
        return display(row, rowIndex, column);
    }
}

QVariant ResultsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.row(), index.column());
    case SortRole:
        return sortValue(row, index.row(), index.column());
    case Qt::ForegroundRole:
        // A speed-up within the noise is greyed: a figure, not a finding.
        if (figureAt(index.column()) == SpeedupColumn) {
            if (const auto d = speedupDifference(index.row()); d && !d->holds())
                return QVariant::fromValue(QPalette().color(QPalette::Disabled, QPalette::Text));
        }
        return {};
    case Qt::ToolTipRole:
        if (figureAt(index.column()) == SpeedupColumn) {
            if (const auto d = speedupDifference(index.row())) {
                const std::string verdict =
                    d->holds() ? "beyond the noise"
                    : d->kind == RateDifference::Kind::Untestable
                        ? "not a finding: a single repetition on a side has no spread to judge by"
                        : "within the noise: the repetitions do not show a difference at 95% confidence";
                return qs(
                    fmt::format("{:.2f}x the baseline, {} ({})", d->ratio, verdict, describeTest(d->test)));
            }
        }
        if (figureAt(index.column()) == StabilityColumn) {
            const RepetitionSpread spread = repetitionSpread(row.result, m_ranking);
            if (spread.used >= 2)
                return qs(describeSpread(spread));
        }
        if (const HeadlineLatency headline = headlineLatency(row.result);
            headline.ofSyncs && row.result.callLatency &&
            (figureAt(index.column()) == CallP50Column || figureAt(index.column()) == CallP99Column ||
             figureAt(index.column()) == CallP999Column)) {
            const LatencySummary& w = row.result.callLatency->summary;
            const LatencySummary& y = headline.distribution->summary;
            const auto ms = [](std::uint64_t ns) {
                return formatLatency(static_cast<double>(ns) * 1e-9);
            };
            return qs(fmt::format(
                "Its {} calls: p50 {}, p99 {}, p99.9 {}\nIts write calls: p50 {}, p99 {}, p99.9 {}",
                headline.call, ms(y.p50Ns), ms(y.p99Ns), ms(y.p999Ns), ms(w.p50Ns), ms(w.p99Ns),
                ms(w.p999Ns)));
        }
        if (const auto& risk = row.result.atRisk; risk && figureAt(index.column()) == AtRiskColumn)
            return qs(fmt::format("{}: {} ({})\n{}", formatExposure(*risk), risk->method,
                                  toString(risk->basis), kExposureMeaning));
        return row.result.reason.empty() ? qs(row.result.testCase.label())
                                         : qs(row.result.testCase.label() + "\n" + row.result.reason);
    case Qt::TextAlignmentRole: {
        const auto* axes = axesAt(index.column());
        const int figure = figureAt(index.column());
        if (axes ? axes->front()->column.alignRight : figure >= MedianColumn && figure <= StabilityColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    }
    default:
        return {};
    }
}

QString ResultsModel::columnToolTip(int section)
{
    if (const auto* axes = axesAt(section)) {
        const AxisSpec& shown = *axes->front();
        return qs(shown.column.tip.empty() ? shown.help : shown.column.tip);
    }
    switch (figureAt(section)) {
    case CaseColumn:
        return tr("The case's number in the run; '-' for a combination refused before the run");
    case MedianColumn:
        return tr("Apparent rate, median over the repetitions: how fast the calls returned. Writes mostly "
                  "land in the page cache, so this can be far above what the disk takes");
    case TrimmedMeanColumn:
        return tr("Mean of the repetitions without the slowest and the fastest one. Shown only with five "
                  "repetitions or more: with three it always equals the median");
    case CiColumn:
        return tr(
            "95% confidence interval of the mean of the rate the cases are ranked by (durable for writes "
            "to a file unless Rank by says apparent) over the repetitions: when two cases' intervals "
            "overlap, their difference may be noise");
    case DurableColumn:
        return tr(
            "Durable rate, median: bytes written divided by the time until the final fsync returned, "
            "that is until the data was really on storage. The figure that counts for writes to a file");
    case AtRiskColumn:
        return tr("Max at risk: the most bytes acknowledged (the call returned) but not yet made durable by "
                  "a "
                  "completed sync (fsync, fdatasync, an O_SYNC/O_DSYNC write, FlushFileBuffers), and the "
                  "longest time such bytes waited. ") +
               qs(kExposureMeaning) +
               tr(". 'at most': an upper bound (several threads' peaks summed, or a buffer's size)");
    case SpeedupColumn:
        return tr(
            "How many times faster than the baseline (see 'Speed-up against'): by default plain stdio "
            "for writes or read(2) for reads, at the same chunk size, by the rate the results are ranked "
            "by (durable for writes to a file unless 'Rank by' says apparent). 2.00x is twice as fast; "
            "never across groups (a pipe against a file)");
    case FilesPerSecondColumn:
        return tr("File-set reads: files opened, read and closed per second (median)");
    case FileP50Column:
    case FileP99Column:
        return tr("File-set reads: the time one file took from open to close, at the median and the 99th "
                  "percentile (medians over the measured repetitions)");
    case CallP50Column:
        return tr("p50: half of the timed calls (write, read, a queued request until it completed) took at "
                  "most this long; the typical call");
    case CallP99Column:
        return tr("p99: 99% of the timed calls took at most this long; one call in a hundred took longer. "
                  "Far above p50, a few calls stall (the page cache flushing, a device queue filling)");
    case CallP999Column:
        return tr("p99.9: one call in a thousand took longer than this: the tail a user waiting on single "
                  "requests feels");
    case SyncP99Column:
        return tr(
            "Sync p99: 99% of the sync calls (fsync, fdatasync, FlushFileBuffers; for a write linked to "
            "its sync, the final one) took at most this long. etcd asks for under 10 ms on its log disk");
    case IopsColumn:
        return tr("IOPS: calls per second at the median apparent rate (MB/s divided by the chunk size); "
                  "one call moves one chunk");
    case MixFiguresColumn:
        return tr("A read/write mix (--read-percent): its reads and its writes apart, each with its median "
                  "rate, IOPS and, where the calls were timed, its p99 latency");
    case CpuColumn:
        return tr("CPU s/GiB: CPU seconds (user + system) spent per GiB moved; what the strategy costs the "
                  "processor, apart from waiting for the disk");
    case RssColumn:
        return tr("The most memory the process held during the case");
    case TempColumn:
        return tr(
            "The drive's temperature before the case's first repetition and after its last, as the drive "
            "reports it (Linux: hwmon and the NVMe health log; Windows: the storage temperature "
            "property); empty where it says nothing, as a virtual disk does");
    case StabilityColumn:
        return tr("Spread: how much the repetitions of the ranked rate vary (CV, the standard deviation over "
                  "the mean; from five repetitions on, of all but the slowest and the fastest). Over 5% the "
                  "row is noisy; empty with a single repetition, which has no spread to show");
    case SurvivesKillColumn:
        return tr(
            "The kill -9 probe: killed right after a call returned (or at random moments), did the case "
            "keep every byte its API had acknowledged (fwrite returned, a copy into a mapping ended, a "
            "completion came)? 'no' gives the most it can lose: what one kill lost, or what its design "
            "keeps in user space (a stdio buffer), whichever is more. A process crash is not a power "
            "cut: the page cache survives a kill -9");
    case StatusColumn:
        return tr("ok; failed (the reason says why); or refused (this combination cannot run on this "
                  "target)");
    case ReasonColumn:
        return tr("Why a case failed or was refused");
    default:
        return {};
    }
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole)
        return columnToolTip(section);
    if (role != Qt::DisplayRole)
        return {};
    if (const auto* axes = axesAt(section))
        return qs(axes->front()->columnHeader);
    switch (figureAt(section)) {
    case CaseColumn:
        return tr("#");
    case MedianColumn:
        return tr("Apparent");
    case TrimmedMeanColumn:
        return tr("Trimmed mean");
    case CiColumn:
        return tr("95% CI");
    case DurableColumn:
        return tr("Durable");
    case AtRiskColumn:
        return tr("Max at risk");
    case SpeedupColumn:
        return tr("Speed-up");
    case FilesPerSecondColumn:
        return tr("Files/s");
    case FileP50Column:
        return tr("p50/file");
    case FileP99Column:
        return tr("p99/file");
    case CallP50Column:
        return tr("p50");
    case CallP99Column:
        return tr("p99");
    case CallP999Column:
        return tr("p99.9");
    case SyncP99Column:
        return tr("Sync p99");
    case IopsColumn:
        return tr("IOPS");
    case MixFiguresColumn:
        return tr("Reads; writes");
    case CpuColumn:
        return tr("CPU");
    case RssColumn:
        return tr("Peak RSS");
    case TempColumn:
        return tr("Temp");
    case StabilityColumn:
        return tr("Spread (CV)");
    case SurvivesKillColumn:
        return tr("Survives kill -9");
    case StatusColumn:
        return tr("Status");
    case ReasonColumn:
        return tr("Reason");
    default:
        return {};
    }
}

} // namespace iolab::gui
