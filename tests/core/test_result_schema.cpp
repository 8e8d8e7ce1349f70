// SPDX-License-Identifier: MIT
// The published result schema (resources/schemas/iolab-result.schema.json) against what the code declares:
// a case's keys are its axes' result keys, a matrix group's its axes' matrix keys, and each closed set of
// words is the set the code writes. python3-jsonschema validates the files themselves
// (tests/support/check_result_schema.py: the goldens as a CTest test, and every result a CLI or app test
// writes).
#include "core/model/axes.h"
#include "core/model/matrix.h"
#include "core/model/result.h"
#include "core/model/system_facts.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <string>

namespace iolab {
namespace {

using nlohmann::json;

const json& schema()
{
    static const json s = [] {
        std::ifstream in(std::string(IOLAB_SOURCE_DIR) + "/resources/schemas/iolab-result.schema.json");
        EXPECT_TRUE(in) << "resources/schemas/iolab-result.schema.json";
        return json::parse(in);
    }();
    return s;
}

std::set<std::string> keysOf(const json& object)
{
    std::set<std::string> keys;
    for (const auto& [key, value] : object.items())
        keys.insert(key);
    return keys;
}

std::set<std::string> wordsOf(const json& enumeration)
{
    std::set<std::string> words;
    for (const auto& w : enumeration)
        words.insert(w.get<std::string>());
    return words;
}

TEST(ResultSchema, ACasesKeysAreItsAxesResultKeys)
{
    const json& c = schema().at("$defs").at("case");
    EXPECT_EQ(c.at("additionalProperties"), false);
    std::set<std::string> declared{"label"};
    std::set<std::string> required{"label"};
    for (const auto& axis : caseAxes()) {
        declared.insert(axis.resultKey);
        if (!axis.oldFileValue && !axis.extra())
            required.insert(axis.resultKey); // caseFromJson requires it
        const json& property = c.at("properties").at(axis.resultKey);
        if (axis.kind != AxisValueKind::Text)
            EXPECT_TRUE(property.contains("$ref") || property.at("type") == "integer") << axis.resultKey;
        else
            EXPECT_TRUE(property.contains("enum") || property.at("type") == "string") << axis.resultKey;
    }
    EXPECT_EQ(keysOf(c.at("properties")), declared);
    std::set<std::string> listed;
    for (const auto& key : c.at("required"))
        listed.insert(key.get<std::string>());
    EXPECT_EQ(listed, required);
}

TEST(ResultSchema, AMatrixGroupsKeysAreItsAxesMatrixKeys)
{
    const json& group = schema().at("$defs").at("matrix").at("properties").at("groups").at("items");
    EXPECT_EQ(group.at("additionalProperties"), false);
    std::set<std::string> declared;
    for (const auto& axis : caseAxes()) {
        if (axis.matrixKey.empty())
            continue;
        declared.insert(axis.matrixKey);
        // matrixToJson writes a count axis's values as numbers, any other's as text.
        const std::string ref = group.at("properties").at(axis.matrixKey).at("$ref");
        EXPECT_EQ(ref, axis.kind == AxisValueKind::Count ? "#/$defs/matrixCounts" : "#/$defs/matrixValues")
            << axis.matrixKey;
    }
    EXPECT_EQ(keysOf(group.at("properties")), declared);
}

TEST(ResultSchema, ItsClosedWordsAreTheOnesTheCodeWrites)
{
    const json& defs = schema().at("$defs");
    std::set<std::string> statuses;
    for (Status s : {Status::Ok, Status::Failed, Status::Unsupported, Status::Cancelled, Status::Refused})
        statuses.insert(toString(s));
    EXPECT_EQ(wordsOf(defs.at("status").at("enum")), statuses);
    EXPECT_EQ(wordsOf(defs.at("crashProbeAt").at("enum")),
              (std::set<std::string>{toString(CrashProbeAt::Ack), toString(CrashProbeAt::Time)}));
    EXPECT_EQ(wordsOf(defs.at("exposure").at("properties").at("basis").at("enum")),
              (std::set<std::string>{toString(ExposureBasis::Exact), toString(ExposureBasis::AtMost)}));
    std::set<std::string> holds;
    for (auto kind : {UserSpaceHold::Kind::Nothing, UserSpaceHold::Kind::StdioBuffer,
                      UserSpaceHold::Kind::Batch, UserSpaceHold::Kind::FileBackedBatch})
        holds.insert(toString(kind));
    EXPECT_EQ(
        wordsOf(defs.at("crashProbe").at("properties").at("hold").at("properties").at("kind").at("enum")),
        holds);
    EXPECT_EQ(wordsOf(defs.at("case").at("properties").at("direction").at("enum")),
              (std::set<std::string>{toString(Direction::Write), toString(Direction::Read)}));
    EXPECT_EQ(wordsOf(defs.at("case").at("properties").at("target").at("enum")),
              (std::set<std::string>{toString(TargetKind::Directory), toString(TargetKind::Pipe),
                                     toString(TargetKind::Null)}));

    // Every word of the facts' enums reads back as its kind, and a word the code does not know is refused.
    const json& system = schema().at("properties").at("system").at("properties");
    for (const auto& word : system.at("deviceClass").at("enum"))
        EXPECT_EQ(toString(deviceClassFromString(word.get<std::string>())), word.get<std::string>());
    const std::set<std::string> layers =
        wordsOf(system.at("stack").at("items").at("properties").at("kind").at("enum"));
    for (const auto& word : layers)
        EXPECT_EQ(toString(layerKindFromString(word)), word);
    // As many words as the enums have members: the first and last of each bracket the rest.
    EXPECT_EQ(system.at("deviceClass").at("enum").size(), static_cast<std::size_t>(DeviceClass::Memory) + 1);
    EXPECT_EQ(layers.size(), static_cast<std::size_t>(LayerKind::Memory) + 1);
}

} // namespace
} // namespace iolab
