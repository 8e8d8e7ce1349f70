// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/engine_types.h"

#include <QPointF>
#include <QTimer>
#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace iolab::gui {

// Points of one series, kept bounded: past `capacity` neighbours are averaged in pairs, so a long run keeps
// its whole shape at a coarser grain and memory stays flat. `windowSeconds` > 0 also drops points older than
// that many seconds behind the newest.
class PointBuffer
{
public:
    PointBuffer(std::size_t capacity, double windowSeconds) : m_capacity(capacity), m_window(windowSeconds) {}
    void append(QPointF p);
    void clear();
    const std::vector<QPointF>& points() const { return m_points; }
    bool takeDirty();
    double maxY() const;

private:
    std::vector<QPointF> m_points;
    std::size_t m_factor = 1;       // samples per point
    std::size_t m_pendingCount = 0; // samples in the last, unfinished point
    QPointF m_pendingSum;
    std::size_t m_capacity;
    double m_window;
    bool m_dirty = false;
};

// The three live charts of a run: throughput of the running case (earlier cases faded behind it), CPU, and
// memory. Samples are buffered as they arrive and handed to the series a few times a second with replace().
class LiveCharts : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kRefreshMs = 200;          // 5 Hz
    static constexpr std::size_t kMaxPoints = 1200; // per series
    static constexpr double kWindowSeconds = 120;   // CPU and memory charts scroll past this
    static constexpr int kFadedCases = 6;

    explicit LiveCharts(QWidget* parent = nullptr);

    void runStarted();
    void caseStarted(const CaseStarted& started);
    void addSample(const Sample& sample);
    void runFinished();
    void setDark(bool dark);

    QLineSeries* apparentSeries() const { return m_apparent; }
    QLineSeries* deviceSeries() const { return m_device; }
    QLineSeries* cpuUserSeries() const { return m_cpuUser; }
    QLineSeries* cpuSystemSeries() const { return m_cpuSystem; }
    QLineSeries* rssSeries() const { return m_rss; }
    QLineSeries* dirtySeries() const { return m_dirty; }
    // Power-loss exposure: the bytes counted as written but not yet durable (Sample::atRiskBytes).
    QLineSeries* atRiskSeries() const { return m_atRisk; }
    // A case under a memory limit: its memory cgroup's usage, page cache and dirty + write-back bytes
    // (Sample::budget*); hidden, legend entries too, until a sample of such a case arrives.
    QLineSeries* budgetUsageSeries() const { return m_budgetUsage; }
    QLineSeries* budgetCacheSeries() const { return m_budgetCache; }
    QLineSeries* budgetDirtySeries() const { return m_budgetDirty; }
    int fadedCount() const { return static_cast<int>(m_faded.size()); }
    QValueAxis* throughputTimeAxis() const { return m_throughputChart.x; }
    // The legends under the three charts (throughput, CPU, memory) as plain text: every shown series's whole
    // name. Qt's own legend elides a long name ("not y..."); these wrap instead.
    QStringList legendTexts() const;
    // Points held in every buffer and series, for the memory bound test.
    std::size_t pointsHeld() const;
    void flush();

private:
    struct Chart
    {
        QChart* chart = nullptr;
        QChartView* view = nullptr;
        QValueAxis* x = nullptr;
        QValueAxis* y = nullptr;
        QLabel* legend = nullptr;
        QWidget* box = nullptr; // the view with its legend under it
    };
    Chart makeChart(const QString& title, const QString& xTitle, const QString& yTitle);
    QLineSeries* addSeries(Chart& chart, const QString& name);
    void fadeCurrentCase();
    void restyleFaded();
    void rebuildLegends();

    Chart m_throughputChart;
    Chart m_cpuChart;
    Chart m_memoryChart;
    QLineSeries* m_apparent = nullptr;
    QLineSeries* m_device = nullptr;
    QLineSeries* m_cpuUser = nullptr;
    QLineSeries* m_cpuSystem = nullptr;
    QLineSeries* m_rss = nullptr;
    QLineSeries* m_dirty = nullptr;
    QLineSeries* m_atRisk = nullptr;
    QLineSeries* m_budgetUsage = nullptr;
    QLineSeries* m_budgetCache = nullptr;
    QLineSeries* m_budgetDirty = nullptr;
    std::vector<QLineSeries*> m_faded;

    PointBuffer m_apparentPoints{kMaxPoints, 0};
    PointBuffer m_devicePoints{kMaxPoints, 0};
    PointBuffer m_cpuUserPoints{kMaxPoints, kWindowSeconds};
    PointBuffer m_cpuSystemPoints{kMaxPoints, kWindowSeconds};
    PointBuffer m_rssPoints{kMaxPoints, kWindowSeconds};
    PointBuffer m_dirtyPoints{kMaxPoints, kWindowSeconds};
    PointBuffer m_atRiskPoints{kMaxPoints, kWindowSeconds};
    PointBuffer m_budgetUsagePoints{kMaxPoints, kWindowSeconds};
    PointBuffer m_budgetCachePoints{kMaxPoints, kWindowSeconds};
    PointBuffer m_budgetDirtyPoints{kMaxPoints, kWindowSeconds};

    QTimer m_refresh;
    QString m_caseTitle;
    std::int64_t m_caseIndex = -1;
    double m_caseStartSeconds = -1;
    double m_lastRunSeconds = 0;
    bool m_warmup = false;
    bool m_syncing = false;
    bool m_dark = false;
};

// Sets the range with ticks at round values and labels with as many decimals as the step needs.
void setNiceRange(QValueAxis* axis, double low, double high);

// A "nice" upper bound for an axis: 1, 2 or 5 times a power of ten, at least `value`.
double niceCeiling(double value);

} // namespace iolab::gui
