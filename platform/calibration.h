// SPDX-License-Identifier: MIT
// The duration estimate's calibration of a target (core/analysis/estimate.h): about a second of IOLab's own
// I/O in a marked run folder, kept per target in a small JSON file so that it is made once a week, not before
// every run.
#pragma once

#include "core/engine/registry.h"
#include "core/model/target.h"

#include <optional>
#include <stop_token>
#include <string>

namespace iolab {

// How long a kept calibration stands before it is made again.
inline constexpr double kCalibrationMaxAgeDays = 7;

// Runs core's calibrationMatrix() on `target` (which must have been probed: probeCapabilities) in a run
// folder of its own, removed after; nullopt when it was stopped or nothing could run (a pipe, a full disk).
std::optional<DeviceCalibration> calibrateTarget(const TargetInfo& target, const Registry& registry,
                                                 const std::stop_token& stop = {});

// The calibration kept for `target` in `folder`'s calibration.json, if one is there and not older than
// kCalibrationMaxAgeDays; a damaged file counts as none.
std::optional<DeviceCalibration> storedCalibration(const std::string& folder, const TargetInfo& target);
// Keeps `calibration` for `target` in `folder`'s calibration.json (made if missing, written atomically); a
// failure is logged and otherwise ignored: the estimate only loses its memory.
void storeCalibration(const std::string& folder, const TargetInfo& target,
                      const DeviceCalibration& calibration);

} // namespace iolab
