// SPDX-License-Identifier: MIT
#pragma once
// The machinery of the bad-input catalogues (tests/cli/test_refusals.cpp, tests/gui/test_refusals.cpp): one
// row per input, with its exit code, its message's key words, and a check that nothing is left on disk.

#include "tests/support/mount.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace iolab::test::refusals {

namespace fs = std::filesystem;

// What a row runs in: a target folder, a folder for output files, and, for some rows, a small mount.
struct Scene
{
    TempDir target;
    TempDir out;
    TempDir state; // XDG_STATE_HOME: the log file goes here, not into the user's home
    std::optional<TmpfsMount> mount;
    std::string special; // {P} in a row's arguments: a path the row's set-up made

    std::vector<std::string> extraEnvironment; // e.g. QT_QPA_PLATFORM=offscreen for the app

    std::vector<std::string> environment() const
    {
        auto all = extraEnvironment;
        all.push_back(stateHome(state.path()));
        return all;
    }
};

inline std::set<std::string> entries(const std::string& folder)
{
    std::set<std::string> names;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(folder, fs::directory_options::none, ec), end; !ec && it != end;
         it.increment(ec))
        names.insert(it->path().string());
    return names;
}

inline std::string nestedPath(const std::string& base, std::size_t length)
{
    std::string path = base;
    while (path.size() + 1 < length) {
        const std::size_t part = std::min<std::size_t>(200, length - path.size() - 1);
        path += '/';
        path += std::string(part, 'd');
    }
    return path;
}

inline void makeFolders(const std::string& path)
{
    // mkdir one component at a time: the whole path may be longer than the system passes in one call.
    std::string prefix;
    std::size_t from = 1;
    while (from <= path.size()) {
        const auto slash = path.find('/', from);
        prefix = path.substr(0, slash);
        std::error_code exists; // an existing component (/tmp itself) is left as it is
        fs::create_directory(prefix, exists);
        if (slash == std::string::npos)
            break;
        from = slash + 1;
    }
}

inline void write(const std::string& path, std::string_view bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

// How the system words a missing file in the messages it lends (strerror; FormatMessage: "File not found.").
#ifdef _WIN32
inline constexpr const char* kNoSuchFile = "not found";
#else
inline constexpr const char* kNoSuchFile = "No such file";
#endif

enum class Needs
{
    Nothing,
    Root,    // mounts a filesystem
    NotRoot, // relies on permissions, which root ignores
    Linux,   // a Linux path or limit (/proc, /sys, PATH_MAX): the Windows build's tests leave it out
    Symlink, // makes a symbolic link, which wine cannot (CreateSymbolicLink is not implemented)
    Windows, // a Windows program's image or rule: the Linux build's tests leave it out
};

struct Row
{
    const char* name;
    std::vector<std::string> args; // {T} target, {O} output folder, {P} Scene::special, {S} state folder
    int exitCode;
    std::vector<std::string> keywords; // each appears in stdout or stderr
    std::function<void(Scene&)> setup = {};
    Needs needs = Needs::Nothing;
    // Runs the row instead of one plain call, for signals and concurrent runs.
    std::function<ProcessResult(Scene&, const std::vector<std::string>&)> act = {};
};

inline void PrintTo(const Row& row, std::ostream* os)
{
    *os << row.name;
}

inline std::vector<std::string> expand(const std::vector<std::string>& args, const Scene& s)
{
    std::vector<std::string> out;
    for (auto a : args) {
        for (const auto& [key, value] : {std::pair<std::string, std::string>{"{T}", s.target.path()},
                                         {"{O}", s.out.path()},
                                         {"{P}", s.special},
                                         {"{S}", s.state.path()}}) {
            if (const auto at = a.find(key); at != std::string::npos)
                a.replace(at, key.size(), value);
        }
        out.push_back(a);
    }
    return out;
}

// Runs one row with `program` and checks its exit code, its key words, that no internal text leaks into the
// message, and that the target, the output folder and any mount hold exactly what the set-up put there.
inline void checkRow(const Row& row, const std::string& program, std::vector<std::string> environment = {},
                     const std::function<void(const ProcessResult&)>& alsoCheck = {})
{
    if (const std::string why = whyNoTmpfs(); row.needs == Needs::Root && !why.empty())
        GTEST_SKIP() << "this row mounts a filesystem: " << why;
    if (const std::string why = whyNoFileModes(); row.needs == Needs::NotRoot && !why.empty())
        GTEST_SKIP() << why << " (the root variant of the row uses a read-only mount)";
#ifndef _WIN32
    if (row.needs == Needs::Windows)
        GTEST_SKIP() << "this row is about a Windows program (its image, its rules), which Linux has not";
#endif
#ifdef _WIN32
    if (row.needs == Needs::Linux)
        GTEST_SKIP()
            << "this row is about a Linux path or limit (/proc, /sys, PATH_MAX), which Windows has not";
    if (row.needs == Needs::Symlink)
        GTEST_SKIP() << "this row makes a symbolic link, and wine does not implement CreateSymbolicLink";
#endif
    Scene scene;
    scene.extraEnvironment = std::move(environment);
    if (row.setup)
        row.setup(scene);
    const auto targetBefore = entries(scene.target.path());
    const auto outBefore = entries(scene.out.path());
    const auto args = expand(row.args, scene);
    const auto r = row.act ? row.act(scene, args) : runProcess(program, args, scene.environment());

    EXPECT_EQ(r.exitCode, row.exitCode) << "stdout:\n" << r.out << "\nstderr:\n" << r.err;
    if (alsoCheck)
        alsoCheck(r);
    // A sentence the program wrapped for the terminal (a line break and the next line's indent) reads as one.
    std::string said = r.out + r.err;
    for (std::size_t at = said.find('\n'); at != std::string::npos; at = said.find('\n', at + 1)) {
        const std::size_t next = said.find_first_not_of(' ', at + 1);
        if (next != std::string::npos && next > at + 1 && said[next] != '\n')
            said.replace(at, next - at, " ");
    }
    for (const auto& word : row.keywords)
        EXPECT_THAT(said, ::testing::HasSubstr(word)) << "stdout:\n" << r.out << "\nstderr:\n" << r.err;
    for (const char* internal : {"json.exception", ".tmp-", "what():", "terminate called"})
        EXPECT_THAT(r.err, ::testing::Not(::testing::HasSubstr(internal)));
    EXPECT_EQ(entries(scene.target.path()), targetBefore)
        << "files were left in the target; the program said:\n"
        << r.out << r.err;
    EXPECT_EQ(entries(scene.out.path()), outBefore) << "files were left in the output folder";
    if (scene.mount) {
        EXPECT_EQ(entries(scene.mount->path()), std::set<std::string>{}) << "files were left on the mount";
    }
}

} // namespace iolab::test::refusals
