// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/strategy.h"

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

namespace iolab {

// Runs every prepared job at once, one thread each behind a start gate when there are several (the first in
// the calling thread when there is one), and returns when all have ended, with the moment the clock started.
// `onStart` runs at that moment (a time limit's deadline starts there). The runner's repetitions and a case
// child's run (core/engine/case_child.h) go through this one loop, so a case measured in a child process runs
// as it would in the runner's own.
std::chrono::steady_clock::time_point executeJobs(std::vector<std::unique_ptr<Job>>& jobs, Progress* progress,
                                                  std::vector<Outcome>& outcomes,
                                                  const std::function<void()>& onStart);

// The outcome that says most about a repetition: a failure beats a refusal beats a cancellation beats
// success.
void mergeOutcome(Outcome& into, Outcome&& from);

} // namespace iolab
