// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QSortFilterProxyModel>

#include <spdlog/sinks/base_sink.h>

#include <deque>
#include <memory>
#include <mutex>

namespace iolab::gui {

struct LogEntry
{
    QDateTime time;
    int level = 0; // spdlog::level::level_enum
    QString module;
    QString message;
};

// The log panel's lines, newest last, at most kCapacity of them.
class LogModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    static constexpr int kCapacity = 5000;
    static constexpr int LevelRole = Qt::UserRole + 1;
    enum Column
    {
        TimeColumn,
        LevelColumn,
        ModuleColumn,
        MessageColumn,
        ColumnCount
    };

    explicit LogModel(QObject* parent = nullptr);
    ~LogModel() override;
    LogModel(const LogModel&) = delete;
    LogModel& operator=(const LogModel&) = delete;

    void append(const LogEntry& entry);
    void clear();
    // The sink to hand to configureLogging; it forwards from any thread and goes quiet once the model is
    // gone.
    std::shared_ptr<spdlog::sinks::sink> sink() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    class Sink;
    std::deque<LogEntry> m_entries;
    std::shared_ptr<Sink> m_sink;
};

// Shows lines at or above a level.
class LogFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit LogFilterModel(QObject* parent = nullptr);
    void setMinimumLevel(int level);
    int minimumLevel() const { return m_level; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    int m_level = 0;
};

} // namespace iolab::gui
