// SPDX-License-Identifier: MIT
// A recorded program's profile (core/analysis/program_profile.h) as JSON, for scripts and other tools:
// `iolab-cli profile TRACE --json FILE` and the same flag of record and import. Its layout is published as a
// JSON Schema (resources/schemas/iolab-profile.schema.json, checked by the tests); "schema" names its
// version.
#pragma once

#include "core/analysis/program_profile.h"

#include <nlohmann/json.hpp>

namespace iolab {

inline constexpr const char* kProfileSchema = "iolab-profile/1";

nlohmann::json profileToJson(const ProgramProfile& profile);

} // namespace iolab
