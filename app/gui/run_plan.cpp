// SPDX-License-Identifier: MIT
#include "app/gui/run_plan.h"
#include "app/gui/widget_helpers.h"

#include "core/base/error.h"
#include "core/base/units.h"
#include "core/engine/runner.h"

#include <QObject>

#include <algorithm>

namespace iolab::gui {

QString RunPlan::summary() const
{
    QString text = QObject::tr("%n case(s)", nullptr, static_cast<int>(expanded.cases.size()));
    if (!expanded.refused.empty())
        text += QObject::tr(", %n refused", nullptr, static_cast<int>(expanded.refused.size()));
    if (usesDisk)
        text += QObject::tr(" · largest case needs %1 of %2 free")
                    .arg(qs(formatBytes(largestCaseBytes)), qs(formatBytes(freeBytes)));
    if (!expanded.cases.empty()) {
        text += QObject::tr(" · about %1").arg(qs(formatDuration(estimate.seconds)));
        if (estimate.guessedCases > 0)
            text += estimate.measuredCases > 0
                        ? QObject::tr(" (%1 case(s) timed before, the rest a rough guess)")
                              .arg(estimate.measuredCases)
                        : QObject::tr(" (rough guess until a case has run here)");
    }
    return text;
}

RunPlan planRun(const Registry& registry, const MatrixDraft& draft, const TargetEntry& target,
                const RunOptions& options, const std::vector<CaseResult>& known)
{
    RunPlan plan;
    if (const std::string problem = draft.problem(); !problem.empty()) {
        plan.blocked = QObject::tr("The matrix is not complete: %1.").arg(qs(problem));
        return plan;
    }
    std::optional<TargetKind> kind;
    if (target.kind == TargetEntry::Kind::Pipe)
        kind = TargetKind::Pipe;
    else if (target.kind == TargetEntry::Kind::Null)
        kind = TargetKind::Null;
    plan.matrix = draft.toMatrix(kind);
    // expand() counts the combinations from the axis sizes first and refuses more than kMaxCases at once, so
    // a huge matrix never holds the GUI thread.
    try {
        plan.expanded = expand(plan.matrix, registry, target.info);
    } catch (const InputError& e) {
        plan.blocked = QObject::tr("The matrix is not valid: %1").arg(qs(e.what()));
        return plan;
    }
    plan.freeBytes = target.info.freeBytes;
    for (const auto& c : plan.expanded.cases) {
        if (c.target != TargetKind::Directory)
            continue;
        plan.usesDisk = true;
        plan.largestCaseBytes = std::max(plan.largestCaseBytes, spaceNeeded(c));
    }
    plan.estimate = estimateDuration(plan.expanded.cases, options, target.info, known);

    if (!target.problem.isEmpty())
        plan.blocked = QObject::tr("The target cannot be used: %1").arg(target.problem);
    else if (plan.expanded.cases.empty())
        plan.blocked =
            QObject::tr("Every case of this matrix is refused on this target; the list below says why.");
    else if (plan.usesDisk && plan.largestCaseBytes > plan.freeBytes)
        plan.blocked = QObject::tr("Not enough space: the largest case needs %1, and %2 has %3 free.")
                           .arg(qs(formatBytes(plan.largestCaseBytes)), qs(target.info.path),
                                qs(formatBytes(plan.freeBytes)));
    return plan;
}

} // namespace iolab::gui
