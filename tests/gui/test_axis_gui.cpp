// SPDX-License-Identifier: MIT
// An axis added through its declaration alone (tests/support/test_axis.h) has a field in the matrix editor, a
// part in the grid's row summary, a column in the results table and a place in the PDF's matrix (issue 15
// §1).
#include "app/gui/heatmap.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/matrix_grid_model.h"
#include "app/gui/results_model.h"
#include "app/gui/results_view.h"
#include "app/report/bar_chart_data.h"
#include "app/report/pdf_report.h"
#include "core/formats/result_json.h"
#include "platform/platform.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_axis.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QTableView>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

using namespace iolab;
using namespace iolab::gui;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

struct DeclaredAxisEditor : ::testing::Test
{
    QueueDepthAxis axis; // before the editor, which makes its fields from the declarations
    TempDir presets;
    MatrixEditor editor{builtinRegistry(), QString::fromStdString(presets.path())};
};

TEST_F(DeclaredAxisEditor, HasAFieldThatSetsTheWritersDepths)
{
    QLineEdit* field = editor.axisField("depths");
    ASSERT_NE(field, nullptr);
    EXPECT_EQ(field->toolTip(), QStringLiteral("Requests each writer keeps in flight."));
    EXPECT_EQ(editor.axisField("preallocate"), nullptr) << "an axis declared without a field has none";

    editor.selectStrategies({QStringLiteral("write")});
    EXPECT_EQ(editor.axisText("depths"), QStringLiteral("1")) << "the declared default";
    QString error;
    ASSERT_TRUE(editor.setAxisText("depths", QStringLiteral("8, 1, 8"), &error)) << error.toStdString();
    EXPECT_EQ(editor.axisText("depths"), QStringLiteral("1, 8"));
    const MatrixDraft draft = editor.draft();
    const StrategyDraft& row = *draft.find("write");
    EXPECT_EQ(row.extraAxes.at("depths"), (std::vector<std::string>{"1", "8"}));
    EXPECT_THAT(axesSummary(row).toStdString(), HasSubstr("depth 1, 8"));

    EXPECT_FALSE(editor.setAxisText("depths", QStringLiteral("300"), &error));
    EXPECT_THAT(error.toStdString(), HasSubstr("queue depth 300 is outside 1 to 128"));

    editor.selectStrategies({QStringLiteral("read")});
    EXPECT_FALSE(field->isEnabled());
    EXPECT_EQ(field->placeholderText(), QStringLiteral("(writers only)"));
    EXPECT_FALSE(editor.setAxisText("depths", QStringLiteral("4"), &error));
    EXPECT_EQ(error, QStringLiteral("None of read writes: reads have no queue depth."));
}

