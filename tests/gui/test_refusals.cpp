// SPDX-License-Identifier: MIT
// The bad-input catalogues of `iolab report` and of the app's launch options: one row per input, with its
// exit code, the key words of its message, and nothing left on disk but what the test made. (iolab-cli's
// table is tests/cli/test_refusals.cpp.)
#include "core/version.h"
#include "tests/support/refusal_table.h"
#include "tests/support/synthetic_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab::test;
using namespace iolab::test::refusals;

namespace {

const std::string kGolden = IOLAB_SOURCE_DIR "/tests/data/golden-result.json";

std::string nested(std::size_t depth)
{
    return "{\"schema\": " + std::string(depth, '[') + std::string(depth, ']') + "}";
}

Row resultRow(const char* name, std::string content, std::vector<std::string> keywords)
{
    return {name,
            {"report", "{O}/result.json", "--pdf", "{O}/report.pdf"},
            2,
            std::move(keywords),
            [content = std::move(content)](Scene& s) {
                write(s.out / "result.json", content);
            }};
}

Row outputRow(const char* name, std::vector<std::string> output, int exitCode,
              std::vector<std::string> keywords, std::function<void(Scene&)> setup = {},
              Needs needs = Needs::Nothing)
{
    std::vector<std::string> args = {"report", kGolden};
    args.insert(args.end(), output.begin(), output.end());
    return {name, args, exitCode, std::move(keywords), std::move(setup), needs};
}

// A trace (iolab-cli record's or import's) to report on: a file written and synced, then spoiled as the row
// says.
std::string traceBytes()
{
    SyntheticTrace t;
    t.open(10, 10, "/data/out", trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate, 3);
    t.transfer(10, 10, trace::Call::Write, 3, 4096, -1, 4);
    t.call(10, 10, trace::Call::Fsync, 3);
    return t.bytes();
}

Row traceRow(const char* name, std::string content, std::vector<std::string> output,
             std::vector<std::string> keywords)
{
    std::vector<std::string> args = {"report", "{O}/t.iolab-trace"};
    args.insert(args.end(), output.begin(), output.end());
    return {name, args, 2, std::move(keywords), [content = std::move(content)](Scene& s) {
                write(s.out / "t.iolab-trace", content);
            }};
}

class ReportRefusal : public ::testing::TestWithParam<Row>
{};

TEST_P(ReportRefusal, ExitCodeMessageAndNothingLeftOnDisk)
{
    checkRow(GetParam(), IOLAB_GUI_PATH, {"QT_QPA_PLATFORM=offscreen"});
}

// clang-format off
const Row kReportRows[] = {
    {"ResultMissing", {"report", "{O}/none.json", "--pdf", "{O}/r.pdf"}, 2, {"none.json", kNoSuchFile}},
    {"ResultIsAFolder", {"report", "{O}", "--pdf", "{T}/r.pdf"}, 2, {"is a folder"}},
    resultRow("ResultEmpty", "", {"result.json", "the file is empty"}),
    resultRow("ResultTruncated", "{\"schema\": \"iolab.result/1\", \"cases\": [", {"result.json", "cut short"}),
    resultRow("ResultBinary", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), {"result.json", "0x89"}),
    resultRow("ResultNested100000Deep", nested(100000), {"result.json", "nested deeper than 64 levels"}),
    resultRow("ResultWithoutSchema", "{\"cases\": []}", {"result.json", "not an IOLab result"}),
    resultRow("ResultFromANewerIolab", "{\"schema\": \"iolab.result/99\"}", {"result.json", "newer IOLab"}),
    resultRow("AMatrixInsteadOfAResult", "{\"strategies\": [\"write\"], \"chunks\": [\"4K\"]}", {"not an IOLab result"}),
    traceRow("TraceTruncated", traceBytes().substr(0, traceBytes().size() - 40), {"--pdf", "{O}/r.pdf"}, {"t.iolab-trace", "is truncated"}),
    traceRow("TraceAsCsv", traceBytes(), {"--csv", "{O}/r.csv"}, {"is a trace", "no CSV"}),
    traceRow("TracePdfFolderMissing", traceBytes(), {"--pdf", "{O}/no/such/r.pdf"}, {"r.pdf", "does not exist"}),
    {"NoResultGiven", {"report", "--pdf", "{O}/r.pdf"}, 2, {"give one result file"}},
    {"TwoResultsGiven", {"report", kGolden, kGolden, "--pdf", "{O}/r.pdf"}, 2, {"give one result file"}},
    outputRow("NoOutputGiven", {}, 2, {"nothing to write"}),
    outputRow("UnknownPage", {"--pdf", "{O}/r.pdf", "--page", "a5"}, 2, {"--page", "'a5'"}),
    outputRow("UnknownRank", {"--pdf", "{O}/r.pdf", "--rank", "fastest"}, 2, {"--rank", "'fastest'"}),
    outputRow("UnknownFlag", {"--pdf", "{O}/r.pdf", "--colour"}, 2, {"colour"}),
    outputRow("PdfInProc", {"--pdf", "/proc/r.pdf"}, 2, {"/proc/r.pdf"}),
    outputRow("PdfIsAFolder", {"--pdf", "{O}"}, 2, {"is a folder"}),
    outputRow("PdfFolderMissing", {"--pdf", "{O}/no/such/r.pdf"}, 2, {"r.pdf", "does not exist"}),
    outputRow("PdfUnderAFile", {"--pdf", "{O}/file/r.pdf"}, 2, {"is not a folder"},
              [](Scene& s) { write(s.out / "file", "x"); }),
    outputRow("CsvInProc", {"--csv", "/proc/r.csv"}, 2, {"/proc/r.csv"}),
    outputRow("JsonIsAFolder", {"--json", "{O}"}, 2, {"is a folder"}),
    // A bad second output costs the first nothing: no file is written before every path is checked.
    outputRow("GoodPdfBadCsv", {"--pdf", "{O}/r.pdf", "--csv", "{O}/no/such/r.csv"}, 2, {"r.csv", "does not exist"}),
    outputRow("PdfOnReadOnlyMount", {"--pdf", "{P}/r.pdf"}, 2, {"r.pdf", "Read-only file system"},
              [](Scene& s) { s.mount.emplace("size=8m", kMountReadOnly); s.special = s.mount->path(); }, Needs::Root),
    outputRow("PdfInUnwritableFolder", {"--pdf", "{P}/r.pdf"}, 2, {"r.pdf", "not writable"},
              [](Scene& s) { s.special = s.out / "locked"; makeFolderWithMode(s.special, 0555); }, Needs::NotRoot),
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Catalogue, ReportRefusal, ::testing::ValuesIn(kReportRows),
                         [](const auto& row) { return std::string(row.param.name); });

