// SPDX-License-Identifier: MIT
#include "strace_import.h"

#include "core/base/error.h"
#include "core/formats/trace_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

namespace iolab {

namespace {

using trace::Call;

constexpr std::uint64_t kNsPerSecond = 1'000'000'000;
constexpr std::uint64_t kNsPerDay = 86'400 * kNsPerSecond;

// Linux's error numbers by name: strace prints names, the trace keeps the system's numbers.
int errnoOf(std::string_view name)
{
    static const std::unordered_map<std::string_view, int> numbers{
        {"EPERM", 1},       {"ENOENT", 2},        {"EINTR", 4},
        {"EIO", 5},         {"ENXIO", 6},         {"E2BIG", 7},
        {"EBADF", 9},       {"EAGAIN", 11},       {"ENOMEM", 12},
        {"EACCES", 13},     {"EFAULT", 14},       {"EBUSY", 16},
        {"EEXIST", 17},     {"EXDEV", 18},        {"ENODEV", 19},
        {"ENOTDIR", 20},    {"EISDIR", 21},       {"EINVAL", 22},
        {"ENFILE", 23},     {"EMFILE", 24},       {"ETXTBSY", 26},
        {"EFBIG", 27},      {"ENOSPC", 28},       {"ESPIPE", 29},
        {"EROFS", 30},      {"EMLINK", 31},       {"EPIPE", 32},
        {"ERANGE", 34},     {"EDEADLK", 35},      {"ENAMETOOLONG", 36},
        {"ENOLCK", 37},     {"ENOSYS", 38},       {"ENOTEMPTY", 39},
        {"ELOOP", 40},      {"ENODATA", 61},      {"EOVERFLOW", 75},
        {"EOPNOTSUPP", 95}, {"ENOTSUP", 95},      {"EDQUOT", 122},
        {"ECANCELED", 125}, {"ERESTARTSYS", 512}, {"ERESTARTNOINTR", 513},
        {"ENOTTY", 25},     {"ESTALE", 116},
    };
    const auto it = numbers.find(name);
    return it == numbers.end() ? 1000 : it->second; // an error all the same, of a kind strace named
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

std::optional<std::int64_t> integer(std::string_view text)
{
    text = trim(text);
    if (text == "NULL")
        return 0;
    bool negative = false;
    if (!text.empty() && text.front() == '-') {
        negative = true;
        text.remove_prefix(1);
    }
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (error != std::errc() || end == text.data())
        return std::nullopt;
    return negative ? -static_cast<std::int64_t>(value) : static_cast<std::int64_t>(value);
}

// strace's quoted string, its C escapes undone; `text` starts at the opening quote.
std::string unquote(std::string_view text)
{
    std::string out;
    if (text.empty() || text.front() != '"')
        return std::string(text);
    for (std::size_t i = 1; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"')
            break;
        if (c != '\\' || i + 1 >= text.size()) {
            out.push_back(c);
            continue;
        }
        const char e = text[++i];
        switch (e) {
        case 'n':
            out.push_back('\n');
            break;
        case 't':
            out.push_back('\t');
            break;
        case 'r':
            out.push_back('\r');
            break;
        case 'v':
            out.push_back('\v');
            break;
        case 'f':
            out.push_back('\f');
            break;
        case 'x': {
            unsigned value = 0;
            int digits = 0;
            while (digits < 2 && i + 1 < text.size() &&
                   std::isxdigit(static_cast<unsigned char>(text[i + 1]))) {
                const char h = text[++i];
                value = value * 16 + static_cast<unsigned>(isDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
                ++digits;
            }
            out.push_back(static_cast<char>(value));
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                unsigned value = static_cast<unsigned>(e - '0');
                for (int digits = 1;
                     digits < 3 && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '7'; ++digits)
                    value = value * 8 + static_cast<unsigned>(text[++i] - '0');
                out.push_back(static_cast<char>(value));
            } else {
                out.push_back(e);
            }
        }
    }
    return out;
}

// The arguments of a call, split at the commas outside quotes, brackets and braces. `text` starts after the
// opening parenthesis; `closed` is set where the matching one is.
std::vector<std::string_view> splitArguments(std::string_view text, std::size_t& closed)
{
    std::vector<std::string_view> arguments;
    int depth = 0;
    bool quoted = false;
    std::size_t start = 0;
    closed = std::string_view::npos;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                quoted = false;
            continue;
        }
        switch (c) {
        case '"':
            quoted = true;
            break;
        case '(':
        case '[':
        case '{':
            ++depth;
            break;
        case ']':
        case '}':
            --depth;
            break;
        case ')':
            if (depth == 0) {
                if (i > start || !arguments.empty())
                    arguments.push_back(trim(text.substr(start, i - start)));
                closed = i;
                return arguments;
            }
            --depth;
            break;
        case ',':
            if (depth == 0) {
                arguments.push_back(trim(text.substr(start, i - start)));
                start = i + 1;
            }
            break;
        default:
            break;
        }
    }
    return arguments;
}

// A descriptor as -y prints it: 3</tmp/a.txt>; or a bare number, or AT_FDCWD.
struct StraceDescriptor
{
    std::int64_t fd = -1;
    std::string path; // empty without -y
    bool decorated = false;
};

StraceDescriptor descriptor(std::string_view text)
{
    StraceDescriptor d;
    text = trim(text);
    const std::size_t open = text.find('<');
    const std::size_t close = text.rfind('>'); // 6</tmp/a-shm>(deleted) for a file removed while open
    if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
        d.path = std::string(text.substr(open + 1, close - open - 1));
        if (d.path.find('\\') != std::string::npos)
            d.path = unquote("\"" + d.path + "\"");
        d.decorated = true;
        text = text.substr(0, open);
    }
    if (text == "AT_FDCWD")
        d.fd = -100;
    else if (auto value = integer(text))
        d.fd = *value;
    return d;
}

std::set<std::string_view> flagNames(std::string_view text)
{
    std::set<std::string_view> names;
    text = trim(text);
    if (!text.empty() && text.front() == '{') // openat2's struct: {flags=O_RDONLY|O_CLOEXEC, ...}
        text.remove_prefix(1);
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == '|' || text[i] == ',' || text[i] == '}' || text[i] == ' ') {
            std::string_view name = text.substr(start, i - start);
            if (const auto eq = name.find('='); eq != std::string_view::npos)
                name = name.substr(eq + 1);
            if (!name.empty())
                names.insert(name);
            start = i + 1;
        }
    }
    return names;
}

