// SPDX-License-Identifier: MIT
#include "app/cli/axis_flags.h"

#include "core/model/axes.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <sstream>

namespace iolab::cli {

std::vector<std::string> splitList(const std::vector<std::string>& values)
{
    std::vector<std::string> out;
    for (const auto& value : values) {
        std::stringstream in(value);
        std::string item;
        while (std::getline(in, item, ',')) {
            if (!item.empty())
                out.push_back(item);
        }
    }
    return out;
}

std::vector<std::string> AxisFlagValues::values(const std::string& matrixKey) const
{
    const auto it = byMatrixKey.find(matrixKey);
    return it == byMatrixKey.end() ? std::vector<std::string>{} : splitList(it->second);
}

bool AxisFlagValues::anyBesides(const std::vector<std::string>& matrixKeys) const
{
    return std::any_of(byMatrixKey.begin(), byMatrixKey.end(), [&matrixKeys](const auto& entry) {
        return !entry.second.empty() &&
               std::find(matrixKeys.begin(), matrixKeys.end(), entry.first) == matrixKeys.end();
    });
}

void addAxisOptions(CLI::App& command, AxisFlagValues& values)
{
    for (const auto& axis : caseAxes()) {
        if (axis.cliFlag.empty() || axis.matrixKey.empty())
            continue;
        command.add_option(axis.cliFlag, values.byMatrixKey[axis.matrixKey], axis.help);
    }
}

MatrixGroup groupFromAxisFlags(const AxisFlagValues& values)
{
    MatrixGroup group;
    for (const auto& axis : caseAxes()) {
        if (axis.cliFlag.empty() || axis.matrixKey.empty())
            continue;
        for (const auto& value : values.values(axis.matrixKey))
            axis.addGroupValue(group, value, axis.cliFlag);
    }
    return group;
}

} // namespace iolab::cli