// The app's launch options. The app keeps its data and settings in the state folder ({S}); a problem with
// an option shows in the window's banner, which the app also prints, and --quit-after-shown ends it there.
Row launchRow(const char* name, std::vector<std::string> options, int exitCode,
              std::vector<std::string> keywords, std::function<void(Scene&)> setup = {},
              Needs needs = Needs::Nothing)
{
    std::vector<std::string> args = std::move(options);
    // The state folder for data and settings, unless the row is about where they go.
    for (const auto& [flag, path] :
         {std::pair{"--data-dir", "{S}/data"}, std::pair{"--settings", "{S}/settings.ini"}}) {
        if (std::find(args.begin(), args.end(), flag) == args.end()) {
            args.emplace_back(flag);
            args.emplace_back(path);
        }
    }
    if (std::find(args.begin(), args.end(), "--quit-after-run") == args.end() &&
        std::find(args.begin(), args.end(), "--help") == args.end() &&
        std::find(args.begin(), args.end(), "--version") == args.end())
        args.emplace_back("--quit-after-shown");
    return {name, args, exitCode, std::move(keywords), std::move(setup), needs};
}

std::function<void(Scene&)> matrixFile(std::string content)
{
    return [content = std::move(content)](Scene& s) {
        write(s.out / "matrix.json", content);
    };
}

