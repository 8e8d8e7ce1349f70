// SPDX-License-Identifier: MIT
#include "core/formats/procmon_import.h"

#include "core/base/error.h"
#include "core/formats/csv.h"
#include "core/formats/trace_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

namespace iolab {

namespace {

using trace::Call;

constexpr std::uint64_t kPmNsPerSecond = 1'000'000'000;
constexpr std::uint64_t kPmNsPerDay = std::uint64_t{24} * 3600 * kPmNsPerSecond;

// The columns by the names Process Monitor gives them; -1 when the file has none.
struct PmColumns
{
    int time = -1;
    int processName = -1;
    int pid = -1;
    int operation = -1;
    int path = -1;
    int result = -1;
    int detail = -1;
    int tid = -1;
    int duration = -1;
    int imagePath = -1;
    int commandLine = -1;
    int parentPid = -1;
};

std::string_view pmTrim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

std::string pmWithoutBom(std::string line)
{
    if (line.starts_with("\xEF\xBB\xBF"))
        line.erase(0, 3);
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    return line;
}

CsvRow pmFields(const std::string& line)
{
    std::vector<CsvRow> rows = parseCsv(line);
    return rows.empty() ? CsvRow{} : std::move(rows.front());
}

// The keys of Detail's "Key: value, Key: value" that the import reads or must step over: a value may hold
// ", " itself ("Desired Access: Generic Read, Write Data"), so a value runs to the next known key.
constexpr std::array<std::string_view, 25> kPmDetailKeys = {
    "Desired Access",
    "Disposition",
    "Options",
    "Attributes",
    "ShareMode",
    "AllocationSize",
    "OpenResult",
    "Impersonating",
    "Offset",
    "Length",
    "I/O Flags",
    "Priority",
    "EndOfFile",
    "ReplaceIfExists",
    "FileName",
    "Delete",
    "Flags",
    "Exit Status",
    "PID",
    "User Time",
    "Kernel Time",
    "Private Bytes",
    "Command line",
    "Parent PID",
    "Current directory",
};

std::optional<std::string_view> pmDetail(std::string_view detail, std::string_view key)
{
    std::size_t at = std::string_view::npos;
    for (std::size_t from = 0; from < detail.size();) {
        const std::size_t found = detail.find(key, from);
        if (found == std::string_view::npos)
            return std::nullopt;
        const bool starts = found == 0 || detail.substr(0, found).ends_with(", ");
        if (starts && detail.substr(found + key.size()).starts_with(": ")) {
            at = found + key.size() + 2;
            break;
        }
        from = found + 1;
    }
    if (at == std::string_view::npos)
        return std::nullopt;
    std::size_t end = detail.size();
    for (std::string_view other : kPmDetailKeys) {
        for (std::size_t from = at; from < detail.size();) {
            const std::size_t found = detail.find(other, from);
            if (found == std::string_view::npos || found >= end)
                break;
            if (detail.substr(0, found).ends_with(", ") &&
                detail.substr(found + other.size()).starts_with(": ")) {
                end = found - 2;
                break;
            }
            from = found + 1;
        }
    }
    return pmTrim(detail.substr(at, end - at));
}

// A whole number as Process Monitor prints it in the machine's language: "4,096", "4.096", "4 096".
std::optional<std::uint64_t> pmNumber(std::string_view text)
{
    std::uint64_t value = 0;
    bool any = false;
    for (const char c : text) {
        if (c >= '0' && c <= '9') {
            value = value * 10 + static_cast<std::uint64_t>(c - '0');
            any = true;
        } else if (c != ',' && c != '.' && c != ' ' && c != '\'' && (static_cast<unsigned char>(c) < 0x80)) {
            return std::nullopt; // "n/a", a sign, a word
        }
    }
    return any ? std::optional(value) : std::nullopt;
}

std::optional<std::uint64_t> pmDetailNumber(std::string_view detail, std::string_view key)
{
    const auto value = pmDetail(detail, key);
    return value ? pmNumber(*value) : std::nullopt;
}

// "0.0002822" (seconds; "0,0002822" in languages with a decimal comma) in nanoseconds.
std::optional<std::uint64_t> pmSeconds(std::string_view text)
{
    text = pmTrim(text);
    if (text.empty())
        return std::nullopt;
    std::uint64_t whole = 0;
    std::uint64_t fraction = 0;
    std::uint64_t scale = kPmNsPerSecond;
    bool inFraction = false;
    for (const char c : text) {
        if (c >= '0' && c <= '9') {
            if (!inFraction) {
                whole = whole * 10 + static_cast<std::uint64_t>(c - '0');
            } else if (scale > 1) {
                scale /= 10;
                fraction += static_cast<std::uint64_t>(c - '0') * scale;
            }
        } else if ((c == '.' || c == ',') && !inFraction) {
            inFraction = true;
        } else {
            return std::nullopt;
        }
    }
    return whole * kPmNsPerSecond + fraction;
}

// "14:57:55.3495633" or "2:57:55.3495633 PM" (the time of day with 100 ns digits) in nanoseconds since
// midnight.
std::optional<std::uint64_t> pmTimeOfDay(std::string_view text)
{
    text = pmTrim(text);
    bool pm = false;
    bool am = false;
    if (text.ends_with("PM") || text.ends_with("pm")) {
        pm = true;
        text = pmTrim(text.substr(0, text.size() - 2));
    } else if (text.ends_with("AM") || text.ends_with("am")) {
        am = true;
        text = pmTrim(text.substr(0, text.size() - 2));
    }
    std::array<std::uint64_t, 2> hm{};
    for (std::uint64_t& part : hm) {
        const std::size_t colon = text.find(':');
        if (colon == std::string_view::npos || colon == 0 || colon > 2)
            return std::nullopt;
        const auto value = pmNumber(text.substr(0, colon));
        if (!value)
            return std::nullopt;
        part = *value;
        text.remove_prefix(colon + 1);
    }
    const auto seconds = pmSeconds(text);
    if (!seconds || hm[0] > 23 || hm[1] > 59)
        return std::nullopt;
    std::uint64_t hours = hm[0];
    if (pm && hours < 12)
        hours += 12;
    if (am && hours == 12)
        hours = 0;
    return (hours * 3600 + hm[1] * 60) * kPmNsPerSecond + *seconds;
}

// Process Monitor's NTSTATUS words as the Win32 error numbers a recorder on Windows keeps (GetLastError).
std::int32_t pmError(std::string_view result)
{
    struct Word
    {
        std::string_view text;
        std::int32_t error;
    };
    static constexpr std::array<Word, 12> kWords = {{
        {"NAME NOT FOUND", 2},
        {"PATH NOT FOUND", 3},
        {"ACCESS DENIED", 5},
        {"INVALID HANDLE", 6},
        {"SHARING VIOLATION", 32},
        {"END OF FILE", 38},
        {"NAME COLLISION", 80},
        {"INVALID PARAMETER", 87},
        {"DISK FULL", 112},
        {"CANCELLED", 995},
        {"FILE LOCKED WITH ONLY READERS", 33},
        {"DELETE PENDING", 303},
    }};
    for (const Word& word : kWords)
        if (result == word.text)
            return word.error;
    return 31; // ERROR_GEN_FAILURE: a failure with another name
}

// CreateFile's Detail as the trace's open flags (trace::OpenFlag).
std::uint32_t pmOpenFlags(std::string_view detail)
{
    std::uint32_t flags = 0;
    const std::string_view access = pmDetail(detail, "Desired Access").value_or("");
    const auto has = [](std::string_view text, std::string_view word) {
        return text.find(word) != std::string_view::npos;
    };
    if (has(access, "Generic Read") || has(access, "Read Data") || has(access, "All Access"))
        flags |= trace::OpenRead;
    const bool writeData =
        has(access, "Generic Write") || has(access, "Write Data") || has(access, "All Access");
    if (writeData || has(access, "Append Data"))
        flags |= trace::OpenWrite;
    if (!writeData && has(access, "Append Data"))
        flags |= trace::OpenAppend;
    const std::string_view disposition = pmDetail(detail, "Disposition").value_or("");
    if (disposition == "Create")
        flags |= trace::OpenCreate | trace::OpenExclusive;
    else if (disposition == "OpenIf")
        flags |= trace::OpenCreate;
    else if (disposition == "OverwriteIf" || disposition == "Supersede")
        flags |= trace::OpenCreate | trace::OpenTruncate;
    else if (disposition == "Overwrite")
        flags |= trace::OpenTruncate;
    const std::string_view options = pmDetail(detail, "Options").value_or("");
    if (has(options, "No Buffering"))
        flags |= trace::OpenDirect;
    if (has(options, "Write Through"))
        flags |= trace::OpenWriteThrough;
    if (has(options, "Delete On Close"))
        flags |= trace::OpenTmpfile;
    if (has(options, "Directory File") && !has(options, "Non-Directory File"))
        flags |= trace::OpenDirectory;
    if (has(options, "Sequential Access"))
        flags |= trace::OpenSequential;
    if (has(options, "Random Access"))
        flags |= trace::OpenRandom;
    if (!has(options, "Synchronous IO"))
        flags |= trace::OpenOverlapped;
    return flags;
}

// A path as a key: Windows' names do not tell case apart.
std::string pmKey(std::string_view path)
{
    std::string key(path);
    std::transform(key.begin(), key.end(), key.begin(),
                   [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; });
    return key;
}

std::vector<std::string> pmArguments(std::string_view commandLine)
{
    std::vector<std::string> arguments;
    std::string current;
    bool quoted = false;
    bool any = false;
    for (const char c : commandLine) {
        if (c == '"') {
            quoted = !quoted;
            any = true;
        } else if (c == ' ' && !quoted) {
            if (any)
                arguments.push_back(std::move(current));
            current.clear();
            any = false;
        } else {
            current += c;
            any = true;
        }
    }
    if (any)
        arguments.push_back(std::move(current));
    return arguments;
}

struct PmProcess
{
    std::size_t index = 0;
    std::unique_ptr<TracePartBuilder> part;
    std::map<std::string, std::vector<std::uint64_t>> handles; // path key -> its open handles, oldest first
    std::uint64_t nextHandle = 4;                              // Windows' handles are multiples of 4
    std::uint64_t startNs = 0;
};

class ProcmonImporter
{
public:
    ProcmonImporter(const std::string& source, const std::function<std::ostream&(std::size_t)>& openPart)
        : m_source(source), m_openPart(openPart)
    {}

