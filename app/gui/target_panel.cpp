// SPDX-License-Identifier: MIT
#include "app/gui/target_panel.h"
#include "app/gui/widget_helpers.h"

#include "app/gui/facts_view.h"
#include "app/gui/theme.h"
#include "app/gui/workers.h"
#include "core/base/error.h"
#include "core/base/log.h"
#include "core/base/units.h"
#include "platform/platform.h"

#include <QDialog>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace iolab::gui {

TargetFacts lookAtTarget(TargetEntry entry, TargetLook look)
{
    TargetFacts facts;
    if (entry.kind != TargetEntry::Kind::Folder) {
        facts.entry = std::move(entry);
        return facts;
    }
    if (!entry.inspected || look != TargetLook::Select) {
        // What a probe learned stays known: probing writes to the user's disk.
        TargetEntry fresh = inspectFolder(qs(entry.info.path), entry.chosen);
        if (entry.inspected && entry.info.capabilitiesProbed && fresh.problem.isEmpty()) {
            fresh.info.capabilitiesProbed = true;
            fresh.info.directIoProblem = entry.info.directIoProblem;
            fresh.info.fallocateProblem = entry.info.fallocateProblem;
        }
        entry = std::move(fresh);
    }
    probeFolder(entry);
    facts.entry = entry;
    if (entry.problem.isEmpty())
        facts.system = gatherSystemFacts(entry.info);
    if (!entry.problem.isEmpty() || look == TargetLook::Refresh)
        return facts;
    try {
        const CleanReport report = cleanStaleRuns(
            entry.info.path, look == TargetLook::Clean ? CleanMode::Remove : CleanMode::ListOnly);
        facts.leftoverCount = static_cast<int>(report.removed.size());
        facts.leftoverBytes = report.removedBytes;
        if (look == TargetLook::Clean) {
            facts.cleanText = TargetPanel::tr("Removed %n leftover run folder(s), %1.", nullptr,
                                              static_cast<int>(report.removed.size()))
                                  .arg(qs(formatBytes(report.removedBytes)));
            for (const auto& [folder, why] : report.kept)
                facts.cleanText += TargetPanel::tr(" Left %1: %2.").arg(qs(folder), qs(why));
            // Free space changed.
            TargetEntry fresh = inspectFolder(qs(entry.info.path), entry.chosen);
            if (fresh.problem.isEmpty()) {
                fresh.info.capabilitiesProbed = entry.info.capabilitiesProbed;
                fresh.info.directIoProblem = entry.info.directIoProblem;
                fresh.info.fallocateProblem = entry.info.fallocateProblem;
                facts.entry = std::move(fresh);
            }
        }
    } catch (const InputError& error) {
        if (look == TargetLook::Clean) {
            facts.cleanText = qs(error.what());
            facts.cleanFailed = true;
        } else
            logger(LogModule::Gui).warn("looking for leftover run folders: {}", error.what());
    }
    return facts;
}

TargetPanel::TargetPanel(QWidget* parent) : QGroupBox(tr("Target"), parent)
{
    m_model = new TargetModel(this);
    auto* layout = new QVBoxLayout(this);
    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    styleTable(m_view);
    m_view->setToolTip(
        tr("Where the run writes: a folder on a mounted filesystem, a pipe or the null device."));
    layout->addWidget(m_view, 1);
    auto* buttons = new QHBoxLayout;
    m_chooseFolder = new QPushButton(loadIcon(QStringLiteral("folder")), tr("Choose folder..."), this);
    m_chooseFolder->setToolTip(
        tr("Run in any folder you can write to; IOLab creates its own marked run folder inside."));
    m_rescan = new QPushButton(loadIcon(QStringLiteral("refresh")), tr("Rescan"), this);
    m_rescan->setToolTip(tr("List the mounted filesystems again"));
    m_detailsButton = new QPushButton(tr("Details..."), this);
    m_detailsButton->setCheckable(true);
    m_detailsButton->setToolTip(
        tr("The selected folder's storage stack, device, filesystem, kernel and machine "
           "settings: what shapes every figure measured there"));
    buttons->addWidget(m_chooseFolder);
    buttons->addWidget(m_rescan);
    buttons->addStretch(1);
    buttons->addWidget(m_detailsButton);
    layout->addLayout(buttons);
    m_details = new QLabel(this);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_details);
    // The Details pane is a window of its own beside the main one: the facts are some forty rows, more than
    // the target box has room for. It follows the selection while open.
    m_detailsWindow = new QDialog(this);
    m_detailsWindow->setWindowTitle(tr("Target details"));
    m_detailsWindow->resize(760, 640);
    auto* detailsLayout = new QVBoxLayout(m_detailsWindow);
    m_detailsHeading = new QLabel(m_detailsWindow);
    m_detailsHeading->setWordWrap(true);
    m_detailsHeading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    detailsLayout->addWidget(m_detailsHeading);
    m_facts = new FactsView(m_detailsWindow);
    detailsLayout->addWidget(m_facts, 1);
    connect(m_detailsButton, &QPushButton::toggled, m_detailsWindow, &QWidget::setVisible);
    connect(m_detailsWindow, &QDialog::finished, m_detailsButton,
            [this] { m_detailsButton->setChecked(false); });

    connect(m_chooseFolder, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getExistingDirectory(this, tr("Target folder"), qs(homeDirectory()));
        if (!path.isEmpty())
            chooseFolder(path);
    });
    connect(m_rescan, &QPushButton::clicked, this, [this] {
        if (m_lockedKey.isEmpty())
            rescan();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &TargetPanel::onSelectionChanged);
    // A rescan resets the model, and with it the selection: keep the target the user had.
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this,
            [this] { m_keyBeforeReset = currentKey(); });
    connect(m_model, &TargetModel::scanFinished, this, [this] {
        const bool kept = !m_keyBeforeReset.isEmpty() && selectTarget(m_keyBeforeReset);
        Q_EMIT scanFinished(kept);
    });
}

