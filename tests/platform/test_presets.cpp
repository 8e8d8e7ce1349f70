// SPDX-License-Identifier: MIT
// The built-in presets are matrix files (issue 35): resources/presets/*.json, embedded at build time and
// parsed at start-up. Each is exactly the file the app would save for it, and each plans the same cases, with
// the same refusals, as the presets did when they were built in code: tests/data/golden-presets-plan.txt was
// made from that code, on Linux.
#include "core/base/embedded_file.h"
#include "core/base/error.h"
#include "core/formats/matrix_json.h"
#include "core/formats/presets.h"
#include "platform/platform.h"
#include "tests/support/builtin_registry.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

using namespace iolab;
using namespace iolab::test;
using testing::HasSubstr;

namespace {

#ifdef __linux__
TargetInfo probedTarget()
{
    TargetInfo t;
    t.path = "/tmp";
    t.capabilitiesProbed = true;
    return t;
}

// A preset as the user sees it and as it runs: its name, words and asks, then every case it expands to on a
// probed target, in order, and every combination it refuses with the reason.
std::string planText(const Matrix& preset)
{
    std::string text = fmt::format("preset {}\n  description {}\n  question {}\n", preset.name,
                                   preset.description, preset.question);
    text += fmt::format("  repetitions {}\n  crash-probe {}\n",
                        preset.repetitions ? std::to_string(*preset.repetitions) : "default",
                        preset.crashProbe ? std::to_string(*preset.crashProbe) : "none");
    const ExpandedMatrix plan = expand(preset, builtinRegistry(), probedTarget());
    for (const auto& c : plan.cases)
        text += fmt::format("  case {}\n", c.label());
    for (const auto& r : plan.refused)
        text += fmt::format("  refused {}: {}\n", r.testCase.label(), r.reason);
    return text;
}
#endif

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// quick.json cut short after its first group's strategies.
std::string brokenQuick()
{
    const std::string text(builtinPresetFiles().front().text);
    return text.substr(0, text.find("\"chunks\""));
}

} // namespace

TEST(Presets, EachFileIsTheMatrixTheAppWouldSave)
{
    const auto files = builtinPresetFiles();
    ASSERT_EQ(files.size(), builtinPresets().size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::string name(files[i].name);
        const std::string text(files[i].text);
        const Matrix preset = parseMatrixJson(text, name);
        EXPECT_EQ(name, preset.name + ".json");
        EXPECT_EQ(preset, builtinPresets()[i]) << name;
        // Byte for byte what the matrix editor's Save preset writes, so that a copy is a user's own file.
        EXPECT_EQ(matrixToJson(preset).dump(2) + "\n", text) << name;
        // And what the source tree holds: the build embedded the files as they are.
        EXPECT_EQ(readFile(IOLAB_SOURCE_DIR "/resources/presets/" + name), text) << name;
    }
}

TEST(Presets, ABrokenFileFailsNamingIt)
{
    const std::string broken = brokenQuick();
    try {
        presetsFromFiles(std::vector<EmbeddedFile>{{"quick.json", broken}});
        FAIL() << "a preset cut short was read";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("resources/presets/quick.json: not valid JSON"));
    }
    const std::string quick(builtinPresetFiles().front().text);
    try {
        presetsFromFiles(std::vector<EmbeddedFile>{{"fast.json", quick}});
        FAIL() << "a preset in a file of another name was read";
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("resources/presets/fast.json: holds the preset \"quick\""));
    }
    std::string unknown = quick;
    unknown.replace(unknown.find("\"chunks\""), 8, "\"chunkz\"");
    EXPECT_THROW(presetsFromFiles(std::vector<EmbeddedFile>{{"quick.json", unknown}}), InputError);
}

#ifdef __linux__
// Made on Linux: the plan holds this OS's refusals (Windows's overlapped I/O refused with the reason).
TEST(Presets, PlanTheSameCasesAsWhenTheyWereCode)
{
    const std::string golden = readFile(IOLAB_SOURCE_DIR "/tests/data/golden-presets-plan.txt");
    ASSERT_FALSE(golden.empty()) << "tests/data/golden-presets-plan.txt is missing";
    // The golden plans, one block a preset, in the order the presets were listed.
    std::vector<std::string> blocks;
    for (std::size_t at = 0; at < golden.size();) {
        const std::size_t next = golden.find("\npreset ", at);
        const std::size_t end = next == std::string::npos ? golden.size() : next + 1;
        blocks.push_back(golden.substr(at, end - at));
        at = end;
    }
    ASSERT_EQ(blocks.size(), builtinPresets().size());
    for (std::size_t i = 0; i < blocks.size(); ++i)
        EXPECT_EQ(planText(builtinPresets()[i]), blocks[i]) << builtinPresets()[i].name;
}
#endif
