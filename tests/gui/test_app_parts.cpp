// SPDX-License-Identifier: MIT
// The app's small parts as functions: the Export dialog's types and names, and the status line after an
// export.
#include "app/gui/export_choice.h"
#include "app/gui/log_model.h"
#include "app/gui/main_window.h"
#include "app/gui/verdict_html.h"
#include "app/report/verdict_text.h"
#include "tests/gui/wait_for.h"
#include "tests/support/temp_dir.h"

#include <QFile>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using namespace iolab::gui;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

TEST(ExportChoice, OffersPdfJsonAndCsvPdfFirst)
{
    const QStringList filters = exportNameFilters();
    ASSERT_EQ(filters.size(), 3);
    EXPECT_EQ(extensionOfFilter(filters[0]), QStringLiteral("pdf"));
    EXPECT_EQ(extensionOfFilter(filters[1]), QStringLiteral("json"));
    EXPECT_EQ(extensionOfFilter(filters[2]), QStringLiteral("csv"));
}

TEST(ExportChoice, TheNameFollowsTheChosenType)
{
    const QStringList f = exportNameFilters();
    EXPECT_EQ(fileNameForFilter(QStringLiteral("iolab-report.pdf"), f[1]),
              QStringLiteral("iolab-report.json"));
    EXPECT_EQ(fileNameForFilter(QStringLiteral("iolab-report.json"), f[2]),
              QStringLiteral("iolab-report.csv"));
    EXPECT_EQ(fileNameForFilter(QStringLiteral("/tmp/x/run.CSV"), f[0]), QStringLiteral("/tmp/x/run.pdf"));
    EXPECT_EQ(fileNameForFilter(QStringLiteral("run.pdf"), f[0]), QStringLiteral("run.pdf"));
    EXPECT_EQ(fileNameForFilter(QStringLiteral("run"), f[1]), QStringLiteral("run.json"));
    EXPECT_EQ(fileNameForFilter(QStringLiteral("run.2026"), f[0]), QStringLiteral("run.2026.pdf"));
    EXPECT_EQ(fileNameForFilter(QString(), f[0]), QString());
}

TEST(ExportChoice, TheStatusSaysFailedWithTheReasonNeverExported)
{
    EXPECT_EQ(exportStatusText(QStringLiteral("/a/r.pdf"), {}), QStringLiteral("Exported to /a/r.pdf"));
    const QString failed = exportStatusText(QStringLiteral("/a/r.pdf"), QStringLiteral("disk full"));
    EXPECT_THAT(failed.toStdString(), HasSubstr("failed"));
    EXPECT_THAT(failed.toStdString(), HasSubstr("disk full"));
    EXPECT_THAT(failed.toStdString(), ::testing::Not(HasSubstr("Exported")));
}

TEST(ExportChoice, AFailedExportAfterAGoodOneSaysItFailed)
{
    TempDir data;
    LogModel log;
    MainWindow window({q(data.path()), q(data / "settings.ini")}, &log);
    ASSERT_EQ(openAndWait(window, QStringLiteral(IOLAB_SOURCE_DIR "/tests/data/golden-result.json")),
              QString());
    ASSERT_EQ(exportAndWait(window, q(data / "good.json")), QString());
    EXPECT_THAT(window.progressText().toStdString(), HasSubstr("Exported to"));
    EXPECT_TRUE(QFile::exists(q(data / "good.json")));
    EXPECT_FALSE(exportAndWait(window, q(data / "missing-folder/bad.pdf")).isEmpty());
    EXPECT_THAT(window.progressText().toStdString(), HasSubstr("failed"));
    EXPECT_THAT(window.progressText().toStdString(), HasSubstr("missing-folder"));
    EXPECT_THAT(window.progressText().toStdString(), ::testing::Not(HasSubstr("Exported to")));
    EXPECT_THAT(window.bannerText().toStdString(), HasSubstr("failed"));
}

TEST(VerdictHtml, QuotedNamesAreCodeNotBackticksAndTextIsEscaped)
{
    Verdict v;
    v.question = "Which way is fastest to write 4 KiB records <here>?";
    v.answers = {"`stdio-unlocked` is fastest: 1.9 GB/s durable, 3.1x `stdio`"};
    v.highlights.push_back({Finding::Kind::Noise, std::nullopt, "noisy & short", "run again"});
    v.limits = {"a VM disk"};
    v.terms = {"durable: until the data was on the disk"};
    const QString html = verdictHtml(v);
    EXPECT_THAT(html.toStdString(), HasSubstr("<code>stdio-unlocked</code>"));
    EXPECT_THAT(html.toStdString(), ::testing::Not(HasSubstr("`")));
    EXPECT_THAT(html.toStdString(), HasSubstr("&lt;here&gt;"));
    EXPECT_THAT(html.toStdString(), HasSubstr("noisy &amp; short"));
    EXPECT_THAT(html.toStdString(), HasSubstr("run again"));
    EXPECT_THAT(html.toStdString(), HasSubstr("What matters most"));
    EXPECT_THAT(html.toStdString(), HasSubstr("a VM disk"));
    EXPECT_THAT(html.toStdString(), HasSubstr("1.9\u00A0GB/\u2060s durable"))
        << "a unit never wraps away from its number";
}

TEST(VerdictText, UnitsStayWithTheirNumbers)
{
    using iolab::report::keepUnitsWithNumbers;
    const QString nb(QChar(0x00A0));
    const QString perS = QStringLiteral("/") + QChar(0x2060) + QStringLiteral("s");
    EXPECT_EQ(
        keepUnitsWithNumbers(QStringLiteral("at 1.60 GB/s durable (3.25 GB/s apparent), 512 MiB in 38 ms")),
        QStringLiteral("at 1.60%1GB%2 durable (3.25%1GB%2 apparent), 512%1MiB in 38%1ms").arg(nb, perS));
    EXPECT_EQ(keepUnitsWithNumbers(QStringLiteral("4 KiB chunks, 120 files/s, 3.1 x, 38 %, 7 B, 2 s.")),
              QStringLiteral("4%1KiB chunks, 120%1files%2, 3.1%1x, 38%1%, 7%1B, 2%1s.").arg(nb, perS));
    // A slash elsewhere stays a place to break.
    EXPECT_EQ(keepUnitsWithNumbers(QStringLiteral("read/s and /tmp/s")), QStringLiteral("read/s and /tmp/s"));
    // Words after a number stay breakable: "3 repetitions", "64 KiB buffers" keeps only the unit bound.
    EXPECT_EQ(keepUnitsWithNumbers(QStringLiteral("the middle 3 of 5 repetitions, 2 stdio cases")),
              QStringLiteral("the middle 3 of 5 repetitions, 2 stdio cases"));
    EXPECT_EQ(keepUnitsWithNumbers(QStringLiteral("8 byte 4 bits 10 so")),
              QStringLiteral("8 byte 4 bits 10 so"));
}