std::string tenMillionCases()
{
    std::string chunks;
    std::string threads;
    for (int i = 1; i <= 100; ++i)
        chunks += (i > 1 ? "," : "") + std::to_string(i * 512);
    for (int i = 1; i <= 1000; ++i)
        threads += (i > 1 ? "," : "") + std::to_string(i);
    return "{\"strategies\": [\"write\"], \"chunks\": [" + chunks + "], \"sizes\": [" + chunks +
           "], \"threads\": [" + threads + "]}";
}

// Runs the app with no display at all (or one that nobody serves): as a user starts it over ssh or in a
// container. `display` is the DISPLAY it is given.
std::function<ProcessResult(Scene&, const std::vector<std::string>&)> withoutDisplay(std::string display)
{
    return [display = std::move(display)](Scene& s, const std::vector<std::string>& args) {
        return runProcess(IOLAB_GUI_PATH, args,
                          {"QT_QPA_PLATFORM=", "DISPLAY=" + display,
                           "WAYLAND_DISPLAY=", "WAYLAND_SOCKET=", stateHome(s.state.path())});
    };
}

std::function<void(Scene&)> readOnlyMount()
{
    return [](Scene& s) {
        s.mount.emplace("size=8m", kMountReadOnly);
        s.special = s.mount->path();
    };
}

std::function<void(Scene&)> lockedFolder()
{
    return [](Scene& s) {
        s.special = s.out / "locked";
        makeFolderWithMode(s.special, 0555);
    };
}

class LaunchRefusal : public ::testing::TestWithParam<Row>
{};

TEST_P(LaunchRefusal, ExitCodeMessageAndNothingLeftOnDisk)
{
    // No display for --help and --version; offscreen for the rest.
    const bool informational = GetParam().args.front() == "--help" || GetParam().args.front() == "--version";
    checkRow(GetParam(), IOLAB_GUI_PATH,
             informational ? std::vector<std::string>{"QT_QPA_PLATFORM=", "DISPLAY=", "WAYLAND_DISPLAY="}
                           : std::vector<std::string>{"QT_QPA_PLATFORM=offscreen"});
}

const std::string kRunAndQuit = "--quit-after-run";

