// SPDX-License-Identifier: MIT
// Traces written call by call for tests of what reads them (the replay's script, the replay itself): one
// process part per pid, through the importers' own writer (core/formats/trace_builder.h), merged into one
// trace as `iolab-cli record` merges its parts.
#pragma once

#include "core/engine/replay_script.h"
#include "core/formats/trace_builder.h"
#include "core/model/trace_reader.h"

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace iolab::test {

class SyntheticTrace
{
public:
    // A call of thread `tid` of process `pid`; each call starts 1 us after the last one's end and takes 2 us
    // (`insideNs` in all, over its `count`).
    TraceEvent& call(std::uint32_t pid, std::uint32_t tid, trace::Call call, std::uint64_t handle = 0)
    {
        Process& p = process(pid);
        TraceEvent event;
        event.call = call;
        event.tid = tid;
        event.handle = handle;
        event.startNs = m_clock += 1000;
        event.endNs = m_clock += 2000;
        event.insideNs = 2000;
        p.events.push_back(event);
        return p.events.back();
    }
    TraceEvent& open(std::uint32_t pid, std::uint32_t tid, const std::string& path, std::uint32_t flags,
                     std::int64_t fd)
    {
        TraceEvent& e = call(pid, tid, trace::Call::Open);
        e.path = path;
        e.flags = flags;
        e.result = fd;
        e.handle = fd >= 0 ? static_cast<std::uint64_t>(fd) : 0;
        return e;
    }
    TraceEvent& transfer(std::uint32_t pid, std::uint32_t tid, trace::Call kind, std::uint64_t fd,
                         std::uint64_t bytes, std::int64_t offset = -1, std::uint32_t count = 1)
    {
        TraceEvent& e = call(pid, tid, kind, fd);
        e.bytes = bytes;
        e.offset = offset;
        e.count = count;
        e.result = static_cast<std::int64_t>(bytes);
        e.insideNs = 2000ull * count;
        return e;
    }
    void parent(std::uint32_t pid, std::uint32_t parentPid) { process(pid).parentPid = parentPid; }

    trace::System system = trace::System::Linux; // every part's

    // The merged trace's bytes.
    std::string bytes() const
    {
        std::vector<std::unique_ptr<std::stringstream>> parts;
        std::vector<std::pair<std::istream*, std::string>> inputs;
        for (const auto& [pid, p] : m_processes) {
            auto part = std::make_unique<std::stringstream>();
            TracePartBuilder builder(*part, system, pid, p.parentPid, 1'700'000'000'000'000'000ull, 0);
            builder.program(pid, "/usr/bin/synthetic", {"synthetic", "--test"}, "/work");
            for (const TraceEvent& e : p.events)
                builder.add(e);
            builder.finish();
            part->seekg(0);
            inputs.emplace_back(part.get(), "part " + std::to_string(pid));
            parts.push_back(std::move(part));
        }
        std::ostringstream out;
        mergeTraceParts(inputs, out);
        return out.str();
    }
    void writeTo(const std::string& path) const { std::ofstream(path, std::ios::binary) << bytes(); }

private:
    struct Process
    {
        std::uint32_t parentPid = 0;
        std::vector<TraceEvent> events;
    };
    Process& process(std::uint32_t pid) { return m_processes[pid]; }

    std::map<std::uint32_t, Process> m_processes;
    std::uint64_t m_clock = 0;
};

// The open flags of a file created for writing (O_WRONLY | O_CREAT | O_TRUNC).
inline constexpr std::uint32_t kCreate = trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate;

// The replay's script of a trace written call by call.
inline ReplayScript scriptOf(const SyntheticTrace& trace)
{
    std::istringstream in(trace.bytes());
    TraceReader reader(in, "synthetic.iolab-trace");
    return buildReplayScript(reader, "synthetic.iolab-trace");
}

// A script thread's calls, step by step.
inline std::vector<trace::Call> callsOf(const ReplayThread& thread)
{
    std::vector<trace::Call> calls;
    for (const ReplayStep& step : thread.steps)
        calls.push_back(step.call);
    return calls;
}

} // namespace iolab::test
