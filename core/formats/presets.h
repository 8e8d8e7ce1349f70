// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/embedded_file.h"
#include "core/model/matrix.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

// The built-in matrices, each an experiment from one of the seed articles. Each is a matrix file in
// resources/presets/, the format a user saves and `iolab-cli --matrix` reads, compiled in
// (core/CMakeLists.txt lists them in the order the front ends show them) and read at first use; they live
// here, beside that format, rather than in model/, which comes before formats/.
const std::vector<Matrix>& builtinPresets();
std::optional<Matrix> findPreset(std::string_view name);
std::string presetNames();

// The presets `files` hold, each a matrix file named after its matrix ("quick.json" holds "quick"). Throws
// InputError naming the file that does not parse or is misnamed.
std::vector<Matrix> presetsFromFiles(std::span<const EmbeddedFile> files);

// The built-in presets' files as compiled in, in their order.
std::span<const EmbeddedFile> builtinPresetFiles();

} // namespace iolab
