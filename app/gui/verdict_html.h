// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/verdict.h"

#include <QString>

namespace iolab::gui {

// The verdict as rich text for the Results tab: the question, the answer per group, the findings that
// matter with their advice, what the figures cannot say, and the terms explained.
QString verdictHtml(const Verdict& verdict);
// The health verdict's part (verdict.health must be set): its lines as a table, the overall answer, the
// likely causes and what was checked without a class range.
QString healthHtml(const Verdict& verdict);

} // namespace iolab::gui