std::uint32_t openFlagsOf(std::string_view text)
{
    const auto names = flagNames(text);
    std::uint32_t bits = 0;
    if (names.contains("O_WRONLY"))
        bits |= trace::OpenWrite;
    else if (names.contains("O_RDWR"))
        bits |= trace::OpenRead | trace::OpenWrite;
    else
        bits |= trace::OpenRead;
    const std::pair<std::string_view, std::uint32_t> map[] = {
        {"O_CREAT", trace::OpenCreate},        {"O_TRUNC", trace::OpenTruncate},
        {"O_EXCL", trace::OpenExclusive},      {"O_APPEND", trace::OpenAppend},
        {"O_DIRECT", trace::OpenDirect},       {"O_SYNC", trace::OpenSync},
        {"O_DSYNC", trace::OpenDSync},         {"O_TMPFILE", trace::OpenTmpfile},
        {"O_DIRECTORY", trace::OpenDirectory},
    };
    for (const auto& [name, bit] : map) {
        if (names.contains(name))
            bits |= bit;
    }
    if (bits & trace::OpenSync)
        bits &= ~trace::OpenDSync;
    if (bits & trace::OpenTmpfile)
        bits &= ~trace::OpenDirectory;
    return bits;
}

std::uint32_t writeFlagsOf(std::string_view text)
{
    const auto names = flagNames(text);
    std::uint32_t bits = 0;
    const std::pair<std::string_view, std::uint32_t> map[] = {
        {"RWF_DSYNC", trace::WriteDSync},   {"RWF_SYNC", trace::WriteSync},
        {"RWF_APPEND", trace::WriteAppend}, {"RWF_NOWAIT", trace::WriteNoWait},
        {"RWF_HIPRI", trace::WriteHiPri},
    };
    for (const auto& [name, bit] : map) {
        if (names.contains(name))
            bits |= bit;
    }
    return bits;
}

// The sum of an iovec array's iov_len: [{iov_base="...", iov_len=5}, {...}]
std::uint64_t iovecBytes(std::string_view text)
{
    std::uint64_t bytes = 0;
    std::size_t at = 0;
    while ((at = text.find("iov_len=", at)) != std::string_view::npos) {
        at += 8;
        std::size_t end = at;
        while (end < text.size() && (isDigit(text[end]) || text[end] == 'x' ||
                                     std::isxdigit(static_cast<unsigned char>(text[end]))))
            ++end;
        if (auto value = integer(text.substr(at, end - at)))
            bytes += static_cast<std::uint64_t>(*value);
    }
    return bytes;
}

