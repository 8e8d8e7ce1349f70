// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/target_model.h"
#include "core/model/system_facts.h"

#include <QGroupBox>
#include <QString>

#include <cstdint>
#include <functional>

class QDialog;
class QLabel;
class QPushButton;
class QTableView;

namespace iolab::gui {

class FactsView;

// What a look at a folder target asks for.
enum class TargetLook
{
    Select,  // its facts (inspected and probed once) and the leftover run folders it holds
    Refresh, // its facts again (free space changes as runs go)
    Clean    // remove its leftover run folders, then its facts again
};

// What a look at a folder target found. A plain value: it crosses from the worker to the GUI thread.
struct TargetFacts
{
    TargetEntry entry;
    int leftoverCount = 0; // leftover run folders found (Select) or removed (Clean)
    std::uint64_t leftoverBytes = 0;
    QString cleanText; // Clean: what was removed and what was left, or why it failed
    bool cleanFailed = false;
    SystemFacts system; // the storage stack and the machine's settings (a usable folder only)
};

// Looks at a folder target: every disk access the target panel needs, so it runs on a worker thread.
TargetFacts lookAtTarget(TargetEntry entry, TargetLook look);

// The target picker: the list of targets, Choose folder and Rescan, and the selected target's details. It
// owns the probing: every look at a folder (inspect, probe, leftover runs, their removal) runs on a worker;
// the result comes back queued, tagged with the request, and is dropped when a newer request was made
// meanwhile (another target selected) or the panel is gone. A hung network mount never freezes the window.
class TargetPanel : public QGroupBox
{
    Q_OBJECT

public:
    using Inspector = std::function<TargetFacts(TargetEntry, TargetLook)>;

    explicit TargetPanel(QWidget* parent = nullptr);

    TargetModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QPushButton* chooseFolderButton() const { return m_chooseFolder; }
    QPushButton* rescanButton() const { return m_rescan; }
    // The Details pane: the selected folder's system facts, shown while the Details button is down.
    QPushButton* detailsButton() const { return m_detailsButton; }
    FactsView* factsView() const { return m_facts; }
    QDialog* detailsWindow() const { return m_detailsWindow; }
    // The selected folder's system facts (`gathered` false until its look is in).
    const SystemFacts& currentSystemFacts() const { return m_system; }
    QString detailsText() const;

    void rescan();
    bool selectTarget(const QString& key);
    QString currentKey() const;
    // The selected entry, or nullptr.
    const TargetEntry* currentEntry() const;
    // True while the selected folder's facts (inspection, probe) are being learned: no plan can be made yet.
    bool isInspecting() const;
    // Adds a folder as a target and selects it; unusableFolder follows if it cannot be one.
    void chooseFolder(const QString& path);
    // Learns the selected folder's facts again, off the GUI thread (after a run: its free space).
    void refreshCurrent();
    // Removes the leftover run folders in the selected folder, off the GUI thread; cleaned follows.
    void cleanCurrent();
    // While a run writes into `key`, it stays selected and the picker is disabled; "" unlocks.
    void lockTo(const QString& key);
    // Replaces what looks at a folder (tests make it block like a hung network mount).
    void setInspector(Inspector inspector) { m_inspector = std::move(inspector); }
    // Looks at folders still in flight, stale ones included.
    int looksInFlight() const { return m_inFlight; }

Q_SIGNALS:
    // The selection changed or the selected target's facts came in: the plan is made again.
    void targetChanged();
    // A folder the user chose cannot be a target, and why.
    void unusableFolder(const QString& path, const QString& problem);
    // The selected folder holds run folders left by a killed run.
    void leftoversFound(const QString& key, const QString& path, int count, std::uint64_t bytes);
    void cleaned(const QString& text, bool failed);
    // A rescan is in; `kept` says whether the target selected before it is selected again.
    void scanFinished(bool kept);

private:
    void onSelectionChanged();
    // `announceAs`: the path the user chose, when a problem found is to be announced.
    void look(const TargetEntry& entry, TargetLook look, const QString& announceAs);
    // `askedKey`: the key of the entry looked at, which the facts' entry replaces (its own key may differ).
    void lookDone(std::uint64_t request, TargetLook look, const QString& announceAs, const QString& askedKey,
                  const TargetFacts& facts);
    void showDetails();

    TargetModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_details = nullptr;
    QPushButton* m_chooseFolder = nullptr;
    QPushButton* m_rescan = nullptr;
    QPushButton* m_detailsButton = nullptr;
    QDialog* m_detailsWindow = nullptr;
    QLabel* m_detailsHeading = nullptr;
    FactsView* m_facts = nullptr;
    SystemFacts m_system;
    Inspector m_inspector = lookAtTarget;
    std::uint64_t m_request = 0; // the newest look asked for; an older one's result is dropped
    bool m_waitingForFacts = false;
    int m_inFlight = 0;
    struct Announce
    {
        QString key;
        QString path;
    } m_announce; // the folder the user chose, until its facts are in (a rescan may select it again)
    QString m_lockedKey;
    QString m_keyBeforeReset;
};

} // namespace iolab::gui
