// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/case.h"
#include "core/model/matrix.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

struct StrategyInfo;

// How an axis's value is spelled in files: text, a byte count ("4K" or a number), or a plain count.
enum class AxisValueKind
{
    Text,
    Bytes,
    Count
};

// One axis of a case, declared once: every reader and writer of cases and matrices (result JSON and CSV,
// matrix JSON, the CLI flags, expansion) iterates over these declarations instead of naming the axes.
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

    // Axes without a typed field in Case (their values live in Case::extraAxes, MatrixGroup::extraAxes)
    // declare the rest: the default a case takes when the group lists none, which strategies take the axis,
    // and why a combination is refused ("" = it runs). Typed axes leave these empty: expand() handles them.
    std::string defaultValue;
    // Extra axes: checks a value and returns its canonical spelling; throws InputError. Empty: any text.
    std::function<std::string(std::string_view)> canonical;
    std::function<bool(const StrategyInfo&)> appliesTo;
    std::function<std::string(const Case&, const StrategyInfo&)> refusal;
    // How the case's value reads in its label, e.g. "depth=8"; "" leaves it out.
    std::function<std::string(const Case&)> labelText;

    bool extra() const { return static_cast<bool>(appliesTo); }
};

// The total size axis's range, the one place it is checked: 1 byte to kMaxTotalBytes (16 TiB).
constexpr bool totalSizeAllowed(std::uint64_t bytes) noexcept
{
    return bytes >= 1 && bytes <= kMaxTotalBytes;
}

// Every case axis in file order (the CSV's column order, the matrix JSON's key order).
const std::vector<AxisSpec>& caseAxes();

// Adds an axis stored in Case::extraAxes; for tests and for axes that need
// no typed field; `spec.appliesTo` must be set. Throws std::logic_error on a duplicate key.
void declareExtraAxis(AxisSpec spec);
// Removes an axis added by declareExtraAxis (tests clean up after themselves).
void removeExtraAxis(std::string_view matrixKey);

// The declaration behind a matrix key, or nullptr.
const AxisSpec* findAxisByMatrixKey(std::string_view key);

// The plain-text value of an extra axis in a case or a group: a helper for declarations.
std::string extraAxisValue(const Case& c, const std::string& key, const std::string& fallback);

} // namespace iolab
