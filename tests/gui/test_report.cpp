// SPDX-License-Identifier: MIT
// The PDF report from the golden result (tests/data/golden-result.json, a real run on a 64 MiB tmpfs with a
// case that filled it and a refused O_DIRECT chunk; its path was edited to hold non-ASCII, a comma and
// quotes): poppler reads it back, finds the figures and findings, and renders every page. `iolab report`
// writes atomically and names what is wrong with its input.
#include "app/report/pdf_report.h"
#include "core/result_json.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

std::string slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

const std::string& goldenPath()
{
    static const std::string path = std::string(IOLAB_SOURCE_DIR) + "/tests/data/golden-result.json";
    return path;
}

RunResult golden()
{
    return resultFromJson(slurp(goldenPath()), "golden-result.json");
}

// poppler-utils is installed by installer/dev.sh; a missing tool is a failure, not a skip.
std::string poppler(const std::string& tool)
{
    const std::string path = "/usr/bin/" + tool;
    EXPECT_TRUE(std::filesystem::exists(path)) << path << " is missing: install poppler-utils (dev.sh does)";
    return path;
}

std::string writePdf(const TempDir& dir, const RunResult& result, report::PageFormat page)
{
    const QByteArray pdf = report::renderPdfReport(result, {page, {}}, &builtinRegistry());
    const std::string path = dir / "report.pdf";
    std::ofstream(path, std::ios::binary).write(pdf.constData(), pdf.size());
    return path;
}

int pageCount(const std::string& pdf)
{
    const auto info = runProcess(poppler("pdfinfo"), {pdf});
    EXPECT_EQ(info.exitCode, 0) << info.err;
    const auto at = info.out.find("Pages:");
    return at == std::string::npos ? -1 : std::stoi(info.out.substr(at + 6));
}

} // namespace

TEST(Report, TheGoldenResultMakesAReadablePdf)
{
    TempDir dir;
    const RunResult result = golden();
    const std::string pdf = writePdf(dir, result, report::PageFormat::A4);
    const int pages = pageCount(pdf);
    EXPECT_GE(pages, 3);
    EXPECT_LE(pages, 8);

    const auto text = runProcess(poppler("pdftotext"), {"-layout", pdf, "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    for (const char* expected :
         {"IOLab report: golden", "Machine", "Target", "/mnt/données, \"scratch\"", "Summary", "Findings",
          "Strategy x chunk size", "Throughput over time", "The matrix as run", "Refused combinations",
          "Appendix: every repetition", "No space left on device",
          "is not a multiple of the target's logical", "fastest: At 64 KiB per call", "O_DIRECT not honoured",
          "page 1 of", "Trim.", "the trimmed mean leaves out the slowest"})
        EXPECT_THAT(text.out, HasSubstr(expected));
    // Key figures as the summary prints them: every measured median, to one decimal.
    for (const auto& c : result.cases) {
        if (c.status != Status::Ok)
            continue;
        EXPECT_THAT(text.out, HasSubstr(QString::number(c.apparentMBps.median, 'f', 1).toStdString()))
            << c.testCase.label();
    }
    EXPECT_THAT(text.out, HasSubstr("page " + std::to_string(pages) + " of " + std::to_string(pages)));
    EXPECT_THAT(text.out, HasSubstr("IOLab " + result.toolVersion)); // the version that made the run

    const auto fonts = runProcess(poppler("pdffonts"), {pdf});
    EXPECT_THAT(fonts.out, HasSubstr(" yes ")) << "fonts are embedded:\n" << fonts.out;

    const auto render = runProcess(poppler("pdftoppm"), {"-r", "40", "-png", pdf, dir / "page"});
    EXPECT_EQ(render.exitCode, 0) << render.err;
    int images = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir.path()))
        images += e.path().extension() == ".png" ? 1 : 0;
    EXPECT_EQ(images, pages);
}

TEST(Report, PageSizeFollowsTheChoice)
{
    TempDir dir;
    const auto a4 = runProcess(poppler("pdfinfo"), {writePdf(dir, golden(), report::PageFormat::A4)});
    EXPECT_THAT(a4.out, HasSubstr("(A4)"));
    const auto letter = runProcess(poppler("pdfinfo"), {writePdf(dir, golden(), report::PageFormat::Letter)});
    EXPECT_THAT(letter.out, HasSubstr("(letter)"));
}

