// SPDX-License-Identifier: MIT
#include "program_profile.h"

#include "core/base/units.h"
#include "core/base/words.h"

#include <fmt/format.h>

#include <algorithm>

namespace iolab {

namespace {

// The Win32 name of a call a Windows trace holds (CreateFileW's trace is an Open), or "" for the C name.
const char* windowsCallName(trace::Call call)
{
    using trace::Call;
    switch (call) {
    case Call::Open:
        return "CreateFile";
    case Call::Close:
        return "CloseHandle";
    case Call::Write:
    case Call::PWrite:
        return "WriteFile";
    case Call::Read:
    case Call::PRead:
        return "ReadFile";
    case Call::Seek:
        return "SetFilePointerEx";
    case Call::Fsync:
        return "FlushFileBuffers";
    case Call::Ftruncate:
        return "SetEndOfFile";
    case Call::Fallocate:
        return "SetFileInformationByHandle(allocation)";
    case Call::Rename:
        return "MoveFileEx";
    case Call::Unlink:
        return "DeleteFile";
    default:
        return "";
    }
}

} // namespace

std::string callName(trace::Call call, trace::System system)
{
    using trace::Call;
    if (system == trace::System::Windows) {
        if (const std::string_view name = windowsCallName(call); !name.empty())
            return std::string(name);
    }
    switch (call) {
    case Call::Open:
        return "open";
    case Call::Close:
        return "close";
    case Call::Write:
        return "write";
    case Call::PWrite:
        return "pwrite";
    case Call::WriteV:
        return "writev";
    case Call::PWriteV:
        return "pwritev";
    case Call::Read:
        return "read";
    case Call::PRead:
        return "pread";
    case Call::ReadV:
        return "readv";
    case Call::PReadV:
        return "preadv";
    case Call::Seek:
        return "lseek";
    case Call::Fsync:
        return "fsync";
    case Call::Fdatasync:
        return "fdatasync";
    case Call::SyncFileRange:
        return "sync_file_range";
    case Call::Syncfs:
        return "syncfs";
    case Call::Fallocate:
        return "fallocate";
    case Call::Ftruncate:
        return "ftruncate";
    case Call::Mmap:
        return "mmap";
    case Call::Msync:
        return "msync";
    case Call::Munmap:
        return "munmap";
    case Call::Rename:
        return "rename";
    case Call::Unlink:
        return "unlink";
    case Call::Dup:
        return "dup";
    case Call::SetFlags:
        return "fcntl(F_SETFL)";
    case Call::Sync:
        return "sync";
    case Call::CopyFileRange:
        return "copy_file_range";
    case Call::SendFile:
        return "sendfile";
    case Call::FOpen:
        return "fopen";
    case Call::FClose:
        return "fclose";
    case Call::SetVBuf:
        return "setvbuf";
    case Call::FWrite:
        return "fwrite";
    case Call::FPutc:
        return "fputc";
    case Call::FPuts:
        return "fputs";
    case Call::FPrintf:
        return "fprintf";
    case Call::FFlush:
        return "fflush";
    case Call::FRead:
        return "fread";
    case Call::FGetc:
        return "fgetc";
    case Call::FGets:
        return "fgets";
    case Call::FSeek:
        return "fseek";
    case Call::StreamSpill:
        return "a full stream buffer";
    case Call::Fork:
        return "fork";
    case Call::Exec:
        return "exec";
    }
    return fmt::format("call {}", static_cast<int>(call));
}

namespace {

std::string count(std::uint64_t n)
{
    // 10,000 with a thousands separator that does not depend on the locale
    std::string digits = std::to_string(n);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}

std::string plural(std::uint64_t n, const char* one, const char* many)
{
    return count(n) + " " + (n == 1 ? one : many);
}

std::string sizesOf(const SizeHistogram& sizes)
{
    const std::uint64_t total = sizes.total();
    if (total == 0)
        return "";
    // The two fullest buckets, with their share of the calls.
    std::vector<std::size_t> order(SizeHistogram::kBuckets);
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return sizes.calls[a] > sizes.calls[b]; });
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < 2 && sizes.calls[order[i]] > 0; ++i) {
        const std::size_t bucket = order[i];
        const std::uint64_t low = sizes.smallest[bucket];
        const std::uint64_t high = sizes.largest[bucket];
        const std::string range =
            low == high ? formatBytes(low) : fmt::format("{} to {}", formatBytes(low), formatBytes(high));
        parts.push_back(
            fmt::format("{} ({:.0f}%)", range,
                        100.0 * static_cast<double>(sizes.calls[bucket]) / static_cast<double>(total)));
    }
    return joinWords(parts);
}