std::uint64_t parseNs(std::string_view seconds)
{
    // "12.000123": seconds and a fraction of up to nine digits
    const std::size_t dot = seconds.find('.');
    std::uint64_t whole = 0;
    std::from_chars(seconds.data(), seconds.data() + (dot == std::string_view::npos ? seconds.size() : dot),
                    whole);
    std::uint64_t fraction = 0;
    if (dot != std::string_view::npos) {
        std::string_view digits = seconds.substr(dot + 1, 9);
        std::from_chars(digits.data(), digits.data() + digits.size(), fraction);
        for (std::size_t i = digits.size(); i < 9; ++i)
            fraction *= 10;
    }
    return whole * kNsPerSecond + fraction;
}

// One line taken apart: [pid N] or N, a time, and what follows.
struct StraceLine
{
    std::uint32_t pid = 0; // 0: none printed (a trace of one process)
    std::optional<std::uint64_t> timeNs;
    bool epoch = false; // -ttt: seconds since 1970
    std::string_view rest;
};

StraceLine splitLine(std::string_view text)
{
    StraceLine line;
    text = trim(text);
    if (text.starts_with("[pid")) {
        const std::size_t close = text.find(']');
        if (close != std::string_view::npos) {
            if (auto pid = integer(text.substr(4, close - 4)))
                line.pid = static_cast<std::uint32_t>(*pid);
            text = trim(text.substr(close + 1));
        }
    } else {
        std::size_t digits = 0;
        while (digits < text.size() && isDigit(text[digits]))
            ++digits;
        if (digits > 0 && digits < text.size() && text[digits] == ' ') {
            if (auto pid = integer(text.substr(0, digits)))
                line.pid = static_cast<std::uint32_t>(*pid);
            text = trim(text.substr(digits));
        }
    }
    // 10:11:12.123456 (-tt), 10:11:12 (-t) or 1700000000.123456 (-ttt)
    std::size_t end = 0;
    while (end < text.size() && (isDigit(text[end]) || text[end] == ':' || text[end] == '.'))
        ++end;
    if (end > 0 && end < text.size() && text[end] == ' ') {
        const std::string_view stamp = text.substr(0, end);
        if (std::count(stamp.begin(), stamp.end(), ':') == 2) {
            const std::size_t first = stamp.find(':');
            const std::size_t second = stamp.find(':', first + 1);
            std::uint64_t hours = 0;
            std::uint64_t minutes = 0;
            std::from_chars(stamp.data(), stamp.data() + first, hours);
            std::from_chars(stamp.data() + first + 1, stamp.data() + second, minutes);
            line.timeNs = (hours * 3600 + minutes * 60) * kNsPerSecond + parseNs(stamp.substr(second + 1));
            text = trim(text.substr(end));
        } else if (stamp.find(':') == std::string_view::npos && stamp.find('.') != std::string_view::npos) {
            line.timeNs = parseNs(stamp);
            line.epoch = true;
            text = trim(text.substr(end));
        }
    }
    line.rest = text;
    return line;
}

struct FileMapping
{
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
};

struct StraceProcess
{
    std::size_t index = 0;
    std::uint32_t pid = 0;
    std::unique_ptr<TracePartBuilder> part;
    std::string cwd; // as far as the log shows it: from a relative open's absolute -y path, or chdir
    std::vector<FileMapping> mappings;
    bool named = false; // its program is known (execve)
};

class Importer
{
public:
    Importer(const std::string& source, const std::function<std::ostream&(std::size_t)>& openPart)
        : m_source(source), m_openPart(openPart)
    {}

    void line(std::string_view text);
    StraceImport finish();

private:
    StraceProcess& processOf(std::uint32_t tid, std::uint64_t atNs);
    StraceProcess& newProcess(std::uint32_t pid, std::uint32_t parentPid, std::uint64_t atNs);
    void call(std::uint32_t tid, std::uint64_t atNs, std::string_view text);
    std::string absolute(const StraceProcess& process, const StraceDescriptor& base, std::string path) const;
    void learnCwd(StraceProcess& process, std::string_view asked, std::string_view resolved);
    std::uint64_t clock(const StraceLine& line);

