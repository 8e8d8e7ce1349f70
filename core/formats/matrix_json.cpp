// SPDX-License-Identifier: MIT
#include "core/formats/matrix_json.h"

#include "core/base/error.h"
#include "core/base/units.h"
#include "core/model/axes.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace iolab {

namespace {

using nlohmann::json;

std::pair<std::size_t, std::size_t> lineAndColumn(std::string_view text, std::size_t byteOffset)
{
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i < text.size() && i + 1 < byteOffset; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return {line, column};
}

// One value of an axis as the text its declaration parses: a string as is, a number in decimal.
std::string axisValueText(const AxisSpec& axis, const json& v)
{
    if (v.is_string())
        return v.get<std::string>();
    if (axis.kind == AxisValueKind::Bytes) {
        if (v.is_number_unsigned())
            return std::to_string(v.get<std::uint64_t>());
        if (v.is_number_integer() && v.get<std::int64_t>() < 0)
            throw InputError(fmt::format("{} is negative; sizes must be positive", v.dump()));
        throw InputError(
            fmt::format("{} is not a size (a number of bytes or a string such as \"4K\")", v.dump()));
    }
    if (v.is_number_integer()) // a count, or a size in bytes for an axis that takes one ("buffers": [4096])
        return v.dump();
    throw InputError(
        fmt::format("{} is not {}", v.dump(),
                    axis.kind == AxisValueKind::Count ? "a " + axis.name : std::string("a string")));
}

std::string knownAxesText()
{
    std::string list;
    for (const auto& axis : caseAxes()) {
        if (axis.matrixKey.empty())
            continue;
        list += list.empty() ? axis.matrixKey : ", " + axis.matrixKey;
    }
    return list;
}

MatrixGroup groupFromJson(const json& group, const std::string& where)
{
    if (!group.is_object())
        throw InputError(fmt::format("{}: expected an object with axes, found {}", where, group.type_name()));
    for (const auto& [key, value] : group.items()) {
        if (findAxisByMatrixKey(key) == nullptr && key != "name" && key != "description" &&
            key != "question" && key != "repetitions" && key != "crashProbe" && key != "crashProbeAt" &&
            key != "alternate" && key != "latencyTarget" && key != "groups" && key != "schema" &&
            key != "overridden")
            throw InputError(fmt::format("{}: unknown key '{}' (axes are {})", where, key, knownAxesText()));
    }
    MatrixGroup g;
    for (const auto& axis : caseAxes()) {
        if (axis.matrixKey.empty())
            continue;
        const auto it = group.find(axis.matrixKey);
        if (it == group.end() || it->is_null())
            continue;
        const json list = it->is_array() ? *it : json::array({*it});
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string at = fmt::format("{}.{}[{}]", where, axis.matrixKey, i);
            try {
                const bool sizes = axis.kind == AxisValueKind::Bytes;
                axis.addGroupValue(g, axisValueText(axis, list[i]), sizes ? std::string_view(at) : "");
            } catch (const InputError& e) {
                throw InputError(fmt::format("{}: {}", at, e.what()));
            }
        }
    }
    return g;
}

// "overridden": what a run set for every case over the preset (written into a result's matrix).
CaseOverrides overridesFromJson(const json& o, const std::string& source)
{
    const std::string where = source + ": \"overridden\"";
    if (!o.is_object())
        throw InputError(fmt::format("{} must be an object, found {}", where, o.type_name()));
    CaseOverrides out;
    const auto strings = [&](const char* key) {
        std::vector<std::string> texts;
        if (const auto it = o.find(key); it != o.end()) {
            if (!it->is_array() ||
                !std::all_of(it->begin(), it->end(), [](const json& v) { return v.is_string(); }))
                throw InputError(fmt::format("{}.{} must be a list of strings", where, key));
            for (const auto& v : *it)
                texts.push_back(v.get<std::string>());
        }
        return texts;
    };
    for (const auto& size : strings("sizes"))
        out.sizes.push_back(parseBytes(size, fmt::format("{}.sizes", where)));
    for (const auto& limit : strings("timeLimits"))
        out.timeLimitsMs.push_back(
            limit == "none" ? 0 : parseTimeLimitMs(limit, fmt::format("{}.timeLimits", where)));
    if (const auto it = o.find("repetitions"); it != o.end()) {
        if (!it->is_number_unsigned() || it->get<std::uint64_t>() < 1 ||
            it->get<std::uint64_t>() > kMaxRepetitions)
            throw InputError(fmt::format("{}.repetitions must be a whole number from 1 to {}, found {}",
                                         where, kMaxRepetitions, it->dump()));
        out.repetitions = it->get<std::uint32_t>();
    }
    out.untouched = strings("untouched");
    return out;
}

} // namespace

