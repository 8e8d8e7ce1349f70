// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/case.h"
#include "core/model/matrix.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

struct StrategyInfo;
struct TargetInfo;

// How an axis's value is spelled in files: text, a byte count ("4K" or a number), or a plain count.
enum class AxisValueKind
{
    Text,
    Bytes,
    Count
};

// The values one axis takes for one strategy of a group, defaults filled in: how many, and how the i-th is
// set on a case. `set` empty: one value that leaves the case as it is (the strategy has no such axis).
struct AxisValues
{
    std::size_t count = 1;
    std::function<void(Case&, std::size_t)> set;
};

// One rule by which an axis refuses a case, with the reason ("" = it runs). refusalReason() asks the rules of
// every axis in `rank` order (ties in declaration order), so that a case that breaks two rules always gets
// the same reason: the built-in axes use 10 to 80 (see axes.cpp); an extra axis's rules default to 50.
struct AxisRefusal
{
    int rank = 50;
    std::function<std::string(const Case&, const StrategyInfo&, const TargetInfo&)> reason;
};

// How the matrix editor (app/gui/matrix_editor.cpp) shows an axis it edits per strategy: a field in its form
// and a part of the grid's summary of a row.
struct AxisEditorField
{
    std::string label;               // "Total size:"
    std::string tip;                 // the field's tooltip
    std::vector<std::string> common; // the values its "+" menu offers
    std::string fieldName;           // in "Fix the total size field first: ..."
    std::string noneTakes;           // "None of %1 takes a stdio buffer." (%1: the edited strategies)
    std::string notTaken;            // the placeholder when none of them does: "(writers only)"
    std::string summary;             // a row's values in the grid's summary: "buffer %1" (%1: the values)
    int summaryRank = 100;           // the summary's parts in this order (ties in declaration order)
    // The editor's own check of a typed value before the axis parses it; throws InputError. Empty: none.
    std::function<void(std::string_view)> check;
};

// How the results table (app/gui/results_model.cpp) shows an axis in its column: the model and the view
// (app/gui/results_view.cpp) iterate over these instead of naming the axes. An axis with a `columnHeader` has
// a column of its own; one whose `sharedWith` names another axis's result key adds its part to that axis's
// cells instead, after it, joined by ", " (the "Hint, cache" column: "random, cold").
struct AxisColumn
{
    std::string tip;         // the header's tooltip; "" = the axis's help
    int rank = 100;          // the columns in this order (ties in declaration order); built-in: 10 to 70
    bool leading = false;    // the table shows it first, beside the case number (strategy, chunk size)
    bool alignRight = false; // numbers: right-aligned
    std::string sharedWith;  // the result key of the axis whose column shows this one's part too
    // The axis's part of a case's cell ("" = none; an empty cell when no part has one); empty: `format`.
    std::function<std::string(const Case&)> text;
    // What sorting compares (a count, bytes); empty: the cell's text.
    std::function<double(const Case&)> sortValue;
    // Whether a case has something to show there: the table hides a column no case of a run wants (no
    // write: no sync policy). Empty: the column is always shown.
    std::function<bool(const Case&)> wanted;
};

// The PDF report's case table (app/report/pdf_report.cpp): an axis's column there, narrower than the results
// table's. Axes whose `sharedWith` names the result key of another's add their part to its cells, after it,
// joined by ", " (the "Sync/read" column: a write's sync policy, a read's "random, cold").
struct AxisReportColumn
{
    std::string header;      // "" = none of its own
    double width = 5.0;      // its share of the table's width (the "#" column is 2.4)
    bool alignRight = false; // numbers: right-aligned
    int rank = 100;          // the columns in this order (ties in declaration order); built-in: 10 to 70
    std::string sharedWith;
    // The axis's part of a case's cell ("" = none); empty: its results column's text, else `format`.
    std::function<std::string(const Case&)> text;
};

// How the charts (app/report/chart_axis.h) take an axis whose values are numbers (kind Bytes or Count) as the
// heatmap's columns or the bar chart's groups: any such axis can be, and the heatmap's "Columns" menu offers
// each one whose value varies among the cases shown.
struct AxisChart
{
    std::string name; // in the charts' titles and tooltips ("16 threads"); "" = the axis's name
    // The heatmap's "Automatic" columns are the first axis in this order whose value varies among the cases,
    // else the first (built-in: chunk size 10, threads 20); the bar chart groups by the first. nullopt: only
    // when chosen.
    std::optional<int> automaticRank;
    // A case's value; nullopt when it has none. Empty: `format` read as a byte count or a count, "" = none.
    std::function<std::optional<std::uint64_t>(const Case&)> value;
};