    void header(const std::string& line);
    void row(const CsvRow& fields);
    ProcmonImport finish();

private:
    PmProcess& processOf(std::uint32_t pid, const CsvRow& fields, std::uint64_t atNs);
    std::uint64_t handleFor(PmProcess& process, std::uint32_t tid, const std::string& path,
                            std::uint64_t atNs);
    std::string_view field(const CsvRow& fields, int column) const
    {
        return column >= 0 && static_cast<std::size_t>(column) < fields.size()
                   ? std::string_view(fields[static_cast<std::size_t>(column)])
                   : std::string_view();
    }

    const std::string& m_source;
    const std::function<std::ostream&(std::size_t)>& m_openPart;
    ProcmonImport m_result;
    PmColumns m_columns;
    std::map<std::uint32_t, std::unique_ptr<PmProcess>> m_processes;
    std::map<std::uint32_t, std::uint32_t> m_parentOf; // from a Process Create row: child -> parent
    std::uint64_t m_dayNs = 0;
    std::uint64_t m_lastNs = 0;
    std::uint64_t m_inherited = 0; // handles used before their CreateFile was captured
    std::uint64_t m_openTwice = 0; // a CreateFile of a path the process already had open
    std::uint64_t m_unreadTimes = 0;
};

void ProcmonImporter::header(const std::string& line)
{
    CsvRow fields;
    try {
        fields = pmFields(line);
    } catch (const InputError&) {
        fields.clear(); // said below: separated otherwise, or no known column
    }
    if (fields.size() <= 1 && line.find(';') != std::string::npos)
        throw InputError(fmt::format(
            "{} is separated by semicolons, not commas (a spreadsheet in some languages saves CSV so): save "
            "the capture from Process Monitor itself ({})",
            m_source, kProcmonHowTo));
    const std::map<std::string_view, int PmColumns::*> names = {
        {"Time of Day", &PmColumns::time},
        {"Process Name", &PmColumns::processName},
        {"PID", &PmColumns::pid},
        {"Operation", &PmColumns::operation},
        {"Path", &PmColumns::path},
        {"Result", &PmColumns::result},
        {"Detail", &PmColumns::detail},
        {"TID", &PmColumns::tid},
        {"Duration", &PmColumns::duration},
        {"Image Path", &PmColumns::imagePath},
        {"Command Line", &PmColumns::commandLine},
        {"Parent PID", &PmColumns::parentPid},
    };
    bool known = false;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (const auto name = names.find(pmTrim(fields[i])); name != names.end()) {
            m_columns.*(name->second) = static_cast<int>(i);
            known = true;
        }
    }
    if (!known)
        throw InputError(fmt::format(
            "{} names none of Process Monitor's columns (its first line: {}): IOLab reads the CSV Process "
            "Monitor saves, whose column names are English (Time of Day, Process Name, PID, Operation, Path, "
            "Result, Detail); {}",
            m_source, line.substr(0, 160), kProcmonHowTo));
    std::vector<std::string_view> missing;
    const std::array<std::pair<std::string_view, int>, 7> required = {{
        {"Time of Day", m_columns.time},
        {"Process Name", m_columns.processName},
        {"PID", m_columns.pid},
        {"Operation", m_columns.operation},
        {"Path", m_columns.path},
        {"Result", m_columns.result},
        {"Detail", m_columns.detail},
    }};
    for (const auto& [name, column] : required)
        if (column < 0)
            missing.push_back(name);
    if (!missing.empty())
        throw InputError(fmt::format(
            "{} lacks the column{} {} that Process Monitor shows by default (IOLab reads its English names): "
            "add {} (Options > Select Columns) and save the CSV again",
            m_source, missing.size() == 1 ? "" : "s", fmt::join(missing, ", "),
            missing.size() == 1 ? "it" : "them"));
    m_result.timed = m_columns.duration >= 0;
    m_result.threaded = m_columns.tid >= 0;
}

PmProcess& ProcmonImporter::processOf(std::uint32_t pid, const CsvRow& fields, std::uint64_t atNs)
{
    if (const auto found = m_processes.find(pid); found != m_processes.end())
        return *found->second;
    auto process = std::make_unique<PmProcess>();
    process->index = m_processes.size();
    process->startNs = atNs;
    std::uint32_t parent = 0;
    if (const auto known = m_parentOf.find(pid); known != m_parentOf.end())
        parent = known->second;
    else if (const auto column = pmNumber(field(fields, m_columns.parentPid)))
        parent = static_cast<std::uint32_t>(*column);
    process->part = std::make_unique<TracePartBuilder>(m_openPart(process->index), trace::System::Windows,
                                                       pid, parent, 0, atNs);
    std::string executable(field(fields, m_columns.imagePath));
    if (executable.empty())
        executable = std::string(field(fields, m_columns.processName));
    std::vector<std::string> arguments = pmArguments(field(fields, m_columns.commandLine));
    if (!arguments.empty())
        arguments.erase(arguments.begin()); // the program itself
    process->part->program(pid, executable, arguments, "");
    PmProcess& added = *process;
    m_processes[pid] = std::move(process);
    return added;
}

std::uint64_t ProcmonImporter::handleFor(PmProcess& process, std::uint32_t tid, const std::string& path,
                                         std::uint64_t atNs)
{
    auto& open = process.handles[pmKey(path)];
    if (!open.empty())
        return open.back();
    // Opened before the capture began: an open the trace can hang the calls on.
    ++m_inherited;
    const std::uint64_t handle = process.nextHandle;
    process.nextHandle += 4;
    open.push_back(handle);
    TraceEvent event;
    event.call = Call::Open;
    event.tid = tid;
    event.flags = trace::OpenInherited | trace::OpenRead | trace::OpenWrite;
    event.handle = handle;
    event.result = static_cast<std::int64_t>(handle);
    event.path = path;
    event.startNs = event.endNs = atNs;
    process.part->add(event);
    return handle;
}

void ProcmonImporter::row(const CsvRow& fields)
{
    ++m_result.rows;
    const std::string_view operation = pmTrim(field(fields, m_columns.operation));
    const auto pidValue = pmNumber(field(fields, m_columns.pid));
    const auto timeValue = pmTimeOfDay(field(fields, m_columns.time));
    if (!pidValue || !timeValue) {
        ++m_result.otherRows;
        if (!timeValue)
            ++m_unreadTimes;
        return;
    }
    const auto pid = static_cast<std::uint32_t>(*pidValue);
    const std::string_view detail = field(fields, m_columns.detail);
    if (operation == "Process Create") {
        if (const auto child = pmDetailNumber(detail, "PID"))
            m_parentOf[static_cast<std::uint32_t>(*child)] = pid;
        ++m_result.otherRows;
        return;
    }
    std::uint64_t atNs = *timeValue + m_dayNs;
    if (atNs + kPmNsPerDay / 2 < m_lastNs) { // past midnight
        m_dayNs += kPmNsPerDay;
        atNs += kPmNsPerDay;
    }
    m_lastNs = std::max(m_lastNs, atNs);
    const std::uint32_t tid =
        m_columns.tid >= 0 ? static_cast<std::uint32_t>(pmNumber(field(fields, m_columns.tid)).value_or(pid))
                           : pid;
    const std::uint64_t insideNs = pmSeconds(field(fields, m_columns.duration)).value_or(0);
    const std::string_view result = pmTrim(field(fields, m_columns.result));
    const bool ok = result == "SUCCESS";
    const std::string path(field(fields, m_columns.path));

    TraceEvent event;
    event.tid = tid;
    event.error = ok ? 0 : pmError(result);
    event.result = ok ? 0 : -1;

    if (operation == "Process Exit") {
        PmProcess& process = processOf(pid, fields, atNs);
        // "Exit Status: 0", or a negative NTSTATUS such as -1073741819 (an access violation)
        const std::string_view statusText = pmDetail(detail, "Exit Status").value_or("");
        const bool negative = statusText.starts_with('-');
        const auto status = pmNumber(negative ? statusText.substr(1) : statusText);
        const auto statusValue = static_cast<std::int32_t>(status.value_or(0));
        process.part->exit(tid, status ? (negative ? -statusValue : statusValue) : trace::kExitStatusUnknown,
                           std::max(atNs, process.startNs));
        ++m_result.otherRows;
        return;
    }
    if (operation == "WriteFile" || operation == "ReadFile") {
        if (pmDetail(detail, "I/O Flags").value_or("").find("Paging I/O") != std::string_view::npos) {
            // The cache manager writing back (or reading ahead) for the file, or a mapped view's pages:
            // the system's requests, not the program's calls.
            if (operation == "WriteFile")
                ++m_result.pagingWrites;
            else
                ++m_result.otherRows;
            return;
        }
        event.call = operation == "WriteFile" ? Call::PWrite : Call::PRead;
        event.bytes = pmDetailNumber(detail, "Length").value_or(0);
        event.offset = static_cast<std::int64_t>(pmDetailNumber(detail, "Offset").value_or(0));
        if (ok)
            event.result = static_cast<std::int64_t>(event.bytes);
        if (result == "END OF FILE") { // a read at the end: 0 bytes, not a failure
            event.error = 0;
            event.result = 0;
        }
    } else if (operation == "CreateFile") {
        event.call = Call::Open;
        event.flags = pmOpenFlags(detail);
        event.path = path;
    } else if (operation == "FlushBuffersFile") {
        event.call = Call::Fsync;
    } else if (operation == "SetEndOfFileInformationFile") {
        event.call = Call::Ftruncate;
        event.bytes = pmDetailNumber(detail, "EndOfFile").value_or(0);
    } else if (operation == "SetAllocationInformationFile") {
        event.call = Call::Fallocate;
        event.offset = 0;
        event.bytes = pmDetailNumber(detail, "AllocationSize").value_or(0);
    } else if (operation == "CloseFile") {
        event.call = Call::Close;
    } else if (operation == "SetRenameInformationFile" || operation == "SetRenameInformationEx") {
        event.call = Call::Rename;
        event.path = path;
        event.path2 = std::string(pmDetail(detail, "FileName").value_or(""));
    } else if (operation == "SetDispositionInformationFile" || operation == "SetDispositionInformationEx") {
        const bool deletes = pmDetail(detail, "Delete").value_or("") == "True" ||
                             pmDetail(detail, "Flags").value_or("").find("DELETE") != std::string_view::npos;
        if (!deletes) {
            ++m_result.otherRows;
            return;
        }
        event.call = Call::Unlink;
        event.path = path;
    } else {
        ++m_result.otherRows;
        return;
    }

    PmProcess& process = processOf(pid, fields, atNs);
    atNs = std::max(atNs, process.startNs);
    event.startNs = atNs;
    event.endNs = atNs + insideNs;
    event.insideNs = insideNs;
    switch (event.call) {
    case Call::Open:
        if (ok) {
            auto& open = process.handles[pmKey(path)];
            if (!open.empty())
                ++m_openTwice;
            event.handle = process.nextHandle;
            process.nextHandle += 4;
            event.result = static_cast<std::int64_t>(event.handle);
            open.push_back(event.handle);
        }
        break;
    case Call::Rename:
    case Call::Unlink:
        break;
    case Call::Close: {
        event.handle = handleFor(process, tid, path, atNs);
        auto& open = process.handles[pmKey(path)];
        open.pop_back();
        if (open.empty())
            process.handles.erase(pmKey(path));
        break;
    }
    default:
        event.handle = handleFor(process, tid, path, atNs);
        break;
    }
    if (event.call == Call::Rename && ok && !event.path2.empty()) {
        // The open handles follow the file to its new name.
        if (const auto open = process.handles.find(pmKey(path)); open != process.handles.end()) {
            auto moved = std::move(open->second);
            process.handles.erase(open);
            auto& target = process.handles[pmKey(event.path2)];
            target.insert(target.end(), moved.begin(), moved.end());
        }
    }
    ++m_result.calls;
    process.part->add(event);
}

ProcmonImport ProcmonImporter::finish()
{
    if (m_result.calls == 0)
        throw InputError(fmt::format(
            "none of the {} rows of {} is a call on a file IOLab reads (CreateFile, WriteFile, ReadFile, "
            "FlushBuffersFile, SetEndOfFileInformationFile, SetAllocationInformationFile, CloseFile, a "
            "rename "
            "or a delete): was the capture filtered on another process? ({})",
            m_result.rows, m_source, kProcmonHowTo));
    for (auto& [pid, process] : m_processes) {
        process->part->note(pid, trace::NoteKind::Imported, 1, process->startNs, "procmon");
        process->part->finish();
    }
    m_result.processes = m_processes.size();
    if (!m_result.timed)
        m_result.warnings.emplace_back(
            "the CSV has no Duration column: the time inside the calls counts as 0 "
            "(add it in Process Monitor: Options > Select Columns)");
    if (!m_result.threaded)
        m_result.warnings.emplace_back(
            "the CSV has no TID column: each process's calls are put on one thread "
            "(add it in Process Monitor: Options > Select Columns)");
    if (m_result.pagingWrites > 0)
        m_result.warnings.push_back(fmt::format(
            "{} paging write{} left out: the cache manager writing back what the program had written, or a "
            "mapped file's pages, are the system's requests, not the program's calls",
            m_result.pagingWrites, m_result.pagingWrites == 1 ? " was" : "s were"));
    if (m_inherited > 0)
        m_result.warnings.push_back(fmt::format(
            "{} file{} used before the capture saw {} opened: {} open{} is counted from {} first call",
            m_inherited, m_inherited == 1 ? " was" : "s were", m_inherited == 1 ? "it" : "them",
            m_inherited == 1 ? "its" : "their", m_inherited == 1 ? "" : "s",
            m_inherited == 1 ? "its" : "their"));
    if (m_openTwice > 0)
        m_result.warnings.push_back(fmt::format("{} time{} a process opened a file it already had open: "
                                                "Process Monitor's CSV names no handle, so "
                                                "the calls that follow are put on the newest open",
                                                m_openTwice, m_openTwice == 1 ? "" : "s"));
    if (m_unreadTimes > 0)
        m_result.warnings.push_back(
            fmt::format("{} row{} had a Time of Day IOLab could not read and {} left out", m_unreadTimes,
                        m_unreadTimes == 1 ? "" : "s", m_unreadTimes == 1 ? "was" : "were"));
    return m_result;
}

} // namespace

