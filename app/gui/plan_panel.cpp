// SPDX-License-Identifier: MIT
#include "app/gui/plan_panel.h"
#include "app/gui/widget_helpers.h"

#include "app/gui/matrix_editor.h"
#include "app/gui/workers.h"
#include "core/engine/registry.h"

#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace iolab::gui {

namespace {

constexpr std::size_t kRefusedListed = 200; // refused combinations listed under the plan; the rest counted
// Combinations planned at once on the GUI thread (a few milliseconds); a larger matrix is planned on a
// worker.
constexpr std::uint64_t kPlannedInline = 2'000;

} // namespace

PlanPanel::PlanPanel(const Registry& registry, const MatrixEditor* editor, QWidget* parent)
    : QGroupBox(tr("Plan"), parent), m_registry(registry), m_editor(editor)
{
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_blocked = new QLabel(this);
    m_blocked->setWordWrap(true);
    m_blocked->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: 600;"));
    layout->addWidget(m_blocked);
    m_refusedList = new QListWidget(this);
    m_refusedList->setToolTip(tr("Combinations that will not run, each with the reason."));
    m_refusedList->setWordWrap(true);
    layout->addWidget(m_refusedList, 1);
    layout->addStretch(0);
    layout->setAlignment(Qt::AlignTop);
}

QString PlanPanel::blockedReason() const
{
    if (m_waitingForTarget)
        return tr("The target is still being looked at.");
    return m_planPending ? tr("The run is still being planned.") : m_plan.blocked;
}

void PlanPanel::replan(const TargetEntry* target, bool targetPending, const std::vector<CaseResult>& known)
{
    m_latest->store(++m_generation);
    m_waitingForTarget = false;
    m_planPending = false;
    if (target == nullptr) {
        m_plan = {};
        m_plan.blocked = tr("Select a target.");
        showPlan();
        return;
    }
    if (targetPending) {
        // The plan is made when the folder's facts are in.
        m_waitingForTarget = true;
        m_plan = {};
        m_plan.blocked = blockedReason();
        m_summary->setText(tr("Looking at the target..."));
        m_blocked->hide();
        m_refusedList->clear();
        m_refusedList->hide();
        Q_EMIT planWaiting();
        return;
    }
    const RunOptions options = m_editor->runOptions();
    if (m_override) {
        m_plan =
            previewRun(m_registry, *m_override, *target, optionsForOverride(*m_override, options), known);
        if (m_plan.cases().empty() && !m_plan.refused().empty())
            m_plan.blocked = tr("%1 cannot run on this target: %2")
                                 .arg(qs(m_override->name), qs(m_plan.refused().front().reason));
        showPlan();
        return;
    }
    const MatrixDraft draft = m_editor->draft();
    const std::uint64_t combinations = draft.problem().empty() ? caseCount(draft.toMatrix(), m_registry) : 0;
    // Beyond kMaxCases the plan is refused from the count alone, which is quick.
    if (combinations <= kPlannedInline || combinations > kMaxCases) {
        m_plan = previewRun(m_registry, draft, *target, options, known);
        showPlan();
        return;
    }
    // Expanding and estimating 100,000 cases takes most of a second: done on a worker, the result delivered
    // queued, and dropped when a newer plan was asked for meanwhile.
    m_planPending = true;
    m_summary->setText(tr("Planning %L1 combinations...").arg(combinations));
    m_blocked->hide();
    Q_EMIT planWaiting();
    runOffGuiThread(
        planningPool(), this,
        [generation = m_generation, latest = m_latest, registry = &m_registry, draft, target = *target,
         options, known, gate = m_planningGate]() -> std::optional<RunPreview> {
            if (gate)
                gate();
            if (latest->load() != generation)
                return std::nullopt; // a newer plan was asked for while this one waited for a thread
            return previewRun(*registry, draft, target, options, known);
        },
        [generation = m_generation](PlanPanel& panel, std::optional<RunPreview> preview) {
            if (preview)
                panel.planReady(generation, std::move(*preview));
        });
}

void PlanPanel::planReady(std::uint64_t generation, RunPreview preview)
{
    if (generation != m_generation)
        return;
    m_planPending = false;
    m_plan = std::move(preview);
    showPlan();
}

void PlanPanel::showPlan()
{
    // Text in a field that does not parse must never run as the value it replaced.
    if (const QString problem = m_editor->inputProblem(); !problem.isEmpty() && !m_override)
        m_plan.blocked = problem;
    QString summary = m_plan.cases().empty() && !m_plan.blocked.isEmpty() ? QString() : m_plan.summary();
    if (m_override && !summary.isEmpty()) {
        // The replay asked for from the Program tab, not the matrix beside it.
        QString name = qs(m_override->name);
        name[0] = name[0].toUpper();
        summary = tr("%1 (from the Program tab; editing the matrix plans it instead): %2").arg(name, summary);
    }
    m_summary->setText(summary);
    m_blocked->setText(m_plan.blocked);
    m_blocked->setVisible(!m_plan.blocked.isEmpty());
    m_refusedList->clear();
    // Laying out tens of thousands of wrapped lines would hold the GUI thread for seconds: list the first
    // ones and count the rest.
    const auto& refused = m_plan.refused();
    const std::size_t listed = std::min(refused.size(), kRefusedListed);
    for (std::size_t i = 0; i < listed; ++i) {
        const auto& r = refused[i];
        m_refusedList->addItem(tr("%1 - %2").arg(qs(r.testCase.label()), qs(r.reason)));
    }
    if (refused.size() > listed)
        m_refusedList->addItem(tr("... and %n more refused combination(s).", nullptr,
                                  static_cast<int>(refused.size() - listed)));
    m_refusedList->setVisible(m_refusedList->count() > 0);
    Q_EMIT planShown();
}

} // namespace iolab::gui
