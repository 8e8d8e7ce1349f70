// SPDX-License-Identifier: MIT
#include "app/gui/history_controller.h"

#include "app/gui/widget_helpers.h"

#include "app/gui/facts_view.h"
#include "app/gui/theme.h"
#include "app/gui/workers.h"
#include "core/analysis/comparability.h"
#include "core/base/log.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace iolab::gui {

namespace {

constexpr int kKnownRuns = 8; // history runs whose measured rates feed the duration estimate

} // namespace

HistoryController::HistoryController(const QString& folder, QWidget* parent)
    : QWidget(parent), m_store(std::make_shared<const HistoryStore>(folder)),
      m_loader([store = m_store](const QString& path, QString* error) { return store->load(path, error); })
{
    auto* layout = new QVBoxLayout(this);
    auto* buttons = new QHBoxLayout;
    auto* reopen = new QPushButton(loadIcon(QStringLiteral("open")), tr("Reopen"), this);
    reopen->setToolTip(tr("Show the selected run in Results"));
    auto* remove = new QPushButton(loadIcon(QStringLiteral("delete")), tr("Delete"), this);
    remove->setToolTip(tr("Delete the selected runs' result files"));
    auto* compare = new QPushButton(loadIcon(QStringLiteral("compare")), tr("Compare two"), this);
    compare->setToolTip(tr("Select two runs: their cases side by side with the ratio of the medians"));
    buttons->addWidget(reopen);
    buttons->addWidget(remove);
    buttons->addWidget(compare);
    buttons->addStretch(1);
    auto* where = new QLabel(tr("Saved in %1").arg(m_store->folder()), this);
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    buttons->addWidget(where);
    layout->addLayout(buttons);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    m_model = new HistoryModel(this);
    m_view = new QTableView(splitter);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    styleTable(m_view);
    splitter->addWidget(m_view);
    auto* compareBox = new QWidget(splitter);
    auto* compareLayout = new QVBoxLayout(compareBox);
    compareLayout->setContentsMargins(0, 0, 0, 0);
    m_compareTitle = new QLabel(tr("Select two runs and press Compare."), compareBox);
    m_compareTitle->setObjectName(QStringLiteral("compareTitle"));
    m_compareTitle->setWordWrap(true);
    compareLayout->addWidget(m_compareTitle);
    m_compare = new CompareModel(this);
    m_compareView = new QTableView(compareBox);
    m_compareView->setModel(m_compare);
    styleTable(m_compareView);
    // The ratio is the answer: right after the case. A long case label is cut at its end, so that it reads
    // from the strategy on; its tooltip holds it all.
    m_compareView->horizontalHeader()->moveSection(CompareModel::RatioColumn, 1);
    m_compareView->horizontalHeader()->setMaximumSectionSize(380);
    m_compareView->setTextElideMode(Qt::ElideRight);
    // The cases side by side, and the two machines' facts side by side (the same machine before and after a
    // change, or two machines): a row that differs is marked.
    m_compareTabs = new QTabWidget(compareBox);
    m_compareTabs->addTab(m_compareView, tr("Cases"));
    m_compareFacts = new FactsView(m_compareTabs);
    m_compareTabs->addTab(m_compareFacts, tr("Machine and storage"));
    compareLayout->addWidget(m_compareTabs, 1);
    splitter->addWidget(compareBox);
    layout->addWidget(splitter, 1);
    connect(reopen, &QPushButton::clicked, this, &HistoryController::reopenSelected);
    connect(m_view, &QTableView::doubleClicked, this, &HistoryController::reopenSelected);
    connect(remove, &QPushButton::clicked, this, &HistoryController::deleteSelected);
    connect(compare, &QPushButton::clicked, this, &HistoryController::compareSelected);
}

void HistoryController::refresh()
{
    start({});
}

void HistoryController::save(const RunResult& result)
{
    start({result, {}});
}

void HistoryController::deleteSelected()
{
    Task task;
    for (const auto& index : m_view->selectionModel()->selectedRows())
        task.toRemove << m_model->entry(index.row()).path;
    start(std::move(task));
}