TEST(Report, CancelledAndFailedRunsStillReport)
{
    TempDir dir;
    RunResult result = golden();
    result.cancelled = true;
    result.cases.resize(2);
    result.cases[1].status = Status::Failed;
    result.cases[1].reason = "fwrite failed: Input/output error (EIO)";
    const auto text = runProcess(poppler("pdftotext"), {writePdf(dir, result, report::PageFormat::A4), "-"});
    EXPECT_THAT(text.out, HasSubstr("stopped before the end"));
    EXPECT_THAT(text.out, HasSubstr("Input/output error"));
    RunResult empty;
    empty.cancelled = true;
    EXPECT_GT(report::renderPdfReport(empty, {}, nullptr).size(), 1000) << "even a run with no case";
}

TEST(Report, ALongTableBreaksAcrossPagesWithItsHeaderRepeated)
{
    TempDir dir;
    RunResult result = golden();
    const CaseResult model = result.cases.front();
    result.cases.clear();
    for (std::uint32_t i = 0; i < 150; ++i) {
        CaseResult c = model;
        c.index = i;
        c.testCase.chunkBytes = 512ULL * (i + 1);
        result.cases.push_back(c);
    }
    const std::string pdf = writePdf(dir, result, report::PageFormat::A4);
    const auto text = runProcess(poppler("pdftotext"), {"-f", "1", "-l", "4", pdf, "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    std::size_t headers = 0;
    for (std::size_t at = text.out.find("Stab."); at != std::string::npos;
         at = text.out.find("Stab.", at + 1))
        ++headers;
    EXPECT_GE(headers, 3u) << "the summary's header is on every page it spans";
    EXPECT_GE(pageCount(pdf), 8);
}

TEST(ReportCommand, WritesEveryFormatAtomically)
{
    TempDir dir;
    const auto r = runProcess(IOLAB_GUI_PATH,
                              {"report", goldenPath(), "--pdf", dir / "r.pdf", "--csv", dir / "r.csv",
                               "--json", dir / "r.json", "--page", "letter"},
                              {"QT_QPA_PLATFORM="});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char* name : {"r.pdf", "r.csv", "r.summary.csv", "r.samples.csv", "r.json"})
        EXPECT_TRUE(std::filesystem::exists(dir / name)) << name;
    EXPECT_EQ(dir.entryCount(), 5u) << "no temporary file left";
    EXPECT_EQ(resultFromJson(slurp(dir / "r.json"), "r.json"), golden())
        << "the JSON reopens as the same result";
    EXPECT_THAT(runProcess(poppler("pdfinfo"), {dir / "r.pdf"}).out, HasSubstr("(letter)"));
}

TEST(ReportCommand, BadInputAndOutputGetClearMessagesAndNoFile)
{
    TempDir dir;
    auto r = runProcess(IOLAB_GUI_PATH, {"report", goldenPath(), "--pdf", dir / "missing/r.pdf"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_THAT(r.err, HasSubstr("missing"));
    EXPECT_EQ(dir.entryCount(), 0u);

    std::ofstream(dir / "broken.json") << "{\"schema\": \"iolab.result/1\", \"cases\": [";
    r = runProcess(IOLAB_GUI_PATH, {"report", dir / "broken.json", "--pdf", dir / "r.pdf"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("broken.json"));
    EXPECT_FALSE(std::filesystem::exists(dir / "r.pdf"));

    std::string future = slurp(goldenPath());
    future.replace(future.find("iolab.result/1"), 14, "iolab.result/9");
    std::ofstream(dir / "future.json") << future;
    r = runProcess(IOLAB_GUI_PATH, {"report", dir / "future.json", "--pdf", dir / "r.pdf"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("iolab.result/9"));

    r = runProcess(IOLAB_GUI_PATH, {"report", goldenPath()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("nothing to write"));
    r = runProcess(IOLAB_GUI_PATH, {"report", dir / "nope.json", "--pdf", dir / "r.pdf"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("cannot read"));
    EXPECT_FALSE(std::filesystem::exists(dir / "r.pdf"));
}
