// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/error.h"
#include "core/engine/strategy.h"
#include "core/model/axes.h"

#include <fmt/format.h>

#include <string>

namespace iolab::test {

// A test-only case axis, declared the way a new axis would be and through nothing else: a queue depth that
// writes take (1 to 128), refused above 1 for more than one thread, with a field in the matrix editor and a
// column in the results table. Declared for the life of the object; declare it before making an editor.
class QueueDepthAxis
{
public:
    QueueDepthAxis()
    {
        AxisSpec a;
        a.name = "test depth";
        a.matrixKey = "depths";
        a.resultKey = "testDepth";
        a.csvColumn = "test_depth";
        a.cliFlag = "--depth";
        a.help = "Writes: requests in flight, 1 to 128";
        a.kind = AxisValueKind::Count;
        a.defaultValue = "1";
        a.canonical = [](std::string_view text) {
            int depth = 0;
            try {
                std::size_t used = 0;
                depth = std::stoi(std::string(text), &used);
                if (used != text.size())
                    throw std::invalid_argument("trailing text");
            } catch (const std::exception&) {
                throw InputError(fmt::format("queue depth '{}' is not a whole number", text));
            }
            if (depth < 1 || depth > 128)
                throw InputError(fmt::format("queue depth {} is outside 1 to 128", depth));
            return std::to_string(depth);
        };
        a.appliesTo = [](const StrategyInfo& info) {
            return info.direction == Direction::Write;
        };
        a.refusals = {{.reason = [](const Case& c, const StrategyInfo&, const TargetInfo&) {
            const std::string depth = extraAxisValue(c, "depths", "1");
            return depth != "1" && c.threads != 1
                       ? fmt::format("queue depth {} is for one thread; the case has {}", depth, c.threads)
                       : std::string();
        }}};
        a.labelText = [](const Case& c) {
            return "depth=" + extraAxisValue(c, "depths", "1");
        };
        a.editorField = AxisEditorField{
            .label = "Test depth:",
            .tip = "Requests each writer keeps in flight.",
            .common = {"1", "8", "32", "128"},
            .fieldName = "queue depth",
            .noneTakes = "None of %1 writes: reads have no queue depth.",
            .notTaken = "(writers only)",
            .summary = "depth %1",
            .summaryRank = 6,
        };
        a.columnHeader = "Test depth";
        declareExtraAxis(std::move(a));
    }
    ~QueueDepthAxis() { removeExtraAxis("depths"); }
    QueueDepthAxis(const QueueDepthAxis&) = delete;
    QueueDepthAxis& operator=(const QueueDepthAxis&) = delete;
};

} // namespace iolab::test
