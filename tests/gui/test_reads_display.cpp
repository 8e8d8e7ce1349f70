// SPDX-License-Identifier: MIT
// Read results as a user sees them: a real run of the file-set readers and a hinted read (this OS's engine,
// in a temp folder) shown in the results table, the heatmap with parallelism as its columns, and the PDF.
#include "app/gui/heatmap.h"
#include "app/gui/results_model.h"
#include "app/gui/results_view.h"
#include "app/report/heatmap_data.h"
#include "app/report/pdf_report.h"
#include "core/base/units.h"
#include "core/engine/runner.h"
#include "core/model/matrix.h"
#include "platform/platform.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <QComboBox>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

// files-serial, files-pool at 1, 4 and 16 threads and files-per-thread over 300 files, then a 4 MiB read
// with the sequential and random hints: all cold, verified.
const RunResult& readRun()
{
    static const RunResult result = [] {
        TempDir dir;
        const Registry& registry = builtinRegistry();
        auto target = inspectTarget(dir.path());
        MatrixGroup files;
        files.strategies = {"files-serial", "files-pool", "files-per-thread"};
        files.chunks = {64 * kKiB};
        files.threads = {1, 4, 16};
        files.fileSets = {parseFileSet("300x1K-8K")};
        MatrixGroup seq;
        seq.strategies = {"read"};
        seq.chunks = {64 * kKiB};
        seq.sizes = {4 * kMiB};
        seq.hints = {ReadHint::Sequential, ReadHint::Random};
        const Matrix m{"reads", "", {files, seq}};
        RunOptions options;
        options.repetitions = 2;
        options.warmups = 0;
        options.verifyFiles = true;
        options.sampleIntervalMs = 10;
        auto probe = makeSystemProbe();
        auto workspace = makeWorkspace(target);
        Runner runner(registry, *workspace, *probe);
        return runner.run(*makeRunPlan(m, registry, target), options, {});
    }();
    return result;
}

} // namespace

TEST(ReadsDisplay, TheRunItselfWorked)
{
    const auto& r = readRun();
    ASSERT_EQ(r.cases.size(), 7u);
    for (const auto& c : r.cases)
        EXPECT_EQ(c.status, Status::Ok) << c.testCase.label() << ": " << c.reason;
}

TEST(ReadsDisplay, TheTableShowsFilesPerSecondLatencyAndTheReadAxes)
{
    gui::ResultsModel model;
    model.setResult(readRun());
    const auto cell = [&](int row, int column) {
        return model.data(model.index(row, column)).toString();
    };
    // Row 2: files-pool with 4 threads.
    EXPECT_EQ(cell(2, gui::ResultsModel::StrategyColumn), QStringLiteral("files-pool"));
    EXPECT_EQ(cell(2, gui::ResultsModel::ThreadsColumn), QStringLiteral("4"));
    EXPECT_THAT(cell(2, gui::ResultsModel::SizeColumn).toStdString(), HasSubstr("300x1K-8K ("));
    EXPECT_THAT(cell(2, gui::ResultsModel::FilesPerSecondColumn).toStdString(), HasSubstr("files/s"));
    EXPECT_FALSE(cell(2, gui::ResultsModel::FileP50Column).isEmpty());
    EXPECT_FALSE(cell(2, gui::ResultsModel::FileP99Column).isEmpty());
    EXPECT_EQ(cell(2, gui::ResultsModel::ReadColumn), QStringLiteral("normal, cold"));
    EXPECT_TRUE(cell(2, gui::ResultsModel::DurableColumn).isEmpty()) << "reads have nothing to make durable";
    EXPECT_TRUE(cell(2, gui::ResultsModel::SyncColumn).isEmpty());
    EXPECT_EQ(cell(4, gui::ResultsModel::ThreadsColumn), QStringLiteral("300")) << "one thread per file";
    EXPECT_EQ(cell(5, gui::ResultsModel::ReadColumn), QStringLiteral("sequential, cold"));
    EXPECT_TRUE(cell(5, gui::ResultsModel::FilesPerSecondColumn).isEmpty()) << "one large file: no files/s";
    EXPECT_EQ(model.headerData(gui::ResultsModel::FileP99Column, Qt::Horizontal).toString(),
              QStringLiteral("p99/file"));
}

