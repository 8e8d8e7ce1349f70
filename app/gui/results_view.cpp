// SPDX-License-Identifier: MIT
#include "app/gui/results_view.h"
#include "app/gui/widget_helpers.h"
#include "app/report/latency_chart_data.h"

#include "app/gui/cdm_grid_view.h"
#include "app/gui/heatmap.h"
#include "app/gui/latency_view.h"
#include "app/gui/live_charts.h"
#include "app/gui/qd_sweep_view.h"
#include "app/gui/results_model.h"
#include "app/gui/sustained_view.h"
#include "app/gui/sync_lab_view.h"
#include "app/gui/verdict_html.h"
#include "app/report/bar_chart_data.h"
#include "core/analysis/cdm_grid.h"
#include "core/analysis/verdict.h"
#include "core/analysis/warnings.h"
#include "core/base/stats.h"
#include "core/base/units.h"
#include "core/formats/c_program.h"
#include "core/formats/diskspd_job.h"
#include "core/formats/fio_job.h"
#include "core/model/axes.h"

#include <fmt/format.h>

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QValueAxis>

#include <QAbstractTextDocumentLayout>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextList>
#include <QTimer>
#include <QVBoxLayout>

#include <map>

namespace iolab::gui {

using report::BarChartData;

ResultsView::ResultsView(QWidget* parent) : QWidget(parent)
{
    m_model = new ResultsModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ResultsModel::SortRole);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    top->addWidget(new QLabel(tr("Rank by:"), this));
    m_rankBy = new QComboBox(this);
    m_rankBy->setObjectName(QStringLiteral("rankBy"));
    m_rankBy->addItem(tr("durable (on the disk)"), static_cast<int>(Ranking::Durable));
    m_rankBy->addItem(tr("apparent (calls returned)"), static_cast<int>(Ranking::Apparent));
    m_rankBy->setToolTip(
        tr("What writes to a file are ranked and coloured by, in the summary, the speed-up, the "
           "bars and the heatmap: durable (until the data was on the disk) or apparent (until "
           "the last write call returned). Reads, pipes and the null device have one rate."));
    top->addWidget(m_rankBy);
    top->addWidget(new QLabel(tr("Speed-up against:"), this));
    m_baseline = new QComboBox(this);
    m_baseline->setToolTip(
        tr("The case the Speed-up column divides by. By default each write is compared with plain "
           "stdio (default buffer) and each read with plain read(2) (normal hint, same threads and cache "
           "state) at the same chunk size."));
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    top->addWidget(m_baseline);
    top->addStretch(1);
    // As the CrystalDiskMark grid has: the Summary (the health verdict first) as text for a ticket or a mail.
    m_copySummary = new QPushButton(tr("Copy as text"), this);
    m_copySummary->setObjectName(QStringLiteral("copySummary"));
    m_copySummary->setToolTip(tr("Copy the Summary as plain text (the run, the target and, for a health "
                                 "check, each figure against its device class's typical range), ready to "
                                 "paste into a ticket"));
    m_copySummary->setEnabled(false);
    connect(m_copySummary, &QPushButton::clicked, this, [this] { copySummaryAsText(); });
    top->addWidget(m_copySummary);
    layout->addLayout(top);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("resultsSplitter"));
    m_splitter = splitter;
    // The summary comes first: the question, the answer with its numbers, what matters, what cannot be said.
    m_verdict = new QTextBrowser(splitter);
    m_verdict->setObjectName(QStringLiteral("verdict"));
    m_verdict->setOpenLinks(false);
    m_verdict->setFrameShape(QFrame::StyledPanel);
    splitter->addWidget(m_verdict);
    // Below the summary, the table and the charts share one set of tabs: on a 768-pixel screen each gets the
    // whole height rather than a third of it.
    auto* tabs = new QTabWidget(splitter);
    tabs->setObjectName(QStringLiteral("resultsTabs"));
    m_tabs = tabs;
    for (const PageBuilder build : kPages) {
        m_pages.push_back((this->*build)(tabs));
        const ResultsPage& page = m_pages.back();
        tabs->addTab(page.page, page.title);
        // A page that shows only what some runs have is hidden until a run has it.
        tabs->setTabVisible(tabs->count() - 1, !page.hasContent);
    }
    tabs->setCurrentWidget(m_tablePage);
    m_group = new QComboBox(tabs);
    m_group->setObjectName(QStringLiteral("chartGroup"));
    m_group->setToolTip(tr("The charts compare cases of one group only: a write into a pipe is no rival of a "
                           "write to a file."));
    m_group->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    tabs->setCornerWidget(m_group, Qt::TopRightCorner);
    splitter->addWidget(tabs);
    splitter->setSizes({180, 520});
    splitter->setStretchFactor(0, 0);
    splitter->setChildrenCollapsible(false);
    layout->addWidget(splitter, 1);
    // Emitted only when the user drags the handle: from then on the summary keeps the size given. Until
    // then it is fitted again whenever the space changes (the window resized, the tab first shown).
    connect(splitter, &QSplitter::splitterMoved, this, [this] { m_summarySizedByUser = true; });
    splitter->installEventFilter(this);

    connect(tabs, &QTabWidget::currentChanged, this, [this] {
        // The group chooser picks what the bars and the heatmap show; the other tabs show every case.
        m_group->setVisible(currentPageShowsGroupChooser() && m_group->count() > 1);
    });
    connect(m_logScale, &QCheckBox::toggled, this, &ResultsView::rebuildCharts);
    connect(m_rankBy, &QComboBox::currentIndexChanged, this,
            [this] { setRanking(static_cast<Ranking>(m_rankBy->currentData().toInt())); });
    connect(m_group, &QComboBox::currentIndexChanged, this, [this] {
        chooseLogScale();
        rebuildCharts();
    });
    connect(m_heatAxis, &QComboBox::currentIndexChanged, this, &ResultsView::rebuildCharts);
    connect(m_baseline, &QComboBox::currentIndexChanged, this, [this](int index) {
        const QVariant row = m_baseline->itemData(index);
        m_model->setBaselineRow(row.isValid() ? std::optional<int>(row.toInt()) : std::nullopt);
    });
    setDark(false);
    clear();
}

