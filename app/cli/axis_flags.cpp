// SPDX-License-Identifier: MIT
#include "app/cli/axis_flags.h"

#include "core/base/error.h"
#include "core/model/axes.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

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

const std::vector<std::string>& overridingAxisKeys()
{
    static const std::vector<std::string> keys{"sizes", "timeLimits"};
    return keys;
}

void refuseChangingAxes(const AxisFlagValues& values, const std::string& source)
{
    for (const auto& axis : caseAxes()) {
        if (axis.cliFlag.empty() || axis.matrixKey.empty() || axis.matrixKey == "strategies")
            continue;
        const auto& keys = overridingAxisKeys();
        if (std::find(keys.begin(), keys.end(), axis.matrixKey) != keys.end())
            continue;
        const std::vector<std::string> given = values.values(axis.matrixKey);
        if (given.empty())
            continue;
        std::string list;
        for (const auto& v : given)
            list += (list.empty() ? "" : ",") + v;
        throw InputError(
            fmt::format("{} {} would change the {} of the cases {} asks for, and so the question it answers: "
                        "over a preset "
                        "or a matrix file only --size, --duration and --reps apply (the same to every case); "
                        "to run other "
                        "cases, give --strategy with the axes you want, or a matrix file of your own",
                        axis.cliFlag, list, axis.name, source));
    }
}

} // namespace iolab::cli