TEST(ReadsDisplay, TheHeatmapTakesParallelismAsItsColumns)
{
    const auto& r = readRun();
    std::vector<CaseResult> files(r.cases.begin(), r.cases.begin() + 5);
    const report::ChartAxis preferred = report::preferredAxis(files);
    EXPECT_EQ(preferred.key, "threads") << "the thread count varies, the chunk size does not";
    const auto heat = report::HeatmapData::from(files, preferred);
    EXPECT_EQ(heat.columns, (std::vector<report::AxisValue>{1, 4, 16, 300}));
    EXPECT_EQ(heat.columnLabel(3), QStringLiteral("300"));
    EXPECT_EQ(heat.axis.name, QStringLiteral("threads"));
    EXPECT_EQ(heat.axis.words(heat.columns[2]), QStringLiteral("16 threads"));
    EXPECT_EQ(heat.strategies, (QStringList{QStringLiteral("files-serial"), QStringLiteral("files-pool"),
                                            QStringLiteral("files-per-thread")}));
    EXPECT_TRUE(heat.cells[1][2].bestMBps.has_value()) << "files-pool at 16 threads";
    EXPECT_FALSE(heat.cells[0][2].bestMBps.has_value()) << "files-serial never runs 16 threads";

    gui::ResultsView view;
    RunResult onlyFiles = r;
    onlyFiles.cases = files;
    view.setResult(onlyFiles);
    EXPECT_EQ(view.heatmap()->data().axis.key, "threads") << "automatic picks threads here";
    EXPECT_THAT(view.summaryText().toStdString(), HasSubstr("Reads, cold:"))
        << "the eviction method is shown";
    // The menu offers what varies: the thread count, not the one chunk size nor the file set's one size.
    QComboBox* columns = view.heatmapAxisChooser();
    const auto offered = [columns] {
        QStringList out;
        for (int i = 0; i < columns->count(); ++i)
            out << columns->itemText(i);
        return out;
    };
    EXPECT_EQ(offered(), (QStringList{QStringLiteral("Automatic"), QStringLiteral("Threads")}));
    columns->setCurrentIndex(1);
    EXPECT_EQ(view.heatmap()->data().axis.key, "threads");
    EXPECT_EQ(view.heatmap()->data().columns, (std::vector<report::AxisValue>{1, 4, 16, 300}));

    // Chunk sizes that vary are offered first, and automatic takes them; the choice of threads is kept.
    onlyFiles.cases[1].testCase.chunkBytes = 4 * kKiB;
    view.setResult(onlyFiles);
    EXPECT_EQ(offered(), (QStringList{QStringLiteral("Automatic"), QStringLiteral("Chunk size"),
                                      QStringLiteral("Threads")}));
    EXPECT_EQ(columns->currentText(), QStringLiteral("Threads"));
    EXPECT_EQ(view.heatmap()->data().axis.key, "threads");
    columns->setCurrentIndex(0);
    EXPECT_EQ(view.heatmap()->data().axis.key, "chunkBytes");
    EXPECT_EQ(view.heatmap()->data().columns, (std::vector<report::AxisValue>{4 * kKiB, 64 * kKiB}));
}

TEST(ReadsDisplay, TheReportCarriesTheReadFigures)
{
    TempDir dir;
    const QByteArray pdf =
        report::renderPdfReport(readRun(), {report::PageFormat::A4, {}}, &builtinRegistry());
    const std::string path = dir / "reads.pdf";
    std::ofstream(path, std::ios::binary).write(pdf.constData(), pdf.size());
    const auto text = runHostTool("pdftotext", {"-layout", path, "-"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    // pdftotext writes "fi" as a ligature, and narrow columns wrap "sequential, cold" after the comma.
    for (const char* expected : {"File-set reader", "Files/s", "p99 per", "300x1K-8K",
                                 "Reads, cold:", "sequential,", "random,", "cold read"})
        EXPECT_THAT(text.out, HasSubstr(expected));
}
