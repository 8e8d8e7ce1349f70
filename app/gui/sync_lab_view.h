// SPDX-License-Identifier: MIT
#pragma once

#include "app/report/sync_lab_chart_data.h"
#include "core/model/result.h"

#include <QWidget>

class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;

namespace iolab {
class Registry;
}

namespace iolab::gui {

// The Sync lab tab (issue 17): for a run that compares ways of making writes durable, the two verdicts (the
// fastest durable method; fdatasync's p99 against etcd's 10 ms) above a bar per method of its ops/s, fastest
// on top, coloured by what survives, with a whisker at the rate its p99 durable call allows. One op size at
// a time: pg_test_fsync's 8 KiB first, its open_sync sizes (16 KiB ops) on the chooser.
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
    QChart* chart() const { return m_chart; }
    QComboBox* sizeChooser() const { return m_size; }
    QCheckBox* logScaleChoice() const { return m_logScale; }
    QString verdictText() const;

private:
    void rebuild();

    report::SyncLabChartData m_data;
    bool m_dark = false;
    QLabel* m_verdicts = nullptr;
    QComboBox* m_size = nullptr;
    QCheckBox* m_logScale = nullptr;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QLabel* m_note = nullptr;
};

} // namespace iolab::gui