bool looksLikeProcmonCsv(const std::string& firstLine)
{
    const std::string line = pmWithoutBom(firstLine);
    const auto named = [](std::string_view field) {
        field = pmTrim(field);
        if (!field.empty() && field.front() == '"')
            field.remove_prefix(1);
        return field.starts_with("Time of Day") || field.starts_with("Process Name") ||
               field.starts_with("Operation");
    };
    CsvRow fields;
    try {
        fields = pmFields(line);
    } catch (const InputError&) {
        fields.clear();
    }
    if (fields.size() <= 1) // a spreadsheet's re-save with semicolons: the import says so
        return line.find(';') != std::string::npos && named(line);
    if (fields.size() < 3)
        return false;
    // Process Monitor quotes every field; a spreadsheet's re-save does not, but keeps the names.
    return line.front() == '"' || std::any_of(fields.begin(), fields.end(), named);
}

ProcmonImport importProcmonCsv(std::istream& in, const std::string& sourceName,
                               const std::function<std::ostream&(std::size_t)>& openPart)
{
    ProcmonImporter importer(sourceName, openPart);
    std::string line;
    if (!std::getline(in, line))
        throw InputError(fmt::format("{} is empty", sourceName));
    line = pmWithoutBom(line);
    importer.header(line);
    while (std::getline(in, line)) {
        line = pmWithoutBom(line);
        if (pmTrim(line).empty())
            continue;
        CsvRow fields;
        try {
            fields = pmFields(line);
        } catch (const InputError&) {
            fields.clear(); // an unterminated quote: a row cut short
        }
        importer.row(fields);
    }
    return importer.finish();
}

} // namespace iolab
