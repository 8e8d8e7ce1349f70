// SPDX-License-Identifier: MIT
// The one duration estimate (issue 34): the Plan, the start page, the preset list, the status bar's time left
// and iolab-cli's --plan and run all read it. A case timed before on this machine is priced by that time;
// any other by a model of its strategy's declared costs (StrategyInfo::callCost, its O_DIRECT, random
// offsets, queue depth and sync policy) over the target's calibration (DeviceCalibration: about a second of
// IOLab's own I/O on the target), or over typical figures where there is none.
#pragma once

#include "core/engine/registry.h"
#include "core/engine/strategy.h"
#include "core/model/matrix.h"
#include "core/model/result.h"

#include <cstddef>
#include <string>
#include <vector>

namespace iolab {

struct DurationEstimate
{
    double seconds = 0;
    std::size_t measuredCases = 0;   // timed from an earlier run of the same case
    std::size_t guessedCases = 0;    // from the model of call and device costs
    bool calibrated = false;         // the model's device figures were measured on this target
    std::vector<double> caseSeconds; // each case's share, in the plan's order (the status bar weighs by it)
};

// What a calibration measures, as a matrix of IOLab's own strategies on the target (each case a few hundred
// milliseconds or a few MiB, one repetition, no warm-up): run it with the Runner, then read it with
// calibrationFrom(). Its cases are in a fixed order; a refused one (no O_DIRECT on tmpfs) leaves its figure
// 0.
Matrix calibrationMatrix();
// The figures of a calibration run (a result of calibrationMatrix()); 0 where a case did not run.
DeviceCalibration calibrationFrom(const RunResult& result);

// A rough time for one repetition of `c` with nothing known about it but the target's calibration (or
// typical figures without one): the per-call cost `strategy` declares, the memory copies, and the device's
// time for data that must become durable or be read from it.
double guessRepetitionSeconds(const Case& c, const StrategyInfo& strategy, const TargetInfo& target);

// The expected wall time of a run of `cases` in this order: each case's data set written first where a read
// needs one (once per set), its warm-ups and repetitions, its clean-up and the kill -9 probe's runs. A case
// with a measured twin in `known` (all axes but the total size equal) is priced by that run's wall time (or
// rate, for older files).
DurationEstimate estimateDuration(const std::vector<Case>& cases, const RunOptions& options,
                                  const TargetInfo& target, const std::vector<CaseResult>& known,
                                  const Registry& registry);

// "about 1 min 50 s" / "about 12 s", as every front end says an estimate.
std::string describeEstimate(const DurationEstimate& estimate);

// Seconds left in a running plan. `caseSeconds` is each case's estimate (DurationEstimate::caseSeconds);
// `finishedSeconds` the wall time each case before `current` really took; `currentSeconds` how long the
// running case has gone. The finished cases say how this machine compares with the estimates (the pace);
// the running case and every case not started yet are weighed by their own estimate at that pace. Progress
// within the running case is not used: its bytes reach the page cache long before its final fsync ends.
double estimateSecondsLeft(const std::vector<double>& caseSeconds, const std::vector<double>& finishedSeconds,
                           std::size_t current, double currentSeconds);

// The same for cases that take turns (RunOptions::alternate), where every case is under way at once:
// `shareDone` is each case's share of its work done (0 to 1) and `elapsedSeconds` the run's time so far. The
// work done, weighed by the estimates, sets the pace; the work left is weighed at that pace.
double estimateSecondsLeftInTurns(const std::vector<double>& caseSeconds,
                                  const std::vector<double>& shareDone, double elapsedSeconds);

} // namespace iolab
