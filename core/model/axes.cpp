// SPDX-License-Identifier: MIT
#include "core/model/axes.h"

#include "core/base/error.h"
#include "core/base/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace iolab {

namespace {

template <class T> std::vector<std::string> texts(const std::vector<T>& values)
{
    std::vector<std::string> out;
    out.reserve(values.size());
    for (const auto& v : values)
        out.push_back(toString(v));
    return out;
}

std::vector<std::string> byteTexts(const std::vector<std::uint64_t>& values)
{
    std::vector<std::string> out;
    out.reserve(values.size());
    for (auto v : values)
        out.push_back(formatBytesCompact(v));
    return out;
}

std::uint32_t parseThreadCount(std::string_view text, std::string_view where)
{
    const std::string prefix = where.empty() ? std::string() : fmt::format("{}: ", where);
    std::uint64_t n = 0;
    try {
        std::size_t used = 0;
        n = std::stoull(std::string(text), &used);
        if (used != text.size() || text.front() == '-' || text.front() == '+')
            throw std::invalid_argument("trailing text");
    } catch (const std::exception&) {
        throw InputError(fmt::format("{}'{}' is not a whole number", prefix, text));
    }
    if (n == 0 || n > kMaxThreads) {
        if (where.empty())
            throw InputError(
                fmt::format("{} threads is outside the allowed range 1 to {}", text, kMaxThreads));
        throw InputError(fmt::format("{}{} is outside the allowed range 1 to {}", prefix, text, kMaxThreads));
    }
    return static_cast<std::uint32_t>(n);
}

// An axis that is a Case field of an enum-like type with toString/parse; "n/a" in files means NotApplicable.
template <class T> void parseOrNotApplicable(T& field, std::string_view text, T (*parse)(std::string_view))
{
    field = text == "n/a" ? T{} : parse(text);
}

std::vector<AxisSpec> builtinAxes()
{
    std::vector<AxisSpec> axes;
    {
        AxisSpec a;
        a.name = "strategy";
        a.matrixKey = "strategies";
        a.resultKey = "strategy";
        a.csvColumn = "strategy";
        a.cliFlag = "--strategy";
        a.help = "Strategies, comma separated";
        a.format = [](const Case& c) {
            return c.strategy;
        };
        a.parse = [](Case& c, std::string_view t) {
            c.strategy = std::string(t);
        };
        a.groupValues = [](const MatrixGroup& g) {
            return g.strategies;
        };
        a.addGroupValue = [](MatrixGroup& g, std::string_view t, std::string_view) {
            g.strategies.emplace_back(t);
        };
        a.writeEmptyList = [](const MatrixGroup&) {
            return true;
        };
        axes.push_back(std::move(a));
    }
    {
        // Not a matrix axis: each strategy has its direction.
        AxisSpec a;
        a.name = "direction";
        a.resultKey = "direction";
        a.csvColumn = "direction";
        a.format = [](const Case& c) {
            return toString(c.direction);
        };
        a.parse = [](Case& c, std::string_view t) {
            c.direction = parseDirection(t);
        };
        axes.push_back(std::move(a));
    }
    {
        AxisSpec a;
        a.name = "chunk size";
        a.matrixKey = "chunks";
        a.resultKey = "chunkBytes";
        a.csvColumn = "chunk_bytes";
        a.cliFlag = "--chunk";
        a.help = "Chunk sizes, e.g. 1,4K,1M";
        a.kind = AxisValueKind::Bytes;
        a.format = [](const Case& c) {
            return std::to_string(c.chunkBytes);
        };
        a.parse = [](Case& c, std::string_view t) {
            c.chunkBytes = parseBytes(t, "chunk size");
        };
        a.groupValues = [](const MatrixGroup& g) {
            return byteTexts(g.chunks);
        };
        a.addGroupValue = [](MatrixGroup& g, std::string_view t, std::string_view where) {
            g.chunks.push_back(parseBytes(t, where));
        };
        a.writeEmptyList = [](const MatrixGroup&) {
            return true;
        };
        axes.push_back(std::move(a));
    }
    {
        AxisSpec a;
        a.name = "total size";
        a.matrixKey = "sizes";
        a.resultKey = "totalBytes";
        a.csvColumn = "total_bytes";
        a.cliFlag = "--size";
        a.help = "Total bytes per case, e.g. 64M (overrides a preset's sizes)";
        a.kind = AxisValueKind::Bytes;
        a.format = [](const Case& c) {
            return std::to_string(c.totalBytes);
        };
        a.parse = [](Case& c, std::string_view t) {
            c.totalBytes = parseBytes(t, "total size");
        };
        a.groupValues = [](const MatrixGroup& g) {
            return byteTexts(g.sizes);
        };
        a.addGroupValue = [](MatrixGroup& g, std::string_view t, std::string_view where) {
            g.sizes.push_back(parseBytes(t, where));
        };
        a.writeEmptyList = [](const MatrixGroup& g) {
            return g.fileSets.empty();
        }; // file sets replace sizes
        axes.push_back(std::move(a));
    }
    {
        AxisSpec a;
        a.name = "stdio buffer";
        a.matrixKey = "buffers";
        a.resultKey = "stdioBuffer";
        a.csvColumn = "stdio_buffer";
        a.cliFlag = "--buffer";
        a.help = "stdio buffers: none, default or sizes";
        a.format = [](const Case& c) {
            return toString(c.buffer);
        };
        a.parse = [](Case& c, std::string_view t) {
            parseOrNotApplicable(c.buffer, t, parseStdioBuffer);
        };
        a.groupValues = [](const MatrixGroup& g) {
            return texts(g.buffers);
        };
        a.addGroupValue = [](MatrixGroup& g, std::string_view t, std::string_view) {
            g.buffers.push_back(parseStdioBuffer(t));
        };
        axes.push_back(std::move(a));
    }
    {
        AxisSpec a;
        a.name = "sync policy";
        a.matrixKey = "syncs";
        a.resultKey = "sync";
        a.csvColumn = "sync";
        a.cliFlag = "--sync";
        a.help = "none, fsync-end, fdatasync-end, fsync-every:N, O_SYNC, O_DSYNC";
        a.format = [](const Case& c) {
            return toString(c.sync);
        };
        a.parse = [](Case& c, std::string_view t) {
            c.sync = parseSyncPolicy(t);
        };
        a.groupValues = [](const MatrixGroup& g) {
            return texts(g.syncs);
        };
        a.addGroupValue = [](MatrixGroup& g, std::string_view t, std::string_view) {
            g.syncs.push_back(parseSyncPolicy(t));
        };
        axes.push_back(std::move(a));
    }
    {
        AxisSpec a;
        a.name = "thread count";
        a.matrixKey = "threads";
        a.resultKey = "threads";
        a.csvColumn = "threads";
        a.cliFlag = "--threads";
        a.help = "Threads, e.g. 1,2,4: writers and sequential readers one file each; files-pool's cap";
        a.kind = AxisValueKind::Count;
        a.format = [](const Case& c) {
            return std::to_string(c.threads);
        };
        a.parse = [](Case& c, std::string_view t) {
            c.threads = parseThreadCount(t, "thread count");
        };
        a.groupValues = [](const MatrixGroup& g) {
            std::vector<std::string> out;
            for (auto n : g.threads)
                out.push_back(std::to_string(n));
            return out;
        };
        a.addGroupValue = [](MatrixGroup& g, std::string_view t, std::string_view where) {
            g.threads.push_back(parseThreadCount(t, where));
        };
        axes.push_back(std::move(a));
    }
    {
        AxisSpec a;
        a.name = "target kind";
        a.matrixKey = "targets";
        a.resultKey = "target";
        a.csvColumn = "target";
        a.cliFlag = "--target-kind";
        a.help = "directory, pipe or null (default: each strategy's own)";
        a.format = [](const Case& c) {
            return toString(c.target);
        };
        a.parse = [](Case& c, std::string_view t) {
            c.target = parseTargetKind(t);
        };
        a.groupValues = [](const MatrixGroup& g) {
            return texts(g.targets);
        };
        a.addGroupValue = [](MatrixGroup& g, std::string_view t, std::string_view) {
            g.targets.push_back(parseTargetKind(t));
        };
        axes.push_back(std::move(a));
    }
    {
        AxisSpec a;
        a.name = "read hint";
        a.matrixKey = "hints";
        a.resultKey = "hint";
        a.csvColumn = "hint";
        a.cliFlag = "--hint";
        a.help = "Reads: normal, sequential, random, noreuse (default: each reader's own)";
        a.oldFileValue = "n/a"; // results from before reads
        a.format = [](const Case& c) {
            return toString(c.hint);
        };
        a.parse = [](Case& c, std::string_view t) {
            parseOrNotApplicable(c.hint, t, parseReadHint);
        };
        a.groupValues = [](const MatrixGroup& g) {
            return texts(g.hints);
        };
        a.addGroupValue = [](MatrixGroup& g, std::string_view t, std::string_view) {
            g.hints.push_back(parseReadHint(t));
        };
        axes.push_back(std::move(a));
    }
    {
        AxisSpec a;
        a.name = "cache state";
        a.matrixKey = "caches";
        a.resultKey = "cache";
        a.csvColumn = "cache";
        a.cliFlag = "--cache";
        a.help = "Reads: cold (evicted before each repetition, the default) or warm";
        a.oldFileValue = "n/a";
        a.format = [](const Case& c) {
            return toString(c.cache);
        };
        a.parse = [](Case& c, std::string_view t) {
            parseOrNotApplicable(c.cache, t, parseCacheState);
        };
        a.groupValues = [](const MatrixGroup& g) {
            return texts(g.caches);
        };
        a.addGroupValue = [](MatrixGroup& g, std::string_view t, std::string_view) {
            g.caches.push_back(parseCacheState(t));
        };
        axes.push_back(std::move(a));
    }
    {
        AxisSpec a;
        a.name = "file set";
        a.matrixKey = "files";
        a.resultKey = "fileSet";
        a.csvColumn = "file_set";
        a.cliFlag = "--files";
        a.help = "File-set readers: COUNTxSIZE, COUNTxMIN-MAX or COUNTx<mix>, e.g. 2000xarticle-2b";
        a.oldFileValue = "";
        a.format = [](const Case& c) {
            return c.fileSet.empty() ? std::string() : toString(c.fileSet);
        };
        a.parse = [](Case& c, std::string_view t) {
            c.fileSet = t.empty() ? FileSetSpec{} : parseFileSet(t);
        };
        a.groupValues = [](const MatrixGroup& g) {
            return texts(g.fileSets);
        };
        a.addGroupValue = [](MatrixGroup& g, std::string_view t, std::string_view) {
            g.fileSets.push_back(parseFileSet(t));
        };
        axes.push_back(std::move(a));
    }
    {
        AxisSpec a;
        a.name = "preallocation";
        a.matrixKey = "preallocate";
        a.resultKey = "preallocate";
        a.csvColumn = "preallocate";
        a.cliFlag = "--preallocate";
        a.help = "Writes to a file: none (a new file, the default), fallocate (space reserved first) or "
                 "overwrite (the file written first, then overwritten); untimed";
        a.oldFileValue = "none"; // results from before the axis wrote new files
        a.format = [](const Case& c) {
            return toString(c.preallocate);
        };
        a.parse = [](Case& c, std::string_view t) {
            c.preallocate = parsePreallocate(t);
        };
        a.groupValues = [](const MatrixGroup& g) {
            return texts(g.preallocations);
        };
        a.addGroupValue = [](MatrixGroup& g, std::string_view t, std::string_view) {
            g.preallocations.push_back(parsePreallocate(t));
        };
        axes.push_back(std::move(a));
    }
    return axes;
}

std::vector<AxisSpec>& table()
{
    static std::vector<AxisSpec> axes = builtinAxes();
    return axes;
}

} // namespace

