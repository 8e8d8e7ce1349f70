// SPDX-License-Identifier: MIT
// What an importer (strace's log, Process Monitor's CSV) made of a capture, read back as the app and the CLI
// read a trace: its parts written to memory, merged, then every process, note and call through TraceReader.
#pragma once

#include "core/model/trace_reader.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace iolab::test {

template <typename Summary> struct ImportedTrace
{
    Summary summary;
    std::vector<TraceProcess> processes;
    std::vector<TraceEvent> events;
    std::vector<TraceNote> notes;
};

// `import(in, openPart)` runs the importer over `capture`; its summary is kept with the trace read back.
template <typename Importer> auto importAndRead(const std::string& capture, Importer import)
{
    std::istringstream in(capture);
    std::vector<std::unique_ptr<std::stringstream>> parts;
    using Summary = decltype(import(in, std::function<std::ostream&(std::size_t)>()));
    ImportedTrace<Summary> imported;
    imported.summary = import(in, [&](std::size_t n) -> std::ostream& {
        EXPECT_EQ(n, parts.size());
        parts.push_back(std::make_unique<std::stringstream>());
        return *parts.back();
    });
    std::vector<std::pair<std::istream*, std::string>> inputs;
    for (auto& part : parts)
        inputs.emplace_back(part.get(), "part");
    std::stringstream merged;
    mergeTraceParts(inputs, merged);
    TraceReader reader(merged, "merged");
    imported.processes = reader.processes();
    imported.notes = reader.notes();
    reader.forEachEvent([&](const TraceEvent& event) {
        imported.events.push_back(event);
        return true;
    });
    return imported;
}

} // namespace iolab::test