std::string callsList(const std::map<trace::Call, std::uint64_t>& calls, bool (*keep)(trace::Call),
                      trace::System system)
{
    std::vector<std::pair<std::uint64_t, trace::Call>> byCount;
    for (const auto& [call, n] : calls) {
        if (keep(call))
            byCount.emplace_back(n, call);
    }
    std::sort(byCount.rbegin(), byCount.rend());
    std::vector<std::string> parts;
    parts.reserve(byCount.size());
    for (const auto& [n, call] : byCount)
        parts.push_back(fmt::format("{} {}", count(n), callName(call, system)));
    return joinWords(parts);
}

bool writesData(trace::Call call)
{
    using trace::Call;
    return call == Call::Write || call == Call::PWrite || call == Call::WriteV || call == Call::PWriteV ||
           call == Call::FWrite || call == Call::FPutc || call == Call::FPuts || call == Call::FPrintf ||
           call == Call::CopyFileRange || call == Call::SendFile;
}

bool syncs(trace::Call call)
{
    using trace::Call;
    return call == Call::Fsync || call == Call::Fdatasync || call == Call::SyncFileRange ||
           call == Call::Syncfs || call == Call::Sync || call == Call::Msync;
}

std::string flagsWords(std::uint32_t flags, trace::System system)
{
    std::vector<std::string> words;
    const bool windows = system == trace::System::Windows;
    const std::pair<std::uint32_t, const char*> names[] = {
        {trace::OpenAppend, windows ? "FILE_APPEND_DATA" : "O_APPEND"},
        {trace::OpenDirect, windows ? "NO_BUFFERING" : "O_DIRECT"},
        {trace::OpenSync, "O_SYNC"},
        {trace::OpenDSync, "O_DSYNC"},
        {trace::OpenWriteThrough, "WRITE_THROUGH"},
        {trace::OpenTmpfile, windows ? "DELETE_ON_CLOSE" : "O_TMPFILE"},
        {trace::OpenExclusive, windows ? "CREATE_NEW" : "O_EXCL"},
    };
    for (const auto& [bit, name] : names) {
        if (flags & bit)
            words.emplace_back(name);
    }
    return joinWords(words);
}

} // namespace

// A trace of Windows programs only (a Process Monitor capture) names its calls and flags as Win32 does.
trace::System namingSystem(const ProgramProfile& profile)
{
    const bool allWindows =
        !profile.processes.empty() &&
        std::all_of(profile.processes.begin(), profile.processes.end(),
                    [](const TraceProcess& p) { return p.system == trace::System::Windows; });
    return allWindows ? trace::System::Windows : trace::System::Linux;
}

