// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/history.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QTabWidget;
class QTableView;

namespace iolab::gui {

class FactsView;

// The History tab and the folder behind it: the list of saved runs, Reopen, Delete and Compare two. Saving a
// run, deleting and listing run on the history's own thread, one task at a time and in order; the window
// never waits for one, and an answer that finds the tab gone is dropped.
class HistoryController : public QWidget
{
    Q_OBJECT

public:
    HistoryController(const QString& folder, QWidget* parent = nullptr);

    const HistoryStore& store() const { return *m_store; }
    HistoryModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    CompareModel* compareModel() const { return m_compare; }
    QTableView* compareView() const { return m_compareView; }
    // The two runs' system facts side by side, the rows that differ marked.
    FactsView* compareFacts() const { return m_compareFacts; }
    QTabWidget* compareTabs() const { return m_compareTabs; }
    // Measured cases of the newest runs (without their samples), for duration estimates.
    const std::vector<CaseResult>& known() const { return m_known; }

    // Re-reads the folder off the GUI thread; refreshed when the list is in.
    void refresh();
    // Saves a finished run off the GUI thread; saved, then refreshed.
    void save(const RunResult& result);
    // Deletes the selected runs' files off the GUI thread; refreshed (and problem, if one could not go).
    void deleteSelected();
    // Reads a result file; runs on a worker thread.
    using Loader = std::function<std::optional<RunResult>(const QString& path, QString* error)>;
    // What reads result files (Compare here, and the window's Open and Reopen); tests hold it back.
    const Loader& loader() const { return m_loader; }
    void setLoader(Loader loader) { m_loader = std::move(loader); }

    // Reads two rows' runs off the GUI thread and shows them side by side, the older first; compared
    // follows (and problem when one does not read). A newer Compare makes an older one's answer moot.
    void compareRows(int first, int second);
    bool isComparing() const { return m_comparing; }

Q_SIGNALS:
    // A save is done: the file it wrote, or "" and why not.
    void saved(const QString& path, const QString& error);
    void refreshed();
    // Reopen asks for this saved run to be shown.
    void reopenRequested(const QString& path);
    void problem(const QString& text);
    // A Compare is over: "" when both runs are shown, else why not.
    void compared(const QString& error);

private:
    struct Task
    {
        std::optional<RunResult> toSave;
        QStringList toRemove;
    };
    struct Outcome
    {
        bool wasSave = false;
        QString saved;
        QString error;
        QStringList removeErrors;
        HistorySnapshot snapshot;
    };
    void start(Task task);
    void done(Outcome outcome);
    void reopenSelected();
    void compareSelected();
    void showComparison(const RunResult& older, const RunResult& newer);

    std::shared_ptr<const HistoryStore> m_store; // shared with a task that outlives the tab
    HistoryModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    CompareModel* m_compare = nullptr;
    QTableView* m_compareView = nullptr;
    QLabel* m_compareTitle = nullptr;
    QTabWidget* m_compareTabs = nullptr;
    FactsView* m_compareFacts = nullptr;
    std::vector<CaseResult> m_known;
    Loader m_loader;
    quint64 m_compareSerial = 0; // the Compare asked for last
    bool m_comparing = false;
};

} // namespace iolab::gui
