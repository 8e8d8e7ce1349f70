// SPDX-License-Identifier: MIT
#include "core/formats/profile_json.h"

#include <utility>

namespace iolab {

namespace {

using nlohmann::json;

double seconds(std::uint64_t ns)
{
    return static_cast<double>(ns) / 1e9;
}

// The buckets that hold calls, each with the sizes it spans [from, to) and the extremes seen in it.
json sizesJson(const SizeHistogram& sizes)
{
    json out = json::array();
    for (std::size_t i = 0; i < SizeHistogram::kBuckets; ++i) {
        if (sizes.calls[i] == 0)
            continue;
        out.push_back({{"fromBytes", SizeHistogram::lowerBound(i)},
                       {"toBytes", i == 0 ? 1 : SizeHistogram::lowerBound(i + 1)},
                       {"calls", sizes.calls[i]},
                       {"smallestBytes", sizes.smallest[i]},
                       {"largestBytes", sizes.largest[i]}});
    }
    return out;
}

json callsJson(const std::map<trace::Call, std::uint64_t>& calls, trace::System system)
{
    json out = json::object();
    for (const auto& [call, n] : calls)
        out[callName(call, system)] = n;
    return out;
}

json flagsJson(std::uint32_t flags)
{
    static const std::pair<std::uint32_t, const char*> kNames[] = {
        {trace::OpenRead, "read"},
        {trace::OpenWrite, "write"},
        {trace::OpenCreate, "create"},
        {trace::OpenTruncate, "truncate"},
        {trace::OpenExclusive, "exclusive"},
        {trace::OpenAppend, "append"},
        {trace::OpenDirect, "direct"},
        {trace::OpenSync, "sync"},
        {trace::OpenDSync, "dsync"},
        {trace::OpenWriteThrough, "writeThrough"},
        {trace::OpenTmpfile, "tmpfile"},
        {trace::OpenDirectory, "directory"},
        {trace::OpenSequential, "sequential"},
        {trace::OpenRandom, "random"},
        {trace::OpenOverlapped, "overlapped"},
        {trace::OpenInherited, "inherited"},
    };
    json out = json::array();
    for (const auto& [bit, name] : kNames)
        if ((flags & bit) != 0)
            out.push_back(name);
    return out;
}

const char* kindName(FileKind kind)
{
    switch (kind) {
    case FileKind::Regular:
        return "file";
    case FileKind::Terminal:
        return "terminal";
    case FileKind::Pipe:
        return "pipe";
    case FileKind::Device:
        return "device";
    }
    return "file";
}

const char* noteName(trace::NoteKind kind)
{
    switch (kind) {
    case trace::NoteKind::RawSyscall:
        return "rawSyscall";
    case trace::NoteKind::IoUring:
        return "ioUring";
    case trace::NoteKind::StaticExec:
        return "staticExec";
    case trace::NoteKind::ChildNotRecorded:
        return "childNotRecorded";
    case trace::NoteKind::BufferLost:
        return "bufferLost";
    case trace::NoteKind::Imported:
        return "imported";
    }
    return "unknown";
}

} // namespace

json profileToJson(const ProgramProfile& p)
{
    const trace::System system = p.processes.empty() ? trace::System::Linux : p.processes.front().system;
    json processes = json::array();
    for (const TraceProcess& process : p.processes) {
        json entry = {{"pid", process.pid},
                      {"parentPid", process.parentPid},
                      {"system", process.system == trace::System::Windows ? "windows" : "linux"},
                      {"executable", process.executable},
                      {"arguments", process.arguments},
                      {"workingFolder", process.workingFolder},
                      {"startSeconds", seconds(process.startNs)},
                      {"endSeconds", seconds(process.endNs)},
                      {"ended", process.ended}};
        if (process.exitStatus)
            entry["exitStatus"] = *process.exitStatus;
        processes.push_back(std::move(entry));
    }
    json files = json::array();
    for (const FileProfile& f : p.files) {
        json threads = json::array();
        for (const auto& [process, tid] : f.threads)
            threads.push_back({{"process", process}, {"tid", tid}});
        files.push_back({{"path", f.path},
                         {"kind", kindName(f.kind)},
                         {"bytesWritten", f.bytesWritten},
                         {"bytesRead", f.bytesRead},
                         {"writeCalls", f.writeCalls},
                         {"readCalls", f.readCalls},
                         {"sequentialWrites", f.sequentialWrites},
                         {"randomWrites", f.randomWrites},
                         {"calls", callsJson(f.calls, system)},
                         {"writeSizes", sizesJson(f.writeSizes)},
                         {"readSizes", sizesJson(f.readSizes)},
                         {"openFlags", flagsJson(f.openFlags)},
                         {"opens", f.opens},
                         {"threads", threads},
                         {"syncs", f.syncs},
                         {"insideSeconds", seconds(f.insideNs)},
                         {"life",
                          {{"creations", f.creations},
                           {"appendOpens", f.appendOpens},
                           {"renamedAway", f.renamedAway},
                           {"replacedByRename", f.replacedByRename},
                           {"deletions", f.deletions}}}});
    }
    json notes = json::array();
    for (const TraceNote& note : p.notes)
        notes.push_back({{"kind", noteName(note.kind)},
                         {"process", note.process},
                         {"tid", note.tid},
                         {"count", note.count},
                         {"atSeconds", seconds(note.atNs)},
                         {"text", note.text}});
    json syncTimes = nullptr;
    if (!p.syncTimes.empty()) {
        const LatencySummary s = p.syncTimes.summary();
        syncTimes = {{"count", s.count},
                     {"meanSeconds", s.meanNs / 1e9},
                     {"p50Seconds", seconds(s.p50Ns)},
                     {"p99Seconds", seconds(s.p99Ns)},
                     {"maxSeconds", seconds(s.maxNs)}};
    }
    return {{"schema", kProfileSchema},
            {"summary", describeProgramProfile(p)},
            {"processes", processes},
            {"threads", p.threads},
            {"wallSeconds", seconds(p.wallNs)},
            {"insideSeconds", seconds(p.insideNs)},
            {"calls", p.calls},
            {"bytesWritten", p.bytesWritten},
            {"bytesRead", p.bytesRead},
            {"writeCalls", p.writeCalls},
            {"readCalls", p.readCalls},
            {"callCounts", callsJson(p.callCounts, system)},
            {"writeSizes", sizesJson(p.writeSizes)},
            {"readSizes", sizesJson(p.readSizes)},
            {"durability",
             {{"syncs", p.syncs},
              {"syncTimes", syncTimes},
              {"largestBytesBetweenSyncs", p.largestBytesBetweenSyncs},
              {"maxAtRiskBytes", p.maxAtRiskBytes},
              {"maxAtRiskAtSeconds", seconds(p.maxAtRiskAtNs)},
              {"durableWrites", p.durableWrites},
              {"atomicReplaces", p.atomicReplaces}}},
            {"files", files},
            {"notes", notes},
            {"unseenDescriptorWrites", p.unseenDescriptorWrites},
            {"unseenDescriptors", p.unseenDescriptors}};
}

} // namespace iolab