TEST(DeclaredAxisResults, HasAColumnAfterTheBuiltInAxesOnes)
{
    QueueDepthAxis axis;
    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
    RunResult run;
    for (const char* depth : {"1", "32"}) {
        CaseResult c;
        c.index = static_cast<std::uint32_t>(run.cases.size());
        c.testCase.strategy = "write";
        c.testCase.extraAxes["depths"] = depth;
        run.cases.push_back(c);
    }
    RefusedCase read;
    read.testCase.strategy = "read";
    read.testCase.direction = Direction::Read;
    run.refused.push_back(read);
    model.setResult(run);

    // Its declaration gives it a column the way the built-in axes' give theirs: after the latency (its rank),
    // before the figures, which move right by one.
    ASSERT_EQ(model.columnCount(), ResultsModel::ColumnCount + 1);
    const int column = ResultsModel::axisColumn("testDepth");
    ASSERT_EQ(column, ResultsModel::LatencyColumn + 1);
    EXPECT_EQ(ResultsModel::axisColumns().back(), column);
    ASSERT_EQ(ResultsModel::axesInColumn(column).size(), 1U);
    EXPECT_EQ(ResultsModel::axesInColumn(column).front()->name, "test depth");
    EXPECT_EQ(ResultsModel::axisColumn("chunkBytes"), ResultsModel::ChunkColumn) << "the built-in ones stay";
    EXPECT_EQ(model.headerData(column, Qt::Horizontal).toString(), QStringLiteral("Test depth"));
    EXPECT_EQ(model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString(),
              QStringLiteral("Writes: requests in flight, 1 to 128"));
    EXPECT_EQ(model.data(model.index(1, column)).toString(), QStringLiteral("32"));
    EXPECT_EQ(model.data(model.index(1, column), ResultsModel::SortRole).toString(), QStringLiteral("32"));
    EXPECT_FALSE(model.data(model.index(2, column)).isValid()) << "a case that carries no depth shows none";
    EXPECT_EQ(model.data(model.index(0, column), Qt::TextAlignmentRole).value<Qt::Alignment>(),
              Qt::AlignLeft | Qt::AlignVCenter);

    const int median = ResultsModel::figureColumn(ResultsModel::MedianColumn);
    EXPECT_EQ(median, ResultsModel::MedianColumn + 1);
    EXPECT_EQ(model.headerData(median, Qt::Horizontal).toString(), QStringLiteral("Apparent"));
    EXPECT_EQ(model.data(model.index(0, median), Qt::TextAlignmentRole).value<Qt::Alignment>(),
              Qt::AlignRight | Qt::AlignVCenter);
    const int reason = ResultsModel::figureColumn(ResultsModel::ReasonColumn);
    EXPECT_EQ(reason, model.columnCount() - 1);
    EXPECT_EQ(model.headerData(reason, Qt::Horizontal).toString(), QStringLiteral("Reason"));
    EXPECT_EQ(ResultsModel::figureColumn(ResultsModel::CaseColumn), ResultsModel::CaseColumn);

    // The view places it among the axes after the figures, after the size, and never hides it (its
    // declaration says no case lacks it); it still hides the built-in axes no case wants.
    const std::vector<int> order = ResultsView::defaultColumnOrder();
    ASSERT_EQ(order.size(), static_cast<std::size_t>(model.columnCount()));
    const auto at = [&order](int c) {
        return std::find(order.begin(), order.end(), c) - order.begin();
    };
    EXPECT_EQ(at(column), at(ResultsModel::LatencyColumn) + 1);
    EXPECT_EQ(at(ResultsModel::figureColumn(ResultsModel::CallP50Column)), at(column) + 1);
    const std::vector<int> hidden = ResultsView::hiddenColumns(run.cases, run.refused);
    EXPECT_FALSE(std::binary_search(hidden.begin(), hidden.end(), column));
    EXPECT_TRUE(std::binary_search(hidden.begin(), hidden.end(), int{ResultsModel::BufferColumn}));
    EXPECT_TRUE(std::binary_search(hidden.begin(), hidden.end(), int{ResultsModel::ThreadsColumn}));
    EXPECT_TRUE(std::binary_search(hidden.begin(), hidden.end(),
                                   ResultsModel::figureColumn(ResultsModel::TrimmedMeanColumn)));
    EXPECT_FALSE(std::binary_search(hidden.begin(), hidden.end(), median));
}