std::vector<int> ResultsView::defaultColumnOrder()
{
    using M = ResultsModel;
    const auto figures = [](std::initializer_list<M::Column> list) {
        std::vector<int> out;
        for (const M::Column figure : list)
            out.push_back(M::figureColumn(figure));
        return out;
    };
    // The declared axes' columns (core/model/axes.h), the leading ones (what a case is) or the others.
    const auto axes = [](bool leading) {
        std::vector<int> out;
        for (const int column : M::axisColumns()) {
            if (M::axesInColumn(column).front()->column.leading == leading)
                out.push_back(column);
        }
        return out;
    };
    // What answers "which is fastest, and by how much" first; the axes and details after.
    std::vector<int> order = figures({M::CaseColumn});
    for (const auto& part :
         {axes(true),
          figures({M::DurableColumn, M::MedianColumn, M::SpeedupColumn, M::AtRiskColumn,
                   M::SurvivesKillColumn, M::StatusColumn, M::StabilityColumn, M::CiColumn,
                   M::TrimmedMeanColumn}),
          axes(false),
          figures({M::CallP50Column, M::CallP99Column, M::CallP999Column, M::SyncP99Column, M::IopsColumn,
                   M::MixFiguresColumn, M::FilesPerSecondColumn, M::FileP50Column, M::FileP99Column,
                   M::CpuColumn, M::RssColumn, M::TempColumn, M::ReasonColumn})})
        order.insert(order.end(), part.begin(), part.end());
    return order;
}

std::vector<int> ResultsView::hiddenColumns(const std::vector<CaseResult>& cases,
                                            const std::vector<RefusedCase>& refused)
{
    bool anyWrite = false;
    bool anyFileSet = false;
    bool anyLatency = false;
    bool anyProbe = false;
    bool anySyncLatency = false;
    bool anyReason = !refused.empty();
    bool anyExposure = false;
    bool anyHeat = false;
    std::uint32_t repetitions = 0;
    std::vector<const Case*> all;
    for (const auto& c : cases) {
        all.push_back(&c.testCase);
        anyFileSet = anyFileSet || c.filesPerSecond.count > 0;
        anyLatency = anyLatency || (c.callLatency && c.callLatency->summary.count > 0);
        anySyncLatency = anySyncLatency || (c.syncLatency && c.syncLatency->summary.count > 0);
        anyReason = anyReason || !c.reason.empty();
        anyProbe = anyProbe || c.crashProbe.has_value();
        anyExposure = anyExposure || c.atRisk.has_value();
        anyHeat = anyHeat || !temperatureText(c.thermalBefore, c.thermalAfter).empty();
        repetitions = std::max<std::uint32_t>(repetitions, static_cast<std::uint32_t>(c.apparentMBps.count));
    }
    for (const auto& r : refused)
        all.push_back(&r.testCase);
    for (const Case* k : all)
        anyWrite = anyWrite || k->direction == Direction::Write;
    using M = ResultsModel;
    std::vector<int> hidden;
    // An axis column that some case wants, or that declares no such test, is shown.
    for (const int column : M::axisColumns()) {
        const auto axes = M::axesInColumn(column);
        const bool wanted = std::any_of(axes.begin(), axes.end(), [&all](const AxisSpec* axis) {
            return !axis->column.wanted || std::any_of(all.begin(), all.end(), [axis](const Case* k) {
                return axis->column.wanted(*k);
            });
        });
        if (!wanted)
            hidden.push_back(column);
    }
    if (!anyWrite)
        hidden.push_back(M::figureColumn(M::DurableColumn));
    if (!anyExposure)
        hidden.push_back(M::figureColumn(M::AtRiskColumn));
    if (!anyFileSet) {
        hidden.push_back(M::figureColumn(M::FilesPerSecondColumn));
        hidden.push_back(M::figureColumn(M::FileP50Column));
        hidden.push_back(M::figureColumn(M::FileP99Column));
    }
    if (!anyLatency) {
        for (const M::Column figure : {M::CallP50Column, M::CallP99Column, M::CallP999Column, M::IopsColumn})
            hidden.push_back(M::figureColumn(figure));
    }
    // With fewer than five repetitions the trimmed mean is the median again, or nearly: it says nothing.
    if (repetitions < kTrimmedMeanMinCount)
        hidden.push_back(M::figureColumn(M::TrimmedMeanColumn));
    if (!anyReason)
        hidden.push_back(M::figureColumn(M::ReasonColumn));
    if (!anySyncLatency)
        hidden.push_back(M::figureColumn(M::SyncP99Column));
    if (!anyProbe)
        hidden.push_back(M::figureColumn(M::SurvivesKillColumn));
    if (!anyHeat)
        hidden.push_back(M::figureColumn(M::TempColumn));
    if (std::none_of(cases.begin(), cases.end(), [](const CaseResult& c) { return c.mix.has_value(); }))
        hidden.push_back(M::figureColumn(M::MixFiguresColumn));
    std::sort(hidden.begin(), hidden.end());
    return hidden;
}