Matrix matrixFromJson(const json& root, std::string_view sourceName)
{
    const std::string source(sourceName);
    if (!root.is_object())
        throw InputError(
            fmt::format("{}: a matrix must be a JSON object, found {}", source, root.type_name()));
    Matrix m;
    if (auto it = root.find("name"); it != root.end() && it->is_string())
        m.name = it->get<std::string>();
    if (auto it = root.find("description"); it != root.end() && it->is_string())
        m.description = it->get<std::string>();
    if (auto it = root.find("question"); it != root.end()) {
        if (!it->is_string())
            throw InputError(
                fmt::format("{}: \"question\" must be a string, found {}", source, it->type_name()));
        m.question = it->get<std::string>();
    }
    if (auto it = root.find("repetitions"); it != root.end()) {
        if (!it->is_number_unsigned() || it->get<std::uint64_t>() < 1 ||
            it->get<std::uint64_t>() > kMaxRepetitions)
            throw InputError(fmt::format("{}: \"repetitions\" must be a whole number from 1 to {}, found {}",
                                         source, kMaxRepetitions, it->dump()));
        m.repetitions = it->get<std::uint32_t>();
    }
    if (auto it = root.find("crashProbe"); it != root.end()) {
        if (!it->is_number_unsigned() || it->get<std::uint64_t>() > kMaxCrashProbeKills)
            throw InputError(
                fmt::format("{}: \"crashProbe\" must be a whole number from 0 to {} (kills per write "
                            "case), found {}",
                            source, kMaxCrashProbeKills, it->dump()));
        if (it->get<std::uint64_t>() > 0)
            m.crashProbe = it->get<std::uint32_t>();
    }
    if (auto it = root.find("overridden"); it != root.end())
        m.overridden = overridesFromJson(*it, source);
    if (auto it = root.find("crashProbeAt"); it != root.end()) {
        if (!it->is_string())
            throw InputError(fmt::format("{}: \"crashProbeAt\" must be \"ack\" or \"time\", found {}", source,
                                         it->dump()));
        try {
            m.crashProbeAt = parseCrashProbeAt(it->get<std::string>());
        } catch (const InputError& e) {
            throw InputError(fmt::format("{}: \"crashProbeAt\": {}", source, e.what()));
        }
    }
    if (auto it = root.find("alternate"); it != root.end()) {
        if (!it->is_boolean())
            throw InputError(
                fmt::format("{}: \"alternate\" must be true (the cases take turns, a round of one "
                            "repetition of each) or false, found {}",
                            source, it->dump()));
        m.alternate = it->get<bool>();
    }
    if (auto it = root.find("latencyTarget"); it != root.end()) {
        if (!it->is_string())
            throw InputError(fmt::format(
                "{}: \"latencyTarget\" must be a string such as \"1ms@p99\", found {}", source, it->dump()));
        try {
            m.latencyTarget = parseLatencyTarget(it->get<std::string>());
        } catch (const InputError& e) {
            throw InputError(fmt::format("{}: \"latencyTarget\": {}", source, e.what()));
        }
    }
    if (auto it = root.find("groups"); it != root.end()) {
        if (!it->is_array())
            throw InputError(fmt::format("{}: \"groups\" must be an array of objects", source));
        for (std::size_t i = 0; i < it->size(); ++i)
            m.groups.push_back(groupFromJson((*it)[i], fmt::format("{}: groups[{}]", source, i)));
    } else {
        m.groups.push_back(groupFromJson(root, source));
    }
    return m;
}