// An axis can share the column of another, as the cache state shares the read hint's; sharing one that has
// none is refused.
TEST(DeclaredAxisResults, ASecondAxisCanShareItsColumn)
{
    QueueDepthAxis axis;
    const std::size_t axes = caseAxes().size();
    AxisSpec orphan;
    orphan.name = "orphan";
    orphan.matrixKey = "orphans";
    orphan.resultKey = "orphan";
    orphan.csvColumn = "orphan";
    orphan.appliesTo = [](const StrategyInfo&) {
        return true;
    };
    orphan.column.sharedWith = "noSuchAxis";
    EXPECT_THROW(declareExtraAxis(orphan), std::logic_error);
    EXPECT_EQ(caseAxes().size(), axes) << "the refused declaration is not kept";

    AxisSpec batch = orphan;
    batch.name = "batch";
    batch.matrixKey = "batches";
    batch.resultKey = "batch";
    batch.csvColumn = "batch";
    batch.column.sharedWith = "testDepth";
    declareExtraAxis(batch);
    struct Removed
    {
        ~Removed() { removeExtraAxis("batches"); }
    } removed;
    const int column = ResultsModel::axisColumn("testDepth");
    EXPECT_EQ(ResultsModel::axisColumn("batch"), column);
    ResultsModel model;
    RunResult run;
    CaseResult c;
    c.testCase.strategy = "write";
    c.testCase.extraAxes = {{"depths", "8"}, {"batches", "4"}};
    run.cases.push_back(c);
    model.setResult(run);
    EXPECT_EQ(model.columnCount(), ResultsModel::ColumnCount + 1);
    EXPECT_EQ(model.data(model.index(0, column)).toString(), QStringLiteral("8, 4"));
    EXPECT_EQ(caseTableColumns().back().text(c.testCase), "8, 4") << "the PDF's case table follows";
}

// The view finds the columns it reads by key, wherever the declared axis puts them.
TEST(DeclaredAxisResults, TheViewShowsItAndFindsItsColumnsByKey)
{
    QueueDepthAxis axis;
    ResultsView view;
    RunResult run;
    for (const char* depth : {"1", "32"}) {
        CaseResult c;
        c.index = static_cast<std::uint32_t>(run.cases.size());
        c.testCase.strategy = "write";
        c.testCase.chunkBytes = 4096;
        c.testCase.extraAxes["depths"] = depth;
        c.status = Status::Ok;
        c.apparentMBps.count = 3;
        c.apparentMBps.median = 100.0 * (c.index + 1);
        run.cases.push_back(c);
    }
    view.setResult(run);
    QTableView* table = view.table();
    const int column = ResultsModel::axisColumn("testDepth");
    EXPECT_FALSE(table->isColumnHidden(column));
    EXPECT_EQ(table->horizontalHeader()->visualIndex(column),
              table->horizontalHeader()->visualIndex(ResultsModel::LatencyColumn) + 1);
    EXPECT_TRUE(table->isColumnHidden(ResultsModel::figureColumn(ResultsModel::FilesPerSecondColumn)));
    EXPECT_FALSE(table->isColumnHidden(ResultsModel::figureColumn(ResultsModel::StatusColumn)));
    ASSERT_EQ(view.baselineChooser()->count(), 3) << "the default and each measured case";
    // Named as the charts name it, the declared axis's part included: rows that differ only there read apart.
    EXPECT_EQ(view.baselineChooser()->itemText(2), QStringLiteral("case 2: write 4K depth=32"));
}

// Writes at the given queue depths, all at 4K and one thread, the rate growing with the depth; and a cold
// read, which has none.
RunResult writesAtDepths(std::initializer_list<const char*> depths)
{
    RunResult run;
    for (const char* depth : depths) {
        CaseResult c;
        c.index = static_cast<std::uint32_t>(run.cases.size());
        c.testCase.strategy = "write";
        c.testCase.chunkBytes = 4096;
        c.testCase.totalBytes = 64 << 20;
        c.testCase.extraAxes["depths"] = depth;
        c.status = Status::Ok;
        c.apparentMBps.count = 3;
        c.apparentMBps.median = 100.0 * std::stoi(depth);
        c.durableMBps = c.apparentMBps;
        run.cases.push_back(c);
    }
    CaseResult read = run.cases.front();
    read.index = static_cast<std::uint32_t>(run.cases.size());
    read.testCase.strategy = "read";
    read.testCase.direction = Direction::Read;
    read.testCase.cache = CacheState::Cold;
    read.testCase.extraAxes.clear();
    run.cases.push_back(read);
    return run;
}

QStringList menuItems(const QComboBox* menu)
{
    QStringList out;
    for (int i = 0; i < menu->count(); ++i)
        out << menu->itemText(i);
    return out;
}