void TargetPanel::rescan()
{
    m_model->rescan();
}

bool TargetPanel::selectTarget(const QString& key)
{
    const int row = m_model->rowForKey(key);
    if (row < 0)
        return false;
    m_view->selectRow(row);
    return true;
}

QString TargetPanel::currentKey() const
{
    const TargetEntry* e = currentEntry();
    return e == nullptr ? QString() : e->key();
}

const TargetEntry* TargetPanel::currentEntry() const
{
    const auto rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? nullptr : &m_model->entry(rows.first().row());
}

bool TargetPanel::isInspecting() const
{
    return m_waitingForFacts && currentEntry() != nullptr;
}

QString TargetPanel::detailsText() const
{
    return m_details->text();
}

void TargetPanel::chooseFolder(const QString& path)
{
    // Listed and selected at once; a worker inspects and probes it, and its problem is announced: the user
    // chose this folder.
    TargetEntry e;
    e.chosen = true;
    e.inspected = false;
    e.info.path = QDir::cleanPath(QDir(path).absolutePath()).toStdString();
    m_announce = {e.key(), path};
    const int row = m_model->addEntry(e);
    if (m_view->selectionModel()->isRowSelected(row, {}))
        onSelectionChanged(); // the same row chosen again: looked at again
    else
        m_view->selectRow(row);
}

void TargetPanel::onSelectionChanged()
{
    // A rescan that ends mid-run resets the list: the run's own target stays the one selected.
    if (!m_lockedKey.isEmpty() && currentKey() != m_lockedKey && selectTarget(m_lockedKey))
        return;
    ++m_request; // whatever was in flight is about another selection now
    m_waitingForFacts = false;
    m_system = {}; // the facts shown were the previous target's
    m_facts->clear();
    m_detailsHeading->setText(tr("Looking at the selected target..."));
    // The list shows few rows: the selected one is always among them, also when a scan or a setting chose it.
    if (const auto rows = m_view->selectionModel()->selectedRows(); !rows.isEmpty())
        m_view->scrollTo(rows.first());
    const TargetEntry* e = currentEntry();
    if (e != nullptr && e->key() != m_announce.key)
        m_announce = {}; // the user moved on from the folder they chose
    if (e != nullptr && e->kind == TargetEntry::Kind::Folder && e->problem.isEmpty())
        look(*e, TargetLook::Select, e->key() == m_announce.key ? m_announce.path : QString());
    showDetails();
    Q_EMIT targetChanged();
}

void TargetPanel::refreshCurrent()
{
    if (const TargetEntry* e = currentEntry(); e != nullptr && e->kind == TargetEntry::Kind::Folder)
        look(*e, TargetLook::Refresh, {});
}

void TargetPanel::cleanCurrent()
{
    const TargetEntry* e = currentEntry();
    if (e == nullptr)
        return;
    if (e->kind != TargetEntry::Kind::Folder || !e->problem.isEmpty() || !e->inspected) {
        Q_EMIT cleaned(tr("Select a folder target first."), true);
        return;
    }
    look(*e, TargetLook::Clean, {});
}

