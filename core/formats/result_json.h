// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

namespace iolab {

// The result file ("schema": "iolab.result/1"): everything a run measured, samples included, so that the GUI
// and the report generator can reopen it.
nlohmann::json resultToJson(const RunResult& result);
// Throws InputError naming `sourceName` for malformed JSON, a missing field or another schema version.
RunResult resultFromJson(std::string_view text, std::string_view sourceName);

nlohmann::json caseToJson(const Case& c);
void to_json(nlohmann::json& j, const TargetInfo& t);
void from_json(const nlohmann::json& j, TargetInfo& t);
Case caseFromJson(const nlohmann::json& json);
// A target's calibration for the duration estimate, as results record it and the calibration store keeps it.
nlohmann::json calibrationToJson(const DeviceCalibration& calibration);
DeviceCalibration calibrationFromJson(const nlohmann::json& json); // throws nlohmann's errors on a bad one

} // namespace iolab