void ResultsView::fitColumns()
{
    QHeaderView* header = m_table->horizontalHeader();
    const std::vector<int> order = defaultColumnOrder();
    for (int visual = 0; visual < static_cast<int>(order.size()); ++visual) {
        const int from = header->visualIndex(order[static_cast<std::size_t>(visual)]);
        if (from != visual)
            header->moveSection(from, visual);
    }
    const std::vector<int> hidden = hiddenColumns(m_cases, m_run.refused);
    for (int column = 0; column < m_model->columnCount(); ++column)
        m_table->setColumnHidden(column, std::binary_search(hidden.begin(), hidden.end(), column));
}

void ResultsView::setRegistry(const Registry* registry)
{
    m_registry = registry;
    rebuildVerdict();
    rebuildRunViews();
}

bool ResultsView::isTabShown(QWidget* page) const
{
    // The tab's page, or the page that holds it (the grid's scroll area).
    int index = -1;
    for (QWidget* w = page; w != nullptr && index < 0; w = w->parentWidget())
        index = m_tabs->indexOf(w);
    return index >= 0 && m_tabs->isTabVisible(index);
}

bool ResultsView::currentPageShowsGroupChooser() const
{
    QWidget* current = m_tabs->currentWidget();
    return std::any_of(m_pages.begin(), m_pages.end(), [current](const ResultsPage& page) {
        return page.page == current && page.groupChooser;
    });
}

void ResultsView::rebuildRunViews()
{
    const ResultsPageInput input{m_run, m_cases, m_ranking, m_registry};
    bool leadChosen = false;
    for (const ResultsPage& page : m_pages) {
        if (page.show)
            page.show(input);
        if (!page.hasContent)
            continue;
        const int index = m_tabs->indexOf(page.page);
        const bool wasShown = m_tabs->isTabVisible(index);
        const bool has = page.hasContent();
        m_tabs->setTabVisible(index, has);
        // The first leading page with something to show is the answer: it comes to the front when it appears.
        if (page.leads && has && !std::exchange(leadChosen, true) && !wasShown)
            m_tabs->setCurrentIndex(index);
    }
    // A hidden tab that stays current shows an empty page: fall back to the table.
    if (!m_tabs->isTabVisible(m_tabs->currentIndex()))
        m_tabs->setCurrentWidget(m_tablePage);
}

void ResultsView::setRanking(Ranking ranking)
{
    m_ranking = ranking;
    {
        const QSignalBlocker block(m_rankBy);
        m_rankBy->setCurrentIndex(m_rankBy->findData(static_cast<int>(ranking)));
    }
    m_model->setRanking(ranking);
    // A table sorted by the ranked rate follows the ranking to its other rate.
    const int durable = ResultsModel::figureColumn(ResultsModel::DurableColumn);
    const int apparent = ResultsModel::figureColumn(ResultsModel::MedianColumn);
    if (const int sorted = m_table->horizontalHeader()->sortIndicatorSection();
        sorted == durable || sorted == apparent)
        m_table->sortByColumn(ranking == Ranking::Durable ? durable : apparent, Qt::DescendingOrder);
    rebuildRunViews(); // the queue-depth sweep ranks as the table does
    chooseLogScale();
    rebuildWarnings();
    rebuildVerdict();
    rebuildCharts();
}

QString ResultsView::verdictText() const
{
    return m_verdict->isHidden() ? QString() : m_verdict->toPlainText();
}

QString ResultsView::rateWord(const std::vector<CaseResult>& cases) const
{
    const bool durable = std::any_of(cases.begin(), cases.end(), [this](const CaseResult& c) {
        return ranksDurable(c.testCase, m_ranking);
    });
    return durable ? tr("Durable") : tr("Median");
}

void ResultsView::rebuildGroups()
{
    std::vector<ComparisonGroup> groups;
    for (const auto& c : m_cases) {
        if (c.status != Status::Ok)
            continue;
        const ComparisonGroup g = comparisonGroup(c.testCase);
        if (std::find(groups.begin(), groups.end(), g) == groups.end())
            groups.push_back(g);
    }
    std::sort(groups.begin(), groups.end());
    const QVariant previous = m_group->currentData();
    const QSignalBlocker block(m_group);
    m_group->clear();
    for (ComparisonGroup g : groups)
        m_group->addItem(qs(toString(g)), static_cast<int>(g));
    const int keep = previous.isValid() ? m_group->findData(previous) : -1;
    m_group->setCurrentIndex(std::max(0, keep)); // writes to a file come first when there are some
    m_group->setVisible(m_group->count() > 1 && currentPageShowsGroupChooser());
}