void TargetPanel::look(const TargetEntry& entry, TargetLook look, const QString& announceAs)
{
    const std::uint64_t request = ++m_request;
    // The plan waits for facts it needs; a look for leftovers or free space alone holds nothing back.
    m_waitingForFacts = !entry.inspected || (entry.problem.isEmpty() && !entry.info.capabilitiesProbed);
    ++m_inFlight;
    runOffGuiThread(
        targetPool(), this, [inspector = m_inspector, entry, look] { return inspector(entry, look); },
        [request, look, announceAs, askedKey = entry.key()](TargetPanel& panel, const TargetFacts& facts) {
            panel.lookDone(request, look, announceAs, askedKey, facts);
        });
}

void TargetPanel::lookDone(std::uint64_t request, TargetLook look, const QString& announceAs,
                           const QString& askedKey, const TargetFacts& facts)
{
    --m_inFlight;
    if (request != m_request)
        return; // another target was selected, or the same one asked about again, meanwhile
    // A look for leftovers alone changes no fact the plan uses.
    const bool factsChanged = m_waitingForFacts || look != TargetLook::Select;
    m_waitingForFacts = false;
    const TargetEntry& e = facts.entry;
    m_model->updateEntry(e, askedKey);
    if (m_announce.key == askedKey)
        m_announce.key = e.key(); // the folder announced is the same one under its real path
    m_system = facts.system;
    m_facts->setFacts(m_system);
    m_detailsHeading->setText(
        m_system.gathered
            ? tr("<b>%1</b><br>%2 · facts read in %3 ms. Hover a row for where it was read; an unknown fact "
                 "says why.")
                  .arg(qs(e.info.path).toHtmlEscaped(), qs(describeStack(m_system)).toHtmlEscaped())
                  .arg(m_system.gatherMilliseconds, 0, 'f', 1)
            : tr("<b>%1</b>: no facts (not a folder IOLab can use)").arg(qs(e.info.path).toHtmlEscaped()));
    showDetails();
    if (!announceAs.isEmpty() && e.key() == m_announce.key) {
        m_announce = {};
        if (!e.problem.isEmpty())
            Q_EMIT unusableFolder(announceAs, e.problem);
    }
    if (factsChanged)
        Q_EMIT targetChanged();
    if (look == TargetLook::Select && facts.leftoverCount > 0)
        Q_EMIT leftoversFound(e.key(), qs(e.info.path), facts.leftoverCount, facts.leftoverBytes);
    if (look == TargetLook::Clean) {
        if (!facts.cleanFailed)
            logger(LogModule::Gui).info("{}", facts.cleanText.toStdString());
        Q_EMIT cleaned(facts.cleanText, facts.cleanFailed);
    }
}

void TargetPanel::showDetails()
{
    const TargetEntry* current = currentEntry();
    if (current == nullptr) {
        m_details->setText(tr("Select where the run writes."));
        return;
    }
    const TargetEntry& e = *current;
    QString details;
    if (!e.inspected) {
        details = tr("Looking at <b>%1</b>...").arg(qs(e.info.path).toHtmlEscaped());
    } else if (!e.problem.isEmpty()) {
        details = tr("<b>Cannot use this target:</b> %1").arg(e.problem.toHtmlEscaped());
    } else if (e.kind == TargetEntry::Kind::Folder) {
        const TargetInfo& t = e.info;
        details = tr("Runs write into a new marked folder inside <b>%1</b> and remove it afterwards.")
                      .arg(qs(t.path).toHtmlEscaped());
        if (!t.directIoProblem.empty())
            details +=
                tr("<br>O_DIRECT: not supported here (%1).").arg(qs(t.directIoProblem).toHtmlEscaped());
        if (!t.fallocateProblem.empty())
            details +=
                tr("<br>fallocate: not supported here (%1).").arg(qs(t.fallocateProblem).toHtmlEscaped());
        if (t.livesInMemory())
            details += tr("<br>This filesystem lives in memory: durable figures mean nothing here.");
        if (m_system.gathered)
            details +=
                tr("<br>Storage: %1 (%2).")
                    .arg(qs(describeStack(m_system)).toHtmlEscaped(), qs(describe(m_system.deviceClass)));
    } else {
        details = e.kind == TargetEntry::Kind::Pipe
                      ? tr("Only the pipe strategies run against a pipe; no file is written.")
                      : tr("stdio and write(2) run against the null device: the API's own cost.");
    }
    m_details->setText(details);
}

void TargetPanel::lockTo(const QString& key)
{
    m_lockedKey = key;
    const bool enabled = key.isEmpty();
    m_view->setEnabled(enabled);
    m_chooseFolder->setEnabled(enabled);
    m_rescan->setEnabled(enabled);
}

} // namespace iolab::gui