// An axis declared through its declaration alone whose values are numbers and vary among a run's cases is
// offered as the heatmap's columns, named and labelled from its declaration; the app names no axis (issue 15
// §1). The built-in axes, which do not vary here, are not offered.
TEST(DeclaredAxisCharts, AVaryingCountAxisIsOfferedAsTheHeatmapsColumns)
{
    QueueDepthAxis axis;
    ResultsView view;
    view.setResult(writesAtDepths({"1", "32", "8"}));
    QComboBox* columns = view.heatmapAxisChooser();
    EXPECT_EQ(menuItems(columns), (QStringList{QStringLiteral("Automatic"), QStringLiteral("Test depth")}))
        << "the chunk size, threads and size do not vary";
    EXPECT_EQ(view.heatmap()->data().axis.key, "chunkBytes") << "automatic: the declared first choice";
    EXPECT_EQ(view.heatmap()->data().columns.size(), 1U);

    columns->setCurrentIndex(1);
    const HeatmapData& heat = view.heatmap()->data();
    EXPECT_EQ(heat.axis.key, "testDepth");
    EXPECT_EQ(heat.axis.name, QStringLiteral("test depth"));
    ASSERT_EQ(heat.columns, (std::vector<report::AxisValue>{1, 8, 32})) << "ascending as numbers";
    EXPECT_EQ(heat.columnLabel(0), QStringLiteral("1"));
    EXPECT_EQ(heat.columnLabel(2), QStringLiteral("32"));
    EXPECT_EQ(heat.axis.words(heat.columns[2]), QStringLiteral("32 test depth"));
    EXPECT_EQ(heat.strategies, QStringList{QStringLiteral("write")}) << "the writes' group: no read";
    ASSERT_TRUE(heat.cells[0][2].bestMBps.has_value());
    EXPECT_DOUBLE_EQ(*heat.cells[0][2].bestMBps, 3200);
    EXPECT_DOUBLE_EQ(*heat.cells[0][1].bestMBps, 800);

    // The reads' group has no depth: its one column says so.
    view.groupChooser()->setCurrentIndex(
        view.groupChooser()->findText(QStringLiteral("reads from a cold cache")));
    ASSERT_EQ(view.heatmap()->data().strategies, QStringList{QStringLiteral("read")});
    ASSERT_EQ(view.heatmap()->data().columns, (std::vector<report::AxisValue>{std::nullopt}));
    EXPECT_EQ(view.heatmap()->data().columnLabel(0), QStringLiteral("n/a"));
    EXPECT_EQ(view.heatmap()->data().axis.words(std::nullopt), QStringLiteral("no test depth"));
}

TEST(DeclaredAxisCharts, AnAxisThatDoesNotVaryIsNotOffered)
{
    QueueDepthAxis axis;
    ResultsView view;
    view.setResult(writesAtDepths({"1", "32"}));
    QComboBox* columns = view.heatmapAxisChooser();
    columns->setCurrentIndex(1);
    ASSERT_EQ(view.heatmap()->data().axis.key, "testDepth");

    RunResult same = writesAtDepths({"8", "8"});
    same.cases.pop_back(); // the read, which has no depth
    view.setResult(same);
    EXPECT_EQ(menuItems(columns), QStringList{QStringLiteral("Automatic")});
    EXPECT_EQ(columns->currentIndex(), 0) << "the choice no longer offered falls back to automatic";
    EXPECT_EQ(view.heatmap()->data().axis.key, "chunkBytes");

    // A built-in one is offered the same way when it varies, after the declared order of the table's columns.
    same.cases[1].testCase.totalBytes = 256 << 20;
    view.setResult(same);
    EXPECT_EQ(menuItems(columns), (QStringList{QStringLiteral("Automatic"), QStringLiteral("Total size")}));
    columns->setCurrentIndex(1);
    EXPECT_EQ(view.heatmap()->data().columnLabel(1), QStringLiteral("256M")) << "a byte count, compact";
    EXPECT_EQ(view.heatmap()->data().axis.words(view.heatmap()->data().columns[1]),
              QStringLiteral("256 MiB total size"));
}