void HistoryController::start(Task task)
{
    // One task at a time, in order, on the history's own thread. A save still going when the window closes
    // finishes (the application waits for it on exit); its answer is dropped.
    runOffGuiThread(
        historyPool(), this,
        [store = m_store, task = std::move(task)] {
            Outcome outcome;
            outcome.wasSave = task.toSave.has_value();
            if (task.toSave)
                outcome.saved = store->save(*task.toSave, &outcome.error);
            for (const QString& path : task.toRemove) {
                QString error;
                if (!store->remove(path, &error))
                    outcome.removeErrors << error;
            }
            outcome.snapshot = scanHistory(*store, kKnownRuns);
            return outcome;
        },
        [](HistoryController& history, Outcome outcome) { history.done(std::move(outcome)); });
}

void HistoryController::done(Outcome outcome)
{
    if (outcome.wasSave) {
        if (!outcome.saved.isEmpty())
            logger(LogModule::Gui).info("run saved to {}", outcome.saved.toStdString());
        Q_EMIT saved(outcome.saved, outcome.error);
    }
    m_model->setEntries(std::move(outcome.snapshot.entries));
    m_known = std::move(outcome.snapshot.known);
    Q_EMIT refreshed();
    if (!outcome.removeErrors.isEmpty())
        Q_EMIT problem(outcome.removeErrors.join(QStringLiteral(" ")));
}

void HistoryController::reopenSelected()
{
    const auto rows = m_view->selectionModel()->selectedRows();
    if (!rows.isEmpty())
        Q_EMIT reopenRequested(m_model->entry(rows.first().row()).path);
}

void HistoryController::compareRows(int first, int second)
{
    struct Loaded
    {
        std::optional<RunResult> older;
        std::optional<RunResult> newer;
        QString error;
    };
    const HistoryEntry a = m_model->entry(first);
    const HistoryEntry b = m_model->entry(second);
    // Older run first, so that the ratio reads "how the newer one compares".
    const bool swap = a.startedAt > b.startedAt;
    const quint64 serial = ++m_compareSerial;
    m_comparing = true;
    m_compareTitle->setText(tr("Reading the two runs..."));
    // On the history's thread, in order after the saves and deletes asked for before.
    runOffGuiThread(
        historyPool(), this,
        [load = m_loader, olderPath = swap ? b.path : a.path, newerPath = swap ? a.path : b.path] {
            Loaded loaded;
            loaded.older = load(olderPath, &loaded.error);
            if (loaded.older)
                loaded.newer = load(newerPath, &loaded.error);
            return loaded;
        },
        [serial](HistoryController& history, Loaded loaded) {
            if (serial != history.m_compareSerial)
                return; // a newer Compare was asked for
            history.m_comparing = false;
            if (!loaded.older || !loaded.newer) {
                history.m_compareTitle->setText(tr("Cannot compare: %1").arg(loaded.error));
                Q_EMIT history.problem(tr("Cannot compare: %1").arg(loaded.error));
                Q_EMIT history.compared(loaded.error);
                return;
            }
            history.showComparison(*loaded.older, *loaded.newer);
            Q_EMIT history.compared({});
        });
}

void HistoryController::showComparison(const RunResult& older, const RunResult& newer)
{
    m_compare->setRuns(older, newer);
    const auto title = [](const RunResult& r) {
        return tr("%1, %2").arg(qs(r.host.hostname), qs(r.startedAt.substr(0, 16)));
    };
    m_compareFacts->setComparison(older.system, title(older), newer.system, title(newer));
    const int differing = m_compareFacts->differingRows();
    m_compareTabs->setTabText(1, differing == 0 ? tr("Machine and storage (the same)")
                                 : differing == 1
                                     ? tr("Machine and storage (1 fact differs)")
                                     : tr("Machine and storage (%1 facts differ)").arg(differing));
    QString text =
        tr("%1 on %2  vs  %3 on %4: per case, the newer median divided by the older (durable for writes to a "
           "file).")
            .arg(qs(older.matrix.name), qs(older.target.path), qs(newer.matrix.name), qs(newer.target.path));
    // What differs besides what they measured, named, so that no ratio is read as like for like when it is
    // not.
    if (const std::string differences = describeRunDifferences(runDifferences(older, newer));
        !differences.empty())
        text += QLatin1Char('\n') + qs(differences);
    m_compareTitle->setText(text);
}

void HistoryController::compareSelected()
{
    const auto rows = m_view->selectionModel()->selectedRows();
    if (rows.size() != 2) {
        Q_EMIT problem(tr("Select exactly two runs to compare (Ctrl+click)."));
        return;
    }
    compareRows(rows[0].row(), rows[1].row());
}

} // namespace iolab::gui
