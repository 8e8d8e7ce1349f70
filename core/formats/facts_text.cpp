// SPDX-License-Identifier: MIT
#include "core/formats/facts_text.h"

#include <fmt/format.h>

#include <algorithm>

namespace iolab {

std::string factsToText(const SystemFacts& facts, const std::string& indent)
{
    if (!facts.gathered)
        return indent + "no system facts recorded (a result from before IOLab 0.5)\n";
    std::size_t width = 0;
    for (const auto& section : facts.sections) {
        for (const auto& fact : section.facts)
            width = std::max(width, fact.label.size());
    }
    std::string text = fmt::format("{}Device class: {}\n", indent, describe(facts.deviceClass));
    for (const auto& section : facts.sections) {
        text += fmt::format("{}{}\n", indent, section.title);
        for (const auto& fact : section.facts) {
            text += fmt::format("{}  {:<{}}  {}\n", indent, fact.label, width,
                                fact.known() ? fact.value : "unknown: " + fact.unknownWhy);
        }
    }
    return text;
}

} // namespace iolab
