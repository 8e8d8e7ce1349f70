// SPDX-License-Identifier: MIT
// The sizes of a file set's files, from its spec alone: what the size axis and the estimate count, and what
// the engine's data-set plan (core/engine/file_set.h) writes.
#pragma once

#include "core/model/case.h"

#include <cstdint>
#include <vector>

namespace iolab {

// The sizes of a file set, deterministic for a spec: quantiles of the distribution at (i + 1/2) / N, so the
// set follows the distribution closely even for a few hundred files, shuffled into a fixed pseudo-random
// order. Article mixes are a bounded Pareto distribution over [min, max] whose shape is solved for the mean.
std::vector<std::uint64_t> fileSetSizes(const FileSetSpec& spec);
// Their sum, without building the list twice where only the total is wanted.
std::uint64_t fileSetBytes(const FileSetSpec& spec);

// Bounded Pareto shape alpha with the given mean over [min, max]; exposed for tests.
double paretoShapeForMean(double minBytes, double maxBytes, double meanBytes);

} // namespace iolab
