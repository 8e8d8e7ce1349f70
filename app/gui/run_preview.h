// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/target_model.h"
#include "core/analysis/estimate.h"
#include "core/engine/run_plan.h"
#include "core/model/matrix.h"
#include "core/model/matrix_draft.h"
#include "core/model/result.h"

#include <QString>

#include <memory>
#include <vector>

namespace iolab {
class Registry;
}

namespace iolab::gui {

// What pressing Run would do: the run plan itself (the cases, those refused and why, the target), the disk
// space the largest case needs against the free space, an estimated duration, and, when Run must stay
// disabled, the reason. The plan is the one RunController runs: nothing expands it again.
struct RunPreview
{
    Matrix matrix;                       // the draft's matrix, also when it could not be expanded
    std::shared_ptr<const RunPlan> plan; // null when the matrix is not complete or not valid
    std::uint64_t largestCaseBytes = 0;  // scratch space of the biggest case (files go after each repetition)
    std::uint64_t freeBytes = 0;
    bool usesDisk = false;
    DurationEstimate estimate;
    std::vector<double>
        caseSeconds; // each case's own estimate, indexed as plan->cases(): the progress weights
    QString blocked; // "" when the run can start

    const std::vector<Case>& cases() const;
    const std::vector<RefusedCase>& refused() const;
    QString summary() const;
};

// The run options for a matrix the window set over the editor's (Find a faster way, a trace's replay): what
// the matrix asks for (its repetitions, its cases taking turns) over the editor's.
RunOptions optionsForOverride(const Matrix& matrix, RunOptions options);

// Plans a run of the draft on the target. Pure and thread-safe (the registry is shared read-only), so a large
// matrix can be planned off the GUI thread.
RunPreview previewRun(const Registry& registry, const MatrixDraft& draft, const TargetEntry& target,
                      const RunOptions& options, const std::vector<CaseResult>& known);
// The same for a matrix made elsewhere than in the editor (a trace's replay, from the Program tab): its
// target kinds are its groups' own.
RunPreview previewRun(const Registry& registry, const Matrix& matrix, const TargetEntry& target,
                      const RunOptions& options, const std::vector<CaseResult>& known);

} // namespace iolab::gui
