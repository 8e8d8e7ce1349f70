// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <QString>
#include <QWidget>

#include <array>
#include <functional>
#include <optional>
#include <vector>

class QBarSeries;
class QCheckBox;
class QChart;
class QChartView;
class QComboBox;
class QPushButton;
class QLabel;
class QListWidget;
class QScrollArea;
class QSortFilterProxyModel;
class QSplitter;
class QTabWidget;
class QTableView;
class QTextBrowser;

namespace iolab {
class Registry;
}

namespace iolab::gui {

class CdmGridView;
class HeatmapWidget;
class LatencyView;
class QdSweepView;
class SustainedView;
class ResultsModel;
class SyncLabView;

// A run's results: the sortable table (refused and failed cases included), the speed-up baseline, warnings
// where a figure should not be taken at face value, a bar chart grouped by chunk size and the heatmap (its
// columns any declared axis with numbers for values that varies among the cases).
// What a Results tab is given to show: the run, its cases so far, the ranking and the strategies' facts.
struct ResultsPageInput
{
    const RunResult& run;
    const std::vector<CaseResult>& cases;
    Ranking ranking;
    const Registry* registry;
};

// One tab under the Results summary, as the view keeps it.
struct ResultsPage
{
    QString title;
    QWidget* page = nullptr; // the tab's widget
    // The comparison-group chooser is shown over it (the bars and the heatmap show the chosen group).
    bool groupChooser = false;
    // Brought to the front when it first has something to show: it is the answer such a run asks for. The
    // first such page with something to show wins.
    bool leads = false;
    // Shown each new result, case or ranking; empty for a page the view fills itself (the table, the charts).
    std::function<void(const ResultsPageInput&)> show;
    // Whether it has something to show (its tab is hidden otherwise); empty: always shown.
    std::function<bool()> hasContent;
    std::function<void(bool dark)> setDark;
};

class ResultsView : public QWidget
{
    Q_OBJECT

public:
    explicit ResultsView(QWidget* parent = nullptr);

    // The strategies' facts, for the summary (which strategies bypass the page cache, their plain names).
    void setRegistry(const Registry* registry);
    // What writes to a file are ranked by in the summary, the speed-ups, the bars and the heatmap.
    void setRanking(Ranking ranking);
    Ranking ranking() const { return m_ranking; }
    QComboBox* rankingChooser() const { return m_rankBy; }
    // Which comparison group the charts show (shown when the run has more than one).
    QComboBox* groupChooser() const { return m_group; }
    // The summary above the table, as plain text ("" when there is none).
    QString verdictText() const;
    // The Summary as ticket-ready plain text: a line naming the run (IOLab's version, the preset or matrix,
    // the target with its file system and device, when it started), then the Summary as the CLI prints it,
    // the health verdict first where the run has one, wrapped at 100 columns. "" while there is no result.
    // The "Copy as text" button beside the ranking puts it on the clipboard.
    QString summaryAsText() const;
    bool copySummaryAsText() const;
    QPushButton* copySummaryButton() const { return m_copySummary; }

    void setResult(const RunResult& result);
    // The summary's splitter: fitted to the summary until the user drags it, then kept where the user put
    // it (also across results, and across launches through the window's settings).
    QSplitter* summarySplitter() const { return m_splitter; }
    QByteArray summarySplitterState() const;
    void restoreSummarySplitter(const QByteArray& state);
    bool summarySizedByUser() const { return m_summarySizedByUser; }
    // The height the summary is fitted to: the question, the answer and the first three findings, or all of
    // it when that fits in half the tab.
    int fittedSummaryHeight() const;
    // While a run goes: the planned cases, then each one as it finishes.
    void beginRun(const std::vector<RefusedCase>& refused);
    void updateCase(const CaseResult& result);
    void clear();
    void setDark(bool dark);

    ResultsModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    HeatmapWidget* heatmap() const { return m_heatmap; }
    // The tabs under the summary: CrystalDiskMark (first, shown when the run has the grid), Sync lab (shown
    // when the run compares ways of making writes durable), Sustained (shown when a write ran until steady),
    // Table, the bars, Heatmap, Latency, Queue depth (shown when the run sweeps it).
    QTabWidget* tabs() const { return m_tabs; }
    CdmGridView* cdmGridView() const { return m_cdm; }
    LatencyView* latencyView() const { return m_latency; }
    QdSweepView* qdSweepView() const { return m_qdSweep; }
    SustainedView* sustainedView() const { return m_sustained; }
    SyncLabView* syncLabView() const { return m_syncLab; }
    // Whether a tab is shown now (QTabWidget::isTabVisible of the page, or of the page that holds it).
    bool isTabShown(QWidget* page) const;
    // The tabs' pages, in the tabs' order (kPages).
    const std::vector<ResultsPage>& pages() const { return m_pages; }
    // The heatmap's "Columns" menu: "Automatic" (no data), then each numeric axis that varies among the run's
    // cases (its result key as data), named from its declaration.
    QComboBox* heatmapAxisChooser() const { return m_heatAxis; }
    // The line above the table: the run, its counts and, for reads, how the cache was set.
    QString summaryText() const;
    QChart* barChart() const { return m_barChart; }
    QComboBox* baselineChooser() const { return m_baseline; }
    QStringList warnings() const;
    // A table row's case as a fio job file (core/formats/fio_job.h), "" for a row with no case that ran; the
    // table's context menu copies it ("Copy as fio job").
    QString fioJobForRow(int viewRow) const;
    bool copyFioJob(int viewRow) const;
    // The same row's case as a DiskSpd command line (core/formats/diskspd_job.h) and as a standalone C
    // program (core/formats/c_program.h); "" for a row with no case that ran or a case with no such
    // equivalent, whose "Copy as DiskSpd command" or "Copy as C program" is then disabled.
    QString diskspdForRow(int viewRow) const;
    bool copyDiskspd(int viewRow) const;
    QString cProgramForRow(int viewRow) const;
    bool copyCProgram(int viewRow) const;

    // The bar chart starts on a log scale when the fastest case is this many times the slowest.
    static constexpr double kLogScaleSpread = 30;
    static bool wantsLogScale(double lowestMBps, double highestMBps);
    QCheckBox* logScaleChoice() const { return m_logScale; }
    // The bar chart's legend, as rich text: every name in full.
    QString barLegendText() const;
    // The table's columns left to right (model columns); the key figures come first so that they fit.
    static std::vector<int> defaultColumnOrder();
    // Columns with nothing to say for these cases (no stdio buffer, no reads, fewer than five
    // repetitions...).
    static std::vector<int> hiddenColumns(const std::vector<CaseResult>& cases,
                                          const std::vector<RefusedCase>& refused);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using PageBuilder = ResultsPage (ResultsView::*)(QTabWidget* tabs);
    static const std::array<PageBuilder, 8> kPages;
    ResultsPage cdmPage(QTabWidget* tabs);
    ResultsPage syncLabPage(QTabWidget* tabs);
    ResultsPage sustainedPage(QTabWidget* tabs);
    ResultsPage tablePage(QTabWidget* tabs);
    ResultsPage barsPage(QTabWidget* tabs);
    ResultsPage heatmapPage(QTabWidget* tabs);
    ResultsPage latencyPage(QTabWidget* tabs);
    ResultsPage qdSweepPage(QTabWidget* tabs);
    bool currentPageShowsGroupChooser() const;

    void rebuildCharts();
    void rebuildRunViews();
    void rebuildHeatmapAxisChoices();
    void rebuildBaselineChoices();
    void rebuildWarnings();
    void fitColumns();
    void rebuildGroups();
    void rebuildVerdict();
    void fitVerdictHeight();
    void chooseLogScale();
    std::vector<CaseResult> casesOfChosenGroup() const;
    QString rateWord(const std::vector<CaseResult>& cases) const;
    // The index in the run's cases of a table row's case, none for a row with no case that ran.
    std::optional<std::size_t> runCaseOfRow(int viewRow) const;

    ResultsModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QComboBox* m_baseline = nullptr;
    QPushButton* m_copySummary = nullptr;
    QLabel* m_summary = nullptr;
    QListWidget* m_warnings = nullptr;
    QChart* m_barChart = nullptr;
    QChartView* m_barView = nullptr;
    QCheckBox* m_logScale = nullptr;
    QLabel* m_barLegend = nullptr;
    HeatmapWidget* m_heatmap = nullptr;
    QTabWidget* m_tabs = nullptr;
    CdmGridView* m_cdm = nullptr;
    QScrollArea* m_cdmPage = nullptr; // the tab that holds m_cdm
    bool m_hasCdmGrid = false;        // the run has the grid: its tab is shown
    QWidget* m_tablePage = nullptr;   // the table and the warnings
    std::vector<ResultsPage> m_pages;
    LatencyView* m_latency = nullptr;
    QdSweepView* m_qdSweep = nullptr;
    SustainedView* m_sustained = nullptr;
    SyncLabView* m_syncLab = nullptr;
    QComboBox* m_heatAxis = nullptr;
    std::vector<CaseResult> m_cases;
    RunResult m_run;
    bool m_dark = false;
    const Registry* m_registry = nullptr;
    Ranking m_ranking = Ranking::Durable;
    QComboBox* m_rankBy = nullptr;
    QComboBox* m_group = nullptr;
    QTextBrowser* m_verdict = nullptr;
    QSplitter* m_splitter = nullptr;
    bool m_summarySizedByUser = false;
};

} // namespace iolab::gui
