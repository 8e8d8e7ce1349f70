// SPDX-License-Identifier: MIT
// iolab's command line as a user meets it: --help without a display, launch problems in the window, and a
// run that cannot start ends with a status and one message.
#include "app/gui/launch.h"
#include "app/gui/log_model.h"
#include "app/gui/main_window.h"
#include "app/gui/target_model.h"
#include "core/formats/matrix_json.h"
#include "core/formats/result_json.h"
#include "core/model/matrix.h"
#include "core/version.h"
#include "platform/platform.h"
#include "tests/support/leaky_result.h"
#include "tests/support/mount.h"
#include "tests/support/pdf_text.h"
#include "tests/support/process.h"
#include "tests/support/qt_text.h"
#include "tests/support/qt_wait.h"
#include "tests/support/result_schema.h"
#include "tests/support/synthetic_trace.h"
#include "tests/support/temp_dir.h"

#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <thread>

using namespace iolab;
using namespace iolab::gui;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// Runs the app and kills it if it has not ended within `limit`: a hang fails the test instead of stalling it.
ProcessResult runApp(const std::vector<std::string>& args, const std::vector<std::string>& environment,
                     std::chrono::seconds limit = std::chrono::seconds(60))
{
    Process app(IOLAB_GUI_PATH, args, environment);
    std::atomic<bool> ended{false};
    std::jthread watchdog([&](const std::stop_token& stop) {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        while (!stop.stop_requested() && !ended.load()) {
            if (std::chrono::steady_clock::now() > deadline) {
                app.signal(SIGKILL);
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    });
    ProcessResult result = app.wait();
    ended.store(true);
    return result;
}

std::size_t countOf(const std::string& text, const std::string& what)
{
    std::size_t count = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++count;
    return count;
}

// No display at all: the platform plugin Qt would pick (xcb, wayland) has nothing to connect to.
const std::vector<std::string> kNoDisplay{"QT_QPA_PLATFORM=", "DISPLAY=", "WAYLAND_DISPLAY="};

} // namespace

TEST(Launch, HelpAndVersionNeedNoDisplay)
{
    const auto help = runApp({"--help"}, kNoDisplay);
    EXPECT_EQ(help.exitCode, 0) << help.err;
    EXPECT_THAT(help.out, HasSubstr("--target"));
    EXPECT_THAT(help.out, HasSubstr("--quit-after-run"));
    const auto version = runApp({"--version"}, kNoDisplay);
    EXPECT_EQ(version.exitCode, 0) << version.err;
    EXPECT_THAT(version.out, HasSubstr(IOLAB_VERSION));
    const auto shortVersion = runApp({"-v"}, kNoDisplay);
    EXPECT_EQ(shortVersion.exitCode, 0) << shortVersion.err;
    EXPECT_THAT(shortVersion.out, HasSubstr(IOLAB_VERSION));
}

TEST(Launch, ProblemsWithTheOptionsShowInTheWindow)
{
    TempDir data;
    const std::string broken = data / "broken.json";
    std::ofstream(broken) << "{\"cases\": [";
    LogModel log;
    MainWindow window({q(data.path()), q(data / "settings.ini")}, &log);
    LaunchOptions options;
    options.preset = QStringLiteral("nope");
    options.openResult = q(broken);
    QSignalSpy opened(&window, &MainWindow::resultOpened);
    const QStringList problems = applyLaunchOptions(window, options);
    ASSERT_EQ(problems.size(), 1) << "the result file is read off the GUI thread; its problem comes later";
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(opened.count() > 0 || opened.wait(10'000));
    const std::string banner = window.bannerText().toStdString();
    EXPECT_THAT(banner, HasSubstr("nope"));
    EXPECT_THAT(banner, HasSubstr("broken.json"));
    // Still there once the mount scan is in and has selected a target.
    IOLAB_TRY_VERIFY(!window.targetPanel()->model()->isScanning(), 10'000);
    QTest::qWait(200);
    EXPECT_THAT(window.bannerText().toStdString(), HasSubstr("nope"));
}

TEST(Launch, ProblemsAtLaunchAreInTheWindowOfTheRealApp)
{
    TempDir home;
    const std::string broken = home / "broken.json";
    std::ofstream(broken) << "not json";
    // --quit-after-shown ends it once the window is up; the banner's text is logged as it is shown.
    const auto app = runApp({"--preset", "nope", broken, "--quit-after-shown", "--data-dir", home / "data",
                             "--settings", home / "settings.ini"},
                            {"QT_QPA_PLATFORM=offscreen", stateHome(home.path())});
    EXPECT_EQ(app.exitCode, 0) << app.err;
    EXPECT_THAT(app.err, HasSubstr("nope"));
    EXPECT_THAT(app.err, HasSubstr("broken.json"));
    std::ifstream logFile(home / "iolab/iolab.log");
    const std::string logged((std::istreambuf_iterator<char>(logFile)), std::istreambuf_iterator<char>());
    EXPECT_THAT(logged, HasSubstr("nope")) << "the banner's text is logged as it is shown";
    EXPECT_THAT(logged, HasSubstr("broken.json"));
}

TEST(Launch, ARunThatCannotStartEndsWithStatusOneAndSaysSoOnce)
{
    TempDir home;
    std::optional<TmpfsMount> mount;
    std::string readOnly;
    if (runningAsRoot()) {
        mount.emplace("size=8m", kMountReadOnly);
        if (!mount->ok())
            GTEST_SKIP() << "running as root, and cannot mount a read-only tmpfs here";
        readOnly = mount->path();
    } else {
        if (const std::string why = whyNoFileModes(); !why.empty())
            GTEST_SKIP() << why;
        readOnly = home / "read-only";
        makeFolderWithMode(readOnly, 0555);
    }
    const auto started = std::chrono::steady_clock::now();
    const auto app = runApp({"--target", readOnly, "--run", "--quit-after-run", "--data-dir", home / "data",
                             "--settings", home / "settings.ini"},
                            {"QT_QPA_PLATFORM=offscreen", stateHome(home.path())});
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(30));
    EXPECT_EQ(app.exitCode, 1) << app.err;
    EXPECT_THAT(app.err, HasSubstr(readOnly));
    EXPECT_EQ(countOf(app.err, "cannot start"), 1u) << app.err;
    std::ifstream logFile(home / "iolab/iolab.log");
    const std::string logged((std::istreambuf_iterator<char>(logFile)), std::istreambuf_iterator<char>());
    EXPECT_EQ(countOf(logged, readOnly + " cannot be a target"), 1u) << logged;
    if (!runningAsRoot())
        setMode(readOnly, 0755);
}

// A run that saves to History, then the exit: iolab ends with 0, its run in History and nothing in the
// target. The Windows build once hung in its exit after such a run (a History worker's regular expression
// left MinGW's thread-key lock held: platform.h, qtEnvironmentDefaults); QT_ENABLE_REGEXP_JIT in the
// environment
// (`IOLAB_TEST_APP_ENV`, e.g. =1) runs it against what the app would otherwise set.
TEST(Launch, ARunThatSavesToHistoryEndsWithStatusZero)
{
    TempDir home;
    const std::string target = home / "target";
    std::filesystem::create_directories(target);
    const std::string matrix = home / "matrix.json";
    std::ofstream(matrix) << R"({ "name": "launch-run", "groups": [ { "strategies": ["stdio", "write"],
                                   "chunks": ["64K"], "sizes": ["1M"] } ] })";
    std::vector<std::string> environment{std::string("QT_QPA_PLATFORM=") + headlessQtPlatform(),
                                         stateHome(home.path())};
    if (const char* extra = std::getenv("IOLAB_TEST_APP_ENV"); extra != nullptr && *extra != 0)
        environment.emplace_back(extra);
    const auto started = std::chrono::steady_clock::now();
    const auto app =
        runApp({"--target", target, "--matrix", matrix, "--run", "--quit-after-run", "--no-calibration",
                "--data-dir", home / "data", "--settings", home / "settings.ini"},
               environment, std::chrono::seconds(90));
    EXPECT_EQ(app.exitCode, 0) << "killed after 90 s, or failed:\n" << app.err;
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(90));
    std::size_t saved = 0;
    if (std::filesystem::exists(home / "data/history"))
        for (const auto& entry : std::filesystem::directory_iterator(home / "data/history"))
            saved += entry.path().filename().string().find("launch-run") != std::string::npos ? 1 : 0;
    EXPECT_EQ(saved, 1u) << "the run is not in History";
    EXPECT_TRUE(std::filesystem::is_empty(target)) << "the run left files in its target";
}

