// SPDX-License-Identifier: MIT
#include "app/gui/history.h"

#include "app/gui/text_helpers.h"

#include "core/analysis/comparability.h"
#include "core/analysis/findings.h"
#include "core/analysis/ranking.h"
#include "core/analysis/significance.h"
#include "core/base/error.h"
#include "core/base/units.h"
#include "core/formats/result_json.h"
#include "platform/platform.h"

#include <QColor>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPalette>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

namespace iolab::gui {

namespace {

bool measured(const std::optional<CaseResult>& c)
{
    return c && hasRate(*c);
}

// Compare ranks as the results do: a write to a file by what reached the disk (durable), anything else by
// its one rate.
bool comparesDurable(const Case& c)
{
    return ranksDurable(c, Ranking::Durable);
}

const Summary& comparedRate(const CaseResult& c)
{
    return rankedRate(c, Ranking::Durable);
}

bool rankedMeasured(const std::optional<CaseResult>& c)
{
    return measured(c) && comparedRate(*c).count > 0 && comparedRate(*c).median > 0;
}

} // namespace

HistoryStore::HistoryStore(QString folder) : m_folder(std::move(folder)) {}

QString HistoryStore::save(const RunResult& result, QString* error) const
{
    if (!QDir().mkpath(m_folder)) {
        *error = QObject::tr("Cannot create the history folder %1.").arg(m_folder);
        return {};
    }
    // 2026-11-22T09:15:02Z + matrix name -> 20261122-091502-quick.json
    QString stamp = qs(result.startedAt);
    stamp.remove(QRegularExpression(QStringLiteral("[^0-9T]")));
    stamp.replace(QLatin1Char('T'), QLatin1Char('-'));
    QString name = qs(result.matrix.name)
                       .replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("_"));
    if (name.isEmpty())
        name = QStringLiteral("run");
    QString path = QDir(m_folder).filePath(QStringLiteral("%1-%2.json").arg(stamp, name));
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = QDir(m_folder).filePath(QStringLiteral("%1-%2-%3.json").arg(stamp, name).arg(n));
    const Outcome outcome = writeFileAtomically(path.toStdString(), resultToJson(result).dump(1) + "\n");
    if (!outcome.ok()) {
        *error = QObject::tr("The run was not saved to history: %1").arg(qs(outcome.message));
        return {};
    }
    return path;
}

