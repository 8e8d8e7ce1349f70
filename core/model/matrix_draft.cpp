// SPDX-License-Identifier: MIT
#include "core/model/matrix_draft.h"

#include "core/base/units.h"
#include "core/model/axes.h"
#include "core/model/strategy_info.h"

#include <fmt/format.h>

#include <tuple>

namespace iolab {

namespace {

// The axes the editor edits per strategy, in file order.
std::vector<const AxisSpec*> draftAxes()
{
    std::vector<const AxisSpec*> out;
    for (const auto& axis : caseAxes())
        if (axis.editedPerStrategy())
            out.push_back(&axis);
    return out;
}

bool isEmpty(const AxisSpec& axis, const MatrixGroup& g)
{
    return axis.groupValues(g).empty();
}

// A row with no values yet: what the strategy is, which axes it takes and their defaults.
StrategyDraft emptyRow(const StrategyInfo& info)
{
    StrategyDraft row;
    row.strategy = info.id;
    for (const AxisSpec* axis : draftAxes()) {
        if (!axis->takenBy(info))
            continue;
        row.axes.push_back(axis->matrixKey);
        axis->setDefault(row.defaults, info);
    }
    row.hasBufferAxis = row.takes("buffers");
    return row;
}

// Fills the axes a matrix may leave empty with what expand() would use, so that drafts compare by meaning.
StrategyDraft rowFromGroup(const MatrixGroup& group, const StrategyInfo& info)
{
    StrategyDraft row = emptyRow(info);
    for (const AxisSpec* axis : draftAxes()) {
        if (!row.takes(axis->matrixKey))
            continue;
        axis->mergeValues(row, group);
        if (isEmpty(*axis, row))
            axis->mergeValues(row, row.defaults);
    }
    return row;
}

// The group a row writes into its matrix, strategies and chunks aside: the axes it takes, defaults left
// implicit as a hand-written matrix file would leave them.
MatrixGroup groupOf(const StrategyDraft& row)
{
    MatrixGroup group;
    for (const AxisSpec* axis : draftAxes()) {
        if (axis->matrixKey == "chunks" || !row.takes(axis->matrixKey))
            continue;
        if (axis->groupValues(row) != axis->groupValues(row.defaults) || isEmpty(*axis, row.defaults))
            axis->mergeValues(group, row);
    }
    return group;
}

// Rows share a group when their lists, defaults filled in, are the same (chunks aside), and so is the group
// they write: a value that is one row's default is left implicit, and would read as the other's default.
bool sameAxes(const StrategyDraft& a, const StrategyDraft& b)
{
    MatrixGroup x = a;
    MatrixGroup y = b;
    x.chunks.clear();
    y.chunks.clear();
    return x == y && groupOf(a) == groupOf(b);
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

bool axisLess(const DataPattern& a, const DataPattern& b)
{
    return std::tie(a.kind, a.percent) < std::tie(b.kind, b.percent);
}

const std::vector<std::uint64_t>& standardChunkSizes()
{
    static const std::vector<std::uint64_t> sizes{1,          512,      4 * kKiB, 16 * kKiB, 64 * kKiB,
                                                  256 * kKiB, 1 * kMiB, 4 * kMiB, 16 * kMiB};
    return sizes;
}

StrategyDraft defaultStrategyDraft(const StrategyInfo& info)
{
    StrategyDraft row = emptyRow(info);
    for (const AxisSpec* axis : draftAxes()) {
        if (!row.takes(axis->matrixKey))
            continue;
        axis->mergeValues(row, row.defaults);
        if (isEmpty(*axis, row))
            for (const auto& text : axis->editorStart)
                axis->addGroupValue(row, text, axis->name);
    }
    return row;
}

MatrixDraft MatrixDraft::fresh(const StrategyCatalog& registry)
{
    MatrixDraft draft;
    for (const StrategyInfo* info : registry.infos())
        draft.strategies.push_back(defaultStrategyDraft(*info));
    return draft;
}

MatrixDraft MatrixDraft::fromMatrix(const Matrix& matrix, const StrategyCatalog& registry)
{
    validate(matrix, registry);
    MatrixDraft draft = fresh(registry);
    draft.name = matrix.name;
    draft.description = matrix.description;
    draft.question = matrix.question;
    draft.repetitions = matrix.repetitions;
    draft.crashProbe = matrix.crashProbe;
    draft.crashProbeAt = matrix.crashProbeAt;
    draft.alternate = matrix.alternate;
    draft.latencyTarget = matrix.latencyTarget;
    std::vector<std::string> merged;
    bool targetsDropped = false;
    for (const auto& group : matrix.groups) {
        targetsDropped = targetsDropped || !group.targets.empty();
        for (const auto& id : group.strategies) {
            StrategyDraft* row = draft.find(id);
            const StrategyDraft incoming = rowFromGroup(group, *registry.findInfo(id));
            if (!row->enabled()) {
                *row = incoming;
                continue;
            }
            if (!sameAxes(*row, incoming) && std::find(merged.begin(), merged.end(), id) == merged.end())
                merged.push_back(id);
            for (const AxisSpec* axis : draftAxes())
                axis->mergeValues(*row, incoming);
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
    matrix.crashProbe = crashProbe;
    matrix.crashProbeAt = crashProbeAt;
    matrix.alternate = alternate;
    matrix.latencyTarget = latencyTarget;
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
            MatrixGroup group = groupOf(row);
            group.chunks = row.chunks;
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
        for (const AxisSpec* axis : draftAxes()) {
            if (!row.takes(axis->matrixKey) || !isEmpty(*axis, row) || axis->emptyIsDefault)
                continue;
            // Values typed in (sizes, file sets) are "given"; values with a default are ticked off a list.
            return fmt::format("{} has no {}{}", row.strategy, axis->name,
                               axis->editorStart.empty() ? " ticked" : "");
        }
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
