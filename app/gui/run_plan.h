// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/target_model.h"
#include "core/analysis/estimate.h"
#include "core/model/matrix.h"
#include "core/model/matrix_draft.h"
#include "core/model/result.h"

#include <QString>

namespace iolab {
class Registry;
}

namespace iolab::gui {

// What pressing Run would do: the cases, those refused and why, the disk space the largest case needs against
// the free space, an estimated duration, and, when Run must stay disabled, the reason.
struct RunPlan
{
    Matrix matrix;
    ExpandedMatrix expanded;
    std::uint64_t largestCaseBytes = 0; // scratch space of the biggest case (files go after each repetition)
    std::uint64_t freeBytes = 0;
    bool usesDisk = false;
    DurationEstimate estimate;
    QString blocked; // "" when the run can start

    QString summary() const;
};

RunPlan planRun(const Registry& registry, const MatrixDraft& draft, const TargetEntry& target,
                const RunOptions& options, const std::vector<CaseResult>& known);

} // namespace iolab::gui