std::vector<CaseResult> ResultsView::casesOfChosenGroup() const
{
    if (m_group->count() == 0)
        return m_cases;
    const auto chosen = static_cast<ComparisonGroup>(m_group->currentData().toInt());
    std::vector<CaseResult> out;
    for (const auto& c : m_cases) {
        if (comparisonGroup(c.testCase) == chosen)
            out.push_back(c);
    }
    return out;
}

void ResultsView::chooseLogScale()
{
    // Rates far apart flatten the slow bars to nothing on a linear axis.
    double low = 0;
    double high = 0;
    for (const auto& c : casesOfChosenGroup()) {
        const Summary& rate = rankedRate(c, m_ranking);
        if (c.status != Status::Ok || rate.count == 0 || rate.median <= 0)
            continue;
        low = low == 0 ? rate.median : std::min(low, rate.median);
        high = std::max(high, rate.median);
    }
    const QSignalBlocker block(m_logScale);
    m_logScale->setChecked(wantsLogScale(low, high));
}

void ResultsView::rebuildVerdict()
{
    if (m_run.cases.empty()) {
        m_verdict->hide();
        m_copySummary->setEnabled(false);
        return;
    }
    try {
        m_verdict->setHtml(verdictHtml(verdict(m_run, m_registry, m_ranking)));
        m_copySummary->setEnabled(true);
    } catch (const std::exception& e) {
        m_verdict->setHtml(tr("<p>No summary for this run: %1</p>").arg(qs(e.what()).toHtmlEscaped()));
    }
    m_verdict->show();
    // Once laid out: as tall as the summary needs, up to half the tab, the table and charts get the rest.
    QTimer::singleShot(0, this, &ResultsView::fitVerdictHeight);
}

int ResultsView::fittedSummaryHeight() const
{
    const int total = m_splitter->height();
    QTextDocument* document = m_verdict->document();
    document->setTextWidth(m_verdict->viewport()->width());
    const int frame = 2 * m_verdict->frameWidth() + 4;
    const int whole = static_cast<int>(document->size().height()) + frame;
    // The essentials: everything down to the end of the third finding (an item of the first list: the likely
    // causes or what matters most), or all of it when there are fewer.
    int essential = whole;
    int items = 0;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block.textList() == nullptr || ++items < 3)
            continue;
        essential = static_cast<int>(document->documentLayout()->blockBoundingRect(block).bottom()) + frame;
        break;
    }
    // The table and the charts keep at least this much below it.
    constexpr int kTabsLeast = 150;
    const int wanted = std::min(whole, std::max(total / 2, essential));
    return std::clamp(wanted, 80, std::max(80, total - kTabsLeast));
}

void ResultsView::fitVerdictHeight()
{
    const int total = m_splitter->height();
    if (total <= 0 || m_verdict->isHidden() || m_summarySizedByUser)
        return;
    const int summary = fittedSummaryHeight();
    m_splitter->setSizes({summary, total - summary});
}

bool ResultsView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_splitter && event->type() == QEvent::Resize)
        fitVerdictHeight();
    return QWidget::eventFilter(watched, event);
}

QByteArray ResultsView::summarySplitterState() const
{
    return m_summarySizedByUser ? m_splitter->saveState() : QByteArray();
}

void ResultsView::restoreSummarySplitter(const QByteArray& state)
{
    if (!state.isEmpty() && m_splitter->restoreState(state))
        m_summarySizedByUser = true;
}

bool ResultsView::wantsLogScale(double lowestMBps, double highestMBps)
{
    return lowestMBps > 0 && highestMBps / lowestMBps > kLogScaleSpread;
}

QString ResultsView::barLegendText() const
{
    return m_barLegend->text();
}

void ResultsView::setDark(bool dark)
{
    m_dark = dark;
    for (const ResultsPage& page : m_pages) {
        if (page.setDark)
            page.setDark(dark);
    }
    rebuildCharts();
}

void ResultsView::clear()
{
    m_cases.clear();
    m_run = {};
    m_model->clear();
    m_summary->setText(tr("No results yet: run a matrix, or reopen a run from History."));
    m_verdict->clear();
    m_verdict->hide();
    m_copySummary->setEnabled(false);
    {
        const QSignalBlocker block(m_group);
        m_group->clear();
        m_group->hide();
    }
    rebuildBaselineChoices();
    rebuildWarnings();
    rebuildHeatmapAxisChoices();
    rebuildCharts();
    rebuildRunViews();
}

std::optional<std::size_t> ResultsView::runCaseOfRow(int viewRow) const
{
    if (viewRow < 0 || viewRow >= m_proxy->rowCount())
        return std::nullopt;
    const int row = m_proxy->mapToSource(m_proxy->index(viewRow, 0)).row();
    const auto index = m_model->caseIndexAt(row);
    if (!index)
        return std::nullopt;
    for (std::size_t i = 0; i < m_run.cases.size(); ++i) {
        if (m_run.cases[i].index == *index)
            return i;
    }
    return std::nullopt;
}