// clang-format off
const Row kLaunchRows[] = {
    launchRow("HelpWithoutADisplay", {"--help"}, 0, {"--target", "--quit-after-run"}),
    launchRow("VersionWithoutADisplay", {"--version"}, 0, {IOLAB_VERSION}),
    launchRow("UnknownOption", {"--turbo"}, 2, {"turbo"}),
    launchRow("UnknownPreset", {"--preset", "nope"}, 0, {"no preset named 'nope'"}),
    launchRow("UnknownTheme", {"--theme", "purple"}, 0, {"--theme", "purple"}),
    launchRow("MatrixMissing", {"--matrix", "{O}/none.json"}, 0, {"none.json"}),
    launchRow("MatrixIsAFolder", {"--matrix", "{O}"}, 0, {"is a folder"}),
    launchRow("MatrixTruncated", {"--matrix", "{O}/matrix.json"}, 0, {"matrix.json", "cut short"},
              matrixFile("{\"strategies\": [\"write\"], \"chunks\": [4096")),
    launchRow("MatrixNested100000Deep", {"--matrix", "{O}/matrix.json"}, 0, {"matrix.json", "nested deeper than 64 levels"},
              matrixFile("{\"strategies\": " + std::string(100000, '[') + std::string(100000, ']') + "}")),
    launchRow("MatrixTenMillionCases", {"--matrix", "{O}/matrix.json"}, 0, {"10,000,000 cases", "limit of 100,000"},
              matrixFile(tenMillionCases())),
    launchRow("ResultFileMissing", {"{O}/none.json"}, 0, {"none.json", kNoSuchFile}),
    launchRow("ResultFileBroken", {"{O}/broken.json"}, 0, {"broken.json", "not valid JSON"},
              [](Scene& s) { write(s.out / "broken.json", "{\"cases\": ["); }),
    launchRow("TargetMissing", {"--target", "{T}/nope"}, 0, {"nope", "does not exist"}),
    launchRow("TargetProcWithRun", {"--target", "/proc", "--preset", "quick", "--run", kRunAndQuit}, 1, {"/proc", "pseudo-filesystem"}),
    launchRow("TargetReadOnlyWithRun", {"--target", "{P}", "--preset", "quick", "--run", kRunAndQuit}, 1, {"cannot start"},
              [](Scene& s) { s.mount.emplace("size=8m", kMountReadOnly); s.special = s.mount->path(); }, Needs::Root),
    launchRow("TargetNotWritableWithRun", {"--target", "{P}", "--preset", "quick", "--run", kRunAndQuit}, 1, {"cannot start"},
              [](Scene& s) { s.special = s.out / "locked"; makeFolderWithMode(s.special, 0555); }, Needs::NotRoot),
    launchRow("TargetTooLongWithRun", {"--target", "{P}", "--preset", "quick", "--run", kRunAndQuit}, 1, {"too long"},
              [](Scene& s) { s.special = nestedPath(s.target.path(), 4300); }),
    launchRow("BrokenMatrixWithRun", {"--target", "{T}", "--matrix", "{O}/matrix.json", "--run", kRunAndQuit}, 1, {"matrix.json", "cut short"},
              matrixFile("{\"strategies\": [\"write\"], \"chunks\": [4096")),
    launchRow("UnknownPresetWithRun", {"--target", "{T}", "--preset", "nope", "--run", kRunAndQuit}, 1, {"no preset named 'nope'"}),
    // Issue 34: refused at launch, exit 2, before any window.
    launchRow("QuitAfterRunWithoutRun", {"--target", "{T}", kRunAndQuit}, 2, {"--quit-after-run", "give --run too"}),
    launchRow("DataDirIsAFile", {"--data-dir", "{O}/file"}, 2, {"--data-dir", "file", "is a file, not a folder"},
              [](Scene& s) { write(s.out / "file", "x"); }),
    launchRow("DataDirUnderAFile", {"--data-dir", "{O}/file/data"}, 2, {"--data-dir", "file/data", "cannot be made", "is a file"},
              [](Scene& s) { write(s.out / "file", "x"); }),
    launchRow("DataDirOnReadOnlyMount", {"--data-dir", "{P}/data"}, 2, {"--data-dir", "Read-only file system"},
              readOnlyMount(), Needs::Root),
    launchRow("DataDirNotWritable", {"--data-dir", "{P}"}, 2, {"--data-dir", "locked", "no file can be written"},
              lockedFolder(), Needs::NotRoot),
    launchRow("SettingsIsAFolder", {"--settings", "{O}"}, 2, {"--settings", "is a folder", "INI file"}),
    launchRow("SettingsUnderAFile", {"--settings", "{O}/file/settings.ini"}, 2, {"--settings", "settings.ini", "is a file"},
              [](Scene& s) { write(s.out / "file", "x"); }),
    launchRow("SettingsOnReadOnlyMount", {"--settings", "{P}/settings.ini"}, 2, {"--settings", "settings.ini", "Read-only file system"},
              readOnlyMount(), Needs::Root),
    launchRow("SettingsInUnwritableFolder", {"--settings", "{P}/settings.ini"}, 2, {"--settings", "locked", "no setting could be saved"},
              lockedFolder(), Needs::NotRoot),
    launchRow("SettingsFileReadOnly", {"--settings", "{O}/settings.ini"}, 2, {"--settings", "not writable"},
              [](Scene& s) { write(s.out / "settings.ini", "[General]\n"); setMode((s.out / "settings.ini"), 0444); },
              Needs::NotRoot),
    {"NoDisplay", {"--target", "{T}"}, 2, {"no display", "DISPLAY is not set", "iolab-cli", "QT_QPA_PLATFORM=offscreen"},
     {}, Needs::Nothing, withoutDisplay("")},
    {"DisplayNobodyServes", {"--target", "{T}"}, 2, {"no display", "DISPLAY=:87", "iolab-cli"},
     {}, Needs::Nothing, withoutDisplay(":87")},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Catalogue, LaunchRefusal, ::testing::ValuesIn(kLaunchRows),
                         [](const auto& row) { return std::string(row.param.name); });

} // namespace