std::vector<std::string> describeProgramProfile(const ProgramProfile& profile)
{
    std::vector<std::string> lines;
    // A trace of Windows programs only (a Process Monitor capture) names its calls and flags as Win32 does.
    const trace::System system = namingSystem(profile);
    const double wall = static_cast<double>(profile.wallNs) / 1e9;
    const double inside = static_cast<double>(profile.insideNs) / 1e9;
    const std::size_t processes = profile.processes.size();
    const TraceProcess* first = processes > 0 ? &profile.processes.front() : nullptr;
    std::string program = first && !first->arguments.empty() ? first->arguments.front()
                          : first                            ? first->executable
                                                             : std::string("the program");
    if (const auto slash = program.rfind('/'); slash != std::string::npos && slash + 1 < program.size())
        program = program.substr(slash + 1);
    // The verdict: where the time went.
    if (profile.calls == 0) {
        lines.push_back(fmt::format("{} made no call on a file that the recorder saw.", program));
    } else if (wall > 0) {
        const double share = inside / wall;
        std::string verdict;
        if (profile.threads <= 1 && share < 0.2)
            verdict = "file I/O is not where its time went";
        else if (profile.threads <= 1 && share > 0.6)
            verdict = "file I/O is most of its time";
        else if (profile.threads <= 1)
            verdict = "file I/O is a large part of its time";
        else
            verdict = fmt::format("summed over its {} threads", profile.threads);
        lines.push_back(fmt::format("{} ran {} and spent {} inside file calls ({:.0f}%): {}.", program,
                                    formatDuration(wall), formatDuration(inside), 100.0 * share, verdict));
    }
    if (profile.writeCalls > 0 || profile.bytesWritten > 0) {
        std::string line = fmt::format("It wrote {} to files in {}", formatBytes(profile.bytesWritten),
                                       plural(profile.writeCalls, "call", "calls"));
        if (const std::string sizes = sizesOf(profile.writeSizes); !sizes.empty())
            line += fmt::format(", most of {}", sizes);
        lines.push_back(line + ".");
    }
    if (profile.readCalls > 0) {
        std::string line = fmt::format("It read {} from files in {}", formatBytes(profile.bytesRead),
                                       plural(profile.readCalls, "call", "calls"));
        if (const std::string sizes = sizesOf(profile.readSizes); !sizes.empty())
            line += fmt::format(", most of {}", sizes);
        lines.push_back(line + ".");
    }
    // Durability.
    if (profile.syncs > 0) {
        lines.push_back(
            fmt::format("Durability: {} ({}), each taking {} at the median and {} at p99.",
                        plural(profile.syncs, "sync", "syncs"), callsList(profile.callCounts, syncs, system),
                        formatLatency(static_cast<double>(profile.syncTimes.percentileNs(50)) / 1e9),
                        formatLatency(static_cast<double>(profile.syncTimes.percentileNs(99)) / 1e9)));
    } else if (profile.bytesWritten > 0 && profile.durableWrites == 0) {
        lines.emplace_back(
            system == trace::System::Windows
                ? "Durability: it never asked for its data to be on the device (no FlushFileBuffers, no "
                  "write-through handle): what it wrote was durable only when the system got to it."
                : "Durability: it never asked for its data to be on the device (no fsync, fdatasync or "
                  "O_SYNC write): what it wrote was durable only when the system got to it.");
    }
    if (profile.durableWrites > 0)
        lines.push_back(fmt::format(
            "{} returned durable ({}).", plural(profile.durableWrites, "write", "writes"),
            system == trace::System::Windows ? "a write-through handle" : "O_SYNC, O_DSYNC or RWF_DSYNC"));
    if (profile.bytesWritten > 0)
        lines.push_back(
            fmt::format("At worst {} it had been told were written were not yet durable (a power cut "
                        "then would lose them).",
                        formatBytes(profile.maxAtRiskBytes)));
    if (profile.atomicReplaces > 0)
        lines.push_back(fmt::format(
            "It replaced a file by renaming another over it {} (the atomic-replace pattern).",
            profile.atomicReplaces == 1 ? std::string("once") : count(profile.atomicReplaces) + " times"));
    // The files.
    std::size_t shown = 0;
    std::size_t regular = 0;
    // A file the program was only given (an inherited descriptor it never used) is not one of its files.
    const auto used = [](const FileProfile& file) {
        return file.kind == FileKind::Regular && !file.calls.empty();
    };
    for (const FileProfile& file : profile.files)
        regular += used(file) ? 1 : 0;
    if (regular > 0)
        lines.push_back(fmt::format("Files ({}):", regular));
    for (const FileProfile& file : profile.files) {
        if (!used(file))
            continue;
        if (shown == 10) {
            lines.push_back(fmt::format("  ... and {} more", regular - shown));
            break;
        }
        ++shown;
        std::vector<std::string> facts;
        if (file.bytesWritten > 0 || file.writeCalls > 0) {
            std::string written = fmt::format("wrote {} ({})", formatBytes(file.bytesWritten),
                                              callsList(file.calls, writesData, system));
            if (file.randomWrites > 0)
                written += fmt::format(", {:.0f}% out of order",
                                       100.0 * static_cast<double>(file.randomWrites) /
                                           static_cast<double>(file.randomWrites + file.sequentialWrites));
            facts.push_back(written);
        }
        if (file.bytesRead > 0)
            facts.push_back(fmt::format("read {}", formatBytes(file.bytesRead)));
        if (file.syncs > 0)
            facts.push_back(callsList(file.calls, syncs, system));
        if (const std::string flags = flagsWords(file.openFlags, system); !flags.empty())
            facts.push_back("opened " + flags);
        if (file.creations > 0)
            facts.push_back(file.creations == 1 ? "created"
                                                : fmt::format("created {} times", count(file.creations)));
        if (file.renamedAway > 0)
            facts.push_back(file.renamedAway == 1 ? "renamed"
                                                  : fmt::format("renamed {} times", count(file.renamedAway)));
        if (file.replacedByRename > 0)
            facts.emplace_back("replaced by a rename");
        if (file.deletions > 0)
            facts.push_back(file.deletions == 1 ? "deleted"
                                                : fmt::format("deleted {} times", count(file.deletions)));
        if (facts.empty())
            facts.emplace_back("opened only");
        lines.push_back(fmt::format("  {}: {}", file.path, joinWords(facts)));
    }
    // What could not be seen.
    bool importNoted = false; // one note per imported process: said once
    for (const TraceNote& note : profile.notes) {
        switch (note.kind) {
        case trace::NoteKind::RawSyscall:
            lines.push_back(
                fmt::format("Not seen: the program made {} through syscall(), which the recorder passes "
                            "on without following.",
                            note.text));
            break;
        case trace::NoteKind::IoUring:
            lines.emplace_back(
                "Not seen: the program used io_uring, whose submissions reach the kernel without a "
                "call the recorder sees; its I/O there is missing.");
            break;
        case trace::NoteKind::StaticExec:
            lines.push_back(
                fmt::format("Not seen: {} is statically linked; the recorder cannot enter it.", note.text));
            break;
        case trace::NoteKind::ChildNotRecorded:
            lines.push_back(
                fmt::format("Not seen: {} was started without the recorder in its environment.", note.text));
            break;
        case trace::NoteKind::BufferLost:
            lines.push_back(fmt::format("Not seen: {} {}.", count(note.count), note.text));
            break;
        case trace::NoteKind::Imported:
            if (note.text == "strace" && !importNoted) {
                lines.emplace_back(
                    "Not seen: this trace was read from strace's log, which shows system calls only: a "
                    "stdio stream's writes show as the writes its buffer flushed, not as the program's own "
                    "calls.");
                importNoted = true;
            }
            if (note.text == "procmon" && !importNoted) {
                lines.emplace_back(
                    "Not seen: this trace was read from Process Monitor's CSV, which shows the file system's "
                    "requests: a stdio stream's writes show as the writes its buffer flushed, and the cache "
                    "manager's own writes (paging I/O) are left out.");
                importNoted = true;
            }
            break;
        }
    }
    if (profile.unseenDescriptorWrites > 0)
        lines.push_back(
            fmt::format("Not seen: {} went to {} never seen opened (opened where the recorder could not "
                        "see, or by a raw system call).",
                        plural(profile.unseenDescriptorWrites, "write", "writes"),
                        plural(profile.unseenDescriptors.size(), "descriptor", "descriptors")));
    return lines;
}

std::string countInWords(std::uint64_t n)
{
    return count(n);
}

std::string writeCallsInWords(const ProgramProfile& profile)
{
    return callsList(profile.callCounts, writesData, namingSystem(profile));
}

std::string syncCallsInWords(const ProgramProfile& profile)
{
    return callsList(profile.callCounts, syncs, namingSystem(profile));
}

} // namespace iolab