    const std::string& m_source;
    const std::function<std::ostream&(std::size_t)>& m_openPart;
    StraceImport m_result;
    std::map<std::uint32_t, std::unique_ptr<StraceProcess>> m_processes; // by pid
    std::map<std::uint32_t, StraceProcess*> m_threadOwner;               // tid -> its process
    std::map<std::uint32_t, std::string> m_unfinished;                   // tid -> the call's first half
    std::map<std::uint32_t, std::uint64_t> m_unfinishedAt;
    std::map<std::uint32_t, std::uint32_t> m_threadsToCome;     // a clone(CLONE_THREAD)'s new tid -> pid
    std::map<std::uint32_t, std::uint32_t> m_childrenToCome;    // a fork's child pid -> its parent
    std::set<std::pair<std::uint32_t, std::int64_t>> m_seenFds; // (process pid, fd) seen opened
    std::uint64_t m_lastNs = 0;
    std::uint64_t m_dayNs = 0;
    std::uint64_t m_firstNs = UINT64_MAX;
    std::uint64_t m_lineNumber = 0;
    bool m_epoch = false;
    bool m_anyCall = false;
    bool m_summary = false;
    std::string m_undecorated; // the first call whose descriptor had no path
};

std::uint64_t Importer::clock(const StraceLine& line)
{
    if (!line.timeNs) {
        m_result.stamped = false;
        return m_lastNs + 1000; // the log's order, a microsecond apart
    }
    m_epoch = line.epoch;
    std::uint64_t ns = *line.timeNs + m_dayNs;
    if (!line.epoch && ns + kNsPerDay / 2 < m_lastNs) { // past midnight
        m_dayNs += kNsPerDay;
        ns += kNsPerDay;
    }
    m_lastNs = std::max(m_lastNs, ns);
    m_firstNs = std::min(m_firstNs, ns);
    return ns;
}

StraceProcess& Importer::newProcess(std::uint32_t pid, std::uint32_t parentPid, std::uint64_t atNs)
{
    auto process = std::make_unique<StraceProcess>();
    process->index = m_processes.size();
    process->pid = pid;
    if (const auto parent = m_processes.find(parentPid); parent != m_processes.end())
        process->cwd = parent->second->cwd;
    process->part = std::make_unique<TracePartBuilder>(m_openPart(process->index), trace::System::Linux, pid,
                                                       parentPid, m_epoch ? atNs : 0, atNs);
    StraceProcess& added = *process;
    m_processes[pid] = std::move(process);
    m_threadOwner[pid] = &added;
    return added;
}

StraceProcess& Importer::processOf(std::uint32_t tid, std::uint64_t atNs)
{
    if (const auto owner = m_threadOwner.find(tid); owner != m_threadOwner.end())
        return *owner->second;
    if (const auto thread = m_threadsToCome.find(tid); thread != m_threadsToCome.end()) {
        if (const auto owner = m_threadOwner.find(thread->second); owner != m_threadOwner.end()) {
            m_threadOwner[tid] = owner->second;
            return *owner->second;
        }
    }
    std::uint32_t parent = 0;
    if (const auto child = m_childrenToCome.find(tid); child != m_childrenToCome.end()) {
        parent = child->second;
    } else if (const auto first = m_processes.find(0); first != m_processes.end() && tid != 0) {
        // strace writing to its terminal prints [pid N] only once a second process exists: the lines
        // before had no number, and a number never seen before is the first process's own.
        StraceProcess& process = *first->second;
        auto owned = std::move(first->second);
        m_processes.erase(first);
        process.pid = tid;
        process.part->setPid(tid);
        m_threadOwner[tid] = &process;
        for (auto seen = m_seenFds.lower_bound({0, INT64_MIN});
             seen != m_seenFds.end() && seen->first == 0;) {
            m_seenFds.insert({tid, seen->second});
            seen = m_seenFds.erase(seen);
        }
        m_processes[tid] = std::move(owned);
        return process;
    }
    return newProcess(tid, parent, atNs);
}

void Importer::learnCwd(StraceProcess& process, std::string_view asked, std::string_view resolved)
{
    if (asked.empty() || asked.front() == '/' || resolved.empty() || resolved.front() != '/')
        return;
    std::string_view name = asked;
    while (name.starts_with("./"))
        name.remove_prefix(2);
    if (name.find("..") != std::string_view::npos || !resolved.ends_with(name) ||
        resolved.size() <= name.size() || resolved[resolved.size() - name.size() - 1] != '/')
        return;
    process.cwd = std::string(resolved.substr(0, resolved.size() - name.size() - 1));
    if (process.cwd.empty())
        process.cwd = "/";
}

std::string Importer::absolute(const StraceProcess& process, const StraceDescriptor& base,
                               std::string path) const
{
    if (path.empty() || path.front() == '/')
        return path;
    std::string folder = base.fd == -100 || base.fd < 0 ? process.cwd : base.path;
    if (folder.empty())
        return path; // where it is relative to is not in the log
    while (path.starts_with("./"))
        path.erase(0, 2);
    return folder == "/" ? "/" + path : folder + "/" + path;
}