QString ResultsView::fioJobForRow(int viewRow) const
{
    const auto i = runCaseOfRow(viewRow);
    return i ? qs(fioJobOf(m_run, *i).text) : QString();
}

QString ResultsView::diskspdForRow(int viewRow) const
{
    const auto i = runCaseOfRow(viewRow);
    if (!i)
        return {};
    const DiskspdJob job = diskspdJobOf(m_run, *i);
    return job.equivalent ? qs(job.text) : QString();
}

QString ResultsView::cProgramForRow(int viewRow) const
{
    const auto i = runCaseOfRow(viewRow);
    if (!i)
        return {};
    const CProgram program = cProgramOf(m_run, *i);
    return program.available ? qs(program.text) : QString();
}

namespace {

bool copyText(const QString& text)
{
    if (text.isEmpty())
        return false;
    QGuiApplication::clipboard()->setText(text);
    return true;
}

} // namespace

bool ResultsView::copyFioJob(int viewRow) const
{
    return copyText(fioJobForRow(viewRow));
}

bool ResultsView::copyDiskspd(int viewRow) const
{
    return copyText(diskspdForRow(viewRow));
}

bool ResultsView::copyCProgram(int viewRow) const
{
    return copyText(cProgramForRow(viewRow));
}

QString ResultsView::summaryAsText() const
{
    if (m_run.cases.empty())
        return {};
    const TargetInfo& t = m_run.target;
    std::string where = t.fsType;
    if (!t.mountSource.empty())
        where += (where.empty() ? "" : " on ") + t.mountSource;
    if (!t.deviceModel.empty())
        where += (where.empty() ? "" : ", ") + t.deviceModel;
    std::string text =
        fmt::format("IOLab {}: {} on {}{}, started {}{}\n\n",
                    m_run.toolVersion.empty() ? std::string("(version unknown)") : m_run.toolVersion,
                    m_run.matrix.name.empty() ? std::string("a matrix") : m_run.matrix.name, t.path,
                    where.empty() ? std::string() : " (" + where + ")", m_run.startedAt,
                    m_run.cancelled ? ", stopped before its end" : "");
    try {
        for (const auto& line : verdictLines(verdict(m_run, m_registry, m_ranking), 100))
            text += line + "\n";
    } catch (const std::exception& e) {
        text += fmt::format("No summary for this run: {}\n", e.what());
    }
    return qs(text);
}

bool ResultsView::copySummaryAsText() const
{
    return copyText(summaryAsText());
}

void ResultsView::setResult(const RunResult& result)
{
    m_run = result;
    m_cases = result.cases;
    m_model->setResult(result);
    std::size_t ok = 0;
    std::size_t failed = 0;
    for (const auto& c : result.cases) {
        ok += c.status == Status::Ok ? 1 : 0;
        failed += c.status == Status::Failed ? 1 : 0;
    }
    QString text = tr("%1 on %2 (%3), started %4: %5 case(s) ok, %6 failed, %7 refused")
                       .arg(qs(result.matrix.name.empty() ? std::string("matrix") : result.matrix.name),
                            qs(result.target.path), qs(result.target.fsType), qs(result.startedAt))
                       .arg(ok)
                       .arg(failed)
                       .arg(result.refused.size() +
                            static_cast<std::size_t>(std::count_if(
                                result.cases.begin(), result.cases.end(),
                                [](const CaseResult& c) { return c.status == Status::Refused; })));
    if (result.cancelled)
        text += tr(" - cancelled before the end");
    for (const auto& method : cacheMethods(result))
        text += tr("\nReads, %1.").arg(qs(method));
    m_summary->setText(text);
    rebuildGroups();
    chooseLogScale();
    rebuildVerdict();
    rebuildBaselineChoices();
    rebuildWarnings();
    rebuildHeatmapAxisChoices();
    rebuildCharts();
    rebuildRunViews();
    fitColumns();
}

void ResultsView::beginRun(const std::vector<RefusedCase>& refused)
{
    clear();
    RunResult planned;
    planned.refused = refused;
    m_model->setResult(planned);
    m_run.refused = refused;
    m_summary->setText(tr("Running: each case appears here as it finishes."));
    m_verdict->setHtml(tr("<p>The summary comes when the run ends.</p>"));
    m_verdict->show();
    fitColumns();
}

void ResultsView::updateCase(const CaseResult& result)
{
    auto it = std::find_if(m_cases.begin(), m_cases.end(),
                           [&](const CaseResult& c) { return c.index == result.index; });
    if (it == m_cases.end())
        m_cases.push_back(result);
    else
        *it = result;
    m_model->updateCase(result);
    rebuildGroups();
    rebuildBaselineChoices();
    rebuildWarnings();
    rebuildHeatmapAxisChoices();
    rebuildCharts();
    fitColumns();
}

