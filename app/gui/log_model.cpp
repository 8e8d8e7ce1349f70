// SPDX-License-Identifier: MIT
#include "app/gui/log_model.h"

#include <QColor>
#include <QMetaObject>

namespace iolab::gui {

// Runs on whatever thread logged; hands a copy of the line to the model's thread.
class LogModel::Sink final : public spdlog::sinks::base_sink<std::mutex>
{
public:
    explicit Sink(LogModel* model) : m_model(model) {}
    void detach()
    {
        std::lock_guard lock(mutex_);
        m_model = nullptr;
    }

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override
    {
        if (m_model == nullptr)
            return;
        LogEntry entry;
        entry.time = QDateTime::fromMSecsSinceEpoch(
            std::chrono::duration_cast<std::chrono::milliseconds>(msg.time.time_since_epoch()).count());
        entry.level = static_cast<int>(msg.level);
        entry.module =
            QString::fromUtf8(msg.logger_name.data(), static_cast<qsizetype>(msg.logger_name.size()));
        entry.message = QString::fromUtf8(msg.payload.data(), static_cast<qsizetype>(msg.payload.size()));
        LogModel* model = m_model;
        // Queued even on the model's own thread: a log line written while the model is resetting must wait.
        QMetaObject::invokeMethod(
            model, [model, entry] { model->append(entry); }, Qt::QueuedConnection);
    }
    void flush_() override {}

private:
    LogModel* m_model;
};

LogModel::LogModel(QObject* parent) : QAbstractTableModel(parent), m_sink(std::make_shared<Sink>(this))
{
    m_sink->set_level(spdlog::level::debug);
}

std::shared_ptr<spdlog::sinks::sink> LogModel::sink() const
{
    return m_sink;
}

LogModel::~LogModel()
{
    m_sink->detach();
}

void LogModel::append(const LogEntry& entry)
{
    if (static_cast<int>(m_entries.size()) >= kCapacity) {
        beginRemoveRows({}, 0, 0);
        m_entries.pop_front();
        endRemoveRows();
    }
    const int row = static_cast<int>(m_entries.size());
    beginInsertRows({}, row, row);
    m_entries.push_back(entry);
    endInsertRows();
}

void LogModel::clear()
{
    beginResetModel();
    m_entries.clear();
    endResetModel();
}

int LogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int LogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LogModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const LogEntry& e = m_entries[static_cast<std::size_t>(index.row())];
    if (role == LevelRole)
        return e.level;
    if (role == Qt::ForegroundRole && index.column() == LevelColumn) {
        if (e.level >= spdlog::level::err)
            return QColor(0xc0, 0x39, 0x2b);
        if (e.level == spdlog::level::warn)
            return QColor(0xd3, 0x6b, 0x00);
        return {};
    }
    if (role == Qt::ToolTipRole && index.column() == MessageColumn)
        return e.message;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        return e.time.toString(QStringLiteral("HH:mm:ss.zzz"));
    case LevelColumn: {
        const auto name = spdlog::level::to_string_view(static_cast<spdlog::level::level_enum>(e.level));
        return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    }
    case ModuleColumn:
        return e.module;
    case MessageColumn:
        return e.message;
    default:
        return {};
    }
}

QVariant LogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case LevelColumn:
        return tr("Level");
    case ModuleColumn:
        return tr("Module");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

LogFilterModel::LogFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {}

void LogFilterModel::setMinimumLevel(int level)
{
    m_level = level;
    invalidateFilter();
}

bool LogFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    return sourceModel()->data(index, LogModel::LevelRole).toInt() >= m_level;
}

} // namespace iolab::gui
