// SPDX-License-Identifier: MIT
#include "app/gui/run_preview.h"
#include "app/gui/widget_helpers.h"

#include "core/base/error.h"
#include "core/base/units.h"
#include "core/engine/runner.h"

#include <QObject>

#include <algorithm>

namespace iolab::gui {

const std::vector<Case>& RunPreview::cases() const
{
    static const std::vector<Case> none;
    return plan ? plan->cases() : none;
}

const std::vector<RefusedCase>& RunPreview::refused() const
{
    static const std::vector<RefusedCase> none;
    return plan ? plan->refused() : none;
}

QString RunPreview::summary() const
{
    QString text = QObject::tr("%n case(s)", nullptr, static_cast<int>(cases().size()));
    if (!refused().empty())
        text += QObject::tr(", %n refused", nullptr, static_cast<int>(refused().size()));
    if (usesDisk)
        text += QObject::tr(" · largest case needs %1 of %2 free")
                    .arg(qs(formatBytes(largestCaseBytes)), qs(formatBytes(freeBytes)));
    // A write sized by a share of the free space says which share it took (never all of it).
    std::uint32_t share = 0;
    for (const Case& c : cases())
        share = std::max(share, c.freeSharePercent);
    if (share != 0)
        text += QObject::tr(" (sized at %1% of the free space)").arg(share);
    if (!cases().empty()) {
        text += QObject::tr(" · %1").arg(qs(describeEstimate(estimate)));
        const QString model = estimate.calibrated
                                  ? QObject::tr("calibrated on this target")
                                  : QObject::tr("typical figures, not calibrated on this target");
        if (estimate.guessedCases > 0)
            text += estimate.measuredCases > 0 ? QObject::tr(" (%1 case(s) timed before, the rest %2)")
                                                     .arg(estimate.measuredCases)
                                                     .arg(model)
                                               : QObject::tr(" (%1)").arg(model);
    }
    return text;
}

RunOptions optionsForOverride(const Matrix& matrix, RunOptions options)
{
    options.repetitions = matrix.repetitions.value_or(options.repetitions);
    options.alternate = matrix.alternate.value_or(options.alternate);
    return options;
}

RunPreview previewRun(const Registry& registry, const MatrixDraft& draft, const TargetEntry& target,
                      const RunOptions& options, const std::vector<CaseResult>& known)
{
    RunPreview preview;
    if (const std::string problem = draft.problem(); !problem.empty()) {
        preview.blocked = QObject::tr("The matrix is not complete: %1.").arg(qs(problem));
        return preview;
    }
    std::optional<TargetKind> kind;
    if (target.kind == TargetEntry::Kind::Pipe)
        kind = TargetKind::Pipe;
    else if (target.kind == TargetEntry::Kind::Null)
        kind = TargetKind::Null;
    return previewRun(registry, draft.toMatrix(kind), target, options, known);
}

RunPreview previewRun(const Registry& registry, const Matrix& matrix, const TargetEntry& target,
                      const RunOptions& options, const std::vector<CaseResult>& known)
{
    RunPreview preview;
    preview.matrix = matrix;
    // The combinations are counted from the axis sizes first: more than kMaxCases is refused before any is
    // made.
    try {
        preview.plan = makeRunPlan(preview.matrix, registry, target.info);
    } catch (const InputError& e) {
        preview.blocked = QObject::tr("The matrix is not valid: %1").arg(qs(e.what()));
        return preview;
    }
    preview.freeBytes = target.info.freeBytes;
    const auto& cases = preview.plan->cases();
    // The one estimate (core/analysis/estimate.h), over the plan's cases in their order: a data set two reads
    // share is written once.
    preview.estimate = estimateDuration(cases, options, target.info, known, registry);
    preview.caseSeconds.reserve(cases.size());
    for (const double seconds : preview.estimate.caseSeconds)
        preview.caseSeconds.push_back(std::max(0.01, seconds));
    for (const auto& c : cases) {
        if (c.target != TargetKind::Directory)
            continue;
        preview.usesDisk = true;
        preview.largestCaseBytes = std::max(preview.largestCaseBytes, spaceNeeded(c));
    }

    if (!target.problem.isEmpty())
        preview.blocked = QObject::tr("The target cannot be used: %1").arg(target.problem);
    else if (cases.empty())
        preview.blocked =
            QObject::tr("Every case of this matrix is refused on this target; the list below says why.");
    else if (preview.usesDisk && preview.largestCaseBytes > preview.freeBytes)
        preview.blocked = QObject::tr("Not enough space: the largest case needs %1, and %2 has %3 free.")
                              .arg(qs(formatBytes(preview.largestCaseBytes)), qs(target.info.path),
                                   qs(formatBytes(preview.freeBytes)));
    return preview;
}

} // namespace iolab::gui
