// SPDX-License-Identifier: MIT
#include "core/formats/result_redact.h"

#include "core/formats/result_json.h"
#include "core/model/axes.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace iolab {

namespace {

// The placeholders of one kind: the same value gets the same one, in the order they are first met.
class Placeholders
{
public:
    explicit Placeholders(std::string kind) : m_kind(std::move(kind)) {}
    const std::string& operator()(const std::string& value)
    {
        auto [it, added] = m_names.try_emplace(value);
        if (added)
            it->second = fmt::format("{}-{}", m_kind, m_names.size());
        return it->second;
    }

private:
    std::string m_kind;
    std::map<std::string, std::string> m_names;
};

// A character that can be part of a host name: a name is replaced only where it stands alone ("vm" in
// "on vm:" but not in "vmsplice" or "vm.dirty_ratio").
bool inName(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
}

void replaceWord(std::string& text, const std::string& word, const std::string& by)
{
    if (word.empty())
        return;
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at)) {
        const bool before = at > 0 && inName(text[at - 1]);
        const bool after = at + word.size() < text.size() && inName(text[at + word.size()]);
        if (before || after) {
            at += word.size();
            continue;
        }
        text.replace(at, word.size(), by);
        at += by.size();
    }
}

void replaceAll(std::string& text, const std::string& what, const std::string& by)
{
    if (what.empty())
        return;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + by.size()))
        text.replace(at, what.size(), by);
}

// A path worth hiding: not the root, and not a bare name.
bool namesSomething(const std::string& path)
{
    return path.size() > 1 && path != "/" &&
           (path.find('/') != std::string::npos || path.find('\\') != std::string::npos);
}

class Redactor
{
public:
    explicit Redactor(const RunResult& result)
    {
        m_host = result.host.hostname;
        addPath(result.target.path);
        // A trace's file name, which the matrix's name and the advice quote, goes with its path.
        for (const auto& c : result.cases)
            for (const auto& trace : c.testCase.extraAxes)
                if (trace.first == "replay")
                    addTrace(trace.second);
        for (const auto& group : result.matrix.groups)
            if (const auto it = group.extraAxes.find("replay"); it != group.extraAxes.end())
                for (const auto& trace : it->second)
                    addTrace(trace);
        for (const auto& section : result.system.sections)
            for (const auto& fact : section.facts) {
                if (fact.id == "loop.backing")
                    addPath(fact.value);
                if (isSerial(fact.id) && !fact.value.empty())
                    m_serialValues.push_back(fact.value);
            }
        // The longest first: a path inside another is replaced as part of it.
        std::sort(m_paths.begin(), m_paths.end(),
                  [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    }

    std::string operator()(std::string text)
    {
        for (const auto& path : m_paths)
            replaceAll(text, path, m_path(path));
        for (const auto& [name, path] : m_traceNames)
            replaceAll(text, name, m_path(path));
        for (const auto& serial : m_serialValues)
            replaceAll(text, serial, m_serial(serial));
        text = replaceMatches(text, m_homeFolder, [this](const std::smatch& m) {
            const std::string rest = m[3].str();
            return m[1].str() + m_user(m[2].str()) +
                   (rest.size() > 1 ? rest.substr(0, 1) + m_path(rest) : rest);
        });
        text = replaceMatches(text, m_mac, [this](const std::smatch& m) {
            std::string mac = m[0].str();
            std::transform(mac.begin(), mac.end(), mac.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            return m_macs(mac);
        });
        replaceWord(text, m_host, "host-1");
        return text;
    }

    void walk(nlohmann::json& j)
    {
        if (j.is_string())
            j = (*this)(j.get<std::string>());
        else if (j.is_array() || j.is_object())
            for (auto& child : j)
                walk(child);
    }

private:
    static bool isSerial(const std::string& id)
    {
        return id.find("serial") != std::string::npos || id.find("wwn") != std::string::npos ||
               id.find("uuid") != std::string::npos;
    }

    void addTrace(const std::string& path)
    {
        addPath(path);
        const std::size_t slash = path.find_last_of("/\\");
        if (slash != std::string::npos && slash + 1 < path.size())
            m_traceNames.emplace(path.substr(slash + 1), path);
    }

    // Numbered as met here (the target first), not as the JSON's keys come.
    void addPath(const std::string& path)
    {
        if (namesSomething(path) && std::find(m_paths.begin(), m_paths.end(), path) == m_paths.end()) {
            m_paths.push_back(path);
            m_path(path);
        }
    }

    template <typename Replace>
    static std::string replaceMatches(const std::string& text, const std::regex& pattern, Replace replace)
    {
        std::string out;
        auto from = text.cbegin();
        for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) {
            out.append(from, (*it)[0].first);
            out += replace(*it);
            from = (*it)[0].second;
        }
        out.append(from, text.cend());
        return out;
    }

    std::string m_host;
    std::vector<std::string> m_paths;
    std::vector<std::string> m_serialValues;
    std::map<std::string, std::string> m_traceNames; // a trace's file name, and its path
    Placeholders m_path{"path"};
    Placeholders m_user{"user"};
    Placeholders m_serial{"serial"};
    Placeholders m_macs{"mac"};
    // A home folder's user, /home/NAME, /Users/NAME or C:\Users\NAME (NAME up to the next separator), and
    // the rest of the path in it, which names the user's own folders.
    const std::regex m_homeFolder{
        R"((/home/|/Users/|[A-Za-z]:\\Users\\)([^/\\\s"'<>:;,]+)([/\\][^\s"'<>;,]*)?)"};
    const std::regex m_mac{R"(\b[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}\b)"};
};

} // namespace

RunResult redactResult(const RunResult& result)
{
    Redactor redact(result);
    nlohmann::json j = resultToJson(result);
    redact.walk(j);
    RunResult redacted = resultFromJson(j.dump(), "the redacted result");
    redacted.redacted = true;
    if (redacted.warnings.empty() || redacted.warnings.front() != kRedactedNotice)
        redacted.warnings.insert(redacted.warnings.begin(), kRedactedNotice);
    return redacted;
}

} // namespace iolab
