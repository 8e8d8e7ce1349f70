// SPDX-License-Identifier: MIT
#include "core/formats/matrix_json.h"

#include "core/base/error.h"
#include "core/base/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include <set>

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

std::string valueText(const json& value)
{
    return value.is_string() ? value.get<std::string>() : value.dump();
}

template <class T, class Convert>
std::vector<T> readAxis(const json& group, const char* key, const std::string& where, Convert&& convert)
{
    std::vector<T> values;
    const auto it = group.find(key);
    if (it == group.end() || it->is_null())
        return values;
    const json list = it->is_array() ? *it : json::array({*it});
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = fmt::format("{}.{}[{}]", where, key, i);
        try {
            values.push_back(convert(list[i], at));
        } catch (const InputError& e) {
            throw InputError(fmt::format("{}: {}", at, e.what()));
        }
    }
    return values;
}

std::uint64_t sizeValue(const json& v, const std::string& at)
{
    if (v.is_number_unsigned())
        return v.get<std::uint64_t>();
    if (v.is_number_integer() && v.get<std::int64_t>() < 0)
        throw InputError(fmt::format("{} is negative; sizes must be positive", v.dump()));
    if (v.is_string())
        return parseBytes(v.get<std::string>(), at);
    throw InputError(
        fmt::format("{} is not a size (a number of bytes or a string such as \"4K\")", v.dump()));
}

std::string stringValue(const json& v, const std::string&)
{
    if (!v.is_string())
        throw InputError(fmt::format("{} is not a string", v.dump()));
    return v.get<std::string>();
}

MatrixGroup groupFromJson(const json& group, const std::string& where)
{
    if (!group.is_object())
        throw InputError(fmt::format("{}: expected an object with axes, found {}", where, group.type_name()));
    static const std::set<std::string> kKnown{"strategies", "chunks",  "sizes",      "buffers",
                                              "syncs",      "threads", "targets",    "hints",
                                              "caches",     "files",   "preallocate"};
    for (const auto& [key, value] : group.items()) {
        if (!kKnown.contains(key) && key != "name" && key != "description" && key != "question" &&
            key != "groups" && key != "schema")
            throw InputError(fmt::format("{}: unknown key '{}' (axes are strategies, chunks, sizes, buffers, "
                                         "syncs, threads, targets, hints, caches, files, preallocate)",
                                         where, key));
    }
    MatrixGroup g;
    g.strategies = readAxis<std::string>(group, "strategies", where, stringValue);
    g.chunks = readAxis<std::uint64_t>(group, "chunks", where, sizeValue);
    g.sizes = readAxis<std::uint64_t>(group, "sizes", where, sizeValue);
    g.buffers = readAxis<StdioBuffer>(group, "buffers", where, [](const json& v, const std::string& at) {
        if (v.is_number_unsigned())
            return StdioBuffer{BufferMode::Bytes, v.get<std::uint64_t>()};
        return parseStdioBuffer(stringValue(v, at));
    });
    g.syncs = readAxis<SyncPolicy>(group, "syncs", where, [](const json& v, const std::string& at) {
        return parseSyncPolicy(stringValue(v, at));
    });
    g.threads = readAxis<std::uint32_t>(group, "threads", where, [](const json& v, const std::string&) {
        if (!v.is_number_integer())
            throw InputError(fmt::format("{} is not a thread count", valueText(v)));
        const auto n = v.get<std::int64_t>();
        if (n < 1 || n > kMaxThreads)
            throw InputError(fmt::format("{} threads is outside the allowed range 1 to {}", n, kMaxThreads));
        return static_cast<std::uint32_t>(n);
    });
    g.targets = readAxis<TargetKind>(group, "targets", where, [](const json& v, const std::string& at) {
        return parseTargetKind(stringValue(v, at));
    });
    g.hints = readAxis<ReadHint>(group, "hints", where, [](const json& v, const std::string& at) {
        return parseReadHint(stringValue(v, at));
    });
    g.caches = readAxis<CacheState>(group, "caches", where, [](const json& v, const std::string& at) {
        return parseCacheState(stringValue(v, at));
    });
    g.fileSets = readAxis<FileSetSpec>(group, "files", where, [](const json& v, const std::string& at) {
        return parseFileSet(stringValue(v, at));
    });
    g.preallocations =
        readAxis<Preallocate>(group, "preallocate", where, [](const json& v, const std::string& at) {
            return parsePreallocate(stringValue(v, at));
        });
    return g;
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
        j["strategies"] = g.strategies;
        json chunks = json::array();
        for (auto c : g.chunks)
            chunks.push_back(formatBytesCompact(c));
        j["chunks"] = chunks;
        if (!g.sizes.empty() || g.fileSets.empty()) {
            json sizes = json::array();
            for (auto s : g.sizes)
                sizes.push_back(formatBytesCompact(s));
            j["sizes"] = sizes;
        }
        if (!g.buffers.empty()) {
            json buffers = json::array();
            for (const auto& b : g.buffers)
                buffers.push_back(toString(b));
            j["buffers"] = buffers;
        }
        if (!g.syncs.empty()) {
            json syncs = json::array();
            for (const auto& s : g.syncs)
                syncs.push_back(toString(s));
            j["syncs"] = syncs;
        }
        if (!g.threads.empty())
            j["threads"] = g.threads;
        if (!g.targets.empty()) {
            json targets = json::array();
            for (auto t : g.targets)
                targets.push_back(toString(t));
            j["targets"] = targets;
        }
        const auto list = [&j](const char* key, const auto& values) {
            if (values.empty())
                return;
            json texts = json::array();
            for (const auto& v : values)
                texts.push_back(toString(v));
            j[key] = texts;
        };
        list("hints", g.hints);
        list("caches", g.caches);
        list("files", g.fileSets);
        list("preallocate", g.preallocations);
        groups.push_back(std::move(j));
    }
    json root = json::object();
    if (!matrix.name.empty())
        root["name"] = matrix.name;
    if (!matrix.description.empty())
        root["description"] = matrix.description;
    if (!matrix.question.empty())
        root["question"] = matrix.question;
    root["groups"] = std::move(groups);
    return root;
}

} // namespace iolab
