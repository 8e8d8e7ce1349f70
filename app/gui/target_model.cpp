// SPDX-License-Identifier: MIT
#include "app/gui/target_model.h"
#include "app/gui/icons.h"
#include "app/gui/text_helpers.h"
#include "app/gui/workers.h"

#include "core/base/error.h"
#include "core/base/log.h"
#include "core/base/units.h"
#include "platform/platform.h"

#include <QDir>
#include <QIcon>
#include <QMetaObject>
#include <QPalette>

namespace iolab::gui {

namespace {

TargetEntry special(TargetEntry::Kind kind)
{
    TargetEntry e;
    e.kind = kind;
    e.info.path = QDir::tempPath().toStdString();
    return e;
}

} // namespace

QString TargetEntry::displayName() const
{
    switch (kind) {
    case Kind::Pipe:
        return TargetModel::tr("pipe (drained by a reader thread)");
    case Kind::Null:
        return TargetModel::tr("null device (API cost only)");
    case Kind::Folder:
        break;
    }
    return qs(chosen || info.mountPoint.empty() ? info.path : info.mountPoint);
}

QString TargetEntry::key() const
{
    switch (kind) {
    case Kind::Pipe:
        return QStringLiteral("pipe:");
    case Kind::Null:
        return QStringLiteral("null:");
    case Kind::Folder:
        break;
    }
    // One form whatever spelled the path: Windows' inspection answers with '\\', a chosen folder comes with
    // '/'.
    return QDir::fromNativeSeparators(qs(info.path));
}

TargetEntry inspectFolder(const QString& path, bool chosen)
{
    TargetEntry e;
    e.chosen = chosen;
    e.info.path = QDir::cleanPath(QDir(path).absolutePath()).toStdString();
    try {
        e.info = inspectTarget(e.info.path);
    } catch (const InputError& error) {
        e.problem = qs(error.what());
    }
    return e;
}

void probeFolder(TargetEntry& entry)
{
    if (entry.kind != TargetEntry::Kind::Folder || !entry.problem.isEmpty() || entry.info.capabilitiesProbed)
        return;
    try {
        probeCapabilities(entry.info);
    } catch (const InputError& error) {
        entry.problem = qs(error.what());
    }
}

TargetModel::TargetModel(QObject* parent) : QAbstractTableModel(parent)
{
    rebuild({});
}

TargetModel::~TargetModel() = default;

void TargetModel::rescan()
{
    if (m_scanning)
        return;
    m_scanning = true;
    // The mount table and /sys are read off the GUI thread: a hung network mount must not freeze the window,
    // nor keep it from closing (a scan still going when the model is gone is dropped).
    struct Scan
    {
        std::vector<TargetInfo> mounted;
        QString error;
    };
    runOffGuiThread(
        targetPool(), this,
        [] {
            Scan scan;
            try {
                scan.mounted = listWritableTargets();
            } catch (const std::exception& e) {
                scan.error = qs(e.what());
            }
            return scan;
        },
        [](TargetModel& model, const Scan& scan) { model.applyScan(scan.mounted, scan.error); });
}

void TargetModel::applyScan(const std::vector<TargetInfo>& mounted, const QString& error)
{
    m_scanning = false;
    if (!error.isEmpty())
        logger(LogModule::Gui).warn("listing targets failed: {}", error.toStdString());
    std::vector<TargetEntry> entries;
    for (const auto& info : mounted) {
        TargetEntry e;
        e.info = info;
        entries.push_back(std::move(e));
    }
    rebuild(std::move(entries));
    Q_EMIT scanFinished();
}

void TargetModel::rebuild(std::vector<TargetEntry> mounted)
{
    // What a probe learned about a folder stays known across rescans: probing writes to the user's disk.
    for (auto& e : mounted) {
        const int old = rowForKey(e.key());
        if (old >= 0 && m_entries[static_cast<std::size_t>(old)].info.capabilitiesProbed) {
            const TargetInfo& known = m_entries[static_cast<std::size_t>(old)].info;
            e.info.capabilitiesProbed = true;
            e.info.directIoProblem = known.directIoProblem;
            e.info.fallocateProblem = known.fallocateProblem;
        }
    }
    beginResetModel();
    m_entries = std::move(mounted);
    for (const auto& c : m_chosen) {
        const bool listed = std::any_of(m_entries.begin(), m_entries.end(),
                                        [&](const TargetEntry& e) { return e.key() == c.key(); });
        if (!listed)
            m_entries.push_back(c);
    }
    m_entries.push_back(special(TargetEntry::Kind::Pipe));
    m_entries.push_back(special(TargetEntry::Kind::Null));
    endResetModel();
}

int TargetModel::addFolder(const QString& path)
{
    return addEntry(inspectFolder(path, true));
}

int TargetModel::updateEntry(const TargetEntry& entry, const QString& listedAs)
{
    const QString key = listedAs.isEmpty() ? entry.key() : QDir::fromNativeSeparators(listedAs);
    for (auto& chosen : m_chosen) {
        if (chosen.key() == key)
            chosen = entry;
    }
    const int row = rowForKey(key);
    if (row >= 0) {
        m_entries[static_cast<std::size_t>(row)] = entry;
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
    return row;
}

int TargetModel::addEntry(const TargetEntry& e)
{
    const int existing = rowForKey(e.key());
    if (existing >= 0)
        return updateEntry(e);
    m_chosen.push_back(e);
    // Chosen folders go after the mounted filesystems, before pipe and null.
    const int row = rowCount() - 2;
    beginInsertRows({}, row, row);
    m_entries.insert(m_entries.begin() + row, e);
    endInsertRows();
    return row;
}

int TargetModel::rowForKey(const QString& key) const
{
    const QString wanted = QDir::fromNativeSeparators(key); // a folder as the user typed it, '\\' or '/'
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].key() == wanted)
            return static_cast<int>(i);
    }
    return -1;
}

