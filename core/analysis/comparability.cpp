// SPDX-License-Identifier: MIT
#include "core/analysis/comparability.h"

#include <fmt/format.h>

#include <set>

namespace iolab {

namespace {

std::string factValue(const RunResult& r, std::string_view id)
{
    const Fact* fact = r.system.find(id);
    return fact != nullptr ? fact->value : std::string();
}

std::set<std::string> strategiesOf(const RunResult& r)
{
    std::set<std::string> strategies;
    for (const auto& c : r.cases)
        strategies.insert(c.testCase.strategy);
    return strategies;
}

std::string joined(const std::set<std::string>& names)
{
    std::string text;
    for (const auto& name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
}

} // namespace

std::vector<RunDifference> runDifferences(const RunResult& older, const RunResult& newer)
{
    std::vector<RunDifference> out;
    const auto differ = [&out](std::string what, const std::string& a, const std::string& b) {
        if (a != b)
            out.push_back({std::move(what), a, b});
    };
    differ("IOLab's version", older.toolVersion, newer.toolVersion);
    differ("kernel", older.host.kernel, newer.host.kernel);
    differ("filesystem", older.target.fsType, newer.target.fsType);
    differ("mount options", older.target.mountOptions, newer.target.mountOptions);
    // A governor is compared only where both runs could read it: a virtual machine has none to read.
    const std::string governorA = factValue(older, "cpu.governor");
    const std::string governorB = factValue(newer, "cpu.governor");
    if (!governorA.empty() && !governorB.empty())
        differ("CPU governor", governorA, governorB);
    const auto strategiesA = strategiesOf(older);
    const auto strategiesB = strategiesOf(newer);
    if (strategiesA != strategiesB)
        out.push_back({"strategies", joined(strategiesA), joined(strategiesB)});
    return out;
}

std::string describeRunDifferences(const std::vector<RunDifference>& differences)
{
    if (differences.empty())
        return {};
    std::string text = "Not like for like: ";
    for (std::size_t i = 0; i < differences.size(); ++i) {
        const RunDifference& d = differences[i];
        const auto shown = [](const std::string& v) {
            return v.empty() ? std::string("not recorded") : v;
        };
        text += fmt::format("{}{} {} → {}", i == 0 ? "" : "; ", d.what, shown(d.older), shown(d.newer));
        if (d.what == "IOLab's version")
            text += " (a speed-up may be IOLab's own)";
        else if (d.what == "strategies")
            text += " (the cases in one run only have no ratio)";
    }
    return text + ".";
}

std::string versionChangeLabel(const RunResult& older, const RunResult& newer)
{
    if (older.toolVersion == newer.toolVersion)
        return {};
    return fmt::format("across IOLab {} → {}", older.toolVersion.empty() ? "?" : older.toolVersion,
                       newer.toolVersion.empty() ? "?" : newer.toolVersion);
}

} // namespace iolab
