// SPDX-License-Identifier: MIT
#include "core/analysis/memory_budget_table.h"

#include "core/analysis/findings.h"
#include "core/base/units.h"

#include <fmt/format.h>

#include <map>

namespace iolab {

namespace {

std::string killTextOf(const CaseResult& c)
{
    if (!c.crashProbe)
        return "not probed";
    const auto survives = c.crashProbe->survives();
    if (!survives)
        return c.crashProbe->failure.empty() ? "not known" : "not run: " + c.crashProbe->failure;
    if (*survives)
        return c.crashProbe->worstScratchBytes() != 0 ? "yes (batch in scratch file)" : "yes";
    return "no: loses up to " + formatBytes(c.crashProbe->canLoseBytes());
}

std::string budgetRate(double mbps)
{
    return mbps >= 1000 ? fmt::format("{:.2f} GB/s", mbps / 1000) : fmt::format("{:.1f} MB/s", mbps);
}

} // namespace

std::vector<MemoryBudgetRow> memoryBudgetRows(const RunResult& result)
{
    std::vector<MemoryBudgetRow> rows;
    for (const CaseResult& c : result.cases) {
        const Case& k = c.testCase;
        if (k.memoryLimitBytes == 0)
            continue;
        MemoryBudgetRow row;
        row.caseIndex = c.index;
        row.method = k.threads > 1 ? fmt::format("{}, {} threads", k.strategy, k.threads) : k.strategy;
        row.limitBytes = k.memoryLimitBytes;
        row.measured = hasRate(c);
        row.reason = c.status == Status::Ok ? std::string() : c.reason;
        row.durableMBps = row.measured ? c.durableMBps.median : 0;
        row.apparentMBps = row.measured ? c.apparentMBps.median : 0;
        if (c.memoryBudget) {
            row.peakBytes = c.memoryBudget->peakBytes;
            row.peakPageCacheBytes = c.memoryBudget->peakPageCacheBytes;
        }
        row.survivesKill = c.crashProbe ? c.crashProbe->survives() : std::nullopt;
        row.killText = killTextOf(c);
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string memoryBudgetAnswer(const std::vector<MemoryBudgetRow>& rows)
{
    std::map<std::uint64_t, std::vector<const MemoryBudgetRow*>> byLimit;
    for (const auto& row : rows)
        byLimit[row.limitBytes].push_back(&row);
    std::string answer;
    for (const auto& [limit, group] : byLimit) {
        const MemoryBudgetRow* fastest = nullptr;
        const MemoryBudgetRow* fastestSafe = nullptr;
        bool anyProbed = false;
        for (const MemoryBudgetRow* row : group) {
            if (!row->measured)
                continue;
            anyProbed = anyProbed || row->survivesKill.has_value();
            if (fastest == nullptr || row->durableMBps > fastest->durableMBps)
                fastest = row;
            if (row->survivesKill == true &&
                (fastestSafe == nullptr || row->durableMBps > fastestSafe->durableMBps))
                fastestSafe = row;
        }
        if (!answer.empty())
            answer += " ";
        const std::string cap = formatBytes(limit);
        if (fastest == nullptr) {
            answer += fmt::format("Under the {} memory limit no case ran to the end.", cap);
            continue;
        }
        if (!anyProbed) {
            answer += fmt::format(
                "Under the {} memory limit `{}` was fastest: {} durable ({} apparent); the "
                "kill -9 probe did not run, so whether it loses data on a crash is not known.",
                cap, fastest->method, budgetRate(fastest->durableMBps), budgetRate(fastest->apparentMBps));
            continue;
        }
        if (fastestSafe == nullptr) {
            answer += fmt::format(
                "Under the {} memory limit every case the kill -9 probe could judge lost data; the "
                "fastest, `{}`, reached {} durable (survives kill -9: {}).",
                cap, fastest->method, budgetRate(fastest->durableMBps), fastest->killText);
            continue;
        }
        answer +=
            fmt::format("Under the {} memory limit, the fastest way that loses nothing on kill -9 is `{}`: "
                        "{} durable ({} apparent), its memory at most {}.",
                        cap, fastestSafe->method, budgetRate(fastestSafe->durableMBps),
                        budgetRate(fastestSafe->apparentMBps), formatBytes(fastestSafe->peakBytes));
        if (fastest != fastestSafe)
            answer += fmt::format(
                " `{}` was faster ({} durable), but {}.", fastest->method, budgetRate(fastest->durableMBps),
                fastest->survivesKill == false ? "loses data on kill -9 (" + fastest->killText + ")"
                                               : "its kill -9 answer is: " + fastest->killText);
    }
    return answer;
}

std::string memoryBudgetText(const RunResult& result)
{
    const auto rows = memoryBudgetRows(result);
    if (rows.empty())
        return {};
    std::string text =
        "\nMemory budget: each case ran in a child process whose memory cgroup, page cache included, "
        "was capped at its limit.\n";
    text += fmt::format("{:<3} {:<24} {:>9} {:>11} {:>11} {:>10} {:>11}  {}\n", "#", "method", "limit",
                        "durable", "apparent", "peak mem", "peak cache", "survives kill -9");
    for (const auto& row : rows) {
        if (!row.measured) {
            text += fmt::format("{:<3} {:<24} {:>9}  {}\n", row.caseIndex + 1, row.method,
                                formatBytesCompact(row.limitBytes),
                                row.reason.empty() ? std::string("no rate") : row.reason);
            continue;
        }
        text += fmt::format("{:<3} {:<24} {:>9} {:>11} {:>11} {:>10} {:>11}  {}\n", row.caseIndex + 1,
                            row.method, formatBytesCompact(row.limitBytes), budgetRate(row.durableMBps),
                            budgetRate(row.apparentMBps), formatBytes(row.peakBytes),
                            formatBytes(row.peakPageCacheBytes), row.killText);
    }
    text += memoryBudgetAnswer(rows) + "\n";
    return text;
}

} // namespace iolab
