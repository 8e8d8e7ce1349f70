// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/case_json.h" // a case, a target and a calibration, as the result file writes them
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

} // namespace iolab