void ResultsView::rebuildBaselineChoices()
{
    const QSignalBlocker block(m_baseline);
    const QVariant previous = m_baseline->currentData();
    m_baseline->clear();
    m_baseline->addItem(tr("plain stdio / read(2) at the same chunk (default)"));
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const auto cell = [this, row](int column) {
            return m_model->index(row, column).data().toString();
        };
        if (cell(ResultsModel::figureColumn(ResultsModel::StatusColumn)) != QStringLiteral("ok"))
            continue;
        // A case is named by its short name, as the charts name it: its number, strategy and chunk size and
        // whatever else sets it apart (io_uring's options, the pipe reader's kind), so that no two entries
        // read alike.
        const auto index = m_model->caseIndexAt(row);
        const auto found = index ? std::find_if(m_run.cases.begin(), m_run.cases.end(),
                                                [&index](const CaseResult& c) { return c.index == *index; })
                                 : m_run.cases.end();
        const QString name = found != m_run.cases.end()
                                 ? report::caseShortName(*found).section(QLatin1Char(' '), 1) // without "#N"
                                 : cell(ResultsModel::axisColumn("strategy")) + QStringLiteral(" ") +
                                       cell(ResultsModel::axisColumn("chunkBytes"));
        m_baseline->addItem(
            tr("case %1: %2").arg(cell(ResultsModel::figureColumn(ResultsModel::CaseColumn)), name), row);
    }
    const int keep = previous.isValid() ? m_baseline->findData(previous) : 0;
    m_baseline->setCurrentIndex(std::max(0, keep));
    if (keep <= 0)
        m_model->setBaselineRow(std::nullopt);
}

QString ResultsView::summaryText() const
{
    return m_summary->text();
}

void ResultsView::rebuildWarnings()
{
    m_warnings->clear();
    for (const auto& w : m_run.warnings)
        m_warnings->addItem(qs(w));
    for (const auto& c : m_cases) {
        for (const auto& w : caseWarnings(c, &m_run.host, m_ranking))
            m_warnings->addItem(tr("case %1 (%2): %3").arg(c.index + 1).arg(qs(c.testCase.label()), qs(w)));
        if (c.status == Status::Failed || c.status == Status::Refused)
            m_warnings->addItem(tr("case %1 (%2) %3: %4")
                                    .arg(c.index + 1)
                                    .arg(qs(c.testCase.label()), qs(toString(c.status)), qs(c.reason)));
    }
    if (m_run.cancelled)
        m_warnings->addItem(tr("The run was cancelled: cases after the last one shown did not run."));
    m_warnings->setVisible(m_warnings->count() > 0);
}

QStringList ResultsView::warnings() const
{
    QStringList out;
    for (int i = 0; i < m_warnings->count(); ++i)
        out << m_warnings->item(i)->text();
    return out;
}

void ResultsView::rebuildHeatmapAxisChoices()
{
    // "Automatic", then each declared axis with numbers for values that varies among the run's cases; a
    // choice still offered is kept.
    const QVariant previous = m_heatAxis->currentData();
    const QSignalBlocker block(m_heatAxis);
    m_heatAxis->clear();
    m_heatAxis->addItem(tr("Automatic"));
    for (const report::ChartAxis& axis : report::varyingAxes(m_cases))
        m_heatAxis->addItem(axis.title(), qs(axis.key));
    const int keep = previous.isValid() ? m_heatAxis->findData(previous) : -1;
    m_heatAxis->setCurrentIndex(std::max(0, keep));
}

