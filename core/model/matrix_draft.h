// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/matrix.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace iolab {

class StrategyCatalog;
struct StrategyInfo;

// One strategy's row in the matrix editor: its axes as the lists of a MatrixGroup (strategies and targets
// left empty: the row names its strategy, and the editor picks the target for the whole matrix), the chunk
// sizes ticked for it (none = not in the matrix). Every list is sorted and free of duplicates; the axes the
// strategy does not take are empty.
struct StrategyDraft : MatrixGroup
{
    std::string strategy;
    bool hasBufferAxis = false; // the same as takes("buffers"), for callers that ask it by name
    // The matrix keys of the axes the strategy takes (core/model/axes.h), and each one's default: the lists
    // its cases get when a matrix lists none, left implicit when the draft becomes a matrix.
    std::vector<std::string> axes;
    MatrixGroup defaults;

    bool enabled() const { return !chunks.empty(); }
    bool takes(const std::string& matrixKey) const
    {
        return std::find(axes.begin(), axes.end(), matrixKey) != axes.end();
    }

    friend bool operator==(const StrategyDraft&, const StrategyDraft&) = default;
};

// The matrix as an editor holds it: a row per registered strategy, in registry order. A matrix turns into a
// draft exactly when each strategy's axes are the same in every group naming it (true of every preset);
// otherwise the axes are merged and `note` says so.
struct MatrixDraft
{
    std::string name;
    std::string description;
    std::string question;                     // the matrix's question, kept for the verdict
    std::optional<std::uint32_t> repetitions; // the matrix's own repetitions (the editor shows them)
    std::optional<std::uint32_t> crashProbe;  // the matrix's own kill -9 probe kills (the editor shows them)
    std::optional<CrashProbeAt> crashProbeAt; // ... and where they land
    std::optional<bool> alternate;            // the matrix's cases take turns (the editor shows it)
    std::optional<LatencyTarget> latencyTarget; // kept as the matrix gave it
    std::vector<StrategyDraft> strategies;
    std::string note;

    static MatrixDraft fresh(const StrategyCatalog& registry);
    static MatrixDraft fromMatrix(const Matrix& matrix, const StrategyCatalog& registry);

    // Strategies with equal axes share a group, in the order of their first row. Targets are left empty (each
    // strategy's own) unless `target` is given, which then applies to every group.
    Matrix toMatrix(std::optional<TargetKind> target = std::nullopt) const;

    StrategyDraft* find(const std::string& strategy);
    const StrategyDraft* find(const std::string& strategy) const;
    // Every chunk size some row uses, sorted.
    std::vector<std::uint64_t> chunksInUse() const;
    std::size_t enabledCount() const;
    // Why the draft cannot become a matrix ("" when it can): nothing ticked, or a ticked row with an empty
    // axis.
    std::string problem() const;

    friend bool operator==(const MatrixDraft&, const MatrixDraft&) = default;
};

// The values a fresh row starts with: each axis's default (stdio's default buffer, no sync, one thread; reads
// the strategy's default hint and a cold cache), else the axis's editor start (256 MiB; file-set readers
// 1000 files of the article's first mix).
StrategyDraft defaultStrategyDraft(const StrategyInfo& info);

// Canonical order of axis values, so that a draft compares equal however it was clicked together.
bool axisLess(const StdioBuffer& a, const StdioBuffer& b);
bool axisLess(const SyncPolicy& a, const SyncPolicy& b);
bool axisLess(const FileSetSpec& a, const FileSetSpec& b);
bool axisLess(const DataPattern& a, const DataPattern& b);
inline bool axisLess(const SteadyRule& a, const SteadyRule& b)
{
    return a < b;
}
inline bool axisLess(const RandomDist& a, const RandomDist& b)
{
    return a < b;
}
// A read share: none (every request reads) first, then 0% to 100%.
inline bool axisLess(const std::optional<std::uint32_t>& a, const std::optional<std::uint32_t>& b)
{
    return a < b;
}
inline bool axisLess(const UringOptions& a, const UringOptions& b)
{
    return a < b;
}
// Enumerated axes (hint, cache state, target kind, preallocation, reader CPU): in declaration order.
template <class E>
requires std::is_enum_v<E>
bool axisLess(E a, E b)
{
    return a < b;
}
inline bool axisLess(std::uint64_t a, std::uint64_t b)
{
    return a < b;
}
inline bool axisLess(std::uint32_t a, std::uint32_t b)
{
    return a < b;
}
inline bool axisLess(const std::string& a, const std::string& b)
{
    return a < b;
}

template <class T> void insertSorted(std::vector<T>& values, const T& value)
{
    const auto at = std::lower_bound(values.begin(), values.end(), value,
                                     [](const T& a, const T& b) { return axisLess(a, b); });
    if (at == values.end() || !(*at == value))
        values.insert(at, value);
}

template <class T> void eraseValue(std::vector<T>& values, const T& value)
{
    values.erase(std::remove(values.begin(), values.end(), value), values.end());
}

template <class T> bool containsValue(const std::vector<T>& values, const T& value)
{
    return std::find(values.begin(), values.end(), value) != values.end();
}

// The chunk sizes an editor offers as columns before the user adds their own.
const std::vector<std::uint64_t>& standardChunkSizes();

} // namespace iolab