TEST(Launch, AHugeMatrixStillGetsAWindowThatEndsOnSigterm)
{
    TempDir home;
    Matrix huge;
    huge.name = "huge";
    MatrixGroup g;
    g.strategies = {"write"};
    for (std::uint64_t i = 1; i <= 100; ++i) {
        g.chunks.push_back(i * 512);
        g.sizes.push_back(i * 1024 * 1024);
    }
    for (std::uint32_t t = 1; t <= 1000; ++t)
        g.threads.push_back(t);
    huge.groups.push_back(g);
    const std::string file = home / "huge.json";
    std::ofstream(file) << matrixToJson(huge).dump();
    const std::string perf = home / "perf.json";
    Process app(IOLAB_GUI_PATH,
                {"--matrix", file, "--target", home.path(), "--data-dir", home / "data", "--settings",
                 home / "settings.ini", "--perf-report", perf},
                {"QT_QPA_PLATFORM=offscreen", stateHome(home.path())});
    // The window comes up and the app runs its event loop; its perf report says when it was shown.
    std::this_thread::sleep_for(std::chrono::seconds(3));
    const auto signalled = std::chrono::steady_clock::now();
    app.signal(SIGTERM);
    std::atomic<bool> ended{false};
    std::jthread watchdog([&](const std::stop_token& stop) {
        const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!stop.stop_requested() && !ended.load()) {
            if (std::chrono::steady_clock::now() > limit) {
                app.signal(SIGKILL);
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    });
    const auto result = app.wait();
    ended.store(true);
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_LT(std::chrono::steady_clock::now() - signalled, std::chrono::seconds(5));
    std::ifstream perfFile(perf);
    ASSERT_TRUE(perfFile.good()) << "a clean exit writes its report";
    const auto report = nlohmann::json::parse(perfFile);
    EXPECT_GE(report.at("startToShownMs").get<double>(), 0) << "the window was shown";
    EXPECT_LT(report.at("startToShownMs").get<double>(), 3000);
}

// Issue 34: without a display Qt aborts ("Reinstalling the application may fix this problem"); iolab says
// plainly that there is none, points to what works without one, and exits 2.
TEST(Launch, WithoutADisplayItSaysSoAndExitsTwo)
{
    TempDir home;
    const auto app = runApp(
        {"--data-dir", home / "data", "--settings", home / "settings.ini"},
        {"QT_QPA_PLATFORM=", "DISPLAY=", "WAYLAND_DISPLAY=", "WAYLAND_SOCKET=", stateHome(home.path())});
    EXPECT_EQ(app.exitCode, 2) << app.err;
    EXPECT_THAT(app.err, HasSubstr("there is no display to open the window on"));
    EXPECT_THAT(app.err, HasSubstr("DISPLAY is not set"));
    EXPECT_THAT(app.err, HasSubstr("iolab-cli run"));
    EXPECT_THAT(app.err, HasSubstr("QT_QPA_PLATFORM=offscreen"));
    EXPECT_THAT(app.err, Not(HasSubstr("Reinstalling")));
    EXPECT_FALSE(std::filesystem::exists(home / "settings.ini")) << "nothing is written before it refuses";
}

TEST(Launch, AReportNeedsNoDisplay)
{
    TempDir out;
    const auto app =
        runApp({"report", IOLAB_SOURCE_DIR "/tests/data/golden-result.json", "--pdf", out / "r.pdf"},
               {"QT_QPA_PLATFORM=", "DISPLAY=", "WAYLAND_DISPLAY=", "WAYLAND_SOCKET="});
    EXPECT_EQ(app.exitCode, 0) << app.err;
    EXPECT_TRUE(std::filesystem::exists(out / "r.pdf"));
}

// iolab report of a trace: the program's profile as a PDF to hand over, and as JSON.
TEST(Launch, AReportOfATraceIsItsProgramsProfile)
{
    TempDir out;
    SyntheticTrace t;
    t.open(10, 10, "/data/out.bin", trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate, 3);
    t.transfer(10, 10, trace::Call::Write, 3, 4096, -1, 4);
    t.call(10, 10, trace::Call::Fsync, 3);
    t.writeTo(out / "t.iolab-trace");
    const auto app =
        runApp({"report", out / "t.iolab-trace", "--pdf", out / "p.pdf", "--json", out / "p.json"},
               {"QT_QPA_PLATFORM=", "DISPLAY=", "WAYLAND_DISPLAY=", "WAYLAND_SOCKET="});
    ASSERT_EQ(app.exitCode, 0) << app.err;
    const auto text = runHostTool("pdftotext", {"-layout", out / "p.pdf", "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    const std::string said = withoutLigatures(text.out);
    EXPECT_THAT(said, HasSubstr("What synthetic does with files"));
    EXPECT_THAT(said, HasSubstr("/data/out.bin"));
    EXPECT_THAT(said, HasSubstr("4 write"));
    const auto profile = nlohmann::json::parse(std::ifstream(out / "p.json"));
    EXPECT_EQ(profile.at("schema"), "iolab-profile/1");
    EXPECT_EQ(profile.at("writeCalls"), 4);
}

// iolab report --redact: a result carrying a host name, a home folder's paths, a serial number and a MAC
// address comes out as a PDF, a JSON and a CSV with none of them, every figure kept, saying so first; a trace
// is refused with where its names are taken out instead.
TEST(Launch, AReportRedactedForSharingCarriesNoNameAndKeepsEveryFigure)
{
    TempDir out;
    const RunResult leaky = leakyResult();
    std::ofstream(out / "leaky.json") << resultToJson(leaky).dump(1);
    const auto app = runApp({"report", out / "leaky.json", "--redact", "--pdf", out / "r.pdf", "--json",
                             out / "r.json", "--csv", out / "r.csv"},
                            {"QT_QPA_PLATFORM=", "DISPLAY=", "WAYLAND_DISPLAY=", "WAYLAND_SOCKET="});
    ASSERT_EQ(app.exitCode, 0) << app.err;
    const auto text = runHostTool("pdftotext", {"-layout", out / "r.pdf", "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    std::map<std::string, std::string> files{{"the PDF", withoutLigatures(text.out)}};
    for (const char* name : {"r.json", "r.csv", "r.summary.csv", "r.samples.csv"}) {
        std::ifstream in(out / name);
        files[name] = std::string(std::istreambuf_iterator<char>(in), {});
        ASSERT_FALSE(files[name].empty()) << name;
    }
    for (const auto& [file, content] : files)
        for (const auto& name : kLeakyNames)
            EXPECT_EQ(content.find(name), std::string::npos) << name << " is in " << file;
    EXPECT_THAT(files["the PDF"], HasSubstr("Redacted for sharing"));
    EXPECT_THAT(files["the PDF"], HasSubstr("host-1"));
    EXPECT_TRUE(test::followsResultSchema(out / "r.json"));
    const RunResult shared = resultFromJson(files["r.json"], "r.json");
    EXPECT_TRUE(shared.redacted);
    ASSERT_EQ(shared.cases.size(), leaky.cases.size());
    for (std::size_t i = 0; i < leaky.cases.size(); ++i)
        EXPECT_EQ(shared.cases[i].repetitions, leaky.cases[i].repetitions) << "every figure as measured";

    SyntheticTrace t;
    t.open(10, 10, "/home/alice/out.bin", trace::OpenWrite | trace::OpenCreate, 3);
    t.writeTo(out / "t.iolab-trace");
    const auto trace = runApp({"report", out / "t.iolab-trace", "--redact", "--pdf", out / "p.pdf"},
                              {"QT_QPA_PLATFORM=", "DISPLAY=", "WAYLAND_DISPLAY=", "WAYLAND_SOCKET="});
    EXPECT_EQ(trace.exitCode, 2);
    EXPECT_THAT(trace.err, HasSubstr("--redact applies to a result"));
    EXPECT_THAT(trace.err, HasSubstr("iolab-cli record --anonymise"));
    EXPECT_FALSE(std::filesystem::exists(out / "p.pdf"));
}

// The rule behind it, row by row: which platform Qt will try, and which display servers answer.
TEST(Launch, NoDisplayProblemFollowsWhatQtWouldTry)
{
    DisplayServers none;
    none.needsServer = true;
    none.x11Problem = "DISPLAY is not set";
    none.waylandProblem = "WAYLAND_DISPLAY is not set";
    DisplayServers x11 = none;
    x11.x11 = true;
    DisplayServers wayland = none;
    wayland.wayland = true;
    const auto problem = [](const char* platform, const char* session, bool plugin, const DisplayServers& s) {
        return noDisplayProblem(QString::fromLatin1(platform), QString::fromLatin1(session), plugin, s)
            .toStdString();
    };
    EXPECT_EQ(problem("", "", true, x11), "");
    EXPECT_EQ(problem("", "wayland", true, wayland), "");
    EXPECT_EQ(problem("offscreen", "", false, none), "")
        << "a platform that needs no server is taken at its word";
    EXPECT_EQ(problem("vnc:size=800x600", "", false, none), "");
    EXPECT_EQ(problem("wayland;xcb", "", false, wayland), "");
    EXPECT_EQ(problem("", "", true, DisplayServers{}), "") << "Windows: the desktop is always there";
    EXPECT_THAT(problem("", "", true, none), HasSubstr("DISPLAY is not set; WAYLAND_DISPLAY is not set"));
    EXPECT_THAT(problem("", "x11", true, wayland), HasSubstr("XDG_SESSION_TYPE is not wayland"));
    EXPECT_THAT(problem("", "wayland", false, wayland),
                HasSubstr("Wayland platform plugin is not installed"));
    EXPECT_THAT(problem("xcb", "", true, wayland), HasSubstr("DISPLAY is not set"));
    EXPECT_THAT(problem("wayland", "", true, x11), HasSubstr("WAYLAND_DISPLAY is not set"));
}

#ifndef _WIN32 // X11 and Xvfb are Linux's
// The probe itself against a real X server, when the machine has one to start.
TEST(Launch, AnXServerIsFoundWhereItAnswers)
{
    if (!std::filesystem::exists("/usr/bin/Xvfb"))
        GTEST_SKIP() << "Xvfb is not installed: no X server to probe (the refusal tests above need none)";
    const std::string display = ":" + std::to_string(70 + thisProcessId() % 20);
    Process xvfb("/usr/bin/Xvfb", {display, "-nolisten", "tcp"}, {});
    const auto reached = [&] {
        ::setenv("DISPLAY", display.c_str(), 1);
        const DisplayServers servers = probeDisplayServers();
        ::unsetenv("DISPLAY");
        return servers.x11;
    };
    bool up = false;
    for (int i = 0; i < 100 && !up; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        up = reached();
    }
    EXPECT_TRUE(up) << "Xvfb " << display << " did not answer within 5 s";
    xvfb.signal(SIGTERM);
    xvfb.wait();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ::setenv("DISPLAY", display.c_str(), 1);
    const DisplayServers gone = probeDisplayServers();
    ::unsetenv("DISPLAY");
    EXPECT_FALSE(gone.x11);
    EXPECT_THAT(gone.x11Problem, HasSubstr("DISPLAY=" + display));
}

#endif

TEST(Launch, DataAndSettingsPathsAreCheckedWithoutWritingAnything)
{
    TempDir home;
    const std::string file = home / "file";
    std::ofstream(file) << "x";
    LaunchOptions options;
    EXPECT_EQ(launchPathProblem(options), QString());
    options.dataFolder = q(home / "new/deeper");
    options.settingsFile = q(home / "also-new/settings.ini");
    EXPECT_EQ(launchPathProblem(options), QString()) << "folders that can be made are fine";
    EXPECT_FALSE(std::filesystem::exists(home / "new")) << "and are not made by the check";
    EXPECT_FALSE(std::filesystem::exists(home / "also-new"));
    options.dataFolder = q(file);
    EXPECT_THAT(launchPathProblem(options).toStdString(), HasSubstr("is a file, not a folder"));
    options.dataFolder.clear();
    options.settingsFile = q(home.path());
    EXPECT_THAT(launchPathProblem(options).toStdString(), HasSubstr("is a folder"));
    std::set<std::string> left;
    for (const auto& entry : std::filesystem::directory_iterator(home.path()))
        left.insert(entry.path().filename().string());
    EXPECT_EQ(left, std::set<std::string>{"file"}) << "the write probe leaves nothing";
}