void ResultsView::rebuildCharts()
{
    report::ChartAxis columns = report::preferredAxis(m_cases);
    if (const QVariant chosen = m_heatAxis->currentData(); chosen.isValid())
        if (const AxisSpec* axis = findAxisByResultKey(chosen.toString().toStdString()))
            columns = report::ChartAxis::of(*axis);
    const std::vector<CaseResult> shown = casesOfChosenGroup();
    m_heatmap->setData(HeatmapData::from(shown, columns, m_ranking));

    m_barChart->removeAllSeries();
    for (auto* axis : m_barChart->axes()) {
        m_barChart->removeAxis(axis); // hands the axis back to us
        delete axis;
    }
    const BarChartData bars = BarChartData::from(shown, m_ranking);
    m_barLegend->clear();
    m_barChart->setTitle(
        bars.empty() ? tr("Median MB/s by %1: no measured case yet").arg(bars.axis.name)
                     : tr("%1 MB/s by %2, %3").arg(rateWord(shown), bars.axis.name, m_group->currentText()));
    if (bars.empty())
        return;
    auto* series = new QBarSeries;
    const bool log = m_logScale->isChecked();
    for (qsizetype v = 0; v < bars.variants.size(); ++v) {
        auto* set = new QBarSet(bars.variants[v]);
        for (const auto& bar : bars.bars[static_cast<std::size_t>(v)]) {
            // A missing bar is 0 on a linear axis; on a log axis it sits at the floor, just as invisible.
            *set << (bar ? bar->mbps : (log ? bars.minMBps / 10 : 0.0));
        }
        series->append(set);
    }
    m_barChart->addSeries(series);
    QStringList legend;
    for (QBarSet* set : series->barSets())
        legend << QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
                      .arg(set->color().name(),
                           set->label().toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
    m_barLegend->setText(legend.join(QStringLiteral(" &nbsp; ")));
    auto* x = new QBarCategoryAxis;
    for (std::size_t g = 0; g < bars.groups.size(); ++g)
        x->append(bars.groupLabel(g));
    x->setTitleText(bars.axis.name);
    m_barChart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    if (log) {
        auto* y = new QLogValueAxis;
        y->setTitleText(tr("MB/s (log)"));
        y->setLabelFormat(QStringLiteral("%g"));
        y->setBase(10);
        y->setRange(std::max(0.001, bars.minMBps / 2), niceCeiling(bars.maxMBps * 1.05));
        m_barChart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(y);
    } else {
        auto* y = new QValueAxis;
        y->setTitleText(tr("MB/s"));
        y->setLabelFormat(QStringLiteral("%.0f"));
        y->setRange(0, niceCeiling(bars.maxMBps * 1.05));
        m_barChart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(y);
    }
}

// The tabs under the summary, in their order. Each builder makes its page and says how the view keeps it:
// adding a results view is one entry here and its builder.
const std::array<ResultsView::PageBuilder, 8> ResultsView::kPages = {
    &ResultsView::sustainedPage, &ResultsView::cdmPage,    &ResultsView::syncLabPage,
    &ResultsView::tablePage,     &ResultsView::barsPage,   &ResultsView::heatmapPage,
    &ResultsView::latencyPage,   &ResultsView::qdSweepPage};

ResultsPage ResultsView::cdmPage(QTabWidget* tabs)
{
    // The CrystalDiskMark grid comes first when the run has one: it is the answer such a run asks for.
    // In a scroll area: the grid's height must not set the least the tabs can be given under the summary.
    m_cdmPage = new QScrollArea(tabs);
    m_cdmPage->setWidgetResizable(true);
    m_cdmPage->setFrameShape(QFrame::NoFrame);
    m_cdm = new CdmGridView(m_cdmPage);
    m_cdmPage->setWidget(m_cdm);
    ResultsPage page{tr("CrystalDiskMark"), m_cdmPage};
    page.leads = true;
    page.show = [this](const ResultsPageInput& input) {
        std::optional<CdmGrid> grid;
        if (input.registry != nullptr && !input.run.cases.empty())
            grid = cdmGrid(input.run, *input.registry);
        m_hasCdmGrid = grid.has_value();
        if (grid)
            m_cdm->setGrid(*grid, input.run);
    };
    page.hasContent = [this] {
        return m_hasCdmGrid;
    };
    page.setDark = [this](bool dark) {
        m_cdm->setDark(dark);
    };
    return page;
}

ResultsPage ResultsView::syncLabPage(QTabWidget* tabs)
{
    // So does the sync lab's chart (after the grid): its verdicts are what such a run asks.
    m_syncLab = new SyncLabView(tabs);
    m_syncLab->setObjectName(QStringLiteral("syncLabView"));
    ResultsPage page{tr("Sync lab"), m_syncLab};
    page.leads = true;
    page.show = [this](const ResultsPageInput& input) {
        m_syncLab->setResult(input.run, input.registry);
    };
    page.hasContent = [this] {
        return m_syncLab->hasLab();
    };
    page.setDark = [this](bool dark) {
        m_syncLab->setDark(dark);
    };
    return page;
}

ResultsPage ResultsView::sustainedPage(QTabWidget* tabs)
{
    // A write until steady answers how fast a long write goes on: its chart is what such a run asks for,
    // first (its one direct write would otherwise bring a CrystalDiskMark grid of one cell to the front).
    m_sustained = new SustainedView(tabs);
    m_sustained->setObjectName(QStringLiteral("sustainedView"));
    ResultsPage page{tr("Sustained"), m_sustained};
    page.leads = true;
    page.show = [this](const ResultsPageInput& input) {
        m_sustained->setCases(input.cases);
    };
    page.hasContent = [this] {
        return m_sustained->hasFigures();
    };
    page.setDark = [this](bool dark) {
        m_sustained->setDark(dark);
    };
    return page;
}

ResultsPage ResultsView::tablePage(QTabWidget* tabs)
{
    auto* upper = new QWidget(tabs);
    m_tablePage = upper;
    auto* upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    m_table = new QTableView(upper);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    // Ranked as the Summary ranks (durable for writes to a file, the one rate otherwise), fastest first; the
    // # column keeps each case's number and sorts back to the run's order.
    m_table->sortByColumn(ResultsModel::figureColumn(ResultsModel::DurableColumn), Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    styleTable(m_table);
    m_table->horizontalHeader()->setSectionsMovable(true);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        const int row = m_table->indexAt(at).row();
        QMenu menu(m_table);
        QAction* copy = menu.addAction(tr("Copy as fio job"));
        copy->setToolTip(
            tr("The case as a fio job file, to rerun the workload elsewhere; its differences are "
               "stated in comments"));
        copy->setEnabled(!fioJobForRow(row).isEmpty());
        connect(copy, &QAction::triggered, this, [this, row] { copyFioJob(row); });
        QAction* diskspd = menu.addAction(tr("Copy as DiskSpd command"));
        diskspd->setToolTip(tr("The case as a DiskSpd command line for Windows's cmd; its differences are "
                               "stated in REM lines. Disabled where DiskSpd has no equivalent"));
        diskspd->setEnabled(!diskspdForRow(row).isEmpty());
        connect(diskspd, &QAction::triggered, this, [this, row] { copyDiskspd(row); });
        QAction* program = menu.addAction(tr("Copy as C program"));
        program->setToolTip(tr("The case as a standalone C program of the strategy's loop, which prints its "
                               "MB/s; how to build it and its differences are in its first comment"));
        program->setEnabled(!cProgramForRow(row).isEmpty());
        connect(program, &QAction::triggered, this, [this, row] { copyCProgram(row); });
        menu.exec(m_table->viewport()->mapToGlobal(at));
    });
    upperLayout->addWidget(m_table, 3);
    m_warnings = new QListWidget(upper);
    m_warnings->setToolTip(tr("Where caches, short repetitions or noise make a figure less than it looks."));
    m_warnings->setMaximumHeight(120);
    m_warnings->setWordWrap(true);
    m_warnings->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    upperLayout->addWidget(m_warnings, 1);

    ResultsPage page{tr("Table"), upper};
    page.groupChooser = true;
    return page;
}

