// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <QAbstractTableModel>
#include <QString>

#include <optional>
#include <vector>

namespace iolab::gui {

// One saved run as the history list shows it. A file that does not read as a result is listed with its
// problem, so that the user sees it and can delete it, instead of it vanishing or crashing the list.
struct HistoryEntry
{
    QString path;
    QString startedAt;
    QString matrixName;
    QString target;
    int cases = 0;
    int okCases = 0;
    bool cancelled = false;
    QString problem;
};

// Finished runs as result JSON files in one folder (the app's data folder by default).
class HistoryStore
{
public:
    explicit HistoryStore(QString folder);
    const QString& folder() const { return m_folder; }

    // Saves a run; returns the file's path, or "" with `error` set.
    QString save(const RunResult& result, QString* error) const;
    std::optional<RunResult> load(const QString& path, QString* error) const;
    bool remove(const QString& path, QString* error) const;
    // Every saved run, newest first.
    std::vector<HistoryEntry> list() const;

private:
    QString m_folder;
};

// What the window needs from the history folder: the list, and the measured cases of the newest runs (without
// their samples) for duration estimates. Reads files only, so it runs on a worker thread.
struct HistorySnapshot
{
    std::vector<HistoryEntry> entries;
    std::vector<CaseResult> known;
};
HistorySnapshot scanHistory(const HistoryStore& store, int knownRuns);

class HistoryModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        StartedColumn,
        MatrixColumn,
        TargetColumn,
        CasesColumn,
        StatusColumn,
        ColumnCount
    };
    explicit HistoryModel(QObject* parent = nullptr);
    void setEntries(std::vector<HistoryEntry> entries);
    const HistoryEntry& entry(int row) const { return m_entries[static_cast<std::size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<HistoryEntry> m_entries;
};

// Two runs side by side: a row per case present in either (matched on every axis), both medians and their
// ratio.
class CompareModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        CaseColumn,
        FirstColumn,
        SecondColumn,
        RatioColumn,
        NoteColumn,
        ColumnCount
    };
    explicit CompareModel(QObject* parent = nullptr);
    void setRuns(const RunResult& first, const RunResult& second);
    void clear();
    // second / first of the ranked rate (durable for a write to a file, the one rate otherwise), when both
    // runs measured it.
    std::optional<double> ratio(int row) const;
    // second / first of the apparent rate, shown beside it.
    std::optional<double> apparentRatio(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        Case testCase;
        std::optional<CaseResult> first;
        std::optional<CaseResult> second;
    };
    std::vector<Row> m_rows;
    int m_durableRows = 0; // cases compared by their durable rate
    QString m_firstName;
    QString m_secondName;
    QString m_versionChange; // "across IOLab 0.5.0 → 0.6.0" when the runs' versions differ
};

} // namespace iolab::gui