void Importer::line(std::string_view text)
{
    if (m_summary)
        return; // strace -C's table of counts, after the calls
    if (text.starts_with("% time ")) {
        m_summary = true;
        return;
    }
    ++m_lineNumber;
    ++m_result.lines;
    const StraceLine line = splitLine(text);
    if (line.rest.empty()) {
        --m_result.lines;
        return;
    }
    const std::uint64_t atNs = clock(line);
    const std::uint32_t tid = line.pid;
    std::string_view rest = line.rest;
    if (rest.starts_with("+++ ")) {
        StraceProcess& process = processOf(tid, atNs);
        if (rest.starts_with("+++ exited with ")) {
            const auto status = integer(rest.substr(16, rest.find(' ', 16) - 16));
            if (process.pid == tid || tid == 0)
                process.part->exit(
                    tid, status ? static_cast<std::int32_t>(*status) : trace::kExitStatusUnknown, atNs);
        }
        m_anyCall = true;
        return; // killed by a signal: no exit record, as for a recorded program killed
    }
    if (rest.starts_with("--- ")) {
        ++m_result.otherCalls;
        return; // a signal delivered
    }
    if (rest.starts_with("<... ")) {
        const std::size_t resumed = rest.find(" resumed>");
        const auto first = m_unfinished.find(tid);
        if (resumed == std::string_view::npos || first == m_unfinished.end()) {
            ++m_result.unreadLines;
            return;
        }
        const std::string whole = first->second + std::string(rest.substr(resumed + 9));
        const std::uint64_t startedNs = m_unfinishedAt[tid];
        m_unfinished.erase(first);
        call(tid, startedNs, whole);
        return;
    }
    if (const std::size_t cut = rest.find(" <unfinished ...>"); cut != std::string_view::npos) {
        m_unfinished[tid] = std::string(rest.substr(0, cut));
        m_unfinishedAt[tid] = atNs;
        return;
    }
    call(tid, atNs, rest);
}