std::optional<RunResult> HistoryStore::load(const QString& path, QString* error) const
{
    if (QFileInfo(path).isDir()) {
        *error = QObject::tr("%1 is a folder; give a result JSON file").arg(path);
        return std::nullopt;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QObject::tr("Cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    try {
        return resultFromJson(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                              QFileInfo(path).fileName().toStdString());
    } catch (const InputError& e) {
        *error = qs(e.what());
        return std::nullopt;
    }
}

bool HistoryStore::remove(const QString& path, QString* error) const
{
    // Only files directly in the history folder, whatever path the caller passes.
    if (QFileInfo(path).absolutePath() != QFileInfo(m_folder).absoluteFilePath()) {
        *error = QObject::tr("%1 is not in the history folder.").arg(path);
        return false;
    }
    QFile file(path);
    if (!file.remove()) {
        *error = QObject::tr("Cannot delete %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

std::vector<HistoryEntry> HistoryStore::list() const
{
    std::vector<HistoryEntry> entries;
    const QDir dir(m_folder);
    for (const auto& info :
         dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name | QDir::Reversed)) {
        HistoryEntry e;
        e.path = info.absoluteFilePath();
        QString why;
        const auto run = load(e.path, &why);
        if (!run) {
            e.problem = why;
            e.startedAt = info.lastModified().toUTC().toString(Qt::ISODate);
            e.matrixName = info.fileName();
            entries.push_back(std::move(e));
            continue;
        }
        e.startedAt = qs(run->startedAt);
        e.matrixName = qs(run->matrix.name);
        e.target = qs(run->target.path);
        e.cases = static_cast<int>(run->cases.size());
        e.okCases =
            static_cast<int>(std::count_if(run->cases.begin(), run->cases.end(),
                                           [](const CaseResult& c) { return c.status == Status::Ok; }));
        e.cancelled = run->cancelled;
        entries.push_back(std::move(e));
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const HistoryEntry& a, const HistoryEntry& b) { return a.startedAt > b.startedAt; });
    return entries;
}

HistorySnapshot scanHistory(const HistoryStore& store, int knownRuns)
{
    HistorySnapshot snapshot;
    snapshot.entries = store.list();
    int loaded = 0;
    for (const auto& e : snapshot.entries) {
        if (loaded >= knownRuns)
            break;
        if (!e.problem.isEmpty())
            continue;
        QString error;
        auto run = store.load(e.path, &error);
        if (!run)
            continue;
        ++loaded;
        for (auto& c : run->cases) {
            if (c.status != Status::Ok)
                continue;
            c.samples.clear();
            snapshot.known.push_back(std::move(c));
        }
    }
    return snapshot;
}

HistoryModel::HistoryModel(QObject* parent) : QAbstractTableModel(parent) {}

void HistoryModel::setEntries(std::vector<HistoryEntry> entries)
{
    beginResetModel();
    m_entries = std::move(entries);
    endResetModel();
}

int HistoryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int HistoryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const HistoryEntry& e = m_entries[static_cast<std::size_t>(index.row())];
    if (role == Qt::ToolTipRole)
        return e.problem.isEmpty() ? e.path : tr("%1\n%2").arg(e.path, e.problem);
    if (role == Qt::ForegroundRole && !e.problem.isEmpty())
        return QColor(0xc0, 0x39, 0x2b);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case StartedColumn:
        return e.startedAt;
    case MatrixColumn:
        return e.matrixName;
    case TargetColumn:
        return e.target;
    case CasesColumn:
        return e.problem.isEmpty() ? QVariant(e.cases) : QVariant();
    case StatusColumn:
        if (!e.problem.isEmpty())
            return tr("damaged: %1").arg(e.problem);
        if (e.cancelled)
            return tr("cancelled");
        return e.okCases == e.cases ? tr("ok") : tr("%1 of %2 ok").arg(e.okCases).arg(e.cases);
    default:
        return {};
    }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StartedColumn:
        return tr("Started (UTC)");
    case MatrixColumn:
        return tr("Matrix");
    case TargetColumn:
        return tr("Target");
    case CasesColumn:
        return tr("Cases");
    case StatusColumn:
        return tr("Status");
    default:
        return {};
    }
}

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareModel::setRuns(const RunResult& first, const RunResult& second)
{
    beginResetModel();
    m_rows.clear();
    for (const auto& c : first.cases)
        m_rows.push_back({c.testCase, c, std::nullopt});
    for (const auto& c : second.cases) {
        auto it = std::find_if(m_rows.begin(), m_rows.end(),
                               [&](const Row& r) { return r.testCase == c.testCase && !r.second; });
        if (it != m_rows.end())
            it->second = c;
        else
            m_rows.push_back({c.testCase, std::nullopt, c});
    }
    // "2026-11-23 13:36 UTC" rather than the ISO stamp: the header stays narrow enough for both figures.
    const auto shortStamp = [](const std::string& iso) {
        QString text = qs(iso).left(16).replace(QLatin1Char('T'), QLatin1Char(' '));
        return text.isEmpty() ? text : text + QStringLiteral(" UTC");
    };
    m_durableRows = static_cast<int>(std::count_if(m_rows.begin(), m_rows.end(),
                                                   [](const Row& r) { return comparesDurable(r.testCase); }));
    m_firstName = shortStamp(first.startedAt);
    m_secondName = shortStamp(second.startedAt);
    m_versionChange = qs(versionChangeLabel(first, second));
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void CompareModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_durableRows = 0;
    m_firstName.clear();
    m_secondName.clear();
    m_versionChange.clear();
    endResetModel();
}

std::optional<double> CompareModel::ratio(int row) const
{
    const Row& r = m_rows[static_cast<std::size_t>(row)];
    if (!rankedMeasured(r.first) || !rankedMeasured(r.second))
        return std::nullopt;
    return comparedRate(*r.second).median / comparedRate(*r.first).median;
}

std::optional<double> CompareModel::apparentRatio(int row) const
{
    const Row& r = m_rows[static_cast<std::size_t>(row)];
    if (!measured(r.first) || !measured(r.second) || r.first->apparentMBps.median <= 0)
        return std::nullopt;
    return r.second->apparentMBps.median / r.first->apparentMBps.median;
}

int CompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    const auto r0 = ratio(index.row());
    if (role == Qt::ForegroundRole && index.column() == RatioColumn && r0) {
        // Green or red only for a change beyond the noise of both runs' repetitions (significance.h).
        const RateDifference d = compareCases(*r.second, *r.first, Ranking::Durable);
        if (d.kind == RateDifference::Kind::Faster)
            return QColor(0x27, 0xae, 0x60);
        if (d.kind == RateDifference::Kind::Slower)
            return QColor(0xc0, 0x39, 0x2b);
        return QPalette().color(QPalette::Disabled, QPalette::Text);
    }
    const bool durable = comparesDurable(r.testCase);
    if (role == Qt::ToolTipRole && index.column() == CaseColumn)
        return qs(r.testCase.label());
    if (role == Qt::ToolTipRole && index.column() == RatioColumn && r0) {
        QString text = durable ? tr("Durable throughput (what reached the disk), newer over older: %1x")
                               : tr("The one rate this case has, newer over older: %1x");
        text = text.arg(*r0, 0, 'f', 2);
        if (!m_versionChange.isEmpty())
            text += QLatin1Char('\n') +
                    tr("Measured %1: part of the difference may be IOLab's own").arg(m_versionChange);
        if (const auto apparent = apparentRatio(index.row()); durable && apparent)
            text += QLatin1Char('\n') + tr("Apparent, newer over older: %1x").arg(*apparent, 0, 'f', 2);
        const RateDifference d = compareCases(*r.second, *r.first, Ranking::Durable);
        text +=
            QLatin1Char('\n') +
            (d.holds() ? tr("A change beyond the noise (%1)").arg(qs(describeTest(d.test)))
             : d.kind == RateDifference::Kind::Untestable
                 ? tr("Not judged: %1; run each with --reps 3 or more to know").arg(qs(describeTest(d.test)))
                 : tr("Within the noise: no change shown at 95% confidence (%1)")
                       .arg(qs(describeTest(d.test))));
        return text;
    }
    if (role == Qt::TextAlignmentRole && index.column() != CaseColumn && index.column() != NoteColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    auto rate = [durable](const std::optional<CaseResult>& c) -> QVariant {
        if (!c)
            return tr("not in this run");
        if (!measured(c))
            return qs(toString(c->status));
        const QString apparent = qs(formatRate(c->apparentMBps.median * kBytesPerMB));
        if (!durable)
            return apparent;
        if (!rankedMeasured(c))
            return tr("no durable figure (%1 apparent)").arg(apparent);
        // The ranked rate first, apparent beside it.
        return tr("%1 durable (%2 apparent)")
            .arg(qs(formatRate(c->durableMBps.median * kBytesPerMB)), apparent);
    };
    switch (index.column()) {
    case CaseColumn:
        return qs(r.testCase.label());
    case FirstColumn:
        return rate(r.first);
    case SecondColumn:
        return rate(r.second);
    case RatioColumn:
        return r0 ? tr("%1x").arg(*r0, 0, 'f', 2) : QVariant();
    case NoteColumn: {
        const auto& failed = !r.first ? r.second : r.first;
        if (r.first && r.second && (!measured(r.first) || !measured(r.second)))
            return qs(!measured(r.first) ? r.first->reason : r.second->reason);
        if (failed && !measured(failed))
            return qs(failed->reason);
        if (r.first && r.second && !r0)
            return tr("No durable figure in one of the runs: no ratio");
        if (r0 && !m_versionChange.isEmpty())
            return m_versionChange; // a speed-up across a version change says it is one
        return {};
    }
    default:
        return {};
    }
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case CaseColumn:
            return tr("The case, matched on every axis in both runs");
        case FirstColumn:
        case SecondColumn:
            return tr("The case's median rate in this run: for a write to a file the durable throughput "
                      "(what reached the disk, its final fsync included) with the apparent one beside it; "
                      "for a pipe, the null device or a read, its one rate");
        case RatioColumn:
            return tr(
                "The newer run's median ranked rate divided by the older one's: durable throughput for "
                "writes to a file, the one rate for pipes, the null device and reads. Above 1.00x the "
                "newer is faster, below it slower; green or red only where the change holds against the "
                "noise of both runs' repetitions (a t-test at 95%), grey where it does not or cannot "
                "be judged (a single repetition)");
        case NoteColumn:
            return tr("Why a case has no figure in one of the runs");
        default:
            return {};
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CaseColumn:
        return tr("Case");
    case FirstColumn:
        return m_firstName.isEmpty() ? tr("First run") : tr("First (%1)").arg(m_firstName);
    case SecondColumn:
        return m_secondName.isEmpty() ? tr("Second run") : tr("Second (%1)").arg(m_secondName);
    case RatioColumn:
        // The rate the ratio divides, named: durable when every case is a write to a file.
        if (m_durableRows == 0)
            return tr("Second / first");
        return m_durableRows == static_cast<int>(m_rows.size()) ? tr("Second / first, durable")
                                                                : tr("Second / first (file writes: durable)");
    case NoteColumn:
        return tr("Note");
    default:
        return {};
    }
}

} // namespace iolab::gui
