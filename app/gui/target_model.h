// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/target.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace iolab::gui {

// Where a run writes: a folder (a mounted filesystem or one the user chose), a pipe drained by a reader
// thread, or the null device.
struct TargetEntry
{
    enum class Kind
    {
        Folder,
        Pipe,
        Null
    };
    Kind kind = Kind::Folder;
    TargetInfo info;       // for a pipe or null target: the folder that would hold the (unused) run folder
    QString problem;       // why it cannot be used ("" = usable)
    bool chosen = false;   // added by the user rather than found mounted
    bool inspected = true; // false for a chosen folder until a worker has looked at it

    QString displayName() const;
    // The key settings remember: the folder path, "pipe:" or "null:".
    QString key() const;
};

// The targets a run can use: every writable mounted filesystem (listed off the GUI thread; the platform layer
// supplies the facts), folders the user added, then the special pipe and null targets.
class TargetModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        NameColumn,
        FreeColumn, // second: on a narrow side panel the free space stays in view
        TypeColumn,
        DeviceColumn,
        SizeColumn,
        MediaColumn,
        CacheColumn,
        SectorColumn,
        TransferColumn,
        ColumnCount
    };

    explicit TargetModel(QObject* parent = nullptr);
    ~TargetModel() override;
    TargetModel(const TargetModel&) = delete;
    TargetModel& operator=(const TargetModel&) = delete;

    // Lists the mounted filesystems again, on a worker thread; scanFinished when the rows are in.
    void rescan();
    bool isScanning() const { return m_scanning; }
    // Adds a chosen folder's entry (or replaces the one with its key) and returns its row. Touches no disk:
    // the entry may be one not inspected yet.
    int addEntry(const TargetEntry& entry);
    // Replaces the entry listed under `listedAs` (default: the entry's own key), if it is listed; returns its
    // row or -1. Inspecting a chosen folder may change its key: the path as given ("C:/t", a link) becomes
    // the folder's real path ("C:\t", the link's target), and the inspected entry replaces the row it was
    // asked for, not a row of its new key.
    int updateEntry(const TargetEntry& entry, const QString& listedAs = {});
    // Inspects a folder the user picked and adds it (a folder that cannot be used is still added, with its
    // problem, so that the UI can say what is wrong with it). Reads the disk: the window uses TargetPanel,
    // which inspects on a worker.
    int addFolder(const QString& path);
    int rowForKey(const QString& key) const;
    const TargetEntry& entry(int row) const { return m_entries[static_cast<std::size_t>(row)]; }
    // Learns once whether the folder's filesystem takes O_DIRECT and fallocate (a probe file in a marked run
    // folder, removed at once), so that the plan shows those refusals before a run. Writes to the disk, as
    // probeFolder does: the window probes on a worker.
    void probeRow(int row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void scanFinished();

private:
    void applyScan(const std::vector<TargetInfo>& mounted, const QString& error);
    void rebuild(std::vector<TargetEntry> mounted);

    std::vector<TargetEntry> m_entries;
    std::vector<TargetEntry> m_chosen;
    bool m_scanning = false;
};

// Inspects a folder as a target entry: its facts, or the problem that keeps it from being one.
TargetEntry inspectFolder(const QString& path, bool chosen);
// Probes a usable folder entry once (see probeRow); a probe that fails becomes the entry's problem.
void probeFolder(TargetEntry& entry);

} // namespace iolab::gui