void Importer::call(std::uint32_t tid, std::uint64_t atNs, std::string_view text)
{
    const std::size_t paren = text.find('(');
    if (paren == std::string_view::npos || paren == 0) {
        ++m_result.unreadLines;
        return;
    }
    const std::string_view name = text.substr(0, paren);
    if (!std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; })) {
        ++m_result.unreadLines;
        return;
    }
    std::size_t closed = 0;
    const std::vector<std::string_view> args = splitArguments(text.substr(paren + 1), closed);
    if (closed == std::string_view::npos) {
        ++m_result.unreadLines;
        return;
    }
    std::string_view after = trim(text.substr(paren + 1 + closed + 1));
    if (!after.starts_with("=")) {
        ++m_result.unreadLines;
        return;
    }
    after = trim(after.substr(1));
    // the duration, last: <0.000020>
    std::uint64_t insideNs = 0;
    if (after.ends_with(">")) {
        const std::size_t open = after.rfind('<');
        const std::string_view inside = after.substr(open + 1, after.size() - open - 2);
        if (open != std::string_view::npos && !inside.empty() && isDigit(inside.front()) &&
            inside.find_first_not_of("0123456789.") == std::string_view::npos) {
            insideNs = parseNs(inside);
            after = trim(after.substr(0, open));
        } else {
            m_result.timed = false;
        }
    } else if (!after.starts_with("?")) { // a call that never returns (exit_group) has no duration
        m_result.timed = false;
    }
    // the result: a number, its -y path, an error name
    std::size_t resultEnd = after.find(' ');
    const std::string_view resultText = after.substr(0, resultEnd);
    const StraceDescriptor result = descriptor(resultText);
    std::int32_t error = 0;
    if (resultText == "-1" && resultEnd != std::string_view::npos) {
        const std::string_view errorText = trim(after.substr(resultEnd));
        error = errnoOf(errorText.substr(0, errorText.find(' ')));
    }
    m_anyCall = true;

    StraceProcess& process = processOf(tid, atNs);
    TraceEvent event;
    event.tid = tid;
    event.error = error;
    event.result = resultText == "?" ? 0 : result.fd;
    event.startNs = atNs;
    event.endNs = atNs + insideNs;
    event.insideNs = insideNs;
    const auto arg = [&](std::size_t i) {
        return i < args.size() ? args[i] : std::string_view();
    };
    const auto number = [&](std::size_t i) {
        return integer(arg(i)).value_or(-1);
    };
    const auto onDescriptor = [&](Call kind, std::size_t fdArg) {
        StraceDescriptor d = descriptor(arg(fdArg));
        if (!d.decorated && d.fd >= 0 && error == 0 &&
            m_result.decorated) { // strace decorates open ones only
            m_result.decorated = false;
            m_undecorated = fmt::format("line {}: {}", m_lineNumber, text.substr(0, 120));
        }
        event.call = kind;
        event.handle = static_cast<std::uint64_t>(d.fd);
        // A descriptor never seen opened, with its path from -y: opened before strace started (inherited).
        if (d.fd >= 0 && !d.path.empty() && !m_seenFds.contains({process.pid, d.fd})) {
            m_seenFds.insert({process.pid, d.fd});
            TraceEvent open;
            open.call = Call::Open;
            open.tid = tid;
            open.flags = trace::OpenInherited | trace::OpenRead | trace::OpenWrite;
            open.handle = static_cast<std::uint64_t>(d.fd);
            open.result = d.fd;
            open.path = d.path;
            open.startNs = open.endNs = atNs;
            process.part->add(open);
        }
        return d;
    };
    const auto put = [&] {
        ++m_result.calls;
        process.part->add(event);
    };

    if (name == "open" || name == "openat" || name == "creat" || name == "openat2") {
        const std::size_t pathArg = name == "openat" || name == "openat2" ? 1 : 0;
        const StraceDescriptor base =
            name == "openat" || name == "openat2" ? descriptor(arg(0)) : StraceDescriptor{-100, {}, false};
        const std::string asked = unquote(arg(pathArg));
        event.call = Call::Open;
        event.flags = name == "creat" ? (trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate)
                                      : openFlagsOf(arg(pathArg + 1));
        if (error == 0 && result.fd >= 0) {
            event.handle = static_cast<std::uint64_t>(result.fd);
            m_seenFds.insert({process.pid, result.fd});
            if (!result.path.empty()) {
                learnCwd(process, asked, result.path);
                event.path = result.path;
            } else {
                m_result.decorated = false;
                event.path = absolute(process, base, asked);
            }
        } else {
            event.handle = static_cast<std::uint64_t>(-1);
            event.path = absolute(process, base, asked);
        }
        put();
    } else if (name == "close") {
        const StraceDescriptor d = onDescriptor(Call::Close, 0);
        m_seenFds.erase({process.pid, d.fd});
        put();
    } else if (name == "write" || name == "read") {
        onDescriptor(name == "write" ? Call::Write : Call::Read, 0);
        event.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(number(2), 0));
        put();
    } else if (name == "pwrite64" || name == "pread64" || name == "pwrite" || name == "pread") {
        onDescriptor(name.starts_with("pwrite") ? Call::PWrite : Call::PRead, 0);
        event.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(number(2), 0));
        event.offset = number(3);
        put();
    } else if (name == "writev" || name == "readv") {
        onDescriptor(name == "writev" ? Call::WriteV : Call::ReadV, 0);
        event.bytes = iovecBytes(arg(1));
        event.flags = static_cast<std::uint32_t>(std::max<std::int64_t>(number(2), 0));
        put();
    } else if (name == "pwritev" || name == "pwritev2" || name == "preadv" || name == "preadv2") {
        onDescriptor(name.starts_with("pwrite") ? Call::PWriteV : Call::PReadV, 0);
        event.bytes = iovecBytes(arg(1));
        event.offset = number(3);
        event.flags = name.ends_with("2") ? writeFlagsOf(arg(4)) : 0;
        put();
    } else if (name == "lseek") {
        onDescriptor(Call::Seek, 0);
        event.offset = number(1);
        const std::string_view whence = arg(2);
        event.flags = whence == "SEEK_CUR"    ? 1
                      : whence == "SEEK_END"  ? 2
                      : whence == "SEEK_DATA" ? 3
                      : whence == "SEEK_HOLE" ? 4
                                              : 0;
        put();
    } else if (name == "fsync" || name == "fdatasync" || name == "syncfs") {
        onDescriptor(name == "fsync" ? Call::Fsync : name == "fdatasync" ? Call::Fdatasync : Call::Syncfs, 0);
        put();
    } else if (name == "sync") {
        event.call = Call::Sync;
        put();
    } else if (name == "sync_file_range" || name == "sync_file_range2") {
        onDescriptor(Call::SyncFileRange, 0);
        event.offset = number(1);
        event.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(number(2), 0));
        const auto names = flagNames(arg(3));
        event.flags = (names.contains("SYNC_FILE_RANGE_WAIT_BEFORE") ? 1u : 0u) |
                      (names.contains("SYNC_FILE_RANGE_WRITE") ? 2u : 0u) |
                      (names.contains("SYNC_FILE_RANGE_WAIT_AFTER") ? 4u : 0u);
        put();
    } else if (name == "fallocate") {
        onDescriptor(Call::Fallocate, 0);
        const auto mode = integer(arg(1));
        event.flags = mode ? static_cast<std::uint32_t>(*mode) : 1u; // a named mode (KEEP_SIZE, ...) is not 0
        event.offset = number(2);
        event.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(number(3), 0));
        put();
    } else if (name == "ftruncate") {
        onDescriptor(Call::Ftruncate, 0);
        event.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(number(1), 0));
        put();
    } else if (name == "mmap") {
        const StraceDescriptor d = descriptor(arg(4));
        if (d.fd < 0) {
            ++m_result.otherCalls; // memory, not a file
            return;
        }
        onDescriptor(Call::Mmap, 4);
        event.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(number(1), 0));
        event.offset = number(5);
        const auto protection = flagNames(arg(2));
        const auto flags = flagNames(arg(3));
        event.flags =
            (flags.contains("MAP_SHARED") || flags.contains("MAP_SHARED_VALIDATE") ? trace::MapShared : 0u) |
            (protection.contains("PROT_WRITE") ? trace::MapWrite : 0u) |
            (protection.contains("PROT_READ") ? trace::MapRead : 0u);
        if (error == 0)
            process.mappings.push_back({static_cast<std::uint64_t>(event.result), event.bytes});
        put();
    } else if (name == "msync" || name == "munmap") {
        const auto address = static_cast<std::uint64_t>(number(0));
        const auto mapping =
            std::find_if(process.mappings.begin(), process.mappings.end(), [&](const FileMapping& m) {
                return address >= m.address && address < m.address + m.bytes;
            });
        if (mapping == process.mappings.end()) {
            ++m_result.otherCalls;
            return;
        }
        event.call = name == "msync" ? Call::Msync : Call::Munmap;
        event.handle = address;
        event.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(number(1), 0));
        if (name == "msync") {
            const auto flags = flagNames(arg(2));
            event.flags = (flags.contains("MS_SYNC") ? trace::MapSyncWait : 0u) |
                          (flags.contains("MS_ASYNC") ? trace::MapSyncAsync : 0u) |
                          (flags.contains("MS_INVALIDATE") ? trace::MapInvalidate : 0u);
        } else if (address == mapping->address && event.bytes >= mapping->bytes) {
            process.mappings.erase(mapping);
        }
        put();
    } else if (name == "rename" || name == "renameat" || name == "renameat2") {
        const bool at = name != "rename";
        const StraceDescriptor fromBase = at ? descriptor(arg(0)) : StraceDescriptor{-100, {}, false};
        const StraceDescriptor toBase = at ? descriptor(arg(2)) : StraceDescriptor{-100, {}, false};
        event.call = Call::Rename;
        event.path = absolute(process, fromBase, unquote(arg(at ? 1 : 0)));
        event.path2 = absolute(process, toBase, unquote(arg(at ? 3 : 1)));
        put();
    } else if (name == "unlink" || name == "unlinkat") {
        const bool at = name == "unlinkat";
        if (at && flagNames(arg(2)).contains("AT_REMOVEDIR")) {
            ++m_result.otherCalls;
            return;
        }
        event.call = Call::Unlink;
        event.path = absolute(process, at ? descriptor(arg(0)) : StraceDescriptor{-100, {}, false},
                              unquote(arg(at ? 1 : 0)));
        put();
    } else if (name == "chdir" || name == "fchdir") {
        if (error == 0) {
            if (name == "chdir")
                process.cwd = absolute(process, StraceDescriptor{-100, {}, false}, unquote(arg(0)));
            else if (const StraceDescriptor d = descriptor(arg(0)); !d.path.empty())
                process.cwd = d.path;
        }
        ++m_result.otherCalls;
    } else if (name == "dup" || name == "dup2" || name == "dup3") {
        onDescriptor(Call::Dup, 0);
        if (error == 0 && result.fd >= 0)
            m_seenFds.insert({process.pid, result.fd});
        put();
    } else if (name == "fcntl" || name == "fcntl64") {
        const std::string_view command = arg(1);
        if (command.starts_with("F_DUPFD")) {
            onDescriptor(Call::Dup, 0);
            if (error == 0 && result.fd >= 0)
                m_seenFds.insert({process.pid, result.fd});
            put();
        } else if (command == "F_SETFL") {
            onDescriptor(Call::SetFlags, 0);
            event.flags = openFlagsOf(arg(2)) & ~(trace::OpenRead | trace::OpenWrite);
            put();
        } else {
            ++m_result.otherCalls;
        }
    } else if (name == "copy_file_range") {
        onDescriptor(Call::CopyFileRange, 2);
        event.flags = static_cast<std::uint32_t>(descriptor(arg(0)).fd);
        event.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(number(4), 0));
        put();
    } else if (name == "sendfile" || name == "sendfile64") {
        onDescriptor(Call::SendFile, 0);
        event.flags = static_cast<std::uint32_t>(descriptor(arg(1)).fd);
        event.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(number(3), 0));
        put();
    } else if (name == "execve" || name == "execveat") {
        const bool at = name == "execveat";
        const std::string program = absolute(
            process, at ? descriptor(arg(0)) : StraceDescriptor{-100, {}, false}, unquote(arg(at ? 1 : 0)));
        event.call = Call::Exec;
        event.path = program;
        event.result = error == 0 ? 0 : -1;
        put();
        if (error == 0) {
            std::vector<std::string> arguments;
            std::string_view list = arg(at ? 2 : 1);
            if (list.starts_with("[") && list.ends_with("]")) {
                std::size_t ignored = 0;
                const std::string inner = std::string(list.substr(1, list.size() - 2)) + ")";
                for (const std::string_view item : splitArguments(inner, ignored)) {
                    if (!item.empty() && item.front() == '"')
                        arguments.push_back(unquote(item));
                }
            }
            process.part->program(tid, program, arguments, process.cwd);
            process.named = true;
        }
    } else if (name == "clone" || name == "clone3" || name == "fork" || name == "vfork") {
        if (error != 0 || result.fd <= 0) {
            ++m_result.otherCalls;
            return;
        }
        const auto child = static_cast<std::uint32_t>(result.fd);
        const bool thread = text.find("CLONE_THREAD") != std::string_view::npos;
        if (thread) {
            m_threadsToCome[child] = process.pid;
            if (const auto early = m_threadOwner.find(child); early == m_threadOwner.end())
                m_threadOwner[child] = &process;
            ++m_result.otherCalls;
        } else {
            m_childrenToCome[child] = process.pid;
            event.call = Call::Fork;
            event.result = child;
            put();
        }
    } else if (name == "io_uring_setup") {
        process.part->note(tid, trace::NoteKind::IoUring, 1, atNs, "io_uring_setup");
        ++m_result.otherCalls;
    } else {
        ++m_result.otherCalls;
    }
}

