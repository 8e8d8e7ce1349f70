// SPDX-License-Identifier: MIT
#include "core/formats/trace_anonymise.h"

#include "core/formats/trace_builder.h"

#include <fmt/format.h>

#include <memory>
#include <vector>

namespace iolab {

std::string PathAnonymiser::folder(const std::string& path)
{
    if (path.empty() || path == "/")
        return path;
    auto [it, added] = m_folders.try_emplace(path, std::string());
    if (added)
        it->second = fmt::format("/d{}", m_folders.size());
    return it->second;
}

std::string PathAnonymiser::operator()(const std::string& path)
{
    if (path.empty() || fileKindOf(path) != FileKind::Regular)
        return path;
    if (const auto it = m_files.find(path); it != m_files.end())
        return it->second;
    if (const auto it = m_folders.find(path); it != m_folders.end()) // a folder named as itself
        return it->second;
    const std::size_t slash = path.find_last_of("/\\");
    const std::string parent = slash == std::string::npos ? std::string() : path.substr(0, slash);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::size_t dot = name.find_last_of('.');
    const bool extension = dot != std::string::npos && dot != 0 && name.size() - dot <= 13;
    std::string anonymous = fmt::format("{}/f{}{}", folder(parent), m_files.size() + 1,
                                        extension ? name.substr(dot) : std::string());
    m_files.emplace(path, anonymous);
    return anonymous;
}

void anonymiseTrace(TraceReader& reader, const std::function<std::ostream&(std::size_t)>& openPart)
{
    PathAnonymiser anonymise;
    const auto& processes = reader.processes();
    std::vector<std::unique_ptr<TracePartBuilder>> builders;
    for (std::size_t i = 0; i < processes.size(); ++i) {
        const TraceProcess& p = processes[i];
        auto builder = std::make_unique<TracePartBuilder>(openPart(i), p.system, p.pid, p.parentPid,
                                                          p.startRealtimeNs, p.startNs);
        std::string program = p.executable;
        if (const std::size_t slash = program.find_last_of("/\\"); slash != std::string::npos)
            program = program.substr(slash + 1);
        std::vector<std::string> arguments;
        for (std::size_t a = 0; a < p.arguments.size(); ++a)
            arguments.push_back(a == 0 ? program : fmt::format("<argument {}>", a));
        builder->program(p.pid, program, arguments, "/anonymised");
        builders.push_back(std::move(builder));
    }
    reader.forEachEvent([&](const TraceEvent& event) {
        TraceEvent copy = event;
        copy.path = anonymise(event.path);
        copy.path2 = anonymise(event.path2);
        builders.at(event.process)->add(copy);
        return true;
    });
    for (const TraceNote& note : reader.notes()) {
        const std::string text = note.text.starts_with("/") ? anonymise(note.text) : note.text;
        builders.at(note.process)->note(note.tid, note.kind, note.count, note.atNs, text);
    }
    for (std::size_t i = 0; i < processes.size(); ++i) {
        const TraceProcess& p = processes[i];
        if (p.ended)
            builders[i]->exit(p.pid, p.exitStatus.value_or(trace::kExitStatusUnknown), p.endNs);
        builders[i]->finish();
    }
}

} // namespace iolab
