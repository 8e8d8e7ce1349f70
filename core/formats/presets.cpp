// SPDX-License-Identifier: MIT
#include "core/formats/presets.h"

#include "core/base/error.h"
#include "core/formats/matrix_json.h"

#include <fmt/format.h>

namespace iolab {

namespace embedded {
// resources/presets/*.json, generated into the build by core/embed_files.cmake.
std::span<const EmbeddedFile> presetFiles();
} // namespace embedded

std::span<const EmbeddedFile> builtinPresetFiles()
{
    return embedded::presetFiles();
}

std::vector<Matrix> presetsFromFiles(std::span<const EmbeddedFile> files)
{
    std::vector<Matrix> presets;
    for (const EmbeddedFile& file : files) {
        const std::string source = fmt::format("resources/presets/{}", file.name);
        Matrix preset = parseMatrixJson(file.text, source);
        if (file.name != preset.name + ".json")
            throw InputError(fmt::format("{}: holds the preset \"{}\"; a preset's file is named after it",
                                         source, preset.name));
        presets.push_back(std::move(preset));
    }
    return presets;
}

const std::vector<Matrix>& builtinPresets()
{
    static const std::vector<Matrix> presets = presetsFromFiles(builtinPresetFiles());
    return presets;
}

std::optional<Matrix> findPreset(std::string_view name)
{
    for (const auto& p : builtinPresets()) {
        if (p.name == name)
            return p;
    }
    return std::nullopt;
}

std::string presetNames()
{
    std::string names;
    for (const auto& p : builtinPresets()) {
        if (!names.empty())
            names += ", ";
        names += p.name;
    }
    return names;
}

} // namespace iolab