StraceImport Importer::finish()
{
    if (!m_anyCall)
        throw InputError(fmt::format(
            "{} is not strace's output: none of its {} lines is a system call as strace prints one (record "
            "with: {})",
            m_source, m_result.lines, kStraceCommand));
    for (auto& [pid, process] : m_processes) {
        process->part->note(pid, trace::NoteKind::Imported, 1, m_firstNs == UINT64_MAX ? 0 : m_firstNs,
                            "strace");
        process->part->finish();
    }
    m_result.processes = m_processes.size();
    for (const auto& [tid, text] : m_unfinished) {
        (void)text;
        ++m_result.unreadLines; // a call that never came back (the log ends inside it)
    }
    if (!m_result.stamped)
        m_result.warnings.emplace_back("the log has no time of day on some lines (strace ran without -tt): "
                                       "their calls are placed in the "
                                       "log's order, a microsecond apart");
    if (!m_result.timed)
        m_result.warnings.emplace_back(
            "some calls have no duration (strace ran without -T): the time inside them counts as 0");
    if (!m_result.decorated)
        m_result.warnings.emplace_back(fmt::format(
            "descriptors carry no paths (strace ran without -y): a descriptor opened before strace "
            "started has no file ({})",
            m_undecorated));
    if (m_result.unreadLines > 0)
        m_result.warnings.push_back(fmt::format("{} of {} lines were not system calls IOLab could read",
                                                m_result.unreadLines, m_result.lines));
    return m_result;
}

} // namespace

StraceImport importStrace(std::istream& in, const std::string& sourceName,
                          const std::function<std::ostream&(std::size_t)>& openPart)
{
    Importer importer(sourceName, openPart);
    std::string text;
    while (std::getline(in, text))
        importer.line(text);
    return importer.finish();
}

} // namespace iolab
