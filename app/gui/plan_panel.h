// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/run_preview.h"

#include <QGroupBox>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QListWidget;

namespace iolab {
class Registry;
}

namespace iolab::gui {

class MatrixEditor;

// The Plan box and the planning behind it: what pressing Run would do (the cases, those refused and why, the
// space and time it needs) or why Run must wait. A large matrix is planned on a worker; its plan comes back
// queued and is dropped when a newer one was asked for meanwhile.
class PlanPanel : public QGroupBox
{
    Q_OBJECT

public:
    // `registry` outlives the panel; `editor` is the matrix being planned.
    PlanPanel(const Registry& registry, const MatrixEditor* editor, QWidget* parent = nullptr);

    const RunPreview& plan() const { return m_plan; }
    // True while a large matrix is planned off the GUI thread.
    bool isPlanning() const { return m_planPending; }
    // True while the target's facts are awaited: no plan yet.
    bool isWaitingForTarget() const { return m_waitingForTarget; }
    // Why Run cannot start now; "" when it can.
    QString blockedReason() const;
    QListWidget* refusedList() const { return m_refusedList; }
    // Runs on the planning thread before each plan made there: tests hold a plan back with it.
    void setPlanningGate(std::function<void()> gate) { m_planningGate = std::move(gate); }

    // Plans the editor's matrix on `target` (nullptr: none selected); `targetPending`: its facts are not in
    // yet. `known`: measured cases, for the estimate.
    void replan(const TargetEntry* target, bool targetPending, const std::vector<CaseResult>& known);
    // A matrix planned instead of the editor's until it is set back to nullopt (a trace's replay, asked for
    // from the Program tab: its run starts from this plan).
    void setMatrixOverride(std::optional<Matrix> matrix) { m_override = std::move(matrix); }
    bool hasMatrixOverride() const { return m_override.has_value(); }

Q_SIGNALS:
    // A plan is in and shown.
    void planShown();
    // Planning went off the GUI thread, or waits for the target: Run waits.
    void planWaiting();

private:
    void planReady(std::uint64_t generation, RunPreview preview);
    void showPlan();

    const Registry& m_registry;
    const MatrixEditor* m_editor;
    QLabel* m_summary = nullptr;
    QLabel* m_blocked = nullptr;
    QListWidget* m_refusedList = nullptr;
    RunPreview m_plan;
    std::uint64_t m_generation = 0; // a plan made off the GUI thread for an older one is dropped
    std::shared_ptr<std::atomic<std::uint64_t>> m_latest = std::make_shared<std::atomic<std::uint64_t>>(0);
    bool m_planPending = false;
    bool m_waitingForTarget = false;
    std::function<void()> m_planningGate;
    std::optional<Matrix> m_override;
};

} // namespace iolab::gui
