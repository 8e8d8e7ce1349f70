// SPDX-License-Identifier: MIT
#pragma once

#include "app/report/sync_lab_chart_data.h"
#include "app/report/sync_lab_paint.h"
#include "core/model/result.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;

namespace iolab {
class Registry;
}

namespace iolab::gui {

// The sync lab's bars, painted as the PDF paints them (app/report/sync_lab_paint.h): a row per method, its
// ops/s bar coloured by what survives and its p99 whisker. Tall enough for every row; a tooltip per row.
class SyncLabChart : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kRowPixels = 26;

    explicit SyncLabChart(QWidget* parent = nullptr);

    void setSize(const report::SyncLabChartData::OpSize* size, bool logScale, bool dark);
    // Where the rows, bars and whiskers are at the widget's present width.
    report::SyncLabChartGeometry geometryNow() const;
    const report::SyncLabChartData::OpSize* shown() const { return m_size; }
    bool logScale() const { return m_log; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    const report::SyncLabChartData::OpSize* m_size = nullptr;
    bool m_log = false;
    bool m_dark = false;
};

// The Sync lab tab (issue 17): for a run that compares ways of making writes durable, the two verdicts (the
// fastest durable method; fdatasync's p99 against etcd's 10 ms) above the bars, one op size at a time:
// pg_test_fsync's 8 KiB first, its open_sync sizes (16 KiB ops) on the chooser.
class SyncLabView : public QWidget
{
    Q_OBJECT

public:
    explicit SyncLabView(QWidget* parent = nullptr);

    void setResult(const RunResult& result, const Registry* registry);
    void setDark(bool dark);

    // Whether the run compares durable methods (the tab is shown only then).
    bool hasLab() const { return !m_data.empty(); }
    const report::SyncLabChartData& data() const { return m_data; }
    // The op size shown (index into data().sizes).
    std::size_t shownSize() const;
    SyncLabChart* chart() const { return m_chart; }
    QComboBox* sizeChooser() const { return m_size; }
    // Offered only where the values spread wide enough for a log axis to matter.
    QCheckBox* logScaleChoice() const { return m_logScale; }
    QString verdictText() const;

private:
    void showSize();

    report::SyncLabChartData m_data;
    bool m_dark = false;
    QLabel* m_verdicts = nullptr;
    QComboBox* m_size = nullptr;
    QCheckBox* m_logScale = nullptr;
    QLabel* m_title = nullptr;
    SyncLabChart* m_chart = nullptr;
    QLabel* m_note = nullptr;
};

} // namespace iolab::gui