TEST(DeclaredAxisResults, NoColumnWithoutTheDeclaration)
{
    ResultsModel model;
    EXPECT_EQ(model.columnCount(), ResultsModel::ColumnCount);
    EXPECT_EQ(ResultsModel::axisColumn("testDepth"), -1);
    EXPECT_EQ(ResultsModel::figureColumn(ResultsModel::ReasonColumn), ResultsModel::ReasonColumn);
}

// The PDF's text of a golden result whose write cases ran at queue depth 32, with the axis declared.
std::string reportTextWithDepths(TempDir& dir)
{
    std::ifstream in(std::string(IOLAB_SOURCE_DIR) + "/tests/data/golden-result.json", std::ios::binary);
    std::stringstream json;
    json << in.rdbuf();
    RunResult result = resultFromJson(json.str(), "golden-result.json");
    result.matrix.groups[0].extraAxes["depths"] = {"1", "32"};
    for (auto& c : result.cases) {
        if (c.testCase.direction == Direction::Write)
            c.testCase.extraAxes["depths"] = "32";
    }
    const QByteArray pdf =
        report::renderPdfReport(result, {report::PageFormat::A4, {}, Ranking::Durable}, &builtinRegistry());
    const std::string path = dir / "report.pdf";
    std::ofstream(path, std::ios::binary).write(pdf.constData(), pdf.size());
    const auto text = runHostTool("pdftotext", {"-layout", path, "-"});
    EXPECT_EQ(text.exitCode, 0) << text.err;
    return text.out;
}

TEST(DeclaredAxisReport, ThePdfsMatrixNamesItsValues)
{
    QueueDepthAxis axis;
    TempDir dir;
    // "The matrix as run" has a column per axis some group lists: this one's header, its values in the cell.
    const std::string text = reportTextWithDepths(dir);
    const auto matrix = text.find("The matrix as run");
    ASSERT_NE(matrix, std::string::npos);
    EXPECT_THAT(text.substr(matrix), ::testing::ContainsRegex("Test depth"));
    EXPECT_THAT(text.substr(matrix), ::testing::ContainsRegex("1, 32"));
}

// Its declaration gives it a column in the case tables (after the size, as in the results table) and a part
// in the cases' short names (its label part), the way the built-in axes' give theirs.
TEST(DeclaredAxisReport, ThePdfsCaseTablesAndShortNamesShowIt)
{
    {
        QueueDepthAxis axis;
        ASSERT_FALSE(caseTableColumns().empty());
        EXPECT_EQ(caseTableColumns().back().header, "Test depth");
        EXPECT_EQ(axesInShortNameOrder().back()->name, "test depth");
        Case write;
        write.strategy = "write";
        write.chunkBytes = 4096;
        write.threads = 2;
        write.extraAxes["depths"] = "32";
        EXPECT_EQ(report::barVariant(write), QStringLiteral("write x2 depth=32"));
        TempDir dir;
        const std::string text = reportTextWithDepths(dir);
        // std::regex: GoogleTest's own regular expressions on Windows have no bracket expressions.
        EXPECT_TRUE(std::regex_search(text, std::regex("Size +[^\n]*Test +"))) << text;
        EXPECT_TRUE(std::regex_search(text, std::regex("write +4K +- +none +1 +[0-9.]+M +32 "))) << text;
        EXPECT_THAT(text, HasSubstr("write depth=32"));
    }
    EXPECT_NE(caseTableColumns().back().header, "Test depth");
    TempDir dir;
    const std::string text = reportTextWithDepths(dir);
    EXPECT_THAT(text, ::testing::Not(HasSubstr("Queue")));
    EXPECT_THAT(text, ::testing::Not(HasSubstr("depth=32")));
}

} // namespace
