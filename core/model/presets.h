// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/matrix.h"

#include <optional>
#include <string_view>
#include <vector>

namespace iolab {

// The built-in matrices, each an experiment from one of the seed articles.
const std::vector<Matrix>& builtinPresets();
std::optional<Matrix> findPreset(std::string_view name);
std::string presetNames();

} // namespace iolab