// One axis of a case, declared once: every reader and writer of cases and matrices (result JSON and CSV,
// matrix JSON, the CLI flags), matrix expansion, refusal, case keys and labels iterate over these
// declarations instead of naming the axes. typedAxis() in axes.cpp declares an axis with a Case field.
struct AxisSpec
{
    std::string name;      // in sentences and messages: "read hint"
    std::string matrixKey; // matrix JSON key (and the group's list): "hints"; "" = not a matrix axis
    std::string resultKey; // result JSON key: "hint"
    std::string csvColumn; // result CSV column: "hint"
    std::string cliFlag;   // "--hint"; "" = no flag
    std::string help;      // the flag's help text
    AxisValueKind kind = AxisValueKind::Text;
    // The value a result file written before this axis existed stands for; nullopt: the key is required.
    std::optional<std::string> oldFileValue;

    // The case's value as text ("" for "not set" where files say so), and its inverse; parse throws
    // InputError with the accepted spellings.
    std::function<std::string(const Case&)> format;
    std::function<void(Case&, std::string_view)> parse;
    // The group's listed values as text, and appending one value given as text; `where` names the value in
    // messages ("--threads", "m.json: groups[0].threads[1]").
    std::function<std::vector<std::string>(const MatrixGroup&)> groupValues;
    std::function<void(MatrixGroup&, std::string_view text, std::string_view where)> addGroupValue;
    // Whether a matrix file lists the axis even when the group has no values for it ("chunks": []).
    std::function<bool(const MatrixGroup&)> writeEmptyList;

    // Which strategies take the axis, from what the strategy declares; empty: every strategy. A strategy
    // that does not take it gets the "not applicable" value (extra axes: none) when the group lists none.
    std::function<bool(const StrategyInfo&)> appliesTo;
    // Expansion: the values a strategy's cases take from a group; empty: not expanded (strategy, direction).
    // Axes are expanded in `expansionRank` order (ties in declaration order), the outermost first.
    std::function<AxisValues(const MatrixGroup&, const StrategyInfo&)> values;
    int expansionRank = 0;
    std::vector<AxisRefusal> refusals;
    // How the case's value reads in its label, e.g. "hint=random" ("" leaves it out); parts are joined by
    // spaces in `labelRank` order (ties in declaration order).
    std::function<std::string(const Case&)> labelText;
    int labelRank = 100;

    // The editor's draft (core/model/matrix_draft.h) holds each strategy's lists as a MatrixGroup: adding
    // `from`'s values to `to`'s in canonical order without duplicates, emptying the list, and setting it to
    // the default a strategy's cases take when the group lists none (empty when there is none).
    std::function<void(MatrixGroup& to, const MatrixGroup& from)> mergeValues;
    std::function<void(MatrixGroup&)> clearValues;
    std::function<void(MatrixGroup&, const StrategyInfo&)> setDefault;
    // An empty list stands for the default (setDefault leaves it empty): the editor's row may leave it so,
    // and rows of strategies that do not take the axis group with it (a read share, io_uring's options).
    bool emptyIsDefault = false;
    // The values a new editor row starts with when the axis has no default (sizes: "256M").
    std::vector<std::string> editorStart;
    // The editor picks it for the whole matrix (the target kind), not per strategy.
    bool pickedPerRun = false;
    // The editor's field; nullopt: none (chunks are the grid's columns, preallocations come from files).
    std::optional<AxisEditorField> editorField;
    // The results table's column: its header ("" = no column of its own; see AxisColumn::sharedWith), and
    // how it shows the axis.
    std::string columnHeader;
    AxisColumn column;
    // The PDF's case table: its column; nullopt: the results table's (header, alignment, rank, sharing, text;
    // width 5), so that a declared axis with a results column has one in the PDF too.
    std::optional<AxisReportColumn> reportColumn;
    // Its part of a case's short name in the PDF's charts and lists ("#3 stdio 4K buf=none x4"; "" = none),
    // after the case number, joined by spaces in `shortRank` order (ties in declaration order). An axis
    // declared with declareExtraAxis without one gives its label part (for a case that carries a value).
    std::function<std::string(const Case&)> shortText;
    int shortRank = 100;
    // Its part of a case's name in the Summary's sentences ("io_uring's sqpoll", "huge pages (thp)"), after
    // the parts the Summary names itself (buffer, sync, threads, queue depth, hint, reader); "" = none (the
    // case has the default, which needs no words). Empty: the axis never names a case.
    std::function<std::string(const Case&)> words;
    // The charts' view of it, for an axis whose values are numbers (`numeric()`).
    AxisChart chart;
    // Its value is how the machine was arranged for the case (where a pipe's reader ran), not a way of doing
    // the I/O, and it can move a rate threefold: cases are compared only with cases arranged alike. A
    // speed-up's baseline is arranged alike, the Summary answers each arrangement apart and the heatmap gives
    // each its own row (its `shortText` beside the strategy), so that the best of two arrangements never
    // passes one off as the other.
    bool arrangement = false;
    // Its values are other ways of running the same strategy whose rates differ by design (io_uring's
    // options, a spinning reader, huge pages): the heatmap gives each value its own row (its `shortText`
    // beside the strategy) instead of keeping the best of them in one cell, as it does for buffers and sync
    // policies.
    bool ownHeatmapRow = false;
    // Whether two cases have the same value: typedAxis() compares the field; empty: the two `format` texts.
    std::function<bool(const Case&, const Case&)> same;