void TargetModel::probeRow(int row)
{
    if (row < 0 || row >= rowCount())
        return;
    TargetEntry e = m_entries[static_cast<std::size_t>(row)];
    probeFolder(e);
    updateEntry(e);
}

int TargetModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int TargetModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TargetModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const TargetEntry& e = m_entries[static_cast<std::size_t>(index.row())];
    const TargetInfo& t = e.info;
    const bool folder = e.kind == TargetEntry::Kind::Folder;
    if (role == Qt::ToolTipRole) {
        if (!e.problem.isEmpty())
            return e.problem;
        if (e.kind == TargetEntry::Kind::Pipe)
            return tr("The pipe strategies write into a pipe that a reader thread drains: no file, no disk.");
        if (e.kind == TargetEntry::Kind::Null)
            return tr(
                "stdio and write(2) into /dev/null: what the API itself costs, with no storage behind it.");
        return tr("%1\nmounted from %2 (%3)\noptions: %4")
            .arg(qs(t.path), qs(t.mountSource), qs(t.fsType), qs(t.mountOptions));
    }
    if (role == Qt::ForegroundRole && !e.problem.isEmpty())
        return QPalette().color(QPalette::Disabled, QPalette::Text);
    if (role == Qt::DecorationRole && index.column() == NameColumn) {
        static const QIcon warning = loadIcon(QStringLiteral("warning"));
        static const QIcon pipe = loadIcon(QStringLiteral("pipe"));
        static const QIcon drive = loadIcon(QStringLiteral("drive"));
        if (!e.problem.isEmpty())
            return warning;
        return folder ? drive : pipe;
    }
    if (role == Qt::TextAlignmentRole && (index.column() == SizeColumn || index.column() == FreeColumn ||
                                          index.column() == SectorColumn || index.column() == TransferColumn))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    if (!folder && index.column() != NameColumn)
        return index.column() == TypeColumn ? tr("special") : QVariant();
    if (!e.inspected && index.column() != NameColumn)
        return index.column() == TypeColumn ? tr("looking...") : QVariant();
    if (!e.problem.isEmpty() && index.column() != NameColumn)
        return index.column() == TypeColumn ? tr("unusable") : QVariant();
    switch (index.column()) {
    case NameColumn:
        return e.displayName();
    case TypeColumn:
        return qs(t.fsType);
    case DeviceColumn: {
        QString device = qs(t.device.empty() ? t.mountSource : t.device);
        if (!t.deviceModel.empty())
            device += QStringLiteral(" (%1)").arg(qs(t.deviceModel));
        return device;
    }
    case SizeColumn:
        return qs(formatBytes(t.totalBytes));
    case FreeColumn:
        return qs(formatBytes(t.freeBytes));
    case MediaColumn:
        if (!t.rotational)
            return tr("n/a");
        return *t.rotational ? tr("rotational") : tr("solid state");
    case CacheColumn: {
        const std::string cache = describeWriteCache(t);
        return cache == "unknown" ? tr("n/a") : qs(cache);
    }
    case SectorColumn:
        return tr("%1 / %2").arg(t.logicalBlockBytes).arg(t.physicalBlockBytes);
    case TransferColumn:
        return t.maxTransferBytes > 0 ? qs(formatBytes(t.maxTransferBytes)) : tr("n/a");
    default:
        return {};
    }
}

QVariant TargetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case CacheColumn:
            return tr(
                "The device's write cache mode (/sys/block/*/queue/write_cache): with 'write back', an "
                "fsync may return before the data is on stable media unless the device honours flushes. "
                "FUA: whether it takes force-unit-access writes; on Windows, whether it takes flushes, "
                "whether its cache is power-protected and whether it honours write-through.");
        case SectorColumn:
            return tr(
                "Logical / physical sector size: O_DIRECT chunks must be multiples of the logical one.");
        case TransferColumn:
            return tr("The largest single request the device takes (max_sectors_kb).");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Target");
    case TypeColumn:
        return tr("Filesystem");
    case DeviceColumn:
        return tr("Device");
    case SizeColumn:
        return tr("Size");
    case FreeColumn:
        return tr("Free");
    case MediaColumn:
        return tr("Media");
    case CacheColumn:
        return tr("Write cache");
    case SectorColumn:
        return tr("Sectors");
    case TransferColumn:
        return tr("Max transfer");
    default:
        return {};
    }
}

} // namespace iolab::gui
