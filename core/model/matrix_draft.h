// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/matrix.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

class Registry;
struct StrategyInfo;

// One strategy's row in the matrix editor: the chunk sizes ticked for it (none = not in the matrix) and its
// own values of the other axes. Every list is sorted and free of duplicates.
struct StrategyDraft
{
    std::string strategy;
    std::vector<std::uint64_t> chunks;
    std::vector<std::uint64_t> sizes;
    bool hasBufferAxis = false;       // the strategy takes a stdio buffer size
    std::vector<StdioBuffer> buffers; // empty when it does not
    std::vector<SyncPolicy> syncs;
    std::vector<std::uint32_t> threads;
    // Reads: the hint axis (when the strategy has one), the cache states, and for file-set readers the sets
    // (which replace the sizes).
    bool reads = false;
    bool readsFileSet = false;
    bool hasHintAxis = false;
    ReadHint defaultHint = ReadHint::NotApplicable;
    std::vector<ReadHint> hints;
    std::vector<CacheState> caches;
    std::vector<FileSetSpec> fileSets;
    // Writes: what the file holds before the timed part ({none} by default).
    std::vector<Preallocate> preallocations{Preallocate::None};

    bool enabled() const { return !chunks.empty(); }

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
    std::vector<StrategyDraft> strategies;
    std::string note;

    static MatrixDraft fresh(const Registry& registry);
    static MatrixDraft fromMatrix(const Matrix& matrix, const Registry& registry);

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

// The values a fresh row starts with: 256 MiB, stdio's default buffer, no sync, one thread; reads the
// strategy's default hint and a cold cache, file-set readers 1000 files of the article's first mix.
StrategyDraft defaultStrategyDraft(const StrategyInfo& info);

// Canonical order of axis values, so that a draft compares equal however it was clicked together.
bool axisLess(const StdioBuffer& a, const StdioBuffer& b);
bool axisLess(const SyncPolicy& a, const SyncPolicy& b);
bool axisLess(const FileSetSpec& a, const FileSetSpec& b);
inline bool axisLess(ReadHint a, ReadHint b)
{
    return a < b;
}
inline bool axisLess(CacheState a, CacheState b)
{
    return a < b;
}
inline bool axisLess(Preallocate a, Preallocate b)
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