std::string jsonSyntaxError(std::string_view text, std::size_t byte, std::string_view parserMessage,
                            std::string_view sourceName)
{
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return fmt::format("{}: not valid JSON: the file is empty", sourceName);
    // The parser's text after " - " holds its cause in parts separated by "; ": "unexpected ':'", "expected
    // ']'", "invalid literal", "last read: '...'". Its bracketed code and position are left out.
    std::string expected;
    std::string cause;
    const bool ended = parserMessage.find("end of input") != std::string_view::npos;
    if (const auto dash = parserMessage.find(" - "); dash != std::string_view::npos) {
        std::string_view rest = parserMessage.substr(dash + 3);
        while (!rest.empty()) {
            const auto semicolon = rest.find("; ");
            const std::string_view part = rest.substr(0, semicolon);
            rest = semicolon == std::string_view::npos ? std::string_view() : rest.substr(semicolon + 2);
            if (part.starts_with("expected "))
                expected = fmt::format("; {}", part);
            else if (!part.starts_with("unexpected") && !part.starts_with("last read") &&
                     part.find('[') == std::string_view::npos)
                cause = fmt::format(" ({})", part);
        }
    }
    if (ended) {
        const auto [line, column] = lineAndColumn(text, text.size() + 2); // just after the last byte
        return fmt::format(
            "{}: not valid JSON: the text ends at line {}, column {} before the JSON is complete "
            "(is the file cut short?){}",
            sourceName, line, column, expected);
    }
    const auto [line, column] = lineAndColumn(text, byte);
    const auto c =
        static_cast<unsigned char>(text[std::min(text.size(), std::max<std::size_t>(byte, 1)) - 1]);
    const std::string what = c >= 0x20 && c < 0x7f
                                 ? fmt::format("unexpected character '{}'", static_cast<char>(c))
                                 : fmt::format("unexpected byte 0x{:02X}", c);
    return fmt::format("{}: not valid JSON at line {}, column {} (byte {}): {}{}{}", sourceName, line, column,
                       byte, what, cause, expected);
}

json parseJsonDocument(std::string_view text, std::string_view sourceName)
{
    std::size_t depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (++depth > kMaxJsonNesting) {
                const auto [line, column] = lineAndColumn(text, i + 1);
                throw InputError(fmt::format("{}: the JSON is nested deeper than {} levels (at line {}, "
                                             "column {}); IOLab's files nest only a few levels",
                                             sourceName, kMaxJsonNesting, line, column));
            }
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
    }
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        throw InputError(jsonSyntaxError(text, e.byte, e.what(), sourceName));
    }
}

Matrix parseMatrixJson(std::string_view text, std::string_view sourceName)
{
    return matrixFromJson(parseJsonDocument(text, sourceName), sourceName);
}

json matrixToJson(const Matrix& matrix)
{
    json groups = json::array();
    for (const auto& g : matrix.groups) {
        json j = json::object();
        for (const auto& axis : caseAxes()) {
            if (axis.matrixKey.empty())
                continue;
            const auto values = axis.groupValues(g);
            if (values.empty() && !(axis.writeEmptyList && axis.writeEmptyList(g)))
                continue;
            json list = json::array();
            for (const auto& v : values) {
                if (axis.kind == AxisValueKind::Count)
                    list.push_back(std::stoull(v));
                else
                    list.push_back(v);
            }
            j[axis.matrixKey] = std::move(list);
        }
        groups.push_back(std::move(j));
    }
    json root = json::object();
    if (!matrix.name.empty())
        root["name"] = matrix.name;
    if (!matrix.description.empty())
        root["description"] = matrix.description;
    if (!matrix.question.empty())
        root["question"] = matrix.question;
    if (matrix.repetitions)
        root["repetitions"] = *matrix.repetitions;
    if (matrix.crashProbe)
        root["crashProbe"] = *matrix.crashProbe;
    if (const CaseOverrides& o = matrix.overridden; o.any()) {
        json overridden{{"text", overridesText(matrix)}};
        if (!o.sizes.empty()) {
            overridden["sizes"] = json::array();
            for (const std::uint64_t size : o.sizes)
                overridden["sizes"].push_back(formatBytesCompact(size));
        }
        if (!o.timeLimitsMs.empty()) {
            overridden["timeLimits"] = json::array();
            for (const std::uint64_t ms : o.timeLimitsMs)
                overridden["timeLimits"].push_back(ms == 0 ? std::string("none") : formatTimeLimitMs(ms));
        }
        if (o.repetitions)
            overridden["repetitions"] = *o.repetitions;
        if (!o.untouched.empty())
            overridden["untouched"] = o.untouched;
        root["overridden"] = std::move(overridden);
    }
    if (matrix.crashProbeAt)
        root["crashProbeAt"] = toString(*matrix.crashProbeAt);
    if (matrix.alternate)
        root["alternate"] = *matrix.alternate;
    if (matrix.latencyTarget)
        root["latencyTarget"] = toString(*matrix.latencyTarget);
    root["groups"] = std::move(groups);
    return root;
}

} // namespace iolab