const std::vector<AxisSpec>& caseAxes()
{
    return table();
}

void declareExtraAxis(AxisSpec spec)
{
    if (!spec.appliesTo)
        throw std::logic_error("an extra axis must say which strategies take it");
    for (const auto& a : table()) {
        if ((!spec.matrixKey.empty() && a.matrixKey == spec.matrixKey) || a.resultKey == spec.resultKey ||
            a.csvColumn == spec.csvColumn || (!spec.cliFlag.empty() && a.cliFlag == spec.cliFlag))
            throw std::logic_error(fmt::format("axis '{}' repeats a key of axis '{}'", spec.name, a.name));
    }
    const std::string key = spec.matrixKey;
    // Values live in the extra maps under the matrix key, in their canonical spelling.
    const auto canonical = [check = spec.canonical](std::string_view t) {
        return check ? check(t) : std::string(t);
    };
    if (!spec.format) // "" when the case carries no value (a strategy that does not take the axis)
        spec.format = [key](const Case& c) {
            return extraAxisValue(c, key, std::string());
        };
    spec.parse = [key, canonical](Case& c, std::string_view t) {
        c.extraAxes[key] = canonical(t);
    };
    spec.groupValues = [key](const MatrixGroup& g) {
        const auto it = g.extraAxes.find(key);
        return it == g.extraAxes.end() ? std::vector<std::string>{} : it->second;
    };
    spec.addGroupValue = [key, canonical](MatrixGroup& g, std::string_view t, std::string_view where) {
        try {
            g.extraAxes[key].push_back(canonical(t));
        } catch (const InputError& e) {
            if (where.empty())
                throw;
            throw InputError(fmt::format("{}: {}", where, e.what()));
        }
    };
    table().push_back(std::move(spec));
}

void removeExtraAxis(std::string_view matrixKey)
{
    auto& axes = table();
    axes.erase(
        std::remove_if(axes.begin(), axes.end(),
                       [matrixKey](const AxisSpec& a) { return a.extra() && a.matrixKey == matrixKey; }),
        axes.end());
}

const AxisSpec* findAxisByMatrixKey(std::string_view key)
{
    for (const auto& a : table())
        if (!a.matrixKey.empty() && a.matrixKey == key)
            return &a;
    return nullptr;
}

std::string extraAxisValue(const Case& c, const std::string& key, const std::string& fallback)
{
    const auto it = c.extraAxes.find(key);
    return it == c.extraAxes.end() ? fallback : it->second;
}

} // namespace iolab
