// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/exposure.h"
#include "core/engine/strategy.h"

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

namespace iolab {

// Runs `runThread(t)` for every thread t at once, one thread each behind a start gate when there are several
// (in the calling thread when there is one), and returns when all have ended, with the moment the clock
// started. `onStart` runs at that moment (a time limit's deadline starts there). The runner's repetitions and
// a case child's run (core/engine/case_child.h) go through this one loop, so a case run in a child process
// starts as it would in the runner's own.
std::chrono::steady_clock::time_point executeThreads(std::uint32_t threads,
                                                     const std::function<void(std::uint32_t)>& runThread,
                                                     const std::function<void()>& onStart);

// One thread's timed part, as both the runner's repetitions and a case child run it: the job executed on
// `progress`, the thread's exposure taken as it returns, and then, when `jobEndsDurable` (its own last sync
// made its bytes durable) and it succeeded, all its bytes marked durable for the sampler's at-risk line.
Outcome executeJob(Job& job, Progress& progress, bool jobEndsDurable, ThreadExposure& exposure);

// The outcome that says most about a repetition: a failure beats a refusal beats a cancellation beats
// success.
void mergeOutcome(Outcome& into, Outcome&& from);

} // namespace iolab