    // Axes without a typed field in Case (their values live in Case::extraAxes, MatrixGroup::extraAxes):
    // the default a case of a strategy that takes the axis gets when the group lists none, and a check of a
    // value that returns its canonical spelling (throws InputError; empty: any text).
    std::string defaultValue;
    std::function<std::string(std::string_view)> canonical;
    bool isExtra = false; // set by declareExtraAxis

    bool extra() const { return isExtra; }
    // Its values are numbers (bytes or a count): a chart can take it as its columns.
    bool numeric() const { return kind != AxisValueKind::Text; }
    bool takenBy(const StrategyInfo& info) const { return !appliesTo || appliesTo(info); }
    // Whether the editor edits it per strategy (a matrix axis expanded per strategy).
    bool editedPerStrategy() const { return values && !matrixKey.empty() && !pickedPerRun; }
};

// The total size axis's range, the one place it is checked: 1 byte to kMaxTotalBytes (16 TiB).
constexpr bool totalSizeAllowed(std::uint64_t bytes) noexcept
{
    return bytes >= 1 && bytes <= kMaxTotalBytes;
}

// Every case axis in file order (the CSV's column order, the matrix JSON's key order).
const std::vector<AxisSpec>& caseAxes();
// The expanded axes, outermost first; the axes in label order.
const std::vector<const AxisSpec*>& axesInExpansionOrder();
const std::vector<const AxisSpec*>& axesInLabelOrder();
// Every axis's refusal rules, in the order refusalReason() asks them.
const std::vector<const AxisRefusal*>& refusalRulesInOrder();
// The results table's axis columns in `AxisColumn::rank` order: each the axis with the header, then the axes
// that share its column in declaration order.
const std::vector<std::vector<const AxisSpec*>>& axisColumnsInOrder();

// One column of the PDF's case table, resolved from the declarations (AxisSpec::reportColumn).
struct CaseTableColumn
{
    std::string header;
    double width = 5.0;
    bool alignRight = false;
    std::vector<std::function<std::string(const Case&)>> parts; // the owner's first
    // A case's cell: the parts that say something, joined by ", ".
    std::string text(const Case& c) const;
};
// The PDF's case table's axis columns, in rank order.
const std::vector<CaseTableColumn>& caseTableColumns();
// The axes with a part in a case's short name, in `shortRank` order.
const std::vector<const AxisSpec*>& axesInShortNameOrder();
// The axes whose values are numbers, which a chart can take as its columns, in the results table's column
// order (`AxisColumn::rank`, ties in declaration order); those with an `AxisChart::automaticRank`, in that
// order: the charts' automatic choices.
const std::vector<const AxisSpec*>& numericAxes();
const std::vector<const AxisSpec*>& automaticChartAxes();
// The axes declared as an arrangement (AxisSpec::arrangement), in declaration order.
const std::vector<const AxisSpec*>& arrangementAxes();
// Whether two cases were arranged alike: the same value of every arrangement axis.
bool sameArrangement(const Case& a, const Case& b);
// A case's arrangement in a few words, for a chart's row ("cpu=same"): the arrangement axes' short texts,
// joined by spaces; "" when it has none to tell.
std::string arrangementText(const Case& c);
// A numeric axis's value in a case (AxisChart::value), nullopt when the case has none.
std::optional<std::uint64_t> numericValue(const AxisSpec& axis, const Case& c);
// The axis's name in the charts: `chart.name`, else `name`.
const std::string& chartName(const AxisSpec& axis);

// Adds an axis stored in Case::extraAxes; for tests and for axes that need no typed field. `spec.appliesTo`
// must be set; its rules are asked only of cases that carry a value, after the rule that a strategy which
// does not take the axis refuses any value. Throws std::logic_error on a duplicate key or on a column shared
// with an axis that has none (and keeps nothing of the declaration).
void declareExtraAxis(AxisSpec spec);
// Removes an axis added by declareExtraAxis (tests clean up after themselves).
void removeExtraAxis(std::string_view matrixKey);

// The declaration behind a matrix key, or nullptr.
const AxisSpec* findAxisByMatrixKey(std::string_view key);
// The declaration behind a result key, or nullptr.
const AxisSpec* findAxisByResultKey(std::string_view key);

// The plain-text value of an extra axis in a case: a helper for declarations.
std::string extraAxisValue(const Case& c, const std::string& key, const std::string& fallback);

} // namespace iolab
