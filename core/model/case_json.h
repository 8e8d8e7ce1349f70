// SPDX-License-Identifier: MIT
// A case, its target and the target's calibration as JSON: what a result file holds of them and what the
// runner hands a case child (core/engine/case_child.cpp), so it sits below both. The whole result file is
// core/formats/result_json.h.
#pragma once

#include "core/model/case.h"
#include "core/model/target.h"

#include <nlohmann/json_fwd.hpp>

namespace iolab {

nlohmann::json caseToJson(const Case& c);
Case caseFromJson(const nlohmann::json& json);
void to_json(nlohmann::json& j, const TargetInfo& t);
void from_json(const nlohmann::json& j, TargetInfo& t);
// A target's calibration for the duration estimate, as results record it and the calibration store keeps it.
nlohmann::json calibrationToJson(const DeviceCalibration& calibration);
DeviceCalibration calibrationFromJson(const nlohmann::json& json); // throws nlohmann's errors on a bad one

} // namespace iolab
