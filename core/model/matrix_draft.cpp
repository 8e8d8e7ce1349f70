// SPDX-License-Identifier: MIT
#include "core/model/matrix_draft.h"

#include "core/base/units.h"
#include "core/engine/registry.h"

#include <fmt/format.h>

#include <tuple>

namespace iolab {

namespace {

void describeReads(StrategyDraft& row, const StrategyInfo& info)
{
    row.reads = info.direction == Direction::Read;
    row.readsFileSet = info.layout == DataLayout::FileSet;
    row.hasHintAxis = !info.hints.empty();
    row.defaultHint = row.hasHintAxis ? info.hints.front() : ReadHint::NotApplicable;
}

template <class T> std::vector<T> canonical(const std::vector<T>& values)
{
    std::vector<T> out;
    for (const auto& v : values)
        insertSorted(out, v);
    return out;
}

// Fills the axes a matrix may leave empty with what expand() would use, so that drafts compare by meaning.
StrategyDraft rowFromGroup(const MatrixGroup& group, const StrategyInfo& info)
{
    StrategyDraft row;
    row.strategy = info.id;
    row.hasBufferAxis = info.usesStdioBuffer;
    row.chunks = canonical(group.chunks);
    row.sizes = canonical(group.sizes);
    if (info.usesStdioBuffer)
        row.buffers = group.buffers.empty() ? std::vector<StdioBuffer>{{BufferMode::Default, 0}}
                                            : canonical(group.buffers);
    row.syncs = group.syncs.empty() ? std::vector<SyncPolicy>{SyncPolicy{}} : canonical(group.syncs);
    row.threads = group.threads.empty() ? std::vector<std::uint32_t>{1} : canonical(group.threads);
    describeReads(row, info);
    if (row.reads) {
        if (row.hasHintAxis)
            row.hints = group.hints.empty() ? std::vector<ReadHint>{row.defaultHint} : canonical(group.hints);
        row.caches =
            group.caches.empty() ? std::vector<CacheState>{CacheState::Cold} : canonical(group.caches);
    }
    if (row.readsFileSet) {
        row.fileSets = canonical(group.fileSets);
        row.sizes.clear();
    }
    row.preallocations = group.preallocations.empty() ? std::vector<Preallocate>{Preallocate::None}
                                                      : canonical(group.preallocations);
    return row;
}

bool sameAxes(const StrategyDraft& a, const StrategyDraft& b)
{
    return a.sizes == b.sizes && a.buffers == b.buffers && a.syncs == b.syncs && a.threads == b.threads &&
           a.hints == b.hints && a.caches == b.caches && a.fileSets == b.fileSets &&
           a.preallocations == b.preallocations;
}

template <class T> void mergeInto(std::vector<T>& into, const std::vector<T>& from)
{
    for (const auto& v : from)
        insertSorted(into, v);
}

} // namespace

bool axisLess(const StdioBuffer& a, const StdioBuffer& b)
{
    if (a.mode != b.mode)
        return static_cast<int>(a.mode) < static_cast<int>(b.mode);
    return a.bytes < b.bytes;
}

bool axisLess(const SyncPolicy& a, const SyncPolicy& b)
{
    if (a.mode != b.mode)
        return static_cast<int>(a.mode) < static_cast<int>(b.mode);
    return a.everyWrites < b.everyWrites;
}

bool axisLess(const FileSetSpec& a, const FileSetSpec& b)
{
    return std::tie(a.mix, a.minBytes, a.maxBytes, a.files, a.name) <
           std::tie(b.mix, b.minBytes, b.maxBytes, b.files, b.name);
}

const std::vector<std::uint64_t>& standardChunkSizes()
{
    static const std::vector<std::uint64_t> sizes{1,          512,      4 * kKiB, 16 * kKiB, 64 * kKiB,
                                                  256 * kKiB, 1 * kMiB, 4 * kMiB, 16 * kMiB};
    return sizes;
}

StrategyDraft defaultStrategyDraft(const StrategyInfo& info)
{
    StrategyDraft row;
    row.strategy = info.id;
    row.hasBufferAxis = info.usesStdioBuffer;
    row.sizes = {256 * kMiB};
    if (info.usesStdioBuffer)
        row.buffers = {{BufferMode::Default, 0}};
    row.syncs = {SyncPolicy{}};
    row.threads = {1};
    describeReads(row, info);
    if (row.hasHintAxis)
        row.hints = {row.defaultHint};
    if (row.reads)
        row.caches = {CacheState::Cold};
    if (row.readsFileSet) {
        row.sizes.clear();
        row.fileSets = {parseFileSet("1000xarticle-2b")};
    }
    return row;
}

MatrixDraft MatrixDraft::fresh(const Registry& registry)
{
    MatrixDraft draft;
    for (const auto& s : registry.all())
        draft.strategies.push_back(defaultStrategyDraft(s->info()));
    return draft;
}

MatrixDraft MatrixDraft::fromMatrix(const Matrix& matrix, const Registry& registry)
{
    validate(matrix, registry);
    MatrixDraft draft = fresh(registry);
    draft.name = matrix.name;
    draft.description = matrix.description;
    draft.question = matrix.question;
    draft.repetitions = matrix.repetitions;
    std::vector<std::string> merged;
    bool targetsDropped = false;
    for (const auto& group : matrix.groups) {
        targetsDropped = targetsDropped || !group.targets.empty();
        for (const auto& id : group.strategies) {
            StrategyDraft* row = draft.find(id);
            const StrategyDraft incoming = rowFromGroup(group, registry.find(id)->info());
            if (!row->enabled()) {
                *row = incoming;
                continue;
            }
            if (!sameAxes(*row, incoming) && std::find(merged.begin(), merged.end(), id) == merged.end())
                merged.push_back(id);
            mergeInto(row->chunks, incoming.chunks);
            mergeInto(row->sizes, incoming.sizes);
            mergeInto(row->buffers, incoming.buffers);
            mergeInto(row->syncs, incoming.syncs);
            mergeInto(row->threads, incoming.threads);
            mergeInto(row->hints, incoming.hints);
            mergeInto(row->caches, incoming.caches);
            mergeInto(row->fileSets, incoming.fileSets);
            mergeInto(row->preallocations, incoming.preallocations);
        }
    }
    if (!merged.empty()) {
        std::string names;
        for (const auto& id : merged)
            names += (names.empty() ? "" : ", ") + id;
        draft.note = fmt::format("{} appear in several groups with different axes; the editor merges each "
                                 "strategy's axes, which can add cases.",
                                 names);
    }
    if (targetsDropped)
        draft.note += std::string(draft.note.empty() ? "" : " ") +
                      "The matrix names target kinds; here the target picker decides them.";
    return draft;
}

Matrix MatrixDraft::toMatrix(std::optional<TargetKind> target) const
{
    Matrix matrix;
    matrix.name = name;
    matrix.description = description;
    matrix.question = question;
    matrix.repetitions = repetitions;
    std::vector<const StrategyDraft*> leaders; // first row of each group
    for (const auto& row : strategies) {
        if (!row.enabled())
            continue;
        std::size_t g = 0;
        for (; g < leaders.size(); ++g) {
            if (sameAxes(*leaders[g], row) && leaders[g]->chunks == row.chunks)
                break;
        }
        if (g == leaders.size()) {
            leaders.push_back(&row);
            MatrixGroup group;
            group.chunks = row.chunks;
            group.sizes = row.sizes;
            // Defaults are left implicit, as a hand-written matrix file would leave them.
            if (!(row.buffers.size() == 1 && row.buffers.front().mode == BufferMode::Default))
                group.buffers = row.buffers;
            if (!(row.syncs.size() == 1 && row.syncs.front() == SyncPolicy{}))
                group.syncs = row.syncs;
            if (!(row.threads.size() == 1 && row.threads.front() == 1))
                group.threads = row.threads;
            if (!(row.hints.size() == 1 && row.hints.front() == row.defaultHint))
                group.hints = row.hints;
            if (!(row.caches.size() == 1 && row.caches.front() == CacheState::Cold))
                group.caches = row.caches;
            group.fileSets = row.fileSets;
            if (!(row.preallocations.size() == 1 && row.preallocations.front() == Preallocate::None))
                group.preallocations = row.preallocations;
            if (target)
                group.targets = {*target};
            matrix.groups.push_back(std::move(group));
        }
        matrix.groups[g].strategies.push_back(row.strategy);
    }
    return matrix;
}

StrategyDraft* MatrixDraft::find(const std::string& strategy)
{
    for (auto& row : strategies) {
        if (row.strategy == strategy)
            return &row;
    }
    return nullptr;
}

const StrategyDraft* MatrixDraft::find(const std::string& strategy) const
{
    for (const auto& row : strategies) {
        if (row.strategy == strategy)
            return &row;
    }
    return nullptr;
}

std::string MatrixDraft::problem() const
{
    if (enabledCount() == 0)
        return "no strategy has a chunk size ticked";
    for (const auto& row : strategies) {
        if (!row.enabled())
            continue;
        if (row.sizes.empty() && !row.readsFileSet)
            return fmt::format("{} has no total size", row.strategy);
        if (row.readsFileSet && row.fileSets.empty())
            return fmt::format("{} has no file set", row.strategy);
        if (row.hasHintAxis && row.hints.empty())
            return fmt::format("{} has no read hint ticked", row.strategy);
        if (row.reads && row.caches.empty())
            return fmt::format("{} has no cache state ticked", row.strategy);
        if (row.hasBufferAxis && row.buffers.empty())
            return fmt::format("{} has no stdio buffer ticked", row.strategy);
        if (row.syncs.empty())
            return fmt::format("{} has no sync policy ticked", row.strategy);
        if (row.threads.empty())
            return fmt::format("{} has no thread count ticked", row.strategy);
    }
    return {};
}

std::vector<std::uint64_t> MatrixDraft::chunksInUse() const
{
    std::vector<std::uint64_t> chunks;
    for (const auto& row : strategies)
        mergeInto(chunks, row.chunks);
    return chunks;
}

std::size_t MatrixDraft::enabledCount() const
{
    return static_cast<std::size_t>(std::count_if(strategies.begin(), strategies.end(),
                                                  [](const StrategyDraft& r) { return r.enabled(); }));
}

} // namespace iolab