ResultsPage ResultsView::barsPage(QTabWidget* tabs)
{
    auto* barPage = new QWidget(tabs);
    auto* barLayout = new QVBoxLayout(barPage);
    barLayout->setContentsMargins(0, 0, 0, 0);
    m_logScale = new QCheckBox(tr("Logarithmic scale"), barPage);
    m_logScale->setToolTip(tr("Per-byte and buffered writes differ a thousandfold; a log scale shows both."));
    barLayout->addWidget(m_logScale);
    m_barChart = new QChart;
    m_barChart->setAnimationOptions(QChart::NoAnimation);
    // The chart's own legend elides long names ("mmap-batc..."); this one wraps instead.
    m_barChart->legend()->hide();
    m_barView = new QChartView(m_barChart, barPage);
    m_barView->setRenderHint(QPainter::Antialiasing);
    barLayout->addWidget(m_barView, 1);
    m_barLegend = new QLabel(barPage);
    m_barLegend->setObjectName(QStringLiteral("barLegend"));
    m_barLegend->setWordWrap(true);
    m_barLegend->setTextFormat(Qt::RichText);
    m_barLegend->setContentsMargins(8, 0, 8, 4);
    barLayout->addWidget(m_barLegend);
    ResultsPage page{tr("By %1").arg(report::ChartAxis::first().name), barPage};
    page.groupChooser = true;
    page.setDark = [this](bool dark) {
        m_barChart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        m_barChart->setBackgroundRoundness(0);
    };
    return page;
}

ResultsPage ResultsView::heatmapPage(QTabWidget* tabs)
{
    auto* heatPage = new QWidget(tabs);
    auto* heatLayout = new QVBoxLayout(heatPage);
    heatLayout->setContentsMargins(0, 0, 0, 0);
    auto* axisRow = new QHBoxLayout;
    axisRow->addWidget(new QLabel(tr("Columns:"), heatPage));
    m_heatAxis = new QComboBox(heatPage);
    m_heatAxis->setObjectName(QStringLiteral("heatmapColumns"));
    m_heatAxis->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_heatAxis->setToolTip(tr("What the heatmap's columns are: any axis with numbers for values that varies "
                              "among the cases. Automatic shows threads when only the thread count varies, "
                              "as in the small-files sweep."));
    axisRow->addWidget(m_heatAxis);
    axisRow->addStretch(1);
    heatLayout->addLayout(axisRow);
    m_heatmap = new HeatmapWidget(heatPage);
    auto* scroll = new QScrollArea(heatPage);
    scroll->setWidget(m_heatmap);
    scroll->setWidgetResizable(true);
    heatLayout->addWidget(scroll, 1);
    ResultsPage page{tr("Heatmap"), heatPage};
    page.groupChooser = true;
    return page;
}

ResultsPage ResultsView::latencyPage(QTabWidget* tabs)
{
    m_latency = new LatencyView(tabs);
    m_latency->setObjectName(QStringLiteral("latencyView"));
    ResultsPage page{tr("Latency"), m_latency};
    page.show = [this](const ResultsPageInput& input) {
        m_latency->setCases(input.cases);
    };
    page.setDark = [this](bool dark) {
        m_latency->setDark(dark);
    };
    return page;
}

ResultsPage ResultsView::qdSweepPage(QTabWidget* tabs)
{
    m_qdSweep = new QdSweepView(tabs);
    m_qdSweep->setObjectName(QStringLiteral("qdSweepView"));
    ResultsPage page{tr("Queue depth"), m_qdSweep};
    page.show = [this](const ResultsPageInput& input) {
        m_qdSweep->setCases(input.cases, input.ranking, input.run.matrix.latencyTarget);
    };
    page.hasContent = [this] {
        return m_qdSweep->hasSweep();
    };
    page.setDark = [this](bool dark) {
        m_qdSweep->setDark(dark);
    };
    return page;
}

} // namespace iolab::gui
